/* The checks and the runner of the C tests (see check.h). */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int failed_checks;  /* in the test being run */
static char context[160];  /* set by check_context, "" for none */

void check_context(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(context, sizeof context, format, arguments);
    va_end(arguments);
}

void check_context_clear(void) {
    context[0] = '\0';
}

/* Reports a failure at `line`, with the context when there is one. */
static void report(int line) {
    if (context[0] != '\0') {
        fprintf(stderr, "    line %d (%s): ", line, context);
    } else {
        fprintf(stderr, "    line %d: ", line);
    }
    failed_checks++;
}

void check_at(bool ok, const char *what, int line) {
    if (!ok) {
        report(line);
        fprintf(stderr, "%s\n", what);
    }
}

void check_status_at(fairsched_status got, fairsched_status want, const char *call, int line) {
    if (got != want) {
        report(line);
        fprintf(stderr, "%s returned %d (%s), expected %d (%s)\n", call, (int)got,
                fairsched_status_message(got), (int)want, fairsched_status_message(want));
    }
}

void *bytes_copy(const void *bytes, size_t len) {
    void *copy = malloc(len);
    if (copy == NULL) {
        abort(); /* nothing to compare without memory */
    }
    memcpy(copy, bytes, len);
    return copy;
}

void check_bytes_kept_at(void *copy, const void *bytes, size_t len, int line) {
    check_at(memcmp(copy, bytes, len) == 0, "memory left byte-identical", line);
    free(copy);
}

bool is_poison(const void *bytes, size_t len) {
    const unsigned char *byte = bytes;
    for (size_t i = 0; i < len; i++) {
        if (byte[i] != POISON) {
            return false;
        }
    }
    return true;
}

void *storage_new(storage_size_fn storage_size, uint32_t capacity, size_t *size) {
    *size = 0;
    CHECK_OK(storage_size(capacity, size));
    void *memory = malloc(*size);
    check_at(memory != NULL, "malloc of the storage size", __LINE__);
    if (memory != NULL) {
        memset(memory, POISON, *size);
    }
    return memory;
}

void *memory_new(size_t size) {
    void *memory = malloc(size);
    if (memory == NULL) {
        abort(); /* nothing to test without memory */
    }
    memset(memory, POISON, size);
    return memory;
}

int run_tests(const test_case *tests, size_t count) {
    int passed = 0, failed = 0;
    for (size_t i = 0; i < count; i++) {
        failed_checks = 0;
        check_context_clear();
        tests[i].run();
        printf("%-4s %s\n", failed_checks == 0 ? "ok" : "FAIL", tests[i].name);
        if (failed_checks == 0) {
            passed++;
        } else {
            failed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

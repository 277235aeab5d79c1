/* The checks and the runner of the C tests (see check.h). */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

static int failed_checks; /* in the test being run */

void check_at(bool ok, const char *what, int line) {
    if (!ok) {
        fprintf(stderr, "    line %d: %s\n", line, what);
        failed_checks++;
    }
}

void check_status_at(fairsched_status got, fairsched_status want, const char *call, int line) {
    if (got != want) {
        fprintf(stderr, "    line %d: %s returned %d (%s), expected %d (%s)\n", line, call,
                (int)got, fairsched_status_message(got), (int)want,
                fairsched_status_message(want));
        failed_checks++;
    }
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

int run_tests(const test_case *tests, size_t count) {
    int passed = 0, failed = 0;
    for (size_t i = 0; i < count; i++) {
        failed_checks = 0;
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

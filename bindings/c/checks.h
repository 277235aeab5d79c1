/*
 * Checks and the runner shared by the C tests (test_*.c, one per algorithm): a test is a
 * function whose failed checks are counted; the runner prints one line per test and a closing
 * "N passed, M failed" line.
 */
#ifndef FAIRSCHED_TEST_CHECKS_H
#define FAIRSCHED_TEST_CHECKS_H

#include "fairsched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Checks ---------------------------------------------------------------------------------- */

static int failed_checks; /* in the test being run */

static void check_at(bool ok, const char *what, int line) {
    if (!ok) {
        fprintf(stderr, "    line %d: %s\n", line, what);
        failed_checks++;
    }
}

static void check_status_at(fairsched_status got, fairsched_status want, const char *call,
                            int line) {
    if (got != want) {
        fprintf(stderr, "    line %d: %s returned %d (%s), expected %d (%s)\n", line, call,
                (int)got, fairsched_status_message(got), (int)want,
                fairsched_status_message(want));
        failed_checks++;
    }
}

#define CHECK(condition) check_at((condition), #condition, __LINE__)
#define CHECK_STATUS(call, status) check_status_at((call), (status), #call, __LINE__)
#define CHECK_OK(call) CHECK_STATUS(call, FAIRSCHED_STATUS_OK)

/* Out-parameters that a call must not write are filled with this byte first. */
enum { POISON = 0xA5 };

static bool is_poison(const void *bytes, size_t len) {
    const unsigned char *byte = bytes;
    for (size_t i = 0; i < len; i++) {
        if (byte[i] != POISON) {
            return false;
        }
    }
    return true;
}

#define POISON_FILL(object) memset(&(object), POISON, sizeof(object))
#define CHECK_UNWRITTEN(object) \
    check_at(is_poison(&(object), sizeof(object)), #object " left unwritten", __LINE__)

/* ---- Runner ---------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    void (*run)(void);
} named_test;

/* Runs every test; returns the process exit status. */
static int run_tests(const named_test *tests, size_t count) {
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

#endif

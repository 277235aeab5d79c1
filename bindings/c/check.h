/*
 * The checks and the runner every test_*.c shares (check.c): a failed check reports its line
 * and fails the test it is in, and the run goes on with the next test.
 */
#ifndef FAIRSCHED_CHECK_H
#define FAIRSCHED_CHECK_H

#include "fairsched.h"

#include <string.h>

/* The number of elements of an array (not of a pointer). */
#define LENGTH(array) (sizeof(array) / sizeof *(array))

/* ---- Checks ---------------------------------------------------------------------------------- */

/* Fails the running test, naming `what` and `line` (and the context, if any), unless `ok`. */
void check_at(bool ok, const char *what, int line);

/* Sets the context a failed check reports after its line, printf-style (e.g. "cfq, misalignment
 * 3"): a test that loops over cases names the case it is at, so that a failure in a shared
 * loop says which case failed. The runner clears it before each test, and so does
 * check_context_clear. */
void check_context(const char *format, ...) __attribute__((format(printf, 1, 2)));
void check_context_clear(void);

/* Fails the running test unless `call` returned `want`. */
void check_status_at(fairsched_status got, fairsched_status want, const char *call, int line);

#define CHECK(condition) check_at((condition), #condition, __LINE__)
#define CHECK_STATUS(call, status) check_status_at((call), (status), #call, __LINE__)
#define CHECK_OK(call) CHECK_STATUS(call, FAIRSCHED_STATUS_OK)

/* ---- Out-parameters a failed call must not write --------------------------------------------- */

/* Out-parameters that a call must not write are filled with this byte first. */
enum { POISON = 0xA5 };

/* Whether every one of the `len` bytes at `bytes` is still POISON. */
bool is_poison(const void *bytes, size_t len);

#define POISON_FILL(object) memset(&(object), POISON, sizeof(object))
#define CHECK_UNWRITTEN(object) \
    check_at(is_poison(&(object), sizeof(object)), #object " left unwritten", __LINE__)

/* ---- Object memory a failed call must leave as it was ---------------------------------------- */

/* A copy of the `len` bytes at `bytes`, taken before a call (abort()s without memory). */
void *bytes_copy(const void *bytes, size_t len);

/* Fails the running test at `line` unless the `len` bytes at `bytes` are still those of `copy`
 * (from bytes_copy), which it frees. */
void check_bytes_kept_at(void *copy, const void *bytes, size_t len, int line);

/* Checks that `call` returns `status` and leaves the `len` bytes at `memory` (an object's
 * memory) byte-identical. */
#define CHECK_KEEPS(memory, len, call, status)                                                    \
    do {                                                                                          \
        void *kept_ = bytes_copy((memory), (len));                                                \
        check_status_at((call), (status), #call, __LINE__);                                       \
        check_bytes_kept_at(kept_, (memory), (len), __LINE__);                                    \
    } while (0)

/* ---- Objects in caller-provided memory ------------------------------------------------------- */

/* The `fairsched_<object>_storage_size` export every stateful object (cfq, drf_queue, hai, paf)
 * has. */
typedef fairsched_status (*storage_size_fn)(uint32_t capacity, size_t *out_size);

/* Heap memory for an object of `capacity` (release with free()): the bytes `storage_size` asks
 * for, written into `*size`, filled with POISON. A failure is a failed check (and NULL). */
void *storage_new(storage_size_fn storage_size, uint32_t capacity, size_t *size);

/* `size` bytes of heap memory filled with POISON (release with free()), for an object whose
 * storage size the caller asked for itself (its size depends on more than the capacity);
 * abort()s without memory. */
void *memory_new(size_t size);

/* ---- Runner ---------------------------------------------------------------------------------- */

typedef struct {
    const char *name;
    void (*run)(void);
} test_case;

/* Runs every test, printing one line each and a "N passed, M failed" line; returns the exit
 * status of the program (EXIT_SUCCESS when none failed). */
int run_tests(const test_case *tests, size_t count);

#endif /* FAIRSCHED_CHECK_H */

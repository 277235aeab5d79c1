/*
 * Tests the C ABI of DRR's predictor (Elasecutor's prediction module, §IV-C): the peak until
 * three runs are recorded, then their mean step by step over the runs that lasted, the oldest
 * run replaced by a fourth; the configuration its storage size checks; then every export with
 * invalid input: each failed call must return the expected status and leave the predictor's
 * memory byte-identical and its outputs unwritten; counting runs and predicting never change
 * the memory. (What every object shares, init included, is in test_lifecycle.c.)
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A predictor in heap memory of exactly its storage size (release with free(b.memory)). */
typedef struct {
    void *memory;
    size_t size;
    fairsched_drr_predictor *predictor;
} built;

static built predictor_new(uint32_t capacity, size_t kinds, uint32_t window, uint32_t steps) {
    built b = {NULL, 0, NULL};
    CHECK_OK(fairsched_drr_predictor_storage_size(capacity, kinds, window, steps, &b.size));
    b.memory = memory_new(b.size);
    CHECK_OK(fairsched_drr_predictor_init(b.memory, b.size, capacity, kinds, window, steps,
                                          &b.predictor));
    return b;
}

/* Whether the prediction for `id` (peak <2, 5> for `steps` steps) is `want` (`len` amounts,
 * bit for bit) from `runs` runs. */
static bool predicts(const fairsched_drr_predictor *p, uint64_t id, uint32_t steps,
                     const double *want, size_t len, uint32_t runs) {
    double series[8];
    fairsched_drr_prediction prediction;
    const double peak[2] = {2, 5};
    if (fairsched_drr_predictor_predict(p, id, peak, 2, steps, series, LENGTH(series),
                                        &prediction) != FAIRSCHED_STATUS_OK) {
        return false;
    }
    return prediction.steps * 2 == len && prediction.runs == runs &&
           memcmp(series, want, len * sizeof *want) == 0;
}

static uint32_t runs_of(const fairsched_drr_predictor *p, uint64_t id) {
    uint32_t runs = 99;
    CHECK_OK(fairsched_drr_predictor_runs(p, id, &runs));
    return runs;
}

static void test_mean_of_the_last_runs(void) {
    built b = predictor_new(4, 2, 3, 4);
    fairsched_drr_predictor *p = b.predictor;
    CHECK(predicts(p, 7, 3, (double[]){2, 5, 2, 5, 2, 5}, 6, 0));
    CHECK_OK(fairsched_drr_predictor_record(p, 7, (double[]){1, 2, 3, 4}, 4));
    CHECK_OK(fairsched_drr_predictor_record(p, 7, (double[]){2, 2, 2, 2, 2, 2}, 6));
    CHECK(runs_of(p, 7) == 2);
    CHECK(predicts(p, 7, 1, (double[]){2, 5}, 2, 0));
    CHECK_OK(fairsched_drr_predictor_record(p, 7, (double[]){3, 5}, 2));
    CHECK(predicts(p, 7, 1, (double[]){2, 3, 2.5, 3, 2, 2}, 6, 3));
    CHECK_OK(fairsched_drr_predictor_record(p, 7, (double[]){6, 6, 6, 6}, 4));
    CHECK(runs_of(p, 7) == 3);
    CHECK(predicts(p, 7, 1, (double[]){11.0 / 3.0, 13.0 / 3.0, 4, 4, 2, 2}, 6, 3));
    CHECK_OK(fairsched_drr_predictor_forget(p, 7));
    CHECK(runs_of(p, 7) == 0);
    CHECK(predicts(p, 7, 2, (double[]){2, 5, 2, 5}, 4, 0));
    free(b.memory);
}

/* The storage size checks its out-parameter, the capacity, then kinds, window and steps. */
static void test_storage_size_configuration(void) {
    size_t size;
    POISON_FILL(size);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(0, 0, 0, 0, NULL),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(0, 0, 0, 0, &size),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(1, 0, 3, 4, &size), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(1, 9, 3, 4, &size),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(1, 2, 0, 4, &size),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(1, 2, 17, 4, &size),
                 FAIRSCHED_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(1, 2, 3, 0, &size), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_drr_predictor_storage_size(1, 2, 3, 257, &size),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    CHECK_UNWRITTEN(size);
    /* capacity * window * steps * kinds amounts: one more run a window, more bytes. */
    size_t three = 0, four = 0;
    CHECK_OK(fairsched_drr_predictor_storage_size(2, 2, 3, 4, &three));
    CHECK_OK(fairsched_drr_predictor_storage_size(2, 2, 4, 4, &four));
    CHECK(four == three + 2 * 4 * 2 * sizeof(double));
}

/* Checks that `call` returns `status` and leaves the predictor's memory byte-identical. */
#define FAILS(call, status) CHECK_KEEPS(b.memory, b.size, call, status)

static void test_bad_calls(void) {
    built b = predictor_new(1, 2, 2, 3);
    fairsched_drr_predictor *p = b.predictor;
    CHECK_OK(fairsched_drr_predictor_record(p, 5, (double[]){1, 2}, 2));
    CHECK_OK(fairsched_drr_predictor_record(p, 5, (double[]){3, 4, 5, 6}, 4));
    const double ok[2] = {1, 1}, eight[8] = {1, 1, 1, 1, 1, 1, 1, 1};

    FAILS(fairsched_drr_predictor_record(NULL, 5, ok, 2), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_record(p, 5, NULL, 2), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_record(p, 5, ok, 1), FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_predictor_record(p, 5, NULL, 0), FAIRSCHED_STATUS_EMPTY);
    FAILS(fairsched_drr_predictor_record(p, 5, eight, 8), FAIRSCHED_STATUS_CAPACITY_FULL);
    FAILS(fairsched_drr_predictor_record(p, 5, (double[]){1, NAN}, 2),
          FAIRSCHED_STATUS_NOT_FINITE);
    FAILS(fairsched_drr_predictor_record(p, 5, (double[]){1, -1}, 2), FAIRSCHED_STATUS_NEGATIVE);
    FAILS(fairsched_drr_predictor_record(p, 6, ok, 2), FAIRSCHED_STATUS_CAPACITY_FULL);
    FAILS(fairsched_drr_predictor_forget(NULL, 5), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_forget(p, 6), FAIRSCHED_STATUS_UNKNOWN_ID);

    uint32_t runs;
    POISON_FILL(runs);
    FAILS(fairsched_drr_predictor_runs(NULL, 5, &runs), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_runs(p, 5, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(runs);

    double series[6];
    fairsched_drr_prediction prediction;
    POISON_FILL(series);
    POISON_FILL(prediction);
    FAILS(fairsched_drr_predictor_predict(NULL, 6, ok, 2, 1, series, 6, &prediction),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_predict(p, 6, NULL, 2, 1, series, 6, &prediction),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_predict(p, 6, ok, 2, 1, NULL, 6, &prediction),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_predict(p, 6, ok, 2, 1, series, 6, NULL),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_predictor_predict(p, 6, ok, 1, 1, series, 6, &prediction),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_predictor_predict(p, 6, (double[]){1, INFINITY}, 2, 1, series, 6,
                                          &prediction),
          FAIRSCHED_STATUS_NOT_FINITE);
    FAILS(fairsched_drr_predictor_predict(p, 6, (double[]){1, -2}, 2, 1, series, 6, &prediction),
          FAIRSCHED_STATUS_NEGATIVE);
    FAILS(fairsched_drr_predictor_predict(p, 6, ok, 2, 0, series, 6, &prediction),
          FAIRSCHED_STATUS_EMPTY);
    FAILS(fairsched_drr_predictor_predict(p, 6, ok, 2, 4, series, 6, &prediction),
          FAIRSCHED_STATUS_CAPACITY_FULL);
    /* Too little room for the mean of 5 (two steps), for a peak of three steps. */
    FAILS(fairsched_drr_predictor_predict(p, 5, ok, 2, 1, series, 3, &prediction),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_predictor_predict(p, 6, ok, 2, 3, series, 5, &prediction),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK_UNWRITTEN(series);
    CHECK_UNWRITTEN(prediction);

    /* Reading succeeds without changing anything. */
    FAILS(fairsched_drr_predictor_runs(p, 5, &runs), FAIRSCHED_STATUS_OK);
    FAILS(fairsched_drr_predictor_predict(p, 5, ok, 2, 1, series, 4, &prediction),
          FAIRSCHED_STATUS_OK);
    CHECK(runs == 2 && prediction.steps == 2 && prediction.runs == 2);
    CHECK(series[0] == 2 && series[1] == 3 && series[2] == 5 && series[3] == 6);
    free(b.memory);
}

static const test_case tests[] = {
    {"mean_of_the_last_runs", test_mean_of_the_last_runs},
    {"storage_size_configuration", test_storage_size_configuration},
    {"bad_calls", test_bad_calls},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

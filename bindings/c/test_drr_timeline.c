/*
 * Tests the C ABI of DRR's machine timeline (Elasecutor's AR(j) kept over time): a hand-built
 * sequence worked out exactly (placing, a misfit, advancing, releasing, reprovisioning, a
 * series ending), a heartbeat placing an application's copies up to the capacity (from the
 * arrays and from executors laid out once), the
 * configuration its storage size checks, then every export with invalid input: each failed
 * call must return the expected status and leave the timeline's memory byte-identical and its
 * out-parameters unwritten; the read-only calls never change the memory. (What every object
 * shares, init included, is in test_lifecycle.c.)
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A timeline in heap memory of exactly its storage size (release with free(t.memory)). */
typedef struct {
    void *memory;
    size_t size;
    fairsched_drr_timeline *timeline;
} built;

static built timeline_new(uint32_t capacity, const double *machine, size_t kinds,
                          uint32_t horizon) {
    built b = {NULL, 0, NULL};
    CHECK_OK(fairsched_drr_timeline_storage_size(capacity, kinds, horizon, &b.size));
    b.memory = memory_new(b.size);
    CHECK_OK(fairsched_drr_timeline_init(b.memory, b.size, capacity, machine, kinds, horizon,
                                         &b.timeline));
    return b;
}

/* Whether the available series is `want` (`len` amounts), bit for bit. */
static bool available_is(const fairsched_drr_timeline *timeline, const double *want, size_t len) {
    double got[16];
    if (len > LENGTH(got) ||
        fairsched_drr_timeline_available(timeline, got, len) != FAIRSCHED_STATUS_OK) {
        return false;
    }
    return memcmp(got, want, len * sizeof *want) == 0;
}

static fairsched_drr_timeline_stats stats_of(const fairsched_drr_timeline *timeline) {
    fairsched_drr_timeline_stats stats;
    memset(&stats, 0, sizeof stats);
    CHECK_OK(fairsched_drr_timeline_stats_get(timeline, &stats));
    return stats;
}

static const double MACHINE[2] = {4, 8};

static void test_sequence(void) {
    built b = timeline_new(4, MACHINE, 2, 4);
    fairsched_drr_timeline *t = b.timeline;
    const double all[8] = {4, 8, 4, 8, 4, 8, 4, 8};
    CHECK(available_is(t, all, 8));
    fairsched_drr_timeline_stats stats = stats_of(t);
    CHECK(stats.now == 0 && stats.next_id == 1 && stats.running == 0 && stats.capacity == 4);
    CHECK(stats.horizon == 4 && stats.t_run == 4 && stats.kinds == 2);
    CHECK(stats.drr == 1.0 && stats.trc == 2.0);

    /* Executor 1: all the CPU and half the memory for two steps; executor 2 then misfits. */
    uint64_t id = 0;
    CHECK_OK(fairsched_drr_timeline_place(t, (double[]){4, 4, 4, 4}, 4, &id));
    CHECK(id == 1);
    const double two[8] = {1, 0, 1, 0, 1, 0, 1, 0};
    CHECK_STATUS(fairsched_drr_timeline_place(t, two, 8, &id), FAIRSCHED_STATUS_DOES_NOT_FIT);
    size_t finished = 99;
    CHECK_OK(fairsched_drr_timeline_advance(t, 1, &finished));
    CHECK(finished == 0);
    CHECK(available_is(t, (double[]){0, 4, 4, 8, 4, 8, 4, 8}, 8));
    stats = stats_of(t);
    CHECK(stats.t_run == 1 && stats.drr == 0.5 && stats.trc == 0.5);

    /* Released early, its last step comes back; executor 2 fits. */
    CHECK_OK(fairsched_drr_timeline_release(t, 1));
    CHECK(available_is(t, all, 8));
    CHECK_OK(fairsched_drr_timeline_place(t, two, 8, &id));
    CHECK(id == 2);
    CHECK_OK(fairsched_drr_timeline_advance(t, 1, &finished));
    /* Twice the predicted CPU observed: its remaining three steps double. */
    CHECK_OK(fairsched_drr_timeline_reprovision(t, 2, (double[]){2, 0}, 2, (double[]){1, 0}, 2));
    CHECK(available_is(t, (double[]){2, 8, 2, 8, 2, 8, 4, 8}, 8));
    CHECK_STATUS(
        fairsched_drr_timeline_reprovision(t, 2, (double[]){5, 0}, 2, (double[]){1, 0}, 2),
        FAIRSCHED_STATUS_DOES_NOT_FIT);
    /* Its series ends at step 5: it finishes as predicted. */
    CHECK_OK(fairsched_drr_timeline_advance(t, 3, &finished));
    CHECK(finished == 1);
    CHECK(available_is(t, all, 8));
    stats = stats_of(t);
    CHECK(stats.now == 5 && stats.next_id == 3 && stats.running == 0 && stats.t_run == 4);
    CHECK_STATUS(fairsched_drr_timeline_release(t, 2), FAIRSCHED_STATUS_UNKNOWN_ID);
    free(b.memory);
}

/* An application of four executors <2, 2> and one executor <3, 3, 3> on a machine of 10 over
 * three steps, room for 3: the other first (7/10 < 4/5), then two copies. */
static const double COPIES_DEMANDS[5] = {2, 2, 3, 3, 3};
static const uint32_t COPIES_STEPS[2] = {2, 3}, COPIES_COUNTS[2] = {4, 1};

/* The heartbeat of the copies on `t`: from the arrays, or from `laid` when not NULL. */
static fairsched_status heartbeat_copies(fairsched_drr_timeline *t,
                                         const fairsched_drr_executors *laid, uint32_t metric,
                                         uint32_t *placements, size_t placements_len,
                                         fairsched_drr_timeline_heartbeat_result *beat) {
    if (laid == NULL) {
        return fairsched_drr_timeline_heartbeat(t, COPIES_DEMANDS, 5, COPIES_STEPS, 2,
                                                COPIES_COUNTS, 2, metric, placements,
                                                placements_len, beat);
    }
    return fairsched_drr_timeline_heartbeat_executors(t, laid, COPIES_COUNTS, 2, metric,
                                                      placements, placements_len, beat);
}

/* Also over the executors laid out once (fairsched_drr_executors_init): the same heartbeats. */
static void test_heartbeat_copies(void) {
    size_t size;
    CHECK_OK(fairsched_drr_executors_storage_size(5, 2, &size));
    void *memory = memory_new(size);
    fairsched_drr_executors *laid;
    CHECK_OK(fairsched_drr_executors_init(memory, size, COPIES_DEMANDS, 5, COPIES_STEPS, 2, 1,
                                          &laid));
    for (int over_laid = 0; over_laid < 2; over_laid++) {
        check_context(over_laid ? "laid out" : "arrays");
        const fairsched_drr_executors *pending = over_laid ? laid : NULL;
        built b = timeline_new(3, (double[]){10}, 1, 3);
        uint32_t placements[8];
        fairsched_drr_timeline_heartbeat_result beat;
        CHECK_OK(heartbeat_copies(b.timeline, pending, FAIRSCHED_DRR_METRIC_DRR, placements,
                                  LENGTH(placements), &beat));
        CHECK(beat.placed == 3 && beat.first_id == 1 && beat.t_run == 2 && beat.drr == 0.3);
        CHECK(placements[0] == 1 && placements[1] == 0 && placements[2] == 0);
        CHECK(available_is(b.timeline, (double[]){3, 3, 7}, 3));
        /* Full: nothing more, and no error. */
        CHECK_OK(heartbeat_copies(b.timeline, pending, FAIRSCHED_DRR_METRIC_TRC, placements,
                                  LENGTH(placements), &beat));
        CHECK(beat.placed == 0 && beat.first_id == 4);
        free(b.memory);
    }
    check_context_clear();
    free(memory);
}

/* The storage size checks its out-parameter, then the capacity, then kinds and horizon. */
static void test_storage_size_configuration(void) {
    size_t size;
    POISON_FILL(size);
    CHECK_STATUS(fairsched_drr_timeline_storage_size(0, 0, 0, NULL),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_drr_timeline_storage_size(0, 0, 0, &size),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_drr_timeline_storage_size(1, 0, 4, &size), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_drr_timeline_storage_size(1, 9, 4, &size),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    CHECK_STATUS(fairsched_drr_timeline_storage_size(1, 2, 0, &size), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_drr_timeline_storage_size(1, 2, 257, &size),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    CHECK_UNWRITTEN(size);
    /* (capacity + 1) * horizon * kinds amounts: more steps, more bytes. */
    size_t four = 0, eight = 0;
    CHECK_OK(fairsched_drr_timeline_storage_size(2, 2, 4, &four));
    CHECK_OK(fairsched_drr_timeline_storage_size(2, 2, 8, &eight));
    CHECK(eight == four + 3 * 4 * 2 * sizeof(double));
}

/* Checks that `call` returns `status` and leaves the timeline's memory byte-identical. */
#define FAILS(call, status) CHECK_KEEPS(b.memory, b.size, call, status)

static void test_bad_calls(void) {
    built b = timeline_new(2, MACHINE, 2, 3);
    fairsched_drr_timeline *t = b.timeline;
    uint64_t id = 0;
    CHECK_OK(fairsched_drr_timeline_place(t, (double[]){1, 2, 1, 2}, 4, &id));
    size_t finished;
    CHECK_OK(fairsched_drr_timeline_advance(t, 1, &finished));

    POISON_FILL(finished);
    FAILS(fairsched_drr_timeline_advance(NULL, 1, &finished), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_advance(t, 1, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_advance(t, UINT64_MAX, &finished),
          FAIRSCHED_STATUS_OUT_OF_RANGE);
    CHECK_UNWRITTEN(finished);

    const double ok[2] = {1, 1}, eight[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    POISON_FILL(id);
    FAILS(fairsched_drr_timeline_place(NULL, ok, 2, &id), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_place(t, NULL, 2, &id), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_place(t, ok, 2, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_place(t, ok, 1, &id), FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_timeline_place(t, NULL, 0, &id), FAIRSCHED_STATUS_EMPTY);
    FAILS(fairsched_drr_timeline_place(t, (double[]){NAN, 1}, 2, &id),
          FAIRSCHED_STATUS_NOT_FINITE);
    FAILS(fairsched_drr_timeline_place(t, (double[]){-1, 1}, 2, &id), FAIRSCHED_STATUS_NEGATIVE);
    FAILS(fairsched_drr_timeline_place(t, eight, 8, &id), FAIRSCHED_STATUS_OUT_OF_RANGE);
    FAILS(fairsched_drr_timeline_place(t, (double[]){4, 1}, 2, &id),
          FAIRSCHED_STATUS_DOES_NOT_FIT);
    CHECK_UNWRITTEN(id);

    FAILS(fairsched_drr_timeline_release(NULL, 1), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_release(t, 0), FAIRSCHED_STATUS_UNKNOWN_ID);
    FAILS(fairsched_drr_timeline_release(t, 2), FAIRSCHED_STATUS_UNKNOWN_ID);

    FAILS(fairsched_drr_timeline_reprovision(NULL, 1, ok, 2, ok, 2),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_reprovision(t, 1, NULL, 2, ok, 2),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_reprovision(t, 1, ok, 1, ok, 2),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_timeline_reprovision(t, 1, ok, 2, (double[]){-1, 1}, 2),
          FAIRSCHED_STATUS_NEGATIVE);
    FAILS(fairsched_drr_timeline_reprovision(t, 1, (double[]){INFINITY, 1}, 2, ok, 2),
          FAIRSCHED_STATUS_NOT_FINITE);
    FAILS(fairsched_drr_timeline_reprovision(t, 9, ok, 2, ok, 2), FAIRSCHED_STATUS_UNKNOWN_ID);
    FAILS(fairsched_drr_timeline_reprovision(t, 1, (double[]){1e308, 1}, 2,
                                             (double[]){1e-308, 1}, 2),
          FAIRSCHED_STATUS_OUT_OF_RANGE);
    FAILS(fairsched_drr_timeline_reprovision(t, 1, (double[]){5, 1}, 2, ok, 2),
          FAIRSCHED_STATUS_DOES_NOT_FIT);

    const uint32_t one[1] = {1}, four[1] = {4};
    uint32_t placements[2];
    fairsched_drr_timeline_heartbeat_result beat;
    POISON_FILL(placements);
    POISON_FILL(beat);
    const uint32_t drr = FAIRSCHED_DRR_METRIC_DRR;
    FAILS(fairsched_drr_timeline_heartbeat(NULL, ok, 2, one, 1, one, 1, drr, placements, 2, &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat(t, NULL, 2, one, 1, one, 1, drr, placements, 2, &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat(t, ok, 2, one, 1, NULL, 1, drr, placements, 2, &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat(t, ok, 2, one, 1, one, 1, drr, NULL, 2, &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat(t, ok, 2, one, 1, one, 1, drr, placements, 2, NULL),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat(t, ok, 2, one, 1, one, 1, 3, placements, 2, &beat),
          FAIRSCHED_STATUS_OUT_OF_RANGE);
    FAILS(fairsched_drr_timeline_heartbeat(t, ok, 2, one, 1, one, 0, drr, placements, 2, &beat),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_timeline_heartbeat(t, ok, 1, one, 1, one, 1, drr, placements, 2, &beat),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(
        fairsched_drr_timeline_heartbeat(t, eight, 8, four, 1, one, 1, drr, placements, 2, &beat),
        FAIRSCHED_STATUS_OUT_OF_RANGE);
    /* Over laid-out executors: the handles, the counts, the outputs, the machine's kinds and
     * horizon. */
    size_t size;
    CHECK_OK(fairsched_drr_executors_storage_size(8, 2, &size));
    unsigned char *memory = memory_new(3 * size);
    fairsched_drr_executors *fitting, *one_kind, *too_long;
    CHECK_OK(fairsched_drr_executors_init(memory, size, ok, 2, one, 1, 2, &fitting));
    CHECK_OK(fairsched_drr_executors_init(memory + size, size, ok, 1, one, 1, 1, &one_kind));
    CHECK_OK(fairsched_drr_executors_init(memory + 2 * size, size, eight, 8, four, 1, 2,
                                          &too_long));
    FAILS(fairsched_drr_timeline_heartbeat_executors(NULL, fitting, one, 1, drr, placements, 2,
                                                     &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, NULL, one, 1, drr, placements, 2, &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, fitting, NULL, 1, drr, placements, 2,
                                                     &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, fitting, one, 1, drr, NULL, 2, &beat),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, fitting, one, 1, drr, placements, 2, NULL),
          FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, fitting, one, 1, 3, placements, 2, &beat),
          FAIRSCHED_STATUS_OUT_OF_RANGE);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, fitting, one, 0, drr, placements, 2,
                                                     &beat),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, one_kind, one, 1, drr, placements, 2,
                                                     &beat),
          FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_timeline_heartbeat_executors(t, too_long, one, 1, drr, placements, 2,
                                                     &beat),
          FAIRSCHED_STATUS_OUT_OF_RANGE);
    free(memory);
    CHECK_UNWRITTEN(placements);
    CHECK_UNWRITTEN(beat);

    fairsched_drr_timeline_stats stats;
    double available[6];
    POISON_FILL(stats);
    POISON_FILL(available);
    FAILS(fairsched_drr_timeline_stats_get(NULL, &stats), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_stats_get(t, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_available(NULL, available, 6), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_available(t, NULL, 6), FAIRSCHED_STATUS_NULL_POINTER);
    FAILS(fairsched_drr_timeline_available(t, available, 5), FAIRSCHED_STATUS_LENGTH_MISMATCH);
    FAILS(fairsched_drr_timeline_available(t, available, 7), FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK_UNWRITTEN(stats);
    CHECK_UNWRITTEN(available);
    /* Reading succeeds without changing anything. */
    FAILS(fairsched_drr_timeline_stats_get(t, &stats), FAIRSCHED_STATUS_OK);
    FAILS(fairsched_drr_timeline_available(t, available, 6), FAIRSCHED_STATUS_OK);
    CHECK(stats.running == 1 && stats.t_run == 1 && available[0] == 3 && available[1] == 6);
    free(b.memory);
}

static const test_case tests[] = {
    {"sequence", test_sequence},
    {"heartbeat_copies", test_heartbeat_copies},
    {"storage_size_configuration", test_storage_size_configuration},
    {"bad_calls", test_bad_calls},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

/*
 * Tests the C ABI of CFQ: the paper's example (Fig. 2 and 3) with exact completion times,
 * re-profiling and the naive profiler, then every export with invalid input. A failed call must return the expected status, leave the
 * scheduler's stats byte-identical and leave its out-parameters unwritten. Building a
 * scheduler (storage_size, init, its configuration) is tested with the other objects' in
 * test_lifecycle.c.
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Schedulers ------------------------------------------------------------------------------ */

/* A scheduler and the heap block it lives in (release with free(memory)). */
typedef struct {
    void *memory;
    fairsched_cfq *cfq;
} scheduler;

static scheduler scheduler_new(uint32_t capacity, uint32_t slots, double start_time) {
    size_t size;
    scheduler s = {storage_new(fairsched_cfq_storage_size, capacity, &size), NULL};
    CHECK_OK(fairsched_cfq_init(s.memory, size, capacity, slots, start_time, &s.cfq));
    return s;
}

static fairsched_cfq_stats stats_of(const fairsched_cfq *cfq) {
    fairsched_cfq_stats stats;
    memset(&stats, 0, sizeof stats);
    CHECK_OK(fairsched_cfq_stats_get(cfq, &stats));
    return stats;
}

static fairsched_cfq_job_info job_of(const fairsched_cfq *cfq, uint64_t id) {
    fairsched_cfq_job_info info;
    memset(&info, 0, sizeof info);
    CHECK_OK(fairsched_cfq_job_get(cfq, id, &info));
    return info;
}

/* Checks that `call` returns `status` and leaves the stats of `cfq` byte-identical. */
#define CHECK_FAILS(cfq, status, call)                                                         \
    do {                                                                                        \
        const fairsched_cfq_stats before_call = stats_of(cfq);                                  \
        check_status_at((call), (status), #call, __LINE__);                                     \
        const fairsched_cfq_stats after_call = stats_of(cfq);                                   \
        check_at(memcmp(&before_call, &after_call, sizeof before_call) == 0,                    \
                 "stats unchanged by " #call, __LINE__);                                        \
    } while (0)

/* The scheduler the error tests run against: capacity 3, two slots, clock at 11; job 1 running
 * with 2 pending tasks, job 2 completed at 11, one free row. */
enum { RUNNING_JOB = 1, COMPLETED_JOB = 2, UNKNOWN_JOB = 3 };

static scheduler fixture(void) {
    scheduler s = scheduler_new(3, 2, 10.0);
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 10.0, RUNNING_JOB, 5.0, 1));
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, RUNNING_JOB, 2));
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 10.0, COMPLETED_JOB, 4.0, 2));
    CHECK_OK(fairsched_cfq_complete(s.cfq, 11.0, COMPLETED_JOB));
    return s;
}

/* ---- The paper's example ----------------------------------------------------------------------- */

enum { PAPER_SLOTS = 3 };

/* Offers `n` (<= PAPER_SLOTS) slots: were exactly `want[0..n)` handed out, in order? */
static bool offers(fairsched_cfq *cfq, size_t n, const uint64_t *want) {
    uint64_t ids[PAPER_SLOTS];
    size_t assigned = 0;
    return fairsched_cfq_offer(cfq, ids, n, &assigned) == FAIRSCHED_STATUS_OK && assigned == n &&
           memcmp(ids, want, n * sizeof *ids) == 0;
}

/* t = 0 of the paper's example: jobs 1 (one task, profiled at `job1_slot_time`; 9 s in truth)
 * and 2 (four tasks, 16 s in all) arrive with their tasks pending. */
static scheduler paper_start(double job1_slot_time) {
    scheduler s = scheduler_new(8, PAPER_SLOTS, 0.0);
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 0.0, 1, job1_slot_time, 1));
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 0.0, 2, 16.0, 1));
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, 1, 1));
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, 2, 4));
    return s;
}

static void test_paper_example(void) {
    /* t = 0: jobs 1 and 2 arrive and fill the three slots. */
    scheduler s = paper_start(9.0);
    CHECK(job_of(s.cfq, 1).virtual_finish == 9.0);
    CHECK(job_of(s.cfq, 2).virtual_finish == 16.0);
    CHECK(offers(s.cfq, 3, (const uint64_t[]){1, 2, 2}));

    /* t = 4: job 3 (two tasks) arrives and takes the two slots that free. */
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 4.0, 3, 8.0, 1));
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, 3, 2));
    CHECK(job_of(s.cfq, 3).virtual_finish == 14.0);
    CHECK(offers(s.cfq, 2, (const uint64_t[]){3, 3}));

    /* t = 8: job 3 completes; GPS completed job 1 at 7. */
    CHECK_OK(fairsched_cfq_complete(s.cfq, 8.0, 3));
    const fairsched_cfq_job_info job1 = job_of(s.cfq, 1);
    CHECK(job1.gps_completion == 7.0 && !job1.gps_active);
    double estimate = 0.0;
    CHECK_OK(fairsched_cfq_gps_completion_estimate(s.cfq, 3, &estimate));
    CHECK(estimate == 31.0 / 3.0);
    CHECK(offers(s.cfq, 2, (const uint64_t[]){2, 2}));
    CHECK_OK(fairsched_cfq_complete(s.cfq, 9.0, 1));
    CHECK_OK(fairsched_cfq_complete(s.cfq, 12.0, 2));

    /* Each job's real (CFQ) and GPS completion, exactly. */
    const struct {
        uint64_t id;
        double completion, gps_completion;
    } want[] = {{1, 9.0, 7.0}, {2, 12.0, 11.0}, {3, 8.0, 10.333333333333334}};
    for (size_t i = 0; i < LENGTH(want); i++) {
        const fairsched_cfq_job_info job = job_of(s.cfq, want[i].id);
        CHECK(job.completed && job.completion == want[i].completion);
        CHECK(!job.gps_active && job.gps_completion == want[i].gps_completion);
    }
    free(s.memory);
}

/* ---- Invalid input, export by export ------------------------------------------------------------ */

static void test_null_pointers(void) {
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    scheduler s = fixture();
    const uint64_t ids[] = {RUNNING_JOB};
    const uint32_t pending[] = {1};
    uint64_t out_ids[1], id;
    size_t assigned;
    bool found;
    double time;
    fairsched_cfq_job_info info;
    fairsched_cfq_stats stats;
    POISON_FILL(out_ids);
    POISON_FILL(id);
    POISON_FILL(assigned);
    POISON_FILL(found);
    POISON_FILL(time);
    POISON_FILL(info);
    POISON_FILL(stats);

    CHECK_FAILS(s.cfq, null, fairsched_cfq_advance(NULL, 12.0));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_set_slots(NULL, 12.0, 1));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_arrive(NULL, 12.0, UNKNOWN_JOB, 1.0, 1));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_set_pending(NULL, RUNNING_JOB, 1));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_set_pending_batch(NULL, ids, 1, pending, 1));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_set_pending_batch(s.cfq, NULL, 1, pending, 1));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_set_pending_batch(s.cfq, ids, 1, NULL, 1));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_offer(NULL, out_ids, 1, &assigned));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_offer(s.cfq, NULL, 1, &assigned));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_offer(s.cfq, out_ids, 1, NULL));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_peek(NULL, &id, &found));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_peek(s.cfq, NULL, &found));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_peek(s.cfq, &id, NULL));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_complete(NULL, 12.0, RUNNING_JOB));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_remove(NULL, 12.0, RUNNING_JOB));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_job_get(NULL, RUNNING_JOB, &info));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_job_get(s.cfq, RUNNING_JOB, NULL));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_gps_completion_estimate(NULL, RUNNING_JOB, &time));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_gps_completion_estimate(s.cfq, RUNNING_JOB, NULL));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_stats_get(NULL, &stats));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_stats_get(s.cfq, NULL));
    CHECK_FAILS(s.cfq, null, fairsched_cfq_reprofile(NULL, 12.0, RUNNING_JOB, 1.0));

    CHECK_UNWRITTEN(out_ids);
    CHECK_UNWRITTEN(id);
    CHECK_UNWRITTEN(assigned);
    CHECK_UNWRITTEN(found);
    CHECK_UNWRITTEN(time);
    CHECK_UNWRITTEN(info);
    CHECK_UNWRITTEN(stats);
    free(s.memory);
}

/* Every export that takes a time rejects the same bad times the same way. */
static void test_bad_times(void) {
    const struct {
        double now;
        fairsched_status status;
    } cases[] = {
        {NAN, FAIRSCHED_STATUS_NOT_FINITE},
        {INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
        {-INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
        {10.5, FAIRSCHED_STATUS_TIME_WENT_BACKWARDS},
        {0x1p61, FAIRSCHED_STATUS_OUT_OF_RANGE},
    };
    scheduler s = fixture();
    for (size_t i = 0; i < LENGTH(cases); i++) {
        const double now = cases[i].now;
        const fairsched_status status = cases[i].status;
        CHECK_FAILS(s.cfq, status, fairsched_cfq_advance(s.cfq, now));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_set_slots(s.cfq, now, 3));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_arrive(s.cfq, now, UNKNOWN_JOB, 1.0, 1));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_complete(s.cfq, now, RUNNING_JOB));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_remove(s.cfq, now, RUNNING_JOB));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_reprofile(s.cfq, now, RUNNING_JOB, 1.0));
    }
    free(s.memory);
}

static void test_bad_numbers(void) {
    scheduler s = fixture();
    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_NOT_POSITIVE, fairsched_cfq_set_slots(s.cfq, 12.0, 0));
    const struct {
        double slot_time;
        uint32_t weight;
        fairsched_status status;
    } arrivals[] = {
        {NAN, 1, FAIRSCHED_STATUS_NOT_FINITE},
        {INFINITY, 1, FAIRSCHED_STATUS_NOT_FINITE},
        {-INFINITY, 1, FAIRSCHED_STATUS_NOT_FINITE},
        {0.0, 1, FAIRSCHED_STATUS_NOT_POSITIVE},
        {-0.0, 1, FAIRSCHED_STATUS_NOT_POSITIVE},
        {-1.0, 1, FAIRSCHED_STATUS_NOT_POSITIVE},
        {0x1p61, 1, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {1.0, 0, FAIRSCHED_STATUS_NOT_POSITIVE},
    };
    for (size_t i = 0; i < LENGTH(arrivals); i++) {
        CHECK_FAILS(s.cfq, arrivals[i].status,
                    fairsched_cfq_arrive(s.cfq, 12.0, UNKNOWN_JOB, arrivals[i].slot_time,
                                         arrivals[i].weight));
        /* A re-profile checks the slot-time as an arrival does (weights are not its). */
        if (arrivals[i].weight != 0) {
            CHECK_FAILS(s.cfq, arrivals[i].status,
                        fairsched_cfq_reprofile(s.cfq, 12.0, RUNNING_JOB, arrivals[i].slot_time));
        }
    }
    free(s.memory);
}

static void test_bad_ids(void) {
    const fairsched_status unknown = FAIRSCHED_STATUS_UNKNOWN_ID;
    const fairsched_status completed = FAIRSCHED_STATUS_JOB_COMPLETED;
    scheduler s = fixture();
    double time;
    fairsched_cfq_job_info info;
    POISON_FILL(time);
    POISON_FILL(info);

    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_DUPLICATE_ID,
                fairsched_cfq_arrive(s.cfq, 12.0, RUNNING_JOB, 1.0, 1));
    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_DUPLICATE_ID,
                fairsched_cfq_arrive(s.cfq, 12.0, COMPLETED_JOB, 1.0, 1));
    CHECK_FAILS(s.cfq, unknown, fairsched_cfq_set_pending(s.cfq, UNKNOWN_JOB, 1));
    CHECK_FAILS(s.cfq, completed, fairsched_cfq_set_pending(s.cfq, COMPLETED_JOB, 1));
    CHECK_FAILS(s.cfq, unknown, fairsched_cfq_complete(s.cfq, 12.0, UNKNOWN_JOB));
    CHECK_FAILS(s.cfq, completed, fairsched_cfq_complete(s.cfq, 12.0, COMPLETED_JOB));
    CHECK_FAILS(s.cfq, unknown, fairsched_cfq_remove(s.cfq, 12.0, UNKNOWN_JOB));
    CHECK_FAILS(s.cfq, unknown, fairsched_cfq_job_get(s.cfq, UNKNOWN_JOB, &info));
    CHECK_FAILS(s.cfq, unknown, fairsched_cfq_gps_completion_estimate(s.cfq, UNKNOWN_JOB, &time));
    CHECK_FAILS(s.cfq, unknown, fairsched_cfq_reprofile(s.cfq, 12.0, UNKNOWN_JOB, 1.0));
    CHECK_FAILS(s.cfq, completed, fairsched_cfq_reprofile(s.cfq, 12.0, COMPLETED_JOB, 1.0));
    CHECK_UNWRITTEN(time);
    CHECK_UNWRITTEN(info);
    free(s.memory);
}

/* A batch is checked whole before any of it applies. */
static void test_batch_all_or_nothing(void) {
    scheduler s = fixture();
    const uint32_t pending[] = {7, 7};
    const uint64_t with_unknown[] = {RUNNING_JOB, UNKNOWN_JOB};
    const uint64_t with_completed[] = {RUNNING_JOB, COMPLETED_JOB};
    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_UNKNOWN_ID,
                fairsched_cfq_set_pending_batch(s.cfq, with_unknown, 2, pending, 2));
    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_JOB_COMPLETED,
                fairsched_cfq_set_pending_batch(s.cfq, with_completed, 2, pending, 2));
    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_LENGTH_MISMATCH,
                fairsched_cfq_set_pending_batch(s.cfq, with_unknown, 1, pending, 2));
    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_LENGTH_MISMATCH,
                fairsched_cfq_set_pending_batch(s.cfq, NULL, 0, pending, 1));
    CHECK(job_of(s.cfq, RUNNING_JOB).pending_tasks == 2);
    free(s.memory);
}

/* Calls with nothing to do succeed and change nothing. */
static void test_empty_calls(void) {
    scheduler s = fixture();
    const fairsched_cfq_stats before = stats_of(s.cfq);
    size_t assigned;
    POISON_FILL(assigned);
    CHECK_OK(fairsched_cfq_offer(s.cfq, NULL, 0, &assigned));
    CHECK(assigned == 0);
    CHECK_OK(fairsched_cfq_set_pending_batch(s.cfq, NULL, 0, NULL, 0));
    const fairsched_cfq_stats after = stats_of(s.cfq);
    CHECK(memcmp(&before, &after, sizeof before) == 0);

    /* An empty backlog: peek finds nothing and leaves the id unwritten. */
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, RUNNING_JOB, 0));
    uint64_t id;
    bool found = true;
    POISON_FILL(id);
    CHECK_OK(fairsched_cfq_peek(s.cfq, &id, &found));
    CHECK(!found);
    CHECK_UNWRITTEN(id);
    free(s.memory);
}

/* ---- Re-profiling ------------------------------------------------------------------------------ */

/* The paper's example with job 1 profiled at 20 s, then corrected to its 9 s at once: from then
 * on, exactly the paper's schedule and GPS completions. */
static void test_reprofile_at_arrival(void) {
    scheduler s = paper_start(20.0);
    CHECK_OK(fairsched_cfq_reprofile(s.cfq, 0.0, 1, 9.0));
    const fairsched_cfq_job_info job1 = job_of(s.cfq, 1);
    CHECK(job1.slot_time == 9.0 && job1.virtual_finish == 9.0 && job1.gps_active);
    CHECK(offers(s.cfq, 3, (const uint64_t[]){1, 2, 2}));
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 4.0, 3, 8.0, 1));
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, 3, 2));
    CHECK(offers(s.cfq, 2, (const uint64_t[]){3, 3}));
    CHECK_OK(fairsched_cfq_advance(s.cfq, 12.0));
    CHECK(job_of(s.cfq, 1).gps_completion == 7.0);
    CHECK(job_of(s.cfq, 2).gps_completion == 11.0);
    CHECK(job_of(s.cfq, 3).gps_completion == 10.333333333333334);
    free(s.memory);
}

/* A correction below V(now) ends the job in GPS at now; once out of GPS, a correction only moves
 * its backlog key, to F + (L' - L) / w, and its GPS completion stands. */
static void test_reprofile_leaves_gps(void) {
    scheduler s = scheduler_new(4, 1, 0.0);
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 0.0, 1, 10.0, 1));
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 0.0, 2, 10.0, 1));
    CHECK_OK(fairsched_cfq_reprofile(s.cfq, 4.0, 1, 1.0)); /* V(4) = 2 >= F' = 1 */
    const fairsched_cfq_job_info job1 = job_of(s.cfq, 1);
    CHECK(!job1.gps_active && job1.gps_completion == 4.0 && job1.virtual_finish == 1.0);
    const fairsched_cfq_stats stats = stats_of(s.cfq);
    CHECK(stats.now == 4.0 && stats.virtual_time == 2.0 && stats.gps_active == 1);
    double estimate = 0.0;
    CHECK_OK(fairsched_cfq_gps_completion_estimate(s.cfq, 2, &estimate));
    CHECK(estimate == 12.0);
    CHECK_OK(fairsched_cfq_reprofile(s.cfq, 5.0, 1, 9.0));
    const fairsched_cfq_job_info again = job_of(s.cfq, 1);
    CHECK(!again.gps_active && again.gps_completion == 4.0 && again.virtual_finish == 9.0);
    CHECK(stats_of(s.cfq).gps_active == 1);
    free(s.memory);
}

/* ---- The naive profiler -------------------------------------------------------------------------- */

/* Checks that `call` returns `status` and leaves the profiler at `p` byte-identical. */
#define CHECK_PROFILER_FAILS(p, status, call)                                                  \
    do {                                                                                        \
        const fairsched_cfq_profiler before_call = *(p);                                        \
        check_status_at((call), (status), #call, __LINE__);                                     \
        check_at(memcmp(&before_call, (p), sizeof before_call) == 0,                            \
                 "profiler unchanged by " #call, __LINE__);                                     \
    } while (0)

static void test_profiler(void) {
    fairsched_cfq_profiler p;
    POISON_FILL(p);
    CHECK_OK(fairsched_cfq_profiler_init(&p));
    CHECK(p.count == 0 && p.sum == 0.0 && p.sum_low == 0.0);
    fairsched_cfq_profiler zero;
    memset(&zero, 0, sizeof zero);
    CHECK(memcmp(&p, &zero, sizeof p) == 0); /* all zeros is the empty profiler */

    double estimate;
    POISON_FILL(estimate);
    CHECK_PROFILER_FAILS(&p, FAIRSCHED_STATUS_EMPTY, fairsched_cfq_profiler_estimate(&p, 3, &estimate));
    CHECK_OK(fairsched_cfq_profiler_observe_batch(&p, NULL, 0));
    CHECK_OK(fairsched_cfq_profiler_observe(&p, 0.1));
    CHECK_OK(fairsched_cfq_profiler_observe_batch(&p, (const double[]){0.2, 0.3}, 2));
    CHECK(p.count == 3);
    CHECK_OK(fairsched_cfq_profiler_estimate(&p, 1, &estimate));
    CHECK(estimate == 0.2); /* the exact mean; (0.1 + 0.2 + 0.3) / 3 is 0.20000000000000004 */
    CHECK_OK(fairsched_cfq_profiler_estimate(&p, 10, &estimate));
    CHECK(estimate == 2.0);

    /* A copy is a profiler too: it goes on from where the original was. */
    fairsched_cfq_profiler copy = p;
    CHECK_OK(fairsched_cfq_profiler_observe(&copy, 1.4));
    CHECK_OK(fairsched_cfq_profiler_estimate(&copy, 2, &estimate));
    CHECK(estimate == 1.0 && p.count == 3);

    /* Invalid input: the status, the profiler byte-identical, the estimate unwritten. */
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    POISON_FILL(estimate);
    CHECK_STATUS(fairsched_cfq_profiler_init(NULL), null);
    CHECK_STATUS(fairsched_cfq_profiler_observe(NULL, 1.0), null);
    CHECK_STATUS(fairsched_cfq_profiler_observe_batch(NULL, (const double[]){1.0}, 1), null);
    CHECK_PROFILER_FAILS(&p, null, fairsched_cfq_profiler_observe_batch(&p, NULL, 1));
    CHECK_STATUS(fairsched_cfq_profiler_estimate(NULL, 1, &estimate), null);
    CHECK_PROFILER_FAILS(&p, null, fairsched_cfq_profiler_estimate(&p, 1, NULL));
    const struct {
        double duration;
        fairsched_status status;
    } durations[] = {
        {NAN, FAIRSCHED_STATUS_NOT_FINITE},
        {INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
        {-INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
        {-1.0, FAIRSCHED_STATUS_NEGATIVE},
        {0x1p61, FAIRSCHED_STATUS_OUT_OF_RANGE},
    };
    for (size_t i = 0; i < LENGTH(durations); i++) {
        const double batch[] = {1.0, durations[i].duration};
        CHECK_PROFILER_FAILS(&p, durations[i].status,
                             fairsched_cfq_profiler_observe(&p, durations[i].duration));
        CHECK_PROFILER_FAILS(&p, durations[i].status,
                             fairsched_cfq_profiler_observe_batch(&p, batch, LENGTH(batch)));
    }
    CHECK_PROFILER_FAILS(&p, FAIRSCHED_STATUS_NOT_POSITIVE,
                         fairsched_cfq_profiler_estimate(&p, 0, &estimate));
    CHECK_PROFILER_FAILS(&p, FAIRSCHED_STATUS_OUT_OF_RANGE,
                         fairsched_cfq_profiler_estimate(&p, UINT64_MAX, &estimate));
    CHECK_UNWRITTEN(estimate);

    /* Durations of 0 give no slot-time: an estimate of 0 is refused as an arrival would. */
    fairsched_cfq_profiler zeros;
    CHECK_OK(fairsched_cfq_profiler_init(&zeros));
    CHECK_OK(fairsched_cfq_profiler_observe_batch(&zeros, (const double[]){0.0, -0.0}, 2));
    CHECK_PROFILER_FAILS(&zeros, FAIRSCHED_STATUS_NOT_POSITIVE,
                         fairsched_cfq_profiler_estimate(&zeros, 4, &estimate));
    CHECK_UNWRITTEN(estimate);
}

/* Theorem 1's bound: the paper's Fig. 2/3 example (longest task 9, largest slot-time 16 on 3
 * slots), then every refusal, each leaving the output unwritten. */
static void test_delay_bound(void) {
    double bound = 0.0;
    CHECK_OK(fairsched_cfq_delay_bound(9.0, 16.0, 3, &bound));
    CHECK(bound == 2.0 * 9.0 + 16.0 / 3.0);
    const struct {
        double longest_task, largest_slot_time;
        uint32_t slots;
        fairsched_status status;
    } bad[] = {
        {NAN, 16.0, 3, FAIRSCHED_STATUS_NOT_FINITE},
        {9.0, INFINITY, 3, FAIRSCHED_STATUS_NOT_FINITE},
        {0.0, 16.0, 3, FAIRSCHED_STATUS_NOT_POSITIVE},
        {9.0, -16.0, 3, FAIRSCHED_STATUS_NOT_POSITIVE},
        {9.0, 0x1p61, 3, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {17.0, 16.0, 3, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {9.0, 16.0, 0, FAIRSCHED_STATUS_NOT_POSITIVE},
    };
    for (size_t i = 0; i < LENGTH(bad); i++) {
        POISON_FILL(bound);
        CHECK_STATUS(fairsched_cfq_delay_bound(bad[i].longest_task, bad[i].largest_slot_time,
                                               bad[i].slots, &bound),
                     bad[i].status);
        CHECK_UNWRITTEN(bound);
    }
    CHECK_STATUS(fairsched_cfq_delay_bound(9.0, 16.0, 3, NULL), FAIRSCHED_STATUS_NULL_POINTER);
}

/* ---- Runner ---------------------------------------------------------------------------------- */

static const test_case tests[] = {
    {"paper_example", test_paper_example},
    {"null_pointers", test_null_pointers},
    {"bad_times", test_bad_times},
    {"bad_numbers", test_bad_numbers},
    {"bad_ids", test_bad_ids},
    {"batch_all_or_nothing", test_batch_all_or_nothing},
    {"empty_calls", test_empty_calls},
    {"reprofile_at_arrival", test_reprofile_at_arrival},
    {"reprofile_leaves_gps", test_reprofile_leaves_gps},
    {"profiler", test_profiler},
    {"delay_bound", test_delay_bound},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

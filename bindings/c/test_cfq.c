/*
 * Tests the C ABI of CFQ: the paper's example (Fig. 2 and 3) with exact completion times, then
 * every export with invalid input. A failed call must return the expected status, leave the
 * scheduler's stats byte-identical and leave its out-parameters unwritten.
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Schedulers ------------------------------------------------------------------------------ */

/* A scheduler and the heap block it lives in (release with free(memory)). */
typedef struct {
    void *memory;
    fairsched_cfq *cfq;
} scheduler;

static scheduler scheduler_new(uint32_t capacity, uint32_t slots, double start_time) {
    scheduler s = {NULL, NULL};
    size_t size = 0;
    CHECK_OK(fairsched_cfq_storage_size(capacity, &size));
    s.memory = malloc(size);
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

static void test_paper_example(void) {
    scheduler s = scheduler_new(8, PAPER_SLOTS, 0.0);

    /* t = 0: jobs 1 (one task) and 2 (four tasks) arrive and fill the three slots. */
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 0.0, 1, 9.0, 1));
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 0.0, 2, 16.0, 1));
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, 1, 1));
    CHECK_OK(fairsched_cfq_set_pending(s.cfq, 2, 4));
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
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const fairsched_cfq_job_info job = job_of(s.cfq, want[i].id);
        CHECK(job.completed && job.completion == want[i].completion);
        CHECK(!job.gps_active && job.gps_completion == want[i].gps_completion);
    }
    free(s.memory);
}

/* ---- Statuses -------------------------------------------------------------------------------- */

static void test_status_messages(void) {
    for (uint32_t status = FAIRSCHED_STATUS_OK; status < FAIRSCHED_STATUS_COUNT; status++) {
        const char *message = fairsched_status_message(status);
        CHECK(message != NULL && message[0] != '\0' && strcmp(message, "unknown status") != 0);
    }
    /* Any number is safe to ask about: codes the library does not know are named as such. */
    CHECK(strcmp(fairsched_status_message(FAIRSCHED_STATUS_COUNT), "unknown status") == 0);
    CHECK(strcmp(fairsched_status_message(UINT32_MAX), "unknown status") == 0);
}

static void test_abi_version(void) {
    CHECK(fairsched_abi_version() == FAIRSCHED_ABI_VERSION);
}

static void test_panic_is_caught(void) {
    CHECK(fairsched_testing_panic() == FAIRSCHED_STATUS_PANIC);
}

/* ---- Construction ---------------------------------------------------------------------------- */

static void test_storage_size(void) {
    size_t size;
    POISON_FILL(size);
    CHECK_STATUS(fairsched_cfq_storage_size(1, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_cfq_storage_size(0, &size), FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_cfq_storage_size(UINT32_MAX, &size),
                 FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
    CHECK_UNWRITTEN(size);

    size_t one = 0, two = 0;
    CHECK_OK(fairsched_cfq_storage_size(1, &one));
    CHECK_OK(fairsched_cfq_storage_size(2, &two));
    CHECK(0 < one && one < two);
}

/* Checks that init, given `memory_len` bytes of a block sized for one job, fails with `status`
 * and writes neither the block nor the handle. */
static void check_init_fails_at(size_t memory_len, uint32_t capacity, uint32_t slots,
                                double start_time, fairsched_status status, int line) {
    size_t size = 0;
    CHECK_OK(fairsched_cfq_storage_size(1, &size));
    unsigned char *memory = malloc(size);
    memset(memory, POISON, size);
    fairsched_cfq *handle;
    POISON_FILL(handle);
    check_status_at(fairsched_cfq_init(memory, memory_len, capacity, slots, start_time, &handle),
                    status, "fairsched_cfq_init", line);
    check_at(is_poison(memory, size), "memory left unwritten", line);
    check_at(is_poison(&handle, sizeof handle), "handle left unwritten", line);
    free(memory);
}

#define CHECK_INIT_FAILS(memory_len, capacity, slots, start_time, status) \
    check_init_fails_at(memory_len, capacity, slots, start_time, status, __LINE__)

static void test_init_errors(void) {
    size_t size = 0;
    CHECK_OK(fairsched_cfq_storage_size(1, &size));
    CHECK_INIT_FAILS(size, 0, 1, 0.0, FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_INIT_FAILS(size, UINT32_MAX, 1, 0.0, FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
    CHECK_INIT_FAILS(size, 1, 0, 0.0, FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_INIT_FAILS(size, 1, 1, NAN, FAIRSCHED_STATUS_NOT_FINITE);
    CHECK_INIT_FAILS(size, 1, 1, INFINITY, FAIRSCHED_STATUS_NOT_FINITE);
    CHECK_INIT_FAILS(size, 1, 1, -INFINITY, FAIRSCHED_STATUS_NOT_FINITE);
    CHECK_INIT_FAILS(size, 1, 1, 0x1p61, FAIRSCHED_STATUS_OUT_OF_RANGE);
    CHECK_INIT_FAILS(0, 1, 1, 0.0, FAIRSCHED_STATUS_BUFFER_TOO_SMALL);
    CHECK_INIT_FAILS(size / 2, 1, 1, 0.0, FAIRSCHED_STATUS_BUFFER_TOO_SMALL);
    /* Enough memory for one job, not for two. */
    CHECK_INIT_FAILS(size, 2, 1, 0.0, FAIRSCHED_STATUS_BUFFER_TOO_SMALL);

    unsigned char *memory = malloc(size);
    memset(memory, POISON, size);
    fairsched_cfq *handle;
    POISON_FILL(handle);
    CHECK_STATUS(fairsched_cfq_init(NULL, size, 1, 1, 0.0, &handle),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_cfq_init(memory, size, 1, 1, 0.0, NULL),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK(is_poison(memory, size));
    CHECK_UNWRITTEN(handle);
    free(memory);
}

/* init accepts memory at any address: each offset gets exactly the bytes storage_size asks for
 * (ASan guards the end), and a full scheduler is worked through. */
static void test_init_any_alignment(void) {
    enum { CAPACITY = 4 };
    size_t size = 0;
    CHECK_OK(fairsched_cfq_storage_size(CAPACITY, &size));
    for (size_t offset = 0; offset < 16; offset++) {
        unsigned char *block = malloc(offset + size);
        unsigned char *memory = block + offset;
        fairsched_cfq *cfq = NULL;
        CHECK_OK(fairsched_cfq_init(memory, size, CAPACITY, 2, 0.0, &cfq));
        CHECK((unsigned char *)cfq >= memory && (unsigned char *)cfq < memory + size);
        for (uint64_t id = 0; id < CAPACITY; id++) {
            CHECK_OK(fairsched_cfq_arrive(cfq, 1.0, id, 1.0 + (double)id, 1));
            CHECK_OK(fairsched_cfq_set_pending(cfq, id, 2));
        }
        uint64_t ids[2 * CAPACITY];
        size_t assigned = 0;
        CHECK_OK(fairsched_cfq_offer(cfq, ids, 2 * CAPACITY, &assigned));
        CHECK(assigned == 2 * CAPACITY);
        for (uint64_t id = 0; id < CAPACITY; id++) {
            CHECK_OK(fairsched_cfq_remove(cfq, 2.0, id));
        }
        CHECK_OK(fairsched_cfq_advance(cfq, 100.0));
        CHECK(stats_of(cfq).rows_in_use == 0);
        free(block);
    }
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
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const double now = cases[i].now;
        const fairsched_status status = cases[i].status;
        CHECK_FAILS(s.cfq, status, fairsched_cfq_advance(s.cfq, now));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_set_slots(s.cfq, now, 3));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_arrive(s.cfq, now, UNKNOWN_JOB, 1.0, 1));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_complete(s.cfq, now, RUNNING_JOB));
        CHECK_FAILS(s.cfq, status, fairsched_cfq_remove(s.cfq, now, RUNNING_JOB));
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
    for (size_t i = 0; i < sizeof arrivals / sizeof *arrivals; i++) {
        CHECK_FAILS(s.cfq, arrivals[i].status,
                    fairsched_cfq_arrive(s.cfq, 12.0, UNKNOWN_JOB, arrivals[i].slot_time,
                                         arrivals[i].weight));
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

static void test_capacity_full(void) {
    scheduler s = fixture();
    CHECK_OK(fairsched_cfq_arrive(s.cfq, 12.0, UNKNOWN_JOB, 1.0, 1));
    CHECK_FAILS(s.cfq, FAIRSCHED_STATUS_CAPACITY_FULL,
                fairsched_cfq_arrive(s.cfq, 12.0, UNKNOWN_JOB + 1, 1.0, 1));
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

/* ---- Runner ---------------------------------------------------------------------------------- */

static const named_test tests[] = {
    {"paper_example", test_paper_example},
    {"status_messages", test_status_messages},
    {"abi_version", test_abi_version},
    {"panic_is_caught", test_panic_is_caught},
    {"storage_size", test_storage_size},
    {"init_errors", test_init_errors},
    {"init_any_alignment", test_init_any_alignment},
    {"null_pointers", test_null_pointers},
    {"bad_times", test_bad_times},
    {"bad_numbers", test_bad_numbers},
    {"bad_ids", test_bad_ids},
    {"batch_all_or_nothing", test_batch_all_or_nothing},
    {"capacity_full", test_capacity_full},
    {"empty_calls", test_empty_calls},
};

int main(void) {
    return run_tests(tests, sizeof tests / sizeof *tests);
}

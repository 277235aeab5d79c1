/*
 * Tests the C ABI of HAI (ReB's allocation of cores): the paper's micro-benchmark and an
 * online arrival with exact results, then every export with invalid input, the tables built
 * from predictions included. A failed call must return the expected status and write nothing:
 * the cores of a rebalance unchanged, every other out-parameter still poisoned. Building a
 * workspace (storage_size, init, at any alignment) is tested with the other objects' in
 * test_lifecycle.c.
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    SJO = FAIRSCHED_HAI_SHORTEST_JOB_OPTIMAL,
    ALLOCATE = FAIRSCHED_HAI_ALLOCATE,
    REBALANCE = FAIRSCHED_HAI_REBALANCE,
};

/* ---- Workspaces and batches ------------------------------------------------------------------ */

typedef struct {
    void *memory;
    fairsched_hai *hai;
} workspace;

static workspace workspace_new(uint32_t capacity) {
    size_t size;
    workspace w = {storage_new(fairsched_hai_storage_size, capacity, &size), NULL};
    CHECK_OK(fairsched_hai_init(w.memory, size, capacity, &w.hai));
    return w;
}

/* A batch as the export takes it, with room for up to MAX_JOBS jobs of tables up to 61 long. */
enum { MAX_JOBS = 8, MAX_VALUES = MAX_JOBS * 61 };

typedef struct {
    uint32_t total_cores, theta;
    size_t jobs, values;
    uint32_t caps[MAX_JOBS];
    double jct[MAX_VALUES];
} batch;

/* Appends a job whose table is `len` values (JCT at 0, theta, 2 theta, ...). */
static void add_job(batch *b, const double *table, size_t len) {
    b->caps[b->jobs++] = (uint32_t)(len - 1) * b->theta;
    memcpy(b->jct + b->values, table, len * sizeof *table);
    b->values += len;
}

/* The PageRank job of ReB §4.2 with theta = 1: 1600 / a + a, optimum 40 cores, waits at 0. */
static void pagerank(double table[61]) {
    table[0] = INFINITY;
    for (int a = 1; a <= 60; a++) {
        table[a] = 1600.0 / a + a;
    }
}

/* The same shape in whole numbers with theta = 10 (the vectors' micro_benchmark cases). */
static const double PAGERANK_10[] = {INFINITY, 170, 100, 84, 80, 82, 87};

/* What one call wrote; `cores` is also the current allocation of a rebalance. */
typedef struct {
    uint32_t cores[MAX_JOBS];
    double jct[MAX_JOBS];
    fairsched_hai_summary summary;
} outputs;

/* Calls fairsched_hai_allocate on `b` by `method`, in a workspace for MAX_JOBS jobs. */
static fairsched_status run(uint32_t method, const batch *b, outputs *out) {
    workspace w = workspace_new(MAX_JOBS);
    fairsched_status status = fairsched_hai_allocate(
        w.hai, method, b->total_cores, b->theta, b->caps, b->jobs, b->jct, b->values, out->cores,
        b->jobs, out->jct, b->jobs, &out->summary);
    free(w.memory);
    return status;
}

/* ---- Examples -------------------------------------------------------------------------------- */

/* ReB §4.2, Fig. 3: four identical jobs of optimum 40 on 120 cores. The shortest-job-optimal
 * start leaves the fourth waiting; HAI gives all four 30 cores. */
static void test_micro_benchmark(void) {
    double table[61];
    pagerank(table);
    batch b = {.total_cores = 120, .theta = 1};
    for (int j = 0; j < 4; j++) {
        add_job(&b, table, 61);
    }

    outputs start = {0};
    CHECK_OK(run(SJO, &b, &start));
    const uint32_t start_cores[] = {40, 40, 40, 0};
    CHECK(memcmp(start.cores, start_cores, sizeof start_cores) == 0);
    CHECK(start.jct[0] == 80.0 && isinf(start.jct[3]));
    CHECK(isinf(start.summary.jct_sum) && start.summary.transfers == 0);

    outputs hai = {0};
    CHECK_OK(run(ALLOCATE, &b, &hai));
    double sum = 0.0;
    for (int j = 0; j < 4; j++) {
        CHECK(hai.cores[j] == 30 && hai.jct[j] == 1600.0 / 30 + 30);
        sum += hai.jct[j];
    }
    CHECK(isinf(hai.summary.jct_sum_start));
    CHECK(hai.summary.jct_sum == sum && hai.summary.transfers == 30);
}

/* A fifth job arrives at four jobs of 30 cores: it takes from jobs 0 and 1 until its fall
 * (16) no longer beats a rise (16). Running jobs only give. */
static void test_rebalance_on_arrival(void) {
    batch b = {.total_cores = 120, .theta = 10};
    for (int j = 0; j < 5; j++) {
        add_job(&b, PAGERANK_10, LENGTH(PAGERANK_10));
    }
    outputs out = {.cores = {30, 30, 30, 30, 0}};
    CHECK_OK(run(REBALANCE, &b, &out));
    const uint32_t cores[] = {20, 20, 30, 30, 20};
    const double jct[] = {100, 100, 84, 84, 100};
    CHECK(memcmp(out.cores, cores, sizeof cores) == 0);
    CHECK(memcmp(out.jct, jct, sizeof jct) == 0);
    CHECK(isinf(out.summary.jct_sum_start) && out.summary.jct_sum == 468.0);
    CHECK(out.summary.transfers == 2);
}

/* No jobs: every array may be NULL, and the sums are +0. */
static void test_empty_batch(void) {
    workspace w = workspace_new(1);
    fairsched_hai_summary summary;
    POISON_FILL(summary);
    CHECK_OK(fairsched_hai_allocate(w.hai, ALLOCATE, 10, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
                                    &summary));
    CHECK(summary.jct_sum_start == 0.0 && summary.jct_sum == 0.0 && summary.transfers == 0);
    CHECK(!signbit(summary.jct_sum));
    free(w.memory);
}

/* ---- Invalid input --------------------------------------------------------------------------- */

/* Checks that fairsched_hai_allocate on `hai` with these arguments (the current allocation in
 * `current`; NULL arrays where a length is 0) returns `status` and writes nothing. */
static void check_fails_at(fairsched_hai *hai, uint32_t method, const batch *b,
                           const uint32_t *caps, const double *jct,
                           const uint32_t current[MAX_JOBS], size_t cores_len, size_t jct_len,
                           fairsched_status status, int line) {
    outputs out;
    POISON_FILL(out);
    memcpy(out.cores, current, sizeof out.cores);
    check_status_at(fairsched_hai_allocate(hai, method, b->total_cores, b->theta, caps, b->jobs,
                                           jct, b->values, cores_len ? out.cores : NULL,
                                           cores_len, jct_len ? out.jct : NULL, jct_len,
                                           &out.summary),
                    status, "fairsched_hai_allocate", line);
    check_at(memcmp(out.cores, current, sizeof out.cores) == 0, "cores unchanged", line);
    check_at(is_poison(out.jct, sizeof out.jct), "JCTs left unwritten", line);
    check_at(is_poison(&out.summary, sizeof out.summary), "summary left unwritten", line);
}

/* Two jobs on 50 cores, theta 10: the batch the invalid inputs break one thing of. */
static batch fixture(void) {
    batch b = {.total_cores = 50, .theta = 10};
    add_job(&b, PAGERANK_10, LENGTH(PAGERANK_10));
    add_job(&b, PAGERANK_10, LENGTH(PAGERANK_10));
    return b;
}

static const uint32_t NO_CORES[MAX_JOBS] = {0};

/* Calls with a fresh workspace for two jobs and `b`'s own arrays. */
#define CHECK_FAILS(method, b, current, status)                                               \
    do {                                                                                      \
        workspace w_ = workspace_new(2);                                                      \
        check_fails_at(w_.hai, (method), &(b), (b).caps, (b).jct, (current), (b).jobs,       \
                       (b).jobs, (status), __LINE__);                                         \
        free(w_.memory);                                                                      \
    } while (0)

static void test_null_pointers(void) {
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    batch b = fixture();
    workspace w = workspace_new(2);
    check_fails_at(NULL, ALLOCATE, &b, b.caps, b.jct, NO_CORES, 2, 2, null, __LINE__);
    check_fails_at(w.hai, ALLOCATE, &b, NULL, b.jct, NO_CORES, 2, 2, null, __LINE__);
    check_fails_at(w.hai, ALLOCATE, &b, b.caps, NULL, NO_CORES, 2, 2, null, __LINE__);
    /* A NULL cores, JCT or summary pointer, with the lengths still 2. */
    outputs out;
    POISON_FILL(out);
    CHECK_STATUS(fairsched_hai_allocate(w.hai, ALLOCATE, b.total_cores, b.theta, b.caps, 2,
                                        b.jct, b.values, NULL, 2, out.jct, 2, &out.summary),
                 null);
    CHECK_STATUS(fairsched_hai_allocate(w.hai, ALLOCATE, b.total_cores, b.theta, b.caps, 2,
                                        b.jct, b.values, out.cores, 2, NULL, 2, &out.summary),
                 null);
    CHECK_STATUS(fairsched_hai_allocate(w.hai, ALLOCATE, b.total_cores, b.theta, b.caps, 2,
                                        b.jct, b.values, out.cores, 2, out.jct, 2, NULL),
                 null);
    CHECK_UNWRITTEN(out);
    free(w.memory);
}

static void test_bad_arguments(void) {
    batch b = fixture();
    CHECK_FAILS(3, b, NO_CORES, FAIRSCHED_STATUS_OUT_OF_RANGE);
    CHECK_FAILS(UINT32_MAX, b, NO_CORES, FAIRSCHED_STATUS_OUT_OF_RANGE);

    workspace w = workspace_new(2);
    const fairsched_status mismatch = FAIRSCHED_STATUS_LENGTH_MISMATCH;
    check_fails_at(w.hai, ALLOCATE, &b, b.caps, b.jct, NO_CORES, 1, 2, mismatch, __LINE__);
    check_fails_at(w.hai, ALLOCATE, &b, b.caps, b.jct, NO_CORES, 2, 3, mismatch, __LINE__);
    check_fails_at(w.hai, SJO, &b, b.caps, b.jct, NO_CORES, 0, 2, mismatch, __LINE__);
    free(w.memory);

    /* Three jobs in a workspace for two. */
    batch three = fixture();
    add_job(&three, PAGERANK_10, LENGTH(PAGERANK_10));
    CHECK_FAILS(ALLOCATE, three, NO_CORES, FAIRSCHED_STATUS_CAPACITY_FULL);

    batch zero_theta = fixture();
    zero_theta.theta = 0;
    CHECK_FAILS(ALLOCATE, zero_theta, NO_CORES, FAIRSCHED_STATUS_NOT_POSITIVE);
    batch small = fixture();
    small.total_cores = 9;
    CHECK_FAILS(ALLOCATE, small, NO_CORES, FAIRSCHED_STATUS_NOT_POSITIVE);
    batch no_cap = fixture();
    no_cap.caps[1] = 0;
    CHECK_FAILS(ALLOCATE, no_cap, NO_CORES, FAIRSCHED_STATUS_NOT_POSITIVE);
    batch odd_cap = fixture();
    odd_cap.caps[1] = 55;
    CHECK_FAILS(ALLOCATE, odd_cap, NO_CORES, FAIRSCHED_STATUS_OUT_OF_RANGE);
    batch short_tables = fixture();
    short_tables.values--;
    CHECK_FAILS(ALLOCATE, short_tables, NO_CORES, FAIRSCHED_STATUS_LENGTH_MISMATCH);
    batch long_tables = fixture();
    long_tables.jct[long_tables.values++] = 1.0;
    CHECK_FAILS(ALLOCATE, long_tables, NO_CORES, FAIRSCHED_STATUS_LENGTH_MISMATCH);
}

/* Every kind of bad JCT, at 0 cores (index 0) and with cores (index 3), in the second job. */
static void test_bad_jct(void) {
    const struct {
        size_t at;
        double jct;
        fairsched_status status;
    } cases[] = {
        {3, NAN, FAIRSCHED_STATUS_NOT_FINITE},
        {3, INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
        {3, -INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
        {3, 0.0, FAIRSCHED_STATUS_NOT_POSITIVE},
        {3, -0.0, FAIRSCHED_STATUS_NOT_POSITIVE},
        {3, -1.0, FAIRSCHED_STATUS_NOT_POSITIVE},
        {3, 0x1p61, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {0, NAN, FAIRSCHED_STATUS_NOT_FINITE},
        {0, -INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
        {0, 0.0, FAIRSCHED_STATUS_NOT_POSITIVE},
        {0, -5.0, FAIRSCHED_STATUS_NOT_POSITIVE},
        {0, 0x1p61, FAIRSCHED_STATUS_OUT_OF_RANGE},
    };
    for (size_t i = 0; i < LENGTH(cases); i++) {
        batch b = fixture();
        b.jct[LENGTH(PAGERANK_10) + cases[i].at] = cases[i].jct;
        CHECK_FAILS(ALLOCATE, b, NO_CORES, cases[i].status);
        CHECK_FAILS(REBALANCE, b, NO_CORES, cases[i].status);
    }
}

/* A rebalance's current allocation: off the steps, above a cap, or beyond the capacity. */
static void test_bad_current_allocation(void) {
    const fairsched_status range = FAIRSCHED_STATUS_OUT_OF_RANGE;
    batch b = fixture();
    CHECK_FAILS(REBALANCE, b, ((const uint32_t[MAX_JOBS]){15, 0}), range);
    CHECK_FAILS(REBALANCE, b, ((const uint32_t[MAX_JOBS]){0, 70}), range);
    CHECK_FAILS(REBALANCE, b, ((const uint32_t[MAX_JOBS]){30, 30}), range);
    /* The same allocations are no input to the other methods. */
    outputs out = {.cores = {30, 30}};
    CHECK_OK(run(ALLOCATE, &b, &out));
}

/* ---- Tables from predictions: no workspace -------------------------------------------------- */

/* ReB's predicted falls JCT(a) - JCT(a + 10) of the PageRank table, from 10 cores on. */
static const double PAGERANK_FALLS[] = {70, 16, 4, -2, -5};

static void test_table_from_differences(void) {
    double table[LENGTH(PAGERANK_10)];
    CHECK_OK(fairsched_hai_table_from_differences(10, 40, 80, PAGERANK_FALLS,
                                                  LENGTH(PAGERANK_FALLS), table, LENGTH(table)));
    CHECK(memcmp(table, PAGERANK_10, sizeof table) == 0);
    const struct {
        uint32_t theta, reference;
        double jct;
        size_t differences_len;
        fairsched_status status;
    } cases[] = {
        {0, 40, 80, 5, FAIRSCHED_STATUS_NOT_POSITIVE},
        {10, 40, 80, 4, FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {10, 45, 80, 5, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {10, 0, 80, 5, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {10, 40, NAN, 5, FAIRSCHED_STATUS_NOT_FINITE},
        {10, 40, -1, 5, FAIRSCHED_STATUS_NOT_POSITIVE},
        {10, 40, 0x1p61, 5, FAIRSCHED_STATUS_OUT_OF_RANGE},
        /* JCT(20) = 50 - 70. */
        {10, 10, 50, 5, FAIRSCHED_STATUS_NOT_POSITIVE},
    };
    for (size_t i = 0; i < LENGTH(cases); i++) {
        POISON_FILL(table);
        CHECK_STATUS(fairsched_hai_table_from_differences(
                         cases[i].theta, cases[i].reference, cases[i].jct, PAGERANK_FALLS,
                         cases[i].differences_len, table, LENGTH(table)),
                     cases[i].status);
        CHECK_UNWRITTEN(table);
    }
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    CHECK_STATUS(fairsched_hai_table_from_differences(10, 40, 80, NULL, 5, table, 7), null);
    CHECK_STATUS(fairsched_hai_table_from_differences(10, 40, 80, PAGERANK_FALLS, 5, NULL, 7),
                 null);
    CHECK_UNWRITTEN(table);
}

/* Runs of JCT(a) = 20 + a / 2 + 400 / a: the fit gives back the model's table. */
static void test_table_from_samples(void) {
    const uint32_t cores[] = {1, 2, 4, 8, 16};
    const double jct[] = {420.5, 221, 122, 74, 53};
    double table[6], a[4];
    CHECK_OK(fairsched_hai_table_from_samples(4, cores, 5, jct, 5, table, 6, a));
    CHECK(isinf(table[0]));
    for (int k = 1; k < 6; k++) {
        double want = 20 + 2.0 * k + 400.0 / (4 * k);
        CHECK(fabs(table[k] - want) < 1e-9 * want);
    }
    CHECK(fabs(a[0] - 20) < 1e-9 && fabs(a[1] - 0.5) < 1e-9 && fabs(a[2] - 400) < 1e-9);
    POISON_FILL(table);
    POISON_FILL(a);
    CHECK_STATUS(fairsched_hai_table_from_samples(4, cores, 3, jct, 3, table, 6, a),
                 FAIRSCHED_STATUS_UNDERDETERMINED);
    CHECK_STATUS(fairsched_hai_table_from_samples(4, cores, 5, jct, 4, table, 6, a),
                 FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK_STATUS(fairsched_hai_table_from_samples(0, cores, 5, jct, 5, table, 6, a),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_hai_table_from_samples(4, cores, 5, jct, 5, table, 1, a),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    CHECK_STATUS(fairsched_hai_table_from_samples(4, NULL, 5, jct, 5, table, 6, a), null);
    CHECK_STATUS(fairsched_hai_table_from_samples(4, cores, 5, jct, 5, table, 6, NULL), null);
    CHECK_UNWRITTEN(table);
    CHECK_UNWRITTEN(a);
}

/* ---- Runner ---------------------------------------------------------------------------------- */

static const test_case tests[] = {
    {"micro_benchmark", test_micro_benchmark},
    {"rebalance_on_arrival", test_rebalance_on_arrival},
    {"empty_batch", test_empty_batch},
    {"null_pointers", test_null_pointers},
    {"bad_arguments", test_bad_arguments},
    {"bad_jct", test_bad_jct},
    {"bad_current_allocation", test_bad_current_allocation},
    {"table_from_differences", test_table_from_differences},
    {"table_from_samples", test_table_from_samples},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

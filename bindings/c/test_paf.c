/*
 * Tests the C ABI of PAF: the paper's examples (Fig. 6: two jobs end at 4 and 8 slots; §V-A:
 * weights 12:3:1 on 128 slots give fair shares 96/24/8), enforcement, the Ernest fit and the
 * curve helpers, then every export with invalid input: a failed call must return the expected
 * status and leave every out-parameter unwritten.
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Workspaces and jobs --------------------------------------------------------------------- */

typedef struct {
    void *memory;
    fairsched_paf *paf;
} workspace;

static workspace workspace_new(uint32_t capacity) {
    workspace w = {NULL, NULL};
    size_t size = 0;
    CHECK_OK(fairsched_paf_storage_size(capacity, &size));
    w.memory = malloc(size);
    CHECK_OK(fairsched_paf_init(w.memory, size, capacity, &w.paf));
    return w;
}

enum { MAX_JOBS = 4, MAX_POINTS = 3 * 129 };

/* Jobs in the flat layout of the ABI, and room for one allocation's outputs. */
typedef struct {
    uint32_t weights[MAX_JOBS];
    uint32_t offsets[MAX_JOBS + 1];
    double points[MAX_POINTS];
    size_t jobs;
    uint32_t fair[MAX_JOBS], min[MAX_JOBS], paf[MAX_JOBS];
    double fair_progress[MAX_JOBS], paf_progress[MAX_JOBS];
    fairsched_paf_totals totals;
} jobs;

/* Appends a job whose curve is prefix sums of `increments` (`demand` of them). */
static void add_job(jobs *j, uint32_t weight, size_t demand, const double *increments) {
    uint32_t start = j->offsets[j->jobs];
    j->weights[j->jobs] = weight;
    j->points[start] = 0.0;
    for (size_t x = 1; x <= demand; x++) {
        j->points[start + x] = j->points[start + x - 1] + increments[x - 1];
    }
    j->jobs++;
    j->offsets[j->jobs] = start + (uint32_t)demand + 1;
}

static fairsched_status allocate(fairsched_paf *paf, jobs *j, uint32_t slots, double alpha,
                                 uint32_t method) {
    return fairsched_paf_allocate(paf, j->weights, j->jobs, j->offsets, j->points,
                                  j->offsets[j->jobs], slots, alpha, method, j->fair, j->min,
                                  j->paf, j->fair_progress, j->paf_progress, &j->totals);
}

/* ---- The paper ------------------------------------------------------------------------------- */

/* Fig. 6: two jobs of equal weight start at 6 slots each; two slots move from job 1. */
static void test_fig6_two_jobs(void) {
    const double flat[] = {0.25, 0.25, 0.125, 0.125, 0.0625, 0.0625,
                           0.03125, 0.03125, 0.015625, 0.015625, 0.0078125, 0.0078125};
    const double steep[] = {0.125, 0.125, 0.125, 0.125, 0.125, 0.125,
                            0.09375, 0.09375, 0.0625, 0.0625, 0.03125, 0.03125};
    workspace w = workspace_new(2);
    for (uint32_t method = FAIRSCHED_PAF_LITERAL; method <= FAIRSCHED_PAF_FAST; method++) {
        jobs j = {.jobs = 0};
        add_job(&j, 1, 12, flat);
        add_job(&j, 1, 12, steep);
        CHECK_OK(allocate(w.paf, &j, 12, 0.8, method));
        CHECK(j.fair[0] == 6 && j.fair[1] == 6);
        CHECK(j.paf[0] == 4 && j.paf[1] == 8);
        CHECK(j.min[0] == 4);
        CHECK(j.totals.moved == 2 && j.totals.slots == 12);
        CHECK(j.totals.paf_progress > j.totals.fair_progress);
        CHECK(j.paf_progress[0] == 0.75 && j.fair_progress[0] == 0.875);
    }
    free(w.memory);
}

/* §V-A: weights 12:3:1, 128 slots, demands 128: fair shares 96, 24, 8. */
static void test_testbed_fair_shares(void) {
    double increments[128];
    for (size_t x = 0; x < 128; x++) {
        increments[x] = 1.0 / 128;
    }
    workspace w = workspace_new(3);
    jobs j = {.jobs = 0};
    add_job(&j, 12, 128, increments);
    add_job(&j, 3, 128, increments);
    add_job(&j, 1, 128, increments);
    CHECK_OK(allocate(w.paf, &j, 128, 0.9, FAIRSCHED_PAF_FAST));
    CHECK(j.fair[0] == 96 && j.fair[1] == 24 && j.fair[2] == 8);
    /* Linear curves: no transfer gains anything. */
    CHECK(j.paf[0] == 96 && j.totals.moved == 0 && j.totals.largest_loss == 0.0);
    free(w.memory);
}

static void test_enforce(void) {
    workspace w = workspace_new(3);
    const uint32_t targets[] = {5, 3, 4}, running[] = {1, 3, 1};
    uint32_t given[8];
    size_t assigned = 99;
    CHECK_OK(fairsched_paf_enforce(w.paf, targets, running, 3, given, 8, &assigned));
    /* The smallest fraction of its target first: 1/5, then 1/4, then 2/5, ... */
    const uint32_t want[] = {0, 2, 0, 2, 0, 2, 0};
    CHECK(assigned == 7 && memcmp(given, want, sizeof want) == 0);
    free(w.memory);
}

static void test_ernest(void) {
    const uint32_t slots[] = {1, 2, 4, 8, 16, 32};
    double runtimes[6];
    for (size_t i = 0; i < 6; i++) {
        runtimes[i] = 0.25 + 1.0 / slots[i];
    }
    double a[4];
    CHECK_OK(fairsched_paf_ernest_fit(slots, runtimes, 6, a));
    CHECK(fabs(a[0] - 0.25) < 1e-9 && fabs(a[1]) < 1e-9 && fabs(a[2] - 1.0) < 1e-9 &&
          fabs(a[3]) < 1e-9);
    double curve[5];
    CHECK_OK(fairsched_paf_ernest_tabulate(a, curve, 5));
    CHECK(curve[0] == 0.0 && fabs(curve[1] - 0.8) < 1e-9);
    uint32_t concave_from = 99;
    CHECK_OK(fairsched_paf_curve_check(curve, 5, &concave_from));
    CHECK(concave_from == 0);
    const double s_curve[] = {0.0, 0.125, 0.25, 0.875, 1.0};
    double envelope[5];
    CHECK_OK(fairsched_paf_concave_envelope(s_curve, envelope, 5));
    CHECK(envelope[3] == 0.875 && envelope[1] > 0.125);
}

/* ---- Invalid input --------------------------------------------------------------------------- */

/* Checks that `call` returns `status` and leaves the outputs of `j` poisoned. */
#define CHECK_ALLOCATE_FAILS(j, status, call)                                               \
    do {                                                                                     \
        POISON_FILL((j).fair);                                                               \
        POISON_FILL((j).min);                                                                \
        POISON_FILL((j).paf);                                                                \
        POISON_FILL((j).fair_progress);                                                      \
        POISON_FILL((j).paf_progress);                                                       \
        POISON_FILL((j).totals);                                                             \
        check_status_at((call), (status), #call, __LINE__);                                  \
        CHECK_UNWRITTEN((j).fair);                                                           \
        CHECK_UNWRITTEN((j).min);                                                            \
        CHECK_UNWRITTEN((j).paf);                                                            \
        CHECK_UNWRITTEN((j).fair_progress);                                                  \
        CHECK_UNWRITTEN((j).paf_progress);                                                   \
        CHECK_UNWRITTEN((j).totals);                                                         \
    } while (0)

static jobs two_jobs(void) {
    const double increments[] = {0.5, 0.25, 0.125};
    jobs j = {.jobs = 0};
    add_job(&j, 1, 3, increments);
    add_job(&j, 2, 3, increments);
    return j;
}

static void test_allocate_errors(void) {
    workspace w = workspace_new(2);
    jobs j = two_jobs();
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    CHECK_ALLOCATE_FAILS(j, null, allocate(NULL, &j, 4, 0.9, FAIRSCHED_PAF_FAST));
    CHECK_ALLOCATE_FAILS(j, null,
                         fairsched_paf_allocate(w.paf, NULL, 2, j.offsets, j.points, 8, 4, 0.9,
                                                FAIRSCHED_PAF_FAST, j.fair, j.min, j.paf,
                                                j.fair_progress, j.paf_progress, &j.totals));
    CHECK_ALLOCATE_FAILS(j, null,
                         fairsched_paf_allocate(w.paf, j.weights, 2, NULL, j.points, 8, 4, 0.9,
                                                FAIRSCHED_PAF_FAST, j.fair, j.min, j.paf,
                                                j.fair_progress, j.paf_progress, &j.totals));
    CHECK_ALLOCATE_FAILS(j, null,
                         fairsched_paf_allocate(w.paf, j.weights, 2, j.offsets, j.points, 8, 4,
                                                0.9, FAIRSCHED_PAF_FAST, j.fair, j.min, j.paf,
                                                j.fair_progress, NULL, &j.totals));
    CHECK_ALLOCATE_FAILS(j, null,
                         fairsched_paf_allocate(w.paf, j.weights, 2, j.offsets, j.points, 8, 4,
                                                0.9, FAIRSCHED_PAF_FAST, j.fair, j.min, j.paf,
                                                j.fair_progress, j.paf_progress, NULL));
    CHECK_ALLOCATE_FAILS(j, FAIRSCHED_STATUS_NOT_POSITIVE,
                         allocate(w.paf, &j, 0, 0.9, FAIRSCHED_PAF_FAST));
    CHECK_ALLOCATE_FAILS(j, FAIRSCHED_STATUS_OUT_OF_RANGE,
                         allocate(w.paf, &j, 4, 1.01, FAIRSCHED_PAF_FAST));
    CHECK_ALLOCATE_FAILS(j, FAIRSCHED_STATUS_OUT_OF_RANGE,
                         allocate(w.paf, &j, 4, -0.5, FAIRSCHED_PAF_FAST));
    CHECK_ALLOCATE_FAILS(j, FAIRSCHED_STATUS_NOT_FINITE,
                         allocate(w.paf, &j, 4, NAN, FAIRSCHED_PAF_FAST));
    CHECK_ALLOCATE_FAILS(j, FAIRSCHED_STATUS_OUT_OF_RANGE, allocate(w.paf, &j, 4, 0.9, 7));

    jobs bad = two_jobs();
    bad.weights[1] = 0;
    CHECK_ALLOCATE_FAILS(bad, FAIRSCHED_STATUS_NOT_POSITIVE,
                         allocate(w.paf, &bad, 4, 0.9, FAIRSCHED_PAF_FAST));
    bad = two_jobs();
    bad.points[6] = 0.1; /* job 1: 0, 0.5, 0.75 then 0.1 */
    CHECK_ALLOCATE_FAILS(bad, FAIRSCHED_STATUS_NOT_MONOTONE,
                         allocate(w.paf, &bad, 4, 0.9, FAIRSCHED_PAF_FAST));
    bad = two_jobs();
    bad.points[2] = NAN;
    CHECK_ALLOCATE_FAILS(bad, FAIRSCHED_STATUS_NOT_FINITE,
                         allocate(w.paf, &bad, 4, 0.9, FAIRSCHED_PAF_FAST));
    bad = two_jobs();
    bad.points[1] = -1.0;
    CHECK_ALLOCATE_FAILS(bad, FAIRSCHED_STATUS_NEGATIVE,
                         allocate(w.paf, &bad, 4, 0.9, FAIRSCHED_PAF_FAST));
    bad = two_jobs();
    bad.offsets[1] = 0; /* job 0's curve is empty */
    CHECK_ALLOCATE_FAILS(bad, FAIRSCHED_STATUS_EMPTY,
                         allocate(w.paf, &bad, 4, 0.9, FAIRSCHED_PAF_FAST));
    bad = two_jobs();
    bad.offsets[2] = 7; /* does not end at points_len */
    CHECK_ALLOCATE_FAILS(bad, FAIRSCHED_STATUS_LENGTH_MISMATCH,
                         fairsched_paf_allocate(w.paf, bad.weights, 2, bad.offsets, bad.points,
                                                8, 4, 0.9, FAIRSCHED_PAF_FAST, bad.fair, bad.min,
                                                bad.paf, bad.fair_progress, bad.paf_progress,
                                                &bad.totals));
    jobs three = two_jobs();
    const double increments[] = {0.5};
    add_job(&three, 1, 1, increments);
    CHECK_ALLOCATE_FAILS(three, FAIRSCHED_STATUS_CAPACITY_FULL,
                         allocate(w.paf, &three, 4, 0.9, FAIRSCHED_PAF_FAST));
    free(w.memory);
}

static void test_workspace_errors(void) {
    size_t size;
    POISON_FILL(size);
    CHECK_STATUS(fairsched_paf_storage_size(0, &size), FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_paf_storage_size(UINT32_MAX, &size),
                 FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
    CHECK_UNWRITTEN(size);
    CHECK_STATUS(fairsched_paf_storage_size(4, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_OK(fairsched_paf_storage_size(4, &size));
    void *memory = malloc(size);
    fairsched_paf *paf;
    POISON_FILL(paf);
    CHECK_STATUS(fairsched_paf_init(memory, size - 1 - sizeof(void *), 4, &paf),
                 FAIRSCHED_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fairsched_paf_init(NULL, size, 4, &paf), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_init(memory, size, 0, &paf), FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_UNWRITTEN(paf);
    CHECK_STATUS(fairsched_paf_init(memory, size, 4, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    /* Any alignment: the handle is placed inside the block. */
    CHECK_OK(fairsched_paf_init((char *)memory + 1, size - 1, 3, &paf));
    free(memory);
}

static void test_enforce_errors(void) {
    workspace w = workspace_new(2);
    const uint32_t targets[] = {3, 3, 3}, running[] = {0, 0, 0};
    uint32_t given[4];
    size_t assigned;
    POISON_FILL(given);
    POISON_FILL(assigned);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, targets, running, 3, given, 4, &assigned),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    CHECK_STATUS(fairsched_paf_enforce(NULL, targets, running, 2, given, 4, &assigned),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, NULL, running, 2, given, 4, &assigned),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, targets, running, 2, NULL, 4, &assigned),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, targets, running, 2, given, 4, NULL),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(given);
    CHECK_UNWRITTEN(assigned);
    free(w.memory);
}

static void test_helper_errors(void) {
    const uint32_t slots[] = {1, 2, 4, 0};
    const double runtimes[] = {1.0, 0.75, 0.5, 0.5};
    double a[4];
    POISON_FILL(a);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, runtimes, 3, a),
                 FAIRSCHED_STATUS_UNDERDETERMINED);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, runtimes, 4, a), FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, runtimes, 0, a), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_paf_ernest_fit(NULL, runtimes, 3, a), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, runtimes, 3, NULL),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(a);

    const double negative[] = {0.5, 0.0, -0.5, 0.0}, nan_coefficient[] = {NAN, 0.0, 0.5, 0.0};
    const double zero_runtime[] = {0.0, 0.0, 0.0, 1.0}, good[] = {0.5, 0.0, 0.5, 0.0};
    double curve[4];
    POISON_FILL(curve);
    CHECK_STATUS(fairsched_paf_ernest_tabulate(negative, curve, 4), FAIRSCHED_STATUS_NEGATIVE);
    CHECK_STATUS(fairsched_paf_ernest_tabulate(nan_coefficient, curve, 4),
                 FAIRSCHED_STATUS_NOT_FINITE);
    CHECK_STATUS(fairsched_paf_ernest_tabulate(zero_runtime, curve, 4),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_paf_ernest_tabulate(good, curve, 0), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_paf_ernest_tabulate(NULL, curve, 4), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_ernest_tabulate(good, NULL, 4), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(curve);

    const double decreasing[] = {0.0, 0.5, 0.25, 0.75};
    uint32_t concave_from;
    POISON_FILL(concave_from);
    CHECK_STATUS(fairsched_paf_curve_check(decreasing, 4, &concave_from),
                 FAIRSCHED_STATUS_NOT_MONOTONE);
    CHECK_STATUS(fairsched_paf_curve_check(decreasing, 0, &concave_from), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_paf_curve_check(NULL, 4, &concave_from),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_curve_check(decreasing, 4, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(concave_from);
    CHECK_STATUS(fairsched_paf_concave_envelope(decreasing, curve, 4),
                 FAIRSCHED_STATUS_NOT_MONOTONE);
    CHECK_STATUS(fairsched_paf_concave_envelope(NULL, curve, 4), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_paf_concave_envelope(good, NULL, 4), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(curve);
}

/* ---- Runner ---------------------------------------------------------------------------------- */

static const test_case tests[] = {
    {"fig6_two_jobs", test_fig6_two_jobs},
    {"testbed_fair_shares", test_testbed_fair_shares},
    {"enforce", test_enforce},
    {"ernest", test_ernest},
    {"allocate_errors", test_allocate_errors},
    {"workspace_errors", test_workspace_errors},
    {"enforce_errors", test_enforce_errors},
    {"helper_errors", test_helper_errors},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

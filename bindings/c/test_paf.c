/*
 * Tests the C ABI of PAF: the paper's examples (Fig. 6: two jobs end at 4 and 8 slots; §V-A:
 * weights 12:3:1 on 128 slots give fair shares 96/24/8), enforcement, the Ernest fit, the
 * curve helpers, curves from task durations and jobs laid out once (the same allocations as
 * the flat call, at any alignment), then every export with invalid input: a
 * failed call must return the expected status and leave every out-parameter unwritten.
 * Building a workspace (storage_size, init) is tested with the other objects' in
 * test_lifecycle.c.
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Workspaces and jobs --------------------------------------------------------------------- */

typedef struct {
    void *memory;
    fairsched_paf *paf;
} workspace;

static workspace workspace_new(uint32_t capacity) {
    size_t size;
    workspace w = {storage_new(fairsched_paf_storage_size, capacity, &size), NULL};
    CHECK_OK(fairsched_paf_init(w.memory, size, capacity, &w.paf));
    return w;
}

enum { MAX_JOBS = 4, MAX_POINTS = 3 * 129 };

/* Where one allocation writes, for up to MAX_JOBS jobs. */
typedef struct {
    uint32_t fair[MAX_JOBS], min[MAX_JOBS], paf[MAX_JOBS];
    double fair_progress[MAX_JOBS], paf_progress[MAX_JOBS];
    fairsched_paf_totals totals;
} outputs;

/* Jobs in the flat layout of the ABI, and room for one allocation's outputs. */
typedef struct {
    uint32_t weights[MAX_JOBS];
    uint32_t offsets[MAX_JOBS + 1];
    double points[MAX_POINTS];
    size_t jobs;
    outputs out;
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
    outputs *o = &j->out;
    return fairsched_paf_allocate(paf, j->weights, j->jobs, j->offsets, j->points,
                                  j->offsets[j->jobs], slots, alpha, method, o->fair, o->min,
                                  o->paf, o->fair_progress, o->paf_progress, &o->totals);
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
        const outputs *o = &j.out;
        CHECK(o->fair[0] == 6 && o->fair[1] == 6);
        CHECK(o->paf[0] == 4 && o->paf[1] == 8);
        CHECK(o->min[0] == 4);
        CHECK(o->totals.moved == 2 && o->totals.slots == 12);
        CHECK(o->totals.paf_progress > o->totals.fair_progress);
        CHECK(o->paf_progress[0] == 0.75 && o->fair_progress[0] == 0.875);
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
    CHECK(j.out.fair[0] == 96 && j.out.fair[1] == 24 && j.out.fair[2] == 8);
    /* Linear curves: no transfer gains anything. */
    CHECK(j.out.paf[0] == 96 && j.out.totals.moved == 0 && j.out.totals.largest_loss == 0.0);
    free(w.memory);
}

static void test_enforce(void) {
    workspace w = workspace_new(3);
    const uint32_t weights[] = {1, 1, 2}, targets[] = {5, 3, 4}, running[] = {1, 3, 1};
    uint32_t given[8];
    size_t assigned = 99;
    CHECK_OK(fairsched_paf_enforce(w.paf, weights, 3, targets, 3, running, 3, given,
                                   LENGTH(given), &assigned));
    /* Below target, the fewest running per unit of weight first: 1/2, then 1 (job 0 before
     * job 2 at 2/2), then 2/2 < ... */
    const uint32_t want[] = {2, 0, 2, 2, 0, 0, 0};
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
    CHECK_OK(fairsched_paf_ernest_fit(slots, 6, runtimes, 6, a));
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
    CHECK_OK(fairsched_paf_concave_envelope(s_curve, 5, envelope, 5));
    CHECK(envelope[3] == 0.875 && envelope[1] > 0.125);
}

/* ---- Invalid input --------------------------------------------------------------------------- */

/* Every argument of fairsched_paf_allocate, so that a test can break one of them. */
typedef struct {
    fairsched_paf *paf;
    const uint32_t *weights;
    size_t weights_len;
    const uint32_t *curve_offsets;
    const double *points;
    size_t points_len;
    uint32_t slots;
    double alpha;
    uint32_t method;
    uint32_t *out_fair, *out_min, *out_paf;
    double *out_fair_progress, *out_paf_progress;
    fairsched_paf_totals *out_totals;
} allocate_args;

/* A valid call: the jobs of `j` on 4 slots at alpha 0.9, the fast method, into `j`'s outputs. */
static allocate_args args_of(fairsched_paf *paf, jobs *j) {
    outputs *o = &j->out;
    return (allocate_args){
        .paf = paf,
        .weights = j->weights,
        .weights_len = j->jobs,
        .curve_offsets = j->offsets,
        .points = j->points,
        .points_len = j->offsets[j->jobs],
        .slots = 4,
        .alpha = 0.9,
        .method = FAIRSCHED_PAF_FAST,
        .out_fair = o->fair,
        .out_min = o->min,
        .out_paf = o->paf,
        .out_fair_progress = o->fair_progress,
        .out_paf_progress = o->paf_progress,
        .out_totals = &o->totals,
    };
}

/* Checks that fairsched_paf_allocate with `a` returns `status` and writes none of `j`'s
 * outputs (where `a` points, unless a test redirected one to NULL). */
static void allocate_fails_at(allocate_args a, jobs *j, fairsched_status status,
                              const char *what, int line) {
    POISON_FILL(j->out);
    check_status_at(fairsched_paf_allocate(a.paf, a.weights, a.weights_len, a.curve_offsets,
                                           a.points, a.points_len, a.slots, a.alpha, a.method,
                                           a.out_fair, a.out_min, a.out_paf,
                                           a.out_fair_progress, a.out_paf_progress,
                                           a.out_totals),
                    status, what, line);
    check_at(is_poison(&j->out, sizeof j->out), "outputs left unwritten", line);
}

#define CHECK_ALLOCATE_FAILS(a, j, status, what) allocate_fails_at(a, j, status, what, __LINE__)

static jobs two_jobs(void) {
    const double increments[] = {0.5, 0.25, 0.125};
    jobs j = {.jobs = 0};
    add_job(&j, 1, 3, increments);
    add_job(&j, 2, 3, increments);
    return j;
}

/* Every pointer argument, NULL in turn, with its length still non-zero. */
static void test_allocate_null_pointers(void) {
    workspace w = workspace_new(2);
    jobs j = two_jobs();
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
/* A valid call with `field` NULL. */
#define NULL_ARGUMENT(field)                                     \
    do {                                                         \
        allocate_args a = args_of(w.paf, &j);                    \
        a.field = NULL;                                          \
        CHECK_ALLOCATE_FAILS(a, &j, null, "NULL " #field);       \
    } while (0)
    NULL_ARGUMENT(paf);
    NULL_ARGUMENT(weights);
    NULL_ARGUMENT(curve_offsets);
    NULL_ARGUMENT(points);
    NULL_ARGUMENT(out_fair);
    NULL_ARGUMENT(out_min);
    NULL_ARGUMENT(out_paf);
    NULL_ARGUMENT(out_fair_progress);
    NULL_ARGUMENT(out_paf_progress);
    NULL_ARGUMENT(out_totals);
#undef NULL_ARGUMENT
    free(w.memory);
}

/* The call's numbers that are refused: slots, alpha in [0, 1], the method. */
static const struct {
    const char *what;
    uint32_t slots;
    double alpha;
    uint32_t method;
    fairsched_status status;
} bad_numbers[] = {
    {"no slot", 0, 0.9, FAIRSCHED_PAF_FAST, FAIRSCHED_STATUS_NOT_POSITIVE},
    {"alpha above 1", 4, 1.01, FAIRSCHED_PAF_FAST, FAIRSCHED_STATUS_OUT_OF_RANGE},
    {"negative alpha", 4, -0.5, FAIRSCHED_PAF_FAST, FAIRSCHED_STATUS_OUT_OF_RANGE},
    {"NaN alpha", 4, NAN, FAIRSCHED_PAF_FAST, FAIRSCHED_STATUS_NOT_FINITE},
    {"unknown method", 4, 0.9, 7, FAIRSCHED_STATUS_OUT_OF_RANGE},
};

/* Refused jobs: two_jobs (weights 1 and 2; curves 0, 0.5, 0.75, 0.875 at points 0..3 and
 * 4..7) with one value broken. */
enum { WEIGHT, POINT, OFFSET };
static const struct {
    const char *what;
    int array; /* which array `value` goes into, at `at` */
    size_t at;
    double value;
    fairsched_status status;
} bad_jobs[] = {
    {"weight 0", WEIGHT, 1, 0, FAIRSCHED_STATUS_NOT_POSITIVE},
    {"falling curve (job 1: 0, 0.5, 0.75 then 0.1)", POINT, 7, 0.1,
     FAIRSCHED_STATUS_NOT_MONOTONE},
    {"NaN point", POINT, 2, NAN, FAIRSCHED_STATUS_NOT_FINITE},
    {"negative point", POINT, 1, -1.0, FAIRSCHED_STATUS_NEGATIVE},
    {"empty curve (job 0)", OFFSET, 1, 0, FAIRSCHED_STATUS_EMPTY},
    {"offsets ending before points_len", OFFSET, 2, 7, FAIRSCHED_STATUS_LENGTH_MISMATCH},
};

/* two_jobs broken as bad_jobs[i] says; `points_len` stays 8, whatever the offsets say. */
static jobs broken_jobs(size_t i) {
    jobs bad = two_jobs();
    const size_t at = bad_jobs[i].at;
    switch (bad_jobs[i].array) {
    case WEIGHT:
        bad.weights[at] = (uint32_t)bad_jobs[i].value;
        break;
    case POINT:
        bad.points[at] = bad_jobs[i].value;
        break;
    default:
        bad.offsets[at] = (uint32_t)bad_jobs[i].value;
        break;
    }
    return bad;
}

/* two_jobs and a third: more than a workspace for two holds. */
static jobs three_jobs(void) {
    jobs three = two_jobs();
    const double increments[] = {0.5};
    add_job(&three, 1, 1, increments);
    return three;
}

static void test_allocate_errors(void) {
    workspace w = workspace_new(2);
    jobs j = two_jobs();
    for (size_t i = 0; i < LENGTH(bad_numbers); i++) {
        allocate_args a = args_of(w.paf, &j);
        a.slots = bad_numbers[i].slots;
        a.alpha = bad_numbers[i].alpha;
        a.method = bad_numbers[i].method;
        CHECK_ALLOCATE_FAILS(a, &j, bad_numbers[i].status, bad_numbers[i].what);
    }
    for (size_t i = 0; i < LENGTH(bad_jobs); i++) {
        jobs bad = broken_jobs(i);
        allocate_args a = args_of(w.paf, &bad);
        a.points_len = 8;
        CHECK_ALLOCATE_FAILS(a, &bad, bad_jobs[i].status, bad_jobs[i].what);
    }
    jobs three = three_jobs();
    CHECK_ALLOCATE_FAILS(args_of(w.paf, &three), &three, FAIRSCHED_STATUS_CAPACITY_FULL,
                         "three jobs");
    free(w.memory);
}

/* ---- Jobs laid out once ---------------------------------------------------------------------- */

/* Jobs laid out by fairsched_paf_jobs_init `misalign` bytes into a block of heap memory. */
typedef struct {
    unsigned char *block;
    fairsched_paf_jobs *jobs;
} laid_out;

static laid_out lay_out(const jobs *j, size_t misalign) {
    size_t size;
    CHECK_OK(fairsched_paf_jobs_storage_size(j->jobs, j->offsets[j->jobs], &size));
    laid_out l = {memory_new(size + misalign), NULL};
    CHECK_OK(fairsched_paf_jobs_init(l.block + misalign, size, j->weights, j->jobs, j->offsets,
                                     j->points, j->offsets[j->jobs], &l.jobs));
    return l;
}

static fairsched_status allocate_laid_out(fairsched_paf *paf, const fairsched_paf_jobs *laid,
                                          outputs *o, uint32_t slots, double alpha,
                                          uint32_t method) {
    return fairsched_paf_allocate_jobs(paf, laid, slots, alpha, method, o->fair, o->min, o->paf,
                                       o->fair_progress, o->paf_progress, &o->totals);
}

/* Laid out at any alignment, the jobs allocate exactly as the flat call does, again and
 * again, and no longer read the arrays they were copied from. */
static void test_jobs_allocate_as_flat(void) {
    const double increments[] = {0.25, 0.25, 0.125, 0.125, 0.0625, 0.0625, 0.03125, 0.03125};
    const double steep[] = {0.125, 0.125, 0.125, 0.125, 0.09375, 0.0625, 0.0625, 0.03125};
    workspace w = workspace_new(MAX_JOBS);
    for (size_t misalign = 0; misalign < 8; misalign++) {
        for (uint32_t method = FAIRSCHED_PAF_LITERAL; method <= FAIRSCHED_PAF_FAST; method++) {
            check_context("misalignment %zu, method %u", misalign, method);
            jobs j = {.jobs = 0};
            add_job(&j, 1, 8, increments);
            add_job(&j, 3, 8, steep);
            add_job(&j, 2, 5, increments);
            CHECK_OK(allocate(w.paf, &j, 12, 0.8, method));
            laid_out l = lay_out(&j, misalign);
            memset(j.points, 0, sizeof j.points);
            for (int round = 0; round < 2; round++) {
                outputs o;
                POISON_FILL(o);
                CHECK_OK(allocate_laid_out(w.paf, l.jobs, &o, 12, 0.8, method));
                CHECK(memcmp(o.fair, j.out.fair, 3 * sizeof *o.fair) == 0);
                CHECK(memcmp(o.min, j.out.min, 3 * sizeof *o.min) == 0);
                CHECK(memcmp(o.paf, j.out.paf, 3 * sizeof *o.paf) == 0);
                CHECK(memcmp(o.paf_progress, j.out.paf_progress, 3 * sizeof(double)) == 0);
                CHECK(memcmp(o.fair_progress, j.out.fair_progress, 3 * sizeof(double)) == 0);
                CHECK(memcmp(&o.totals, &j.out.totals, sizeof o.totals) == 0);
            }
            CHECK(j.out.totals.moved > 0);
            free(l.block);
        }
    }
    check_context_clear();
    free(w.memory);
}

/* The sizes, laying out and allocating over laid-out jobs: every refusal writes nothing, the
 * memory given to a refused fairsched_paf_jobs_init included. */
static void test_jobs_errors(void) {
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    size_t size;
    POISON_FILL(size);
    CHECK_STATUS(fairsched_paf_jobs_storage_size(2, 8, NULL), null);
    CHECK_STATUS(fairsched_paf_jobs_storage_size(SIZE_MAX / 2, SIZE_MAX / 2, &size),
                 FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
    CHECK_UNWRITTEN(size);
    CHECK_OK(fairsched_paf_jobs_storage_size(2, 8, &size));

    jobs j = two_jobs();
    unsigned char *memory = memory_new(size);
    fairsched_paf_jobs *laid;
    POISON_FILL(laid);
#define INIT_FAILS(bad, memory_, memory_len, out, status)                                        \
    do {                                                                                          \
        CHECK_STATUS(fairsched_paf_jobs_init((memory_), (memory_len), (bad).weights, (bad).jobs,   \
                                             (bad).offsets, (bad).points, 8, (out)),              \
                     (status));                                                                   \
        CHECK(is_poison(memory, size));                                                           \
        CHECK_UNWRITTEN(laid);                                                                    \
    } while (0)
    INIT_FAILS(j, memory, size, NULL, null);
    INIT_FAILS(j, NULL, size, &laid, null);
    INIT_FAILS(j, memory, size / 2, &laid, FAIRSCHED_STATUS_BUFFER_TOO_SMALL);
    for (size_t i = 0; i < LENGTH(bad_jobs); i++) {
        check_context("%s", bad_jobs[i].what);
        jobs bad = broken_jobs(i);
        INIT_FAILS(bad, memory, size, &laid, bad_jobs[i].status);
    }
    check_context_clear();
    jobs no_points = two_jobs();
    CHECK_STATUS(fairsched_paf_jobs_init(memory, size, no_points.weights, 2, no_points.offsets,
                                         NULL, 8, &laid),
                 null);
    CHECK_UNWRITTEN(laid);
#undef INIT_FAILS
    free(memory);

    /* Allocating over laid-out jobs: the handles, every output, the numbers, the capacity. */
    workspace w = workspace_new(2);
    laid_out two = lay_out(&j, 0);
    jobs three = three_jobs();
    laid_out three_laid = lay_out(&three, 0);
    outputs o;
    POISON_FILL(o);
    CHECK_STATUS(allocate_laid_out(NULL, two.jobs, &o, 4, 0.9, FAIRSCHED_PAF_FAST), null);
    CHECK_STATUS(allocate_laid_out(w.paf, NULL, &o, 4, 0.9, FAIRSCHED_PAF_FAST), null);
    const fairsched_paf_jobs *handle = two.jobs;
    CHECK_STATUS(fairsched_paf_allocate_jobs(w.paf, handle, 4, 0.9, FAIRSCHED_PAF_FAST, NULL,
                                             o.min, o.paf, o.fair_progress, o.paf_progress,
                                             &o.totals),
                 null);
    CHECK_STATUS(fairsched_paf_allocate_jobs(w.paf, handle, 4, 0.9, FAIRSCHED_PAF_FAST, o.fair,
                                             NULL, o.paf, o.fair_progress, o.paf_progress,
                                             &o.totals),
                 null);
    CHECK_STATUS(fairsched_paf_allocate_jobs(w.paf, handle, 4, 0.9, FAIRSCHED_PAF_FAST, o.fair,
                                             o.min, NULL, o.fair_progress, o.paf_progress,
                                             &o.totals),
                 null);
    CHECK_STATUS(fairsched_paf_allocate_jobs(w.paf, handle, 4, 0.9, FAIRSCHED_PAF_FAST, o.fair,
                                             o.min, o.paf, NULL, o.paf_progress, &o.totals),
                 null);
    CHECK_STATUS(fairsched_paf_allocate_jobs(w.paf, handle, 4, 0.9, FAIRSCHED_PAF_FAST, o.fair,
                                             o.min, o.paf, o.fair_progress, NULL, &o.totals),
                 null);
    CHECK_STATUS(fairsched_paf_allocate_jobs(w.paf, handle, 4, 0.9, FAIRSCHED_PAF_FAST, o.fair,
                                             o.min, o.paf, o.fair_progress, o.paf_progress, NULL),
                 null);
    for (size_t i = 0; i < LENGTH(bad_numbers); i++) {
        check_context("%s", bad_numbers[i].what);
        CHECK_STATUS(allocate_laid_out(w.paf, handle, &o, bad_numbers[i].slots,
                                       bad_numbers[i].alpha, bad_numbers[i].method),
                     bad_numbers[i].status);
    }
    check_context_clear();
    CHECK_STATUS(allocate_laid_out(w.paf, three_laid.jobs, &o, 4, 0.9, FAIRSCHED_PAF_FAST),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    CHECK_UNWRITTEN(o);
    CHECK_OK(allocate_laid_out(w.paf, handle, &o, 4, 0.9, FAIRSCHED_PAF_FAST));
    CHECK(o.fair[0] + o.fair[1] == 4);
    free(three_laid.block);
    free(two.block);
    free(w.memory);
}

/* targets and running have a length each: they must agree (whichever is longer), before the
 * capacity is looked at; NULL is refused for a non-zero length, allowed for 0. */
static void test_enforce_errors(void) {
    workspace w = workspace_new(2);
    const uint32_t weights[] = {1, 1, 1}, zero_weight[] = {1, 0};
    const uint32_t targets[] = {3, 3, 3}, running[] = {0, 0, 0};
    uint32_t given[4];
    size_t assigned;
    POISON_FILL(given);
    POISON_FILL(assigned);
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    const fairsched_status mismatch = FAIRSCHED_STATUS_LENGTH_MISMATCH;
    CHECK_STATUS(fairsched_paf_enforce(NULL, weights, 2, targets, 2, running, 2, given, 4, &assigned), null);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, NULL, 2, running, 2, given, 4, &assigned),
                 null);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, targets, 2, NULL, 2, given, 4, &assigned), null);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, targets, 2, running, 2, NULL, 4, &assigned), null);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, targets, 2, running, 2, given, 4, NULL), null);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, NULL, 2, targets, 2, running, 2, given, 4, &assigned),
                 null);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 1, targets, 2, running, 2, given, 4,
                                       &assigned),
                 mismatch);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, zero_weight, 2, targets, 2, running, 2, given, 4,
                                       &assigned),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, targets, 1, running, 2, given, 4, &assigned),
                 mismatch);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, targets, 2, running, 1, given, 4, &assigned),
                 mismatch);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, NULL, 0, running, 2, given, 4, &assigned),
                 mismatch);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 2, targets, 3, running, 2, given, 4, &assigned),
                 mismatch);
    CHECK_STATUS(fairsched_paf_enforce(w.paf, weights, 3, targets, 3, running, 3, given, 4, &assigned),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    CHECK_UNWRITTEN(given);
    CHECK_UNWRITTEN(assigned);

    /* No job, or no slot to give (NULL allowed for both): nothing assigned. */
    CHECK_OK(fairsched_paf_enforce(w.paf, NULL, 0, NULL, 0, NULL, 0, given, 4, &assigned));
    CHECK(assigned == 0);
    CHECK_UNWRITTEN(given);
    CHECK_OK(fairsched_paf_enforce(w.paf, weights, 2, targets, 2, running, 2, NULL, 0, &assigned));
    CHECK(assigned == 0);
    free(w.memory);
}

/* slots and runtimes have a length each: they must agree. */
static void test_ernest_fit_errors(void) {
    const uint32_t slots[] = {1, 2, 4, 0};
    const double runtimes[] = {1.0, 0.75, 0.5, 0.5};
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    const fairsched_status mismatch = FAIRSCHED_STATUS_LENGTH_MISMATCH;
    double a[4];
    POISON_FILL(a);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 3, runtimes, 3, a),
                 FAIRSCHED_STATUS_UNDERDETERMINED);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 4, runtimes, 4, a),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 0, runtimes, 0, a), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_paf_ernest_fit(NULL, 0, NULL, 0, a), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 3, runtimes, 4, a), mismatch);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 4, runtimes, 3, a), mismatch);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 0, runtimes, 3, a), mismatch);
    CHECK_STATUS(fairsched_paf_ernest_fit(NULL, 3, runtimes, 3, a), null);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 3, NULL, 3, a), null);
    CHECK_STATUS(fairsched_paf_ernest_fit(slots, 3, runtimes, 3, NULL), null);
    CHECK_UNWRITTEN(a);
}

static void test_ernest_tabulate_errors(void) {
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
}

/* curve_check, and concave_envelope, whose input and output have a length each: they must
 * agree. */
static void test_curve_errors(void) {
    const double decreasing[] = {0.0, 0.5, 0.25, 0.75}, good[] = {0.0, 0.5, 0.75, 0.875};
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    const fairsched_status mismatch = FAIRSCHED_STATUS_LENGTH_MISMATCH;
    uint32_t concave_from;
    POISON_FILL(concave_from);
    CHECK_STATUS(fairsched_paf_curve_check(decreasing, 4, &concave_from),
                 FAIRSCHED_STATUS_NOT_MONOTONE);
    CHECK_STATUS(fairsched_paf_curve_check(decreasing, 0, &concave_from), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_paf_curve_check(NULL, 4, &concave_from), null);
    CHECK_STATUS(fairsched_paf_curve_check(decreasing, 4, NULL), null);
    CHECK_UNWRITTEN(concave_from);

    double envelope[5];
    POISON_FILL(envelope);
    CHECK_STATUS(fairsched_paf_concave_envelope(decreasing, 4, envelope, 4),
                 FAIRSCHED_STATUS_NOT_MONOTONE);
    CHECK_STATUS(fairsched_paf_concave_envelope(good, 0, envelope, 0), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_paf_concave_envelope(good, 4, envelope, 3), mismatch);
    CHECK_STATUS(fairsched_paf_concave_envelope(good, 4, envelope, 5), mismatch);
    CHECK_STATUS(fairsched_paf_concave_envelope(good, 3, envelope, 4), mismatch);
    CHECK_STATUS(fairsched_paf_concave_envelope(good, 4, NULL, 0), mismatch);
    CHECK_STATUS(fairsched_paf_concave_envelope(NULL, 4, envelope, 4), null);
    CHECK_STATUS(fairsched_paf_concave_envelope(good, 4, NULL, 4), null);
    CHECK_UNWRITTEN(envelope);
}

/* ---- Curves from task durations --------------------------------------------------------------- */

/* The curve_from_tasks cases of tests/vectors/paf.json, by hand (no JSON reader here): 4, 2, 6
 * and 2 s with warm tasks taking half (JCT 9, 5, 6, 6 on 1-4 slots), the same without warm-up
 * (14, 8, 6, 6), and a first task of 0 s whose warm slot, free at 0, goes before a cold one. */
static void test_curve_from_tasks(void) {
    const double tasks[] = {4, 2, 6, 2}, zero_first[] = {0, 6, 3};
    double scratch[4], curve[5], shortest = 0;
    CHECK_OK(fairsched_paf_curve_from_tasks(tasks, 4, 2.0, scratch, 4, curve, 5, &shortest));
    CHECK(shortest == 5.0 && curve[0] == 0.0 && curve[1] == 5.0 / 9.0 && curve[2] == 1.0 &&
          curve[3] == 1.0 && curve[4] == 1.0);
    CHECK_OK(fairsched_paf_curve_from_tasks(tasks, 4, 1.0, scratch, 4, curve, 5, &shortest));
    CHECK(shortest == 6.0 && curve[1] == 6.0 / 14.0 && curve[2] == 0.75 && curve[3] == 1.0);
    CHECK_OK(fairsched_paf_curve_from_tasks(zero_first, 3, 3.0, scratch, 3, curve, 4, &shortest));
    CHECK(shortest == 3.0 && curve[1] == 1.0 && curve[3] == 1.0);
    /* A longer scratch is fine. */
    CHECK_OK(fairsched_paf_curve_from_tasks(tasks, 1, 8.0, scratch, 4, curve, 2, &shortest));
    CHECK(shortest == 4.0 && curve[0] == 0.0 && curve[1] == 1.0);
}

/* Every invalid input: its status, with the curve and the shortest JCT left unwritten. */
static void test_curve_from_tasks_errors(void) {
    const double tasks[] = {4, 2, 6, 2}, nan_task[] = {1, NAN}, negative[] = {1, -0.5};
    const double huge[] = {DBL_MAX, DBL_MAX}, zeros[] = {0, 0};
    double scratch[4], curve[6], shortest;
    POISON_FILL(curve);
    POISON_FILL(shortest);
    const struct {
        const char *what;
        const double *durations;
        size_t durations_len;
        double warmup;
        size_t scratch_len, points_len;
        fairsched_status status;
    } cases[] = {
        {"no task", tasks, 0, 2.0, 4, 1, FAIRSCHED_STATUS_EMPTY},
        {"NaN duration", nan_task, 2, 2.0, 4, 3, FAIRSCHED_STATUS_NOT_FINITE},
        {"negative duration", negative, 2, 2.0, 4, 3, FAIRSCHED_STATUS_NEGATIVE},
        {"durations summing past DBL_MAX", huge, 2, 2.0, 4, 3, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {"warm-up below 1", tasks, 4, 0.5, 4, 5, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {"NaN warm-up", tasks, 4, NAN, 4, 5, FAIRSCHED_STATUS_NOT_FINITE},
        {"infinite warm-up", tasks, 4, INFINITY, 4, 5, FAIRSCHED_STATUS_NOT_FINITE},
        {"curve too short", tasks, 4, 2.0, 4, 4, FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {"curve too long", tasks, 4, 2.0, 4, 6, FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {"scratch too short", tasks, 4, 2.0, 3, 5, FAIRSCHED_STATUS_CAPACITY_FULL},
        {"no time", zeros, 2, 2.0, 4, 3, FAIRSCHED_STATUS_NOT_POSITIVE},
    };
    for (size_t i = 0; i < LENGTH(cases); i++) {
        check_context("%s", cases[i].what);
        CHECK_STATUS(fairsched_paf_curve_from_tasks(cases[i].durations, cases[i].durations_len,
                                                    cases[i].warmup, scratch,
                                                    cases[i].scratch_len, curve,
                                                    cases[i].points_len, &shortest),
                     cases[i].status);
    }
    check_context_clear();
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    CHECK_STATUS(fairsched_paf_curve_from_tasks(NULL, 4, 2.0, scratch, 4, curve, 5, &shortest),
                 null);
    CHECK_STATUS(fairsched_paf_curve_from_tasks(tasks, 4, 2.0, NULL, 4, curve, 5, &shortest),
                 null);
    CHECK_STATUS(fairsched_paf_curve_from_tasks(tasks, 4, 2.0, scratch, 4, NULL, 5, &shortest),
                 null);
    CHECK_STATUS(fairsched_paf_curve_from_tasks(tasks, 4, 2.0, scratch, 4, curve, 5, NULL), null);
    /* NULL with a length of 0 is an empty array: no task. */
    CHECK_STATUS(fairsched_paf_curve_from_tasks(NULL, 0, 2.0, NULL, 0, curve, 1, &shortest),
                 FAIRSCHED_STATUS_EMPTY);
    CHECK_UNWRITTEN(curve);
    CHECK_UNWRITTEN(shortest);
}

/* ---- Runner ---------------------------------------------------------------------------------- */

static const test_case tests[] = {
    {"fig6_two_jobs", test_fig6_two_jobs},
    {"testbed_fair_shares", test_testbed_fair_shares},
    {"enforce", test_enforce},
    {"ernest", test_ernest},
    {"allocate_null_pointers", test_allocate_null_pointers},
    {"allocate_errors", test_allocate_errors},
    {"jobs_allocate_as_flat", test_jobs_allocate_as_flat},
    {"jobs_errors", test_jobs_errors},
    {"enforce_errors", test_enforce_errors},
    {"ernest_fit_errors", test_ernest_fit_errors},
    {"ernest_tabulate_errors", test_ernest_tabulate_errors},
    {"curve_errors", test_curve_errors},
    {"curve_from_tasks", test_curve_from_tasks},
    {"curve_from_tasks_errors", test_curve_from_tasks_errors},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

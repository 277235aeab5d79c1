/*
 * Tests the C ABI of DRR and MinFrag: hand-built machines with exact fractions (t* set by the
 * new executor, then by a running one), Fig. 6 of the Elasecutor paper as reconstructed in
 * tests/drr_paper.rs, reprovisioning and its trigger, then every export with invalid input:
 * each failed call must return the expected status and leave every output, the in-place series
 * included, byte-identical. (The timeline and the predictor have their own files.)
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Capacity (4, 8) over four steps. */
static const double CAPACITY[2] = {4, 8};
static const double AVAILABLE[8] = {3, 6, 2, 5, 4, 8, 1, 2};

static void test_machine(void) {
    double drr = 0, trc = 0;
    CHECK_OK(fairsched_drr_machine(CAPACITY, 2, AVAILABLE, 8, 4, &drr, &trc));
    /* CPU (3+2+4+1)/16 = 5/8, memory (6+5+8+2)/32 = 21/32. */
    CHECK(drr == 21.0 / 32.0);
    CHECK(trc == 5.0 / 8.0 + 21.0 / 32.0);
}

/* The score of `demand` (over two kinds) on the machine with `t_run`. */
static double score_on(const double *demand, size_t len, uint32_t t_run, uint32_t metric) {
    bool fits = false;
    double score = NAN;
    fairsched_status status = fairsched_drr_score_machines(
        CAPACITY, 2, 2, AVAILABLE, 8, &t_run, 1, demand, len, metric, &fits, 1, &score, 1);
    CHECK_OK(status);
    return fits ? score : NAN;
}

static void test_t_star(void) {
    /* T_i = 2 < t_run = 4: CPU ((3-1)+(2-2))/8 = 1/4, memory ((6-2)+(5-1))/16 = 1/2. */
    const double first[4] = {1, 2, 2, 1};
    CHECK(score_on(first, 4, 4, FAIRSCHED_DRR_METRIC_DRR) == 0.5);
    CHECK(score_on(first, 4, 4, FAIRSCHED_DRR_METRIC_TRC) == 0.75);
    CHECK(score_on(first, 4, 4, FAIRSCHED_DRR_METRIC_TETRIS) == 9.0 / 16.0);
    /* t_run = 1 < T_i = 3: CPU (3-1)/4 = 1/2, memory (6-1)/8 = 5/8. */
    const double second[6] = {1, 1, 1, 1, 1, 1};
    CHECK(score_on(second, 6, 1, FAIRSCHED_DRR_METRIC_DRR) == 5.0 / 8.0);
    CHECK(score_on(second, 6, 4, FAIRSCHED_DRR_METRIC_DRR) == 16.0 / 24.0);
}

/* Fig. 6 reconstructed (see tests/drr_paper.rs). */
static void test_fig6(void) {
    const double capacity[4] = {16, 64, 10, 500};
    double available[36];
    for (int t = 0; t < 8; t++) {
        memcpy(&available[t * 4], (double[]){12, 40, 6, 300}, sizeof(double[4]));
    }
    memcpy(&available[32], capacity, sizeof capacity);
    const double demands[64] = {
        5, 17, 6, 300, 5, 17, 6, 200, 5, 17, 6, 200, 4, 16, 6, 200, /* executor 1 */
        4, 16, 5, 200, 4, 16, 5, 200, 4, 16, 5, 200,
        6, 20, 6, 300, 6, 20, 5, 300, 6, 20, 5, 300, 6, 20, 5, 300, /* executor 2 */
        5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 4, 250, 4, 8, 2, 100,
    };
    const uint32_t steps[2] = {7, 9};
    uint32_t placed[2] = {99, 99};
    fairsched_drr_heartbeat beat;
    CHECK_OK(fairsched_drr_min_frag(capacity, 4, available, 36, 8, demands, 64, steps, 2,
                                    FAIRSCHED_DRR_METRIC_DRR, placed, 2, &beat));
    CHECK(beat.placed == 1 && placed[0] == 1);
    CHECK(beat.t_run == 8);
    CHECK(beat.drr == 13.0 / 32.0);
    CHECK(available[2] == 0 && available[3] == 0);
}

static void test_reprovision(void) {
    double remaining[6] = {2, 4, 1, 3, 6, 5};
    CHECK_OK(fairsched_drr_reprovision(remaining, 6, 3, (double[]){3, 1, 7}, 3,
                                       (double[]){2, 4, 0}, 3));
    const double want[6] = {3, 1, 1, 4.5, 1.5, 5};
    CHECK(memcmp(remaining, want, sizeof want) == 0);
}

/* §III-C: due once a stage runs longer than rho times its expected time, strictly. */
static void test_reprovision_due(void) {
    bool due[4];
    size_t count = 99;
    CHECK_OK(fairsched_drr_reprovision_due((double[]){10, 10.5, 12, 0}, 4,
                                           (double[]){10, 10, 10, 10}, 4, FAIRSCHED_DRR_RHO,
                                           due, 4, &count));
    CHECK(count == 1 && !due[0] && !due[1] && due[2] && !due[3]);
    /* Exactly rho times is not due; the next double above is. */
    CHECK_OK(fairsched_drr_reprovision_due((double[]){3, nextafter(3, 4)}, 2, (double[]){2, 2},
                                           2, 1.5, due, 2, &count));
    CHECK(count == 1 && !due[0] && due[1]);
    CHECK_OK(fairsched_drr_reprovision_due(NULL, 0, NULL, 0, FAIRSCHED_DRR_RHO, NULL, 0, &count));
    CHECK(count == 0);
}

/* ---- Invalid input: the status, and every output untouched ---------------------------------- */

/* Checks that fairsched_drr_machine fails with `want` and writes neither output, reporting a
 * failure at `line` (the caller's). */
static void machine_fails_at(int line, fairsched_status want, const double *capacity,
                             size_t kinds, const double *available, size_t len, uint32_t t_run,
                             bool null_out) {
    double drr, trc;
    POISON_FILL(drr);
    POISON_FILL(trc);
    check_status_at(fairsched_drr_machine(capacity, kinds, available, len, t_run,
                                          null_out ? NULL : &drr, &trc),
                    want, "fairsched_drr_machine", line);
    check_at(is_poison(&drr, sizeof drr) && is_poison(&trc, sizeof trc),
             "is_poison(&drr, sizeof drr) && is_poison(&trc, sizeof trc)", line);
}

#define MACHINE_FAILS(...) machine_fails_at(__LINE__, __VA_ARGS__)

static void test_machine_errors(void) {
    const double bad_nan[2] = {NAN, 1}, bad_negative[2] = {-1, 1}, too_much[2] = {5, 1};
    const double zero_capacity[2] = {0, 8};
    MACHINE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, NULL, 2, AVAILABLE, 8, 4, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, CAPACITY, 2, NULL, 8, 4, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, CAPACITY, 2, AVAILABLE, 8, 4, true);
    MACHINE_FAILS(FAIRSCHED_STATUS_NOT_FINITE, CAPACITY, 2, bad_nan, 2, 1, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_NEGATIVE, CAPACITY, 2, bad_negative, 2, 1, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, CAPACITY, 2, too_much, 2, 1, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_NOT_POSITIVE, zero_capacity, 2, AVAILABLE, 8, 4, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, CAPACITY, 2, AVAILABLE, 8, 0, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, CAPACITY, 2, AVAILABLE, 8, 5, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_LENGTH_MISMATCH, CAPACITY, 2, AVAILABLE, 7, 3, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_EMPTY, CAPACITY, 0, AVAILABLE, 8, 4, false);
    MACHINE_FAILS(FAIRSCHED_STATUS_EMPTY, CAPACITY, 2, AVAILABLE, 0, 4, false);
}

/* A heartbeat on the (4, 8) machine that must fail with `want` and change nothing, reporting a
 * failure at `line` (the caller's). */
static void min_frag_fails_at(int line, fairsched_status want, const double *demands,
                              size_t demands_len, const uint32_t *steps, size_t executors,
                              uint32_t metric, size_t placements_len, bool null_out) {
    double available[8];
    uint32_t placed[4];
    fairsched_drr_heartbeat beat;
    memcpy(available, AVAILABLE, sizeof available);
    POISON_FILL(placed);
    POISON_FILL(beat);
    check_status_at(fairsched_drr_min_frag(CAPACITY, 2, available, 8, 4, demands, demands_len,
                                           steps, executors, metric, placed, placements_len,
                                           null_out ? NULL : &beat),
                    want, "fairsched_drr_min_frag", line);
    check_at(memcmp(available, AVAILABLE, sizeof available) == 0,
             "memcmp(available, AVAILABLE, sizeof available) == 0", line);
    check_at(is_poison(placed, sizeof placed) && is_poison(&beat, sizeof beat),
             "is_poison(placed, sizeof placed) && is_poison(&beat, sizeof beat)", line);
}

#define MIN_FRAG_FAILS(...) min_frag_fails_at(__LINE__, __VA_ARGS__)

static void test_min_frag_errors(void) {
    const double ones[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const double with_nan[2] = {1, NAN}, with_negative[2] = {1, -1};
    const uint32_t one[1] = {1}, two[2] = {1, 1}, long_one[1] = {5}, none[1] = {0};
    const uint32_t drr = FAIRSCHED_DRR_METRIC_DRR;
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_NULL_POINTER, NULL, 2, one, 1, drr, 4, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_NULL_POINTER, ones, 2, NULL, 1, drr, 4, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_NULL_POINTER, ones, 2, one, 1, drr, 4, true);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_NOT_FINITE, with_nan, 2, one, 1, drr, 4, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_NEGATIVE, with_negative, 2, one, 1, drr, 4, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, ones, 10, long_one, 1, drr, 4, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_EMPTY, ones, 0, none, 1, drr, 4, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_LENGTH_MISMATCH, ones, 3, two, 2, drr, 4, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_LENGTH_MISMATCH, ones, 4, two, 2, drr, 1, false);
    MIN_FRAG_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, ones, 2, one, 1, 3, 4, false);
    /* An out-parameter NULL with room asked for. */
    double available[8];
    memcpy(available, AVAILABLE, sizeof available);
    fairsched_drr_heartbeat beat;
    CHECK_STATUS(fairsched_drr_min_frag(CAPACITY, 2, available, 8, 4, ones, 2, one, 1, drr, NULL,
                                        1, &beat),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK(memcmp(available, AVAILABLE, sizeof available) == 0);
}

/* Scoring on two (4, 8) machines that must fail with `want` and write nothing, reporting a
 * failure at `line` (the caller's). */
static void score_fails_at(int line, fairsched_status want, const double *demand,
                           size_t demand_len, const uint32_t *t_runs, size_t machines,
                           uint32_t metric, size_t out_len, bool null_fits) {
    bool fits[2];
    double scores[2];
    POISON_FILL(fits);
    POISON_FILL(scores);
    const double capacities[4] = {4, 8, 4, 8};
    double available[16];
    memcpy(available, AVAILABLE, sizeof AVAILABLE);
    memcpy(&available[8], AVAILABLE, sizeof AVAILABLE);
    check_status_at(fairsched_drr_score_machines(capacities, 2 * machines, 2, available,
                                                 8 * machines, t_runs, machines, demand,
                                                 demand_len, metric,
                                                 null_fits ? NULL : fits, out_len, scores,
                                                 out_len),
                    want, "fairsched_drr_score_machines", line);
    check_at(is_poison(fits, sizeof fits) && is_poison(scores, sizeof scores),
             "is_poison(fits, sizeof fits) && is_poison(scores, sizeof scores)", line);
}

#define SCORE_FAILS(...) score_fails_at(__LINE__, __VA_ARGS__)

static void test_score_errors(void) {
    const double demand[2] = {1, 1}, with_nan[2] = {NAN, 1}, long_demand[10] = {0};
    const uint32_t t_runs[2] = {4, 4}, bad_t_runs[2] = {4, 9};
    const uint32_t drr = FAIRSCHED_DRR_METRIC_DRR;
    SCORE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, NULL, 2, t_runs, 2, drr, 2, false);
    SCORE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, demand, 2, NULL, 2, drr, 2, false);
    SCORE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, demand, 2, t_runs, 2, drr, 2, true);
    SCORE_FAILS(FAIRSCHED_STATUS_NOT_FINITE, with_nan, 2, t_runs, 2, drr, 2, false);
    SCORE_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, long_demand, 10, t_runs, 2, drr, 2, false);
    SCORE_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, demand, 2, bad_t_runs, 2, drr, 2, false);
    SCORE_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, demand, 2, t_runs, 2, 7, 2, false);
    SCORE_FAILS(FAIRSCHED_STATUS_LENGTH_MISMATCH, demand, 2, t_runs, 2, drr, 1, false);
    SCORE_FAILS(FAIRSCHED_STATUS_EMPTY, demand, 2, t_runs, 0, drr, 2, false);
}

static void test_reprovision_errors(void) {
    double remaining[4] = {1, 2, 3, 4};
    const double keep[4] = {1, 2, 3, 4};
    const double one[2] = {1, 1}, huge[2] = {1e308, 1}, tiny[2] = {1e-10, 1};
    CHECK_STATUS(fairsched_drr_reprovision(NULL, 4, 2, one, 2, one, 2), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 4, 2, NULL, 2, one, 2),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 4, 2, (double[]){-1, 1}, 2, one, 2),
                 FAIRSCHED_STATUS_NEGATIVE);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 4, 2, one, 2, (double[]){INFINITY, 1}, 2),
                 FAIRSCHED_STATUS_NOT_FINITE);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 4, 2, huge, 2, tiny, 2),
                 FAIRSCHED_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 3, 2, one, 2, one, 2),
                 FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 4, 0, one, 2, one, 2), FAIRSCHED_STATUS_EMPTY);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 4, 2, one, 1, one, 2),
                 FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK_STATUS(fairsched_drr_reprovision(remaining, 4, 2, one, 2, one, 1),
                 FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK(memcmp(remaining, keep, sizeof keep) == 0);
}

/* The trigger over two executors that must fail with `want` and write nothing. */
static void due_fails_at(int line, fairsched_status want, const double *elapsed,
                         const double *expected, size_t expected_len, double rho,
                         size_t due_len, bool null_count) {
    bool due[2];
    size_t count;
    POISON_FILL(due);
    POISON_FILL(count);
    check_status_at(fairsched_drr_reprovision_due(elapsed, 2, expected, expected_len, rho, due,
                                                  due_len, null_count ? NULL : &count),
                    want, "fairsched_drr_reprovision_due", line);
    check_at(is_poison(due, sizeof due) && is_poison(&count, sizeof count),
             "is_poison(due, sizeof due) && is_poison(&count, sizeof count)", line);
}

#define DUE_FAILS(...) due_fails_at(__LINE__, __VA_ARGS__)

static void test_reprovision_due_errors(void) {
    const double ones[2] = {1, 1};
    const double rho = FAIRSCHED_DRR_RHO;
    DUE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, NULL, ones, 2, rho, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, ones, NULL, 2, rho, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_NULL_POINTER, ones, ones, 2, rho, 2, true);
    DUE_FAILS(FAIRSCHED_STATUS_LENGTH_MISMATCH, ones, ones, 1, rho, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_LENGTH_MISMATCH, ones, ones, 2, rho, 1, false);
    DUE_FAILS(FAIRSCHED_STATUS_NOT_FINITE, ones, ones, 2, NAN, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_OUT_OF_RANGE, ones, ones, 2, 0.99, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_NEGATIVE, (double[]){1, -1}, ones, 2, rho, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_NOT_FINITE, (double[]){INFINITY, 1}, ones, 2, rho, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_NOT_POSITIVE, ones, (double[]){1, 0}, 2, rho, 2, false);
    DUE_FAILS(FAIRSCHED_STATUS_NEGATIVE, ones, (double[]){-1, 1}, 2, rho, 2, false);
    /* The flags NULL with room asked for. */
    size_t count;
    POISON_FILL(count);
    CHECK_STATUS(fairsched_drr_reprovision_due(ones, 2, ones, 2, rho, NULL, 2, &count),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(count);
}

/* ---- Runner ---------------------------------------------------------------------------------- */

static const test_case tests[] = {
    {"machine", test_machine},
    {"t_star", test_t_star},
    {"fig6", test_fig6},
    {"reprovision", test_reprovision},
    {"reprovision_due", test_reprovision_due},
    {"machine_errors", test_machine_errors},
    {"min_frag_errors", test_min_frag_errors},
    {"score_errors", test_score_errors},
    {"reprovision_errors", test_reprovision_errors},
    {"reprovision_due_errors", test_reprovision_due_errors},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

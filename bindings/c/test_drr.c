/*
 * Tests the C ABI of DRR and MinFrag: hand-built machines with exact fractions (t* set by the
 * new executor, then by a running one), Fig. 6 of the Elasecutor paper as reconstructed in
 * tests/drr_paper.rs (also over executors laid out once: the same placements at any
 * alignment), reprovisioning and its trigger, then every export with invalid input:
 * each failed call must return the expected status and leave every output, the in-place series
 * included, byte-identical. (The timeline and the predictor have their own files.)
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdint.h>
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

/* Fig. 6 reconstructed (see tests/drr_paper.rs): a machine of four kinds over eight steps, and
 * two pending executors of 7 and 9 steps. */
static const double FIG6_CAPACITY[4] = {16, 64, 10, 500};
static const double FIG6_DEMANDS[64] = {
    5, 17, 6, 300, 5, 17, 6, 200, 5, 17, 6, 200, 4, 16, 6, 200, /* executor 1 */
    4, 16, 5, 200, 4, 16, 5, 200, 4, 16, 5, 200,
    6, 20, 6, 300, 6, 20, 5, 300, 6, 20, 5, 300, 6, 20, 5, 300, /* executor 2 */
    5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 4, 250, 4, 8, 2, 100,
};
static const uint32_t FIG6_STEPS[2] = {7, 9};

/* Fig. 6's available series: (12, 40, 6, 300) for eight steps, then the whole machine. */
static void fig6_available(double available[36]) {
    for (int t = 0; t < 8; t++) {
        memcpy(&available[t * 4], (double[]){12, 40, 6, 300}, sizeof(double[4]));
    }
    memcpy(&available[32], FIG6_CAPACITY, sizeof FIG6_CAPACITY);
}

static void test_fig6(void) {
    double available[36];
    fig6_available(available);
    uint32_t placed[2] = {99, 99};
    fairsched_drr_heartbeat beat;
    CHECK_OK(fairsched_drr_min_frag(FIG6_CAPACITY, 4, available, 36, 8, FIG6_DEMANDS, 64,
                                    FIG6_STEPS, 2, FAIRSCHED_DRR_METRIC_DRR, placed, 2, &beat));
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

/* What a heartbeat on the (4, 8) machine writes: the series (fresh) and the outputs (poisoned). */
typedef struct {
    double available[8];
    uint32_t placed[4];
    fairsched_drr_heartbeat beat;
} heartbeat_outputs;

static heartbeat_outputs fresh_outputs(void) {
    heartbeat_outputs o;
    memcpy(o.available, AVAILABLE, sizeof o.available);
    POISON_FILL(o.placed);
    POISON_FILL(o.beat);
    return o;
}

/* Fails the running test at `line` unless a refused heartbeat left `o` as fresh_outputs made it. */
static void check_unchanged_at(int line, const heartbeat_outputs *o) {
    check_at(memcmp(o->available, AVAILABLE, sizeof o->available) == 0,
             "memcmp(available, AVAILABLE, sizeof available) == 0", line);
    check_at(is_poison(o->placed, sizeof o->placed) && is_poison(&o->beat, sizeof o->beat),
             "is_poison(placed, sizeof placed) && is_poison(&beat, sizeof beat)", line);
}

/* A heartbeat on the (4, 8) machine that must fail with `want` and change nothing, reporting a
 * failure at `line` (the caller's). */
static void min_frag_fails_at(int line, fairsched_status want, const double *demands,
                              size_t demands_len, const uint32_t *steps, size_t executors,
                              uint32_t metric, size_t placements_len, bool null_out) {
    heartbeat_outputs o = fresh_outputs();
    check_status_at(fairsched_drr_min_frag(CAPACITY, 2, o.available, 8, 4, demands, demands_len,
                                           steps, executors, metric, o.placed, placements_len,
                                           null_out ? NULL : &o.beat),
                    want, "fairsched_drr_min_frag", line);
    check_unchanged_at(line, &o);
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

/* ---- Executors laid out once ----------------------------------------------------------------- */

/* Executors laid out by fairsched_drr_executors_init `misalign` bytes into a block of heap
 * memory. */
typedef struct {
    unsigned char *block;
    fairsched_drr_executors *executors;
} laid_out;

static laid_out lay_out(const double *demands, size_t demands_len, const uint32_t *steps,
                        size_t executors, size_t kinds, size_t misalign) {
    size_t size;
    CHECK_OK(fairsched_drr_executors_storage_size(demands_len, executors, &size));
    laid_out l = {memory_new(size + misalign), NULL};
    CHECK_OK(fairsched_drr_executors_init(l.block + misalign, size, demands, demands_len, steps,
                                          executors, kinds, &l.executors));
    return l;
}

/* Fig. 6's executors laid out at any alignment place exactly as the flat call does, under every
 * metric, heartbeat after heartbeat on the series each leaves. */
static void test_fig6_executors(void) {
    for (size_t misalign = 0; misalign < 8; misalign++) {
        laid_out l = lay_out(FIG6_DEMANDS, 64, FIG6_STEPS, 2, 4, misalign);
        for (uint32_t metric = FAIRSCHED_DRR_METRIC_DRR; metric <= FAIRSCHED_DRR_METRIC_TETRIS;
             metric++) {
            check_context("misalignment %zu, metric %u", misalign, metric);
            double flat[36], laid[36];
            fig6_available(flat);
            fig6_available(laid);
            for (int round = 0; round < 2; round++) {
                uint32_t flat_placed[2], laid_placed[2];
                fairsched_drr_heartbeat flat_beat, laid_beat;
                POISON_FILL(flat_placed);
                POISON_FILL(laid_placed);
                POISON_FILL(flat_beat);
                POISON_FILL(laid_beat);
                CHECK_OK(fairsched_drr_min_frag(FIG6_CAPACITY, 4, flat, 36, 8, FIG6_DEMANDS, 64,
                                                FIG6_STEPS, 2, metric, flat_placed, 2,
                                                &flat_beat));
                CHECK_OK(fairsched_drr_min_frag_executors(FIG6_CAPACITY, 4, laid, 36, 8,
                                                          l.executors, metric, laid_placed, 2,
                                                          &laid_beat));
                CHECK(memcmp(&flat_beat, &laid_beat, sizeof flat_beat) == 0);
                CHECK(memcmp(flat_placed, laid_placed, flat_beat.placed * sizeof *flat_placed) ==
                      0);
                CHECK(memcmp(flat, laid, sizeof flat) == 0);
                CHECK(flat_beat.placed == (round == 0 ? 1 : 0));
            }
        }
        free(l.block);
    }
    check_context_clear();
}

/* Laying executors out refuses what fairsched_drr_min_frag refuses, with the same statuses,
 * and writes neither the memory nor the handle. */
static void test_executors_init_errors(void) {
    size_t size;
    POISON_FILL(size);
    CHECK_STATUS(fairsched_drr_executors_storage_size(2, 1, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_drr_executors_storage_size(SIZE_MAX / 2, SIZE_MAX / 2, &size),
                 FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
    CHECK_UNWRITTEN(size);
    CHECK_OK(fairsched_drr_executors_storage_size(12, 2, &size));

    const double ones[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const double with_nan[2] = {1, NAN}, with_negative[2] = {1, -1};
    const uint32_t one[1] = {1}, two[2] = {1, 1}, none[1] = {0};
    const struct {
        const char *what;
        bool null_memory;
        size_t memory_len;
        const double *demands;
        size_t demands_len;
        const uint32_t *steps;
        size_t executors, kinds;
        fairsched_status status;
    } cases[] = {
        {"NULL memory", true, 0, ones, 2, one, 1, 2, FAIRSCHED_STATUS_NULL_POINTER},
        {"NULL demands", false, 0, NULL, 2, one, 1, 2, FAIRSCHED_STATUS_NULL_POINTER},
        {"NULL steps", false, 0, ones, 2, NULL, 1, 2, FAIRSCHED_STATUS_NULL_POINTER},
        {"NaN demand", false, 0, with_nan, 2, one, 1, 2, FAIRSCHED_STATUS_NOT_FINITE},
        {"negative demand", false, 0, with_negative, 2, one, 1, 2, FAIRSCHED_STATUS_NEGATIVE},
        {"an executor of no step", false, 0, ones, 0, none, 1, 2, FAIRSCHED_STATUS_EMPTY},
        {"demands not the steps' length", false, 0, ones, 3, two, 2, 2,
         FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {"no kind", false, 0, ones, 2, one, 1, 0, FAIRSCHED_STATUS_EMPTY},
        {"nine kinds", false, 0, ones, 9, one, 1, 9, FAIRSCHED_STATUS_CAPACITY_FULL},
        {"memory too small", false, 8, ones, 4, two, 2, 2, FAIRSCHED_STATUS_BUFFER_TOO_SMALL},
    };
    unsigned char *memory = memory_new(size);
    fairsched_drr_executors *executors;
    POISON_FILL(executors);
    for (size_t i = 0; i < LENGTH(cases); i++) {
        check_context("%s", cases[i].what);
        CHECK_STATUS(fairsched_drr_executors_init(
                         cases[i].null_memory ? NULL : memory,
                         cases[i].memory_len ? cases[i].memory_len : size, cases[i].demands,
                         cases[i].demands_len, cases[i].steps, cases[i].executors,
                         cases[i].kinds, &executors),
                     cases[i].status);
        CHECK(is_poison(memory, size));
        CHECK_UNWRITTEN(executors);
    }
    check_context_clear();
    CHECK_STATUS(fairsched_drr_executors_init(memory, size, ones, 2, one, 1, 2, NULL),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK(is_poison(memory, size));
    free(memory);
}

/* A heartbeat over laid-out executors on the (4, 8) machine that must fail with `want` and
 * change nothing, reporting a failure at `line` (the caller's). */
static void executors_fail_at(int line, fairsched_status want,
                              const fairsched_drr_executors *pending, uint32_t metric,
                              size_t placements_len, bool null_out) {
    heartbeat_outputs o = fresh_outputs();
    check_status_at(fairsched_drr_min_frag_executors(CAPACITY, 2, o.available, 8, 4, pending,
                                                     metric, o.placed, placements_len,
                                                     null_out ? NULL : &o.beat),
                    want, "fairsched_drr_min_frag_executors", line);
    check_unchanged_at(line, &o);
}

#define EXECUTORS_FAIL(...) executors_fail_at(__LINE__, __VA_ARGS__)

/* Laid-out executors are checked against the machine only: its kinds and its horizon. */
static void test_min_frag_executors_errors(void) {
    const double ones[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const uint32_t two[2] = {1, 1}, long_one[1] = {5};
    const uint32_t drr = FAIRSCHED_DRR_METRIC_DRR;
    laid_out fitting = lay_out(ones, 4, two, 2, 2, 0);
    laid_out one_kind = lay_out(ones, 2, two, 2, 1, 0);
    laid_out too_long = lay_out(ones, 10, long_one, 1, 2, 0);
    EXECUTORS_FAIL(FAIRSCHED_STATUS_NULL_POINTER, NULL, drr, 4, false);
    EXECUTORS_FAIL(FAIRSCHED_STATUS_NULL_POINTER, fitting.executors, drr, 4, true);
    EXECUTORS_FAIL(FAIRSCHED_STATUS_OUT_OF_RANGE, fitting.executors, 3, 4, false);
    EXECUTORS_FAIL(FAIRSCHED_STATUS_LENGTH_MISMATCH, one_kind.executors, drr, 4, false);
    EXECUTORS_FAIL(FAIRSCHED_STATUS_OUT_OF_RANGE, too_long.executors, drr, 4, false);
    EXECUTORS_FAIL(FAIRSCHED_STATUS_LENGTH_MISMATCH, fitting.executors, drr, 1, false);
    double available[8];
    memcpy(available, AVAILABLE, sizeof available);
    fairsched_drr_heartbeat beat;
    CHECK_STATUS(fairsched_drr_min_frag_executors(CAPACITY, 2, available, 8, 4, fitting.executors,
                                                  drr, NULL, 2, &beat),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(fairsched_drr_min_frag_executors(NULL, 2, available, 8, 4, fitting.executors,
                                                  drr, NULL, 2, &beat),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK(memcmp(available, AVAILABLE, sizeof available) == 0);
    /* And the valid call places both. */
    uint32_t placed[2];
    CHECK_OK(fairsched_drr_min_frag_executors(CAPACITY, 2, available, 8, 4, fitting.executors,
                                              drr, placed, 2, &beat));
    CHECK(beat.placed == 2);
    free(fitting.block);
    free(one_kind.block);
    free(too_long.block);
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
    {"fig6_executors", test_fig6_executors},
    {"executors_init_errors", test_executors_init_errors},
    {"min_frag_executors_errors", test_min_frag_executors_errors},
    {"score_errors", test_score_errors},
    {"reprovision_errors", test_reprovision_errors},
    {"reprovision_due_errors", test_reprovision_due_errors},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

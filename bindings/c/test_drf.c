/*
 * Tests the C ABI of DRF and QKnobler: the QKnobler paper's Example 1 (divisible DRF, discrete
 * DRF through the queue, QKnobler's allocation), then every export with invalid input. A failed
 * call must return the expected status, leave the queue's stats and every user's info
 * byte-identical and leave its out-parameters unwritten. Building a queue (storage_size, init,
 * its cluster) is tested with the other objects' in test_lifecycle.c.
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Example 1 ------------------------------------------------------------------------------- */

/*
 * The QKnobler paper's Example 1: 200 CPUs and 1000 GB of memory shared by user A, whose tasks
 * need <1 CPU, 6 GB>, and user B, <1 CPU, 2 GB>, of equal weights. A third user C, <1 CPU, 2 GB>,
 * joins in the three-user variant.
 */
enum { KINDS = 2, EXAMPLE_USERS = 2, MAX_USERS = 3 };
static const double CLUSTER[KINDS] = {200.0, 1000.0};
static const double WEIGHTS[MAX_USERS] = {1.0, 1.0, 1.0};
static const double DEMANDS[MAX_USERS * KINDS] = {1.0, 6.0, 1.0, 2.0, 1.0, 2.0};

/* The arrays of fairsched_drf_divisible and fairsched_qknobler_allocate for Example 1. */
#define EXAMPLE_ARGS CLUSTER, KINDS, WEIGHTS, EXAMPLE_USERS, DEMANDS, EXAMPLE_USERS * KINDS

/* Values the library computes in floating point are compared with the fractions worked out by
 * hand to this relative tolerance; those it computes by linear programming, to EFFICIENT. */
static const double FRACTION = 1e-12;
static const double EFFICIENT = 1e-9;

static bool close_to(double got, double want, double relative) {
    return fabs(got - want) <= relative * fabs(want);
}

#define CHECK_CLOSE(got, want, relative) \
    check_at(close_to((got), (want), (relative)), #got " close to " #want, __LINE__)

/* ---- Users, as fairsched_drf_divisible and fairsched_qknobler_allocate take them ------------- */

typedef struct {
    const double *cluster;
    size_t cluster_len;
    const double *weights;
    size_t weights_len; /* one weight a user */
    const double *demands;
    size_t demands_len;
} users_arrays;

static const users_arrays EXAMPLE = {EXAMPLE_ARGS};

/* Where fairsched_drf_divisible writes, for up to MAX_USERS users. */
typedef struct {
    double tasks[MAX_USERS];
    double shares[MAX_USERS];
    double phi;
} divisible_out;

/* Where fairsched_qknobler_allocate writes, for up to MAX_USERS users. */
typedef struct {
    double fair[MAX_USERS];
    double efficient[MAX_USERS];
    uint64_t whole[MAX_USERS];
    fairsched_qknobler_summary summary;
} allocation_out;

/* Divisible DRF of `u`, one output slot per user. */
static fairsched_status divisible(users_arrays u, divisible_out *out) {
    return fairsched_drf_divisible(u.cluster, u.cluster_len, u.weights, u.weights_len,
                                   u.demands, u.demands_len, out->tasks, u.weights_len,
                                   out->shares, u.weights_len, &out->phi);
}

/* QKnobler's allocation of `u` at knob `rho`, one output slot per user. */
static fairsched_status allocate(users_arrays u, double rho, allocation_out *out) {
    return fairsched_qknobler_allocate(u.cluster, u.cluster_len, u.weights, u.weights_len,
                                       u.demands, u.demands_len, rho, out->fair, u.weights_len,
                                       out->efficient, u.weights_len, out->whole, u.weights_len,
                                       &out->summary);
}

/* ---- Invalid input shared by several exports ------------------------------------------------- */

/* A resource vector and the status an export must return for it. */
typedef struct {
    const char *what;
    const double *amounts;
    size_t kinds;
    fairsched_status status;
} bad_vector;

static const double NINE_ONES[9] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};

/* Capacities (each amount positive): of the users' cluster and of a machine (the queue's
 * cluster is tested with the other objects' configurations, in test_lifecycle.c). */
static const bad_vector BAD_CAPACITIES[] = {
    {"NULL capacity", NULL, KINDS, FAIRSCHED_STATUS_NULL_POINTER},
    {"no kind (NULL allowed)", NULL, 0, FAIRSCHED_STATUS_EMPTY},
    {"NaN capacity", (const double[]){NAN, 1000.0}, KINDS, FAIRSCHED_STATUS_NOT_FINITE},
    {"infinite capacity", (const double[]){200.0, INFINITY}, KINDS, FAIRSCHED_STATUS_NOT_FINITE},
    {"zero capacity", (const double[]){0.0, 1000.0}, KINDS, FAIRSCHED_STATUS_NOT_POSITIVE},
    {"negative capacity", (const double[]){200.0, -1.0}, KINDS, FAIRSCHED_STATUS_NOT_POSITIVE},
    {"nine kinds", NINE_ONES, 9, FAIRSCHED_STATUS_CAPACITY_FULL},
};

/* Per-task demands of KINDS amounts (each finite, not negative, not all zero). */
static const bad_vector BAD_DEMANDS[] = {
    {"NULL demand", NULL, KINDS, FAIRSCHED_STATUS_NULL_POINTER},
    {"NaN demand", (const double[]){NAN, 2.0}, KINDS, FAIRSCHED_STATUS_NOT_FINITE},
    {"infinite demand", (const double[]){1.0, INFINITY}, KINDS, FAIRSCHED_STATUS_NOT_FINITE},
    {"negative demand", (const double[]){-1.0, 2.0}, KINDS, FAIRSCHED_STATUS_NEGATIVE},
    {"all-zero demand", (const double[]){0.0, 0.0}, KINDS, FAIRSCHED_STATUS_NOT_POSITIVE},
};

/* Free or idle resources of the queue's KINDS kinds (each finite and not negative; zero is
 * fine). */
static const bad_vector BAD_AMOUNTS[] = {
    {"NULL amounts", NULL, KINDS, FAIRSCHED_STATUS_NULL_POINTER},
    {"no kind (NULL allowed)", NULL, 0, FAIRSCHED_STATUS_EMPTY},
    {"NaN amount", (const double[]){NAN, 0.0}, KINDS, FAIRSCHED_STATUS_NOT_FINITE},
    {"infinite amount", (const double[]){0.0, INFINITY}, KINDS, FAIRSCHED_STATUS_NOT_FINITE},
    {"negative amount", (const double[]){1.0, -1.0}, KINDS, FAIRSCHED_STATUS_NEGATIVE},
    {"one kind", (const double[]){1.0}, 1, FAIRSCHED_STATUS_LENGTH_MISMATCH},
    {"nine kinds", NINE_ONES, 9, FAIRSCHED_STATUS_CAPACITY_FULL},
};

/* A number and the status an export must return for it. */
typedef struct {
    double value;
    fairsched_status status;
} bad_number;

/* Weights (finite, positive). */
static const bad_number BAD_WEIGHTS[] = {
    {0.0, FAIRSCHED_STATUS_NOT_POSITIVE},
    {-0.0, FAIRSCHED_STATUS_NOT_POSITIVE},
    {-1.0, FAIRSCHED_STATUS_NOT_POSITIVE},
    {NAN, FAIRSCHED_STATUS_NOT_FINITE},
    {INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
    {-INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
};

/* QKnobler's knob (finite, in [0, 1]). */
static const bad_number BAD_RHOS[] = {
    {NAN, FAIRSCHED_STATUS_NOT_FINITE},
    {INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
    {-INFINITY, FAIRSCHED_STATUS_NOT_FINITE},
    {-0.1, FAIRSCHED_STATUS_OUT_OF_RANGE},
    {1.5, FAIRSCHED_STATUS_OUT_OF_RANGE},
    {0x1.0000000000001p0, FAIRSCHED_STATUS_OUT_OF_RANGE}, /* the next double after 1 */
};

/* Hands `check` every invalid set of users, with the status fairsched_drf_divisible and
 * fairsched_qknobler_allocate must both return for it: they validate users alike. */
static void for_each_invalid_users(void (*check)(const char *what, users_arrays u,
                                                 fairsched_status status)) {
    for (size_t i = 0; i < LENGTH(BAD_CAPACITIES); i++) {
        users_arrays u = EXAMPLE;
        u.cluster = BAD_CAPACITIES[i].amounts;
        u.cluster_len = BAD_CAPACITIES[i].kinds;
        check(BAD_CAPACITIES[i].what, u, BAD_CAPACITIES[i].status);
    }
    for (size_t i = 0; i < LENGTH(BAD_WEIGHTS); i++) {
        const users_arrays u = {CLUSTER, KINDS, &BAD_WEIGHTS[i].value, 1, DEMANDS, KINDS};
        check("bad weight", u, BAD_WEIGHTS[i].status);
    }
    for (size_t i = 0; i < LENGTH(BAD_DEMANDS); i++) {
        const users_arrays u = {CLUSTER, KINDS, WEIGHTS, 1, BAD_DEMANDS[i].amounts, KINDS};
        check(BAD_DEMANDS[i].what, u, BAD_DEMANDS[i].status);
    }
    const struct {
        const char *what;
        users_arrays u;
        fairsched_status status;
    } shapes[] = {
        {"no user (NULL allowed)", {CLUSTER, KINDS, NULL, 0, NULL, 0}, FAIRSCHED_STATUS_EMPTY},
        {"NULL weights", {CLUSTER, KINDS, NULL, 2, DEMANDS, 4}, FAIRSCHED_STATUS_NULL_POINTER},
        {"demands too short", {CLUSTER, KINDS, WEIGHTS, 2, DEMANDS, 3},
         FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {"demands too long", {CLUSTER, KINDS, WEIGHTS, 2, DEMANDS, 6},
         FAIRSCHED_STATUS_LENGTH_MISMATCH},
    };
    for (size_t i = 0; i < LENGTH(shapes); i++) {
        check(shapes[i].what, shapes[i].u, shapes[i].status);
    }
}

/* ---- Queues ---------------------------------------------------------------------------------- */

/* A DRF queue sharing Example 1's capacity and the heap block it lives in (release with
 * free(memory)). */
typedef struct {
    void *memory;
    fairsched_drf_queue *queue;
} drf_queue;

static drf_queue queue_new(uint32_t users) {
    size_t size;
    drf_queue q = {storage_new(fairsched_drf_queue_storage_size, users, &size), NULL};
    CHECK_OK(fairsched_drf_queue_init(q.memory, size, users, CLUSTER, KINDS, &q.queue));
    return q;
}

static fairsched_drf_user_info user_of(const fairsched_drf_queue *queue, uint64_t id) {
    fairsched_drf_user_info info;
    memset(&info, 0, sizeof info);
    CHECK_OK(fairsched_drf_queue_user_get(queue, id, &info));
    return info;
}

/* The queue the error tests run against, with room for three users: A (weight 2) with 2 tasks
 * running and 3 pending, B (weight 1) with 1 pending and none running, one free row. */
enum { USER_A = 1, USER_B = 2, UNKNOWN_USER = 3 };

static drf_queue fixture(void) {
    drf_queue q = queue_new(3);
    CHECK_OK(fairsched_drf_queue_add_user(q.queue, USER_A, 2.0, DEMANDS, KINDS));
    CHECK_OK(fairsched_drf_queue_add_user(q.queue, USER_B, 1.0, DEMANDS + KINDS, KINDS));
    CHECK_OK(fairsched_drf_queue_tasks_started(q.queue, USER_A, 2));
    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_A, 3));
    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_B, 1));
    return q;
}

/* Everything a call could change in the fixture: the stats and each of its users. */
typedef struct {
    fairsched_drf_queue_stats stats;
    fairsched_drf_user_info users[2];
} snapshot;

static snapshot snapshot_of(const fairsched_drf_queue *queue) {
    snapshot s;
    memset(&s, 0, sizeof s);
    CHECK_OK(fairsched_drf_queue_stats_get(queue, &s.stats));
    s.users[0] = user_of(queue, USER_A);
    s.users[1] = user_of(queue, USER_B);
    return s;
}

/* Checks that `call` returns `status` and leaves the fixture `queue` byte-identical, reporting
 * a failure as `what`. */
#define CHECK_UNCHANGED_AS(what, queue, status, call)                                          \
    do {                                                                                        \
        const snapshot before_call = snapshot_of(queue);                                        \
        check_status_at((call), (status), (what), __LINE__);                                    \
        const snapshot after_call = snapshot_of(queue);                                         \
        check_at(memcmp(&before_call, &after_call, sizeof before_call) == 0,                    \
                 "the queue is as it was before the call", __LINE__);                           \
    } while (0)

#define CHECK_UNCHANGED(queue, status, call) CHECK_UNCHANGED_AS(#call, queue, status, call)

/* ---- Example 1 through each export ----------------------------------------------------------- */

static void test_example_divisible(void) {
    divisible_out out;
    CHECK_OK(divisible(EXAMPLE, &out));
    /* Dominant shares equal at 6/11 use up the CPUs: A runs 1000/11 tasks, B 1200/11. */
    CHECK_CLOSE(out.tasks[0], 1000.0 / 11.0, FRACTION);
    CHECK_CLOSE(out.tasks[1], 1200.0 / 11.0, FRACTION);
    CHECK_CLOSE(out.shares[0], 6.0 / 11.0, FRACTION);
    CHECK_CLOSE(out.shares[1], 6.0 / 11.0, FRACTION);
    CHECK_CLOSE(out.phi, 11.0 / 6.0, FRACTION);
}

/* Discrete DRF, whole tasks by progressive filling, in one round on the whole capacity. */
static void test_example_discrete(void) {
    static const struct {
        size_t users;
        uint64_t tasks[MAX_USERS];
    } rounds[] = {
        {2, {91, 109}},
        {3, {59, 71, 70}}, /* with C (the paper's figure rounds the divisible 58.8/70.6/70.6) */
    };
    for (size_t r = 0; r < LENGTH(rounds); r++) {
        drf_queue q = queue_new(8);
        for (uint64_t user = 0; user < rounds[r].users; user++) {
            CHECK_OK(fairsched_drf_queue_add_user(q.queue, user, WEIGHTS[user],
                                                  DEMANDS + user * KINDS, KINDS));
            CHECK_OK(fairsched_drf_queue_set_pending(q.queue, user, 1000));
        }
        uint64_t ids[300];
        size_t started = 0;
        POISON_FILL(ids);
        CHECK_OK(fairsched_drf_queue_allocate_round(q.queue, CLUSTER, KINDS, ids, LENGTH(ids),
                                                    &started));
        CHECK(started == 200); /* one task per CPU */
        CHECK(is_poison(ids + started, (LENGTH(ids) - started) * sizeof *ids));
        uint64_t tasks[MAX_USERS] = {0};
        for (size_t i = 0; i < started; i++) {
            CHECK(ids[i] < rounds[r].users);
            tasks[ids[i] % MAX_USERS]++;
        }
        CHECK(memcmp(tasks, rounds[r].tasks, sizeof tasks) == 0);
        for (uint64_t user = 0; user < rounds[r].users; user++) {
            const fairsched_drf_user_info info = user_of(q.queue, user);
            CHECK(info.running == rounds[r].tasks[user] && info.pending == 1000 - info.running);
        }
        free(q.memory);
    }
}

static void test_example_qknobler(void) {
    allocation_out out;
    /* At ρ = 0, pure efficiency: A 150 tasks (150 CPUs, 900 GB) and B 50 (50 CPUs, 100 GB). */
    CHECK_OK(allocate(EXAMPLE, 0.0, &out));
    CHECK(out.fair[0] == 0.0 && out.fair[1] == 0.0);
    CHECK_CLOSE(out.efficient[0], 150.0, EFFICIENT);
    CHECK_CLOSE(out.efficient[1], 50.0, EFFICIENT);
    CHECK(out.whole[0] == 150 && out.whole[1] == 50);
    CHECK(out.summary.rho == 0.0 && out.summary.kinds == KINDS);
    CHECK_CLOSE(out.summary.phi, 11.0 / 6.0, FRACTION);
    /* Theorem 2: sharing incentive from ρ = φ / Σw = 11/12 on. */
    CHECK_CLOSE(out.summary.sharing_incentive_rho, 11.0 / 12.0, FRACTION);
    /* The fairness stage took nothing. */
    CHECK(out.summary.residual[0] == 200.0 && out.summary.residual[1] == 1000.0);

    /* At ρ = 1, DRF exactly: the whole tasks of discrete DRF's divisible bound. */
    CHECK_OK(allocate(EXAMPLE, 1.0, &out));
    CHECK_CLOSE(out.fair[0], 1000.0 / 11.0, FRACTION);
    CHECK_CLOSE(out.fair[1], 1200.0 / 11.0, FRACTION);
    CHECK(out.efficient[0] == 0.0 && out.efficient[1] == 0.0);
    CHECK(out.whole[0] == 90 && out.whole[1] == 109);
    CHECK(out.summary.theta == 0.0);
}

/* ---- Divisible DRF and QKnobler's allocation ------------------------------------------------- */

static void check_divisible_rejects(const char *what, users_arrays u, fairsched_status status) {
    divisible_out out;
    POISON_FILL(out);
    check_status_at(divisible(u, &out), status, what, __LINE__);
    CHECK_UNWRITTEN(out);
}

static void test_divisible_errors(void) {
    for_each_invalid_users(check_divisible_rejects);

    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    const fairsched_status mismatch = FAIRSCHED_STATUS_LENGTH_MISMATCH;
    divisible_out out;
    POISON_FILL(out);
    CHECK_STATUS(fairsched_drf_divisible(EXAMPLE_ARGS, NULL, 2, out.shares, 2, &out.phi), null);
    CHECK_STATUS(fairsched_drf_divisible(EXAMPLE_ARGS, out.tasks, 2, NULL, 2, &out.phi), null);
    CHECK_STATUS(fairsched_drf_divisible(EXAMPLE_ARGS, out.tasks, 2, out.shares, 2, NULL), null);
    CHECK_STATUS(fairsched_drf_divisible(EXAMPLE_ARGS, out.tasks, 1, out.shares, 2, &out.phi),
                 mismatch);
    CHECK_STATUS(fairsched_drf_divisible(EXAMPLE_ARGS, out.tasks, 2, out.shares, 3, &out.phi),
                 mismatch);
    CHECK_STATUS(fairsched_drf_divisible(EXAMPLE_ARGS, NULL, 0, NULL, 0, &out.phi), mismatch);
    CHECK_UNWRITTEN(out);
}

static void check_allocate_rejects(const char *what, users_arrays u, fairsched_status status) {
    allocation_out out;
    POISON_FILL(out);
    check_status_at(allocate(u, 0.5, &out), status, what, __LINE__);
    CHECK_UNWRITTEN(out);
}

static void test_qknobler_allocate_errors(void) {
    for_each_invalid_users(check_allocate_rejects);

    allocation_out out;
    POISON_FILL(out);
    for (size_t i = 0; i < LENGTH(BAD_RHOS); i++) {
        CHECK_STATUS(allocate(EXAMPLE, BAD_RHOS[i].value, &out), BAD_RHOS[i].status);
    }
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    const fairsched_status mismatch = FAIRSCHED_STATUS_LENGTH_MISMATCH;
    CHECK_STATUS(fairsched_qknobler_allocate(EXAMPLE_ARGS, 0.5, NULL, 2, out.efficient, 2,
                                             out.whole, 2, &out.summary),
                 null);
    CHECK_STATUS(fairsched_qknobler_allocate(EXAMPLE_ARGS, 0.5, out.fair, 2, NULL, 2, out.whole,
                                             2, &out.summary),
                 null);
    CHECK_STATUS(fairsched_qknobler_allocate(EXAMPLE_ARGS, 0.5, out.fair, 2, out.efficient, 2,
                                             NULL, 2, &out.summary),
                 null);
    CHECK_STATUS(fairsched_qknobler_allocate(EXAMPLE_ARGS, 0.5, out.fair, 2, out.efficient, 2,
                                             out.whole, 2, NULL),
                 null);
    CHECK_STATUS(fairsched_qknobler_allocate(EXAMPLE_ARGS, 0.5, out.fair, 1, out.efficient, 2,
                                             out.whole, 2, &out.summary),
                 mismatch);
    CHECK_STATUS(fairsched_qknobler_allocate(EXAMPLE_ARGS, 0.5, out.fair, 2, out.efficient, 3,
                                             out.whole, 2, &out.summary),
                 mismatch);
    CHECK_STATUS(fairsched_qknobler_allocate(EXAMPLE_ARGS, 0.5, out.fair, 2, out.efficient, 2,
                                             NULL, 0, &out.summary),
                 mismatch);
    CHECK_UNWRITTEN(out);
}

/* ---- Invalid input, export by export --------------------------------------------------------- */

static void test_null_pointers(void) {
    const fairsched_status null = FAIRSCHED_STATUS_NULL_POINTER;
    drf_queue q = fixture();
    fairsched_drf_queue *const queue = q.queue;
    uint64_t out_ids[1], id;
    size_t started;
    bool found;
    fairsched_drf_user_info info;
    fairsched_drf_queue_stats stats;
    fairsched_qknobler_round_result round;
    POISON_FILL(out_ids);
    POISON_FILL(id);
    POISON_FILL(started);
    POISON_FILL(found);
    POISON_FILL(info);
    POISON_FILL(stats);
    POISON_FILL(round);

    CHECK_UNCHANGED(queue, null,
                    fairsched_drf_queue_add_user(NULL, UNKNOWN_USER, 1.0, DEMANDS, KINDS));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_remove_user(NULL, USER_A));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_set_pending(NULL, USER_A, 1));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_tasks_started(NULL, USER_A, 1));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_tasks_finished(NULL, USER_A, 1));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_next(NULL, &id, &found));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_next(queue, NULL, &found));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_next(queue, &id, NULL));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_user_get(NULL, USER_A, &info));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_user_get(queue, USER_A, NULL));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_stats_get(NULL, &stats));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_stats_get(queue, NULL));
    CHECK_UNCHANGED(queue, null,
                    fairsched_drf_queue_allocate_round(NULL, CLUSTER, KINDS, out_ids, 1,
                                                       &started));
    CHECK_UNCHANGED(queue, null,
                    fairsched_drf_queue_allocate_round(queue, CLUSTER, KINDS, NULL, 1,
                                                       &started));
    CHECK_UNCHANGED(queue, null,
                    fairsched_drf_queue_allocate_round(queue, CLUSTER, KINDS, out_ids, 1,
                                                       NULL));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_start_next(NULL, &id, &found));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_start_next(queue, NULL, &found));
    CHECK_UNCHANGED(queue, null, fairsched_drf_queue_start_next(queue, &id, NULL));
    /* QKnobler's round with each pointer NULL in turn (lengths non-zero). */
    const struct {
        const char *what;
        fairsched_drf_queue *queue;
        const double *machine, *idle;
        uint64_t *out_ids;
        fairsched_qknobler_round_result *out_round;
    } rounds[] = {
        {"NULL queue", NULL, CLUSTER, CLUSTER, out_ids, &round},
        {"NULL machine", queue, NULL, CLUSTER, out_ids, &round},
        {"NULL idle", queue, CLUSTER, NULL, out_ids, &round},
        {"NULL out_ids", queue, CLUSTER, CLUSTER, NULL, &round},
        {"NULL out_round", queue, CLUSTER, CLUSTER, out_ids, NULL},
    };
    for (size_t i = 0; i < LENGTH(rounds); i++) {
        CHECK_UNCHANGED_AS(rounds[i].what, queue, null,
                           fairsched_drf_queue_qknobler_round(
                               rounds[i].queue, 0.5, rounds[i].machine, KINDS, rounds[i].idle,
                               KINDS, rounds[i].out_ids, 1, rounds[i].out_round));
    }
    /* The demand and free resources: see test_bad_users and test_bad_rounds. */

    CHECK_UNWRITTEN(out_ids);
    CHECK_UNWRITTEN(id);
    CHECK_UNWRITTEN(started);
    CHECK_UNWRITTEN(found);
    CHECK_UNWRITTEN(info);
    CHECK_UNWRITTEN(stats);
    CHECK_UNWRITTEN(round);
    free(q.memory);
}

static void test_bad_users(void) {
    drf_queue q = fixture();
    fairsched_drf_queue *const queue = q.queue;
    for (size_t i = 0; i < LENGTH(BAD_WEIGHTS); i++) {
        CHECK_UNCHANGED_AS("bad weight", queue, BAD_WEIGHTS[i].status,
                           fairsched_drf_queue_add_user(queue, UNKNOWN_USER, BAD_WEIGHTS[i].value,
                                                        DEMANDS, KINDS));
    }
    for (size_t i = 0; i < LENGTH(BAD_DEMANDS); i++) {
        const bad_vector *bad = &BAD_DEMANDS[i];
        CHECK_UNCHANGED_AS("bad demand", queue, bad->status,
                           fairsched_drf_queue_add_user(queue, UNKNOWN_USER, 1.0, bad->amounts,
                                                        bad->kinds));
    }
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_EMPTY,
                    fairsched_drf_queue_add_user(queue, UNKNOWN_USER, 1.0, NULL, 0));
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_LENGTH_MISMATCH,
                    fairsched_drf_queue_add_user(queue, UNKNOWN_USER, 1.0, DEMANDS, 1));
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_LENGTH_MISMATCH,
                    fairsched_drf_queue_add_user(queue, UNKNOWN_USER, 1.0, DEMANDS, 3));
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_CAPACITY_FULL,
                    fairsched_drf_queue_add_user(queue, UNKNOWN_USER, 1.0, NINE_ONES, 9));
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_DUPLICATE_ID,
                    fairsched_drf_queue_add_user(queue, USER_A, 1.0, DEMANDS + KINDS, KINDS));
    free(q.memory);
}

static void test_bad_ids_and_counts(void) {
    const fairsched_status unknown = FAIRSCHED_STATUS_UNKNOWN_ID;
    drf_queue q = fixture();
    fairsched_drf_queue *const queue = q.queue;
    fairsched_drf_user_info info;
    POISON_FILL(info);
    CHECK_UNCHANGED(queue, unknown, fairsched_drf_queue_remove_user(queue, UNKNOWN_USER));
    CHECK_UNCHANGED(queue, unknown, fairsched_drf_queue_set_pending(queue, UNKNOWN_USER, 1));
    CHECK_UNCHANGED(queue, unknown, fairsched_drf_queue_tasks_started(queue, UNKNOWN_USER, 1));
    CHECK_UNCHANGED(queue, unknown, fairsched_drf_queue_tasks_finished(queue, UNKNOWN_USER, 1));
    CHECK_UNCHANGED(queue, unknown, fairsched_drf_queue_user_get(queue, UNKNOWN_USER, &info));
    CHECK_UNWRITTEN(info);

    /* More tasks finishing than run; more running than a u64 counts. */
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_NEGATIVE,
                    fairsched_drf_queue_tasks_finished(queue, USER_A, 3));
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_NEGATIVE,
                    fairsched_drf_queue_tasks_finished(queue, USER_B, 1));
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_OUT_OF_RANGE,
                    fairsched_drf_queue_tasks_started(queue, USER_A, UINT64_MAX));
    free(q.memory);
}

static void test_bad_rounds(void) {
    drf_queue q = fixture();
    fairsched_drf_queue *const queue = q.queue;
    uint64_t ids[4];
    size_t started;
    fairsched_qknobler_round_result round;
    POISON_FILL(ids);
    POISON_FILL(started);
    POISON_FILL(round);

    /* The free resources of discrete DRF, and the idle ones of QKnobler on a machine of
     * Example 1's capacity. */
    for (size_t i = 0; i < LENGTH(BAD_AMOUNTS); i++) {
        const bad_vector *bad = &BAD_AMOUNTS[i];
        CHECK_UNCHANGED_AS(bad->what, queue, bad->status,
                           fairsched_drf_queue_allocate_round(queue, bad->amounts, bad->kinds, ids,
                                                              LENGTH(ids), &started));
        CHECK_UNCHANGED_AS(bad->what, queue, bad->status,
                           fairsched_drf_queue_qknobler_round(queue, 0.5, CLUSTER, KINDS,
                                                              bad->amounts, bad->kinds, ids,
                                                              LENGTH(ids), &round));
    }
    /* The machine, with nothing idle. */
    static const double NOTHING_IDLE[KINDS] = {0.0, 0.0};
    for (size_t i = 0; i < LENGTH(BAD_CAPACITIES); i++) {
        const bad_vector *bad = &BAD_CAPACITIES[i];
        CHECK_UNCHANGED_AS(bad->what, queue, bad->status,
                           fairsched_drf_queue_qknobler_round(queue, 0.5, bad->amounts,
                                                              bad->kinds, NOTHING_IDLE, KINDS,
                                                              ids, LENGTH(ids), &round));
    }
    for (size_t i = 0; i < LENGTH(BAD_RHOS); i++) {
        CHECK_UNCHANGED_AS("bad rho", queue, BAD_RHOS[i].status,
                           fairsched_drf_queue_qknobler_round(queue, BAD_RHOS[i].value, CLUSTER,
                                                              KINDS, CLUSTER, KINDS, ids,
                                                              LENGTH(ids), &round));
    }
    /* More idle than the machine has. */
    CHECK_UNCHANGED(queue, FAIRSCHED_STATUS_OUT_OF_RANGE,
                    fairsched_drf_queue_qknobler_round(queue, 0.5, CLUSTER, KINDS,
                                                       (const double[]){200.5, 0.0}, KINDS, ids,
                                                       LENGTH(ids), &round));
    CHECK_UNWRITTEN(ids);
    CHECK_UNWRITTEN(started);
    CHECK_UNWRITTEN(round);
    free(q.memory);
}

/* The machine and the idle resources have a length each: vectors of different lengths are the
 * library's LENGTH_MISMATCH (whichever differs from the queue's kinds), checked in its order
 * (each vector's amounts before the kinds), and change nothing. */
static void test_qknobler_round_lengths(void) {
    static const double THREE_KINDS[3] = {200.0, 1000.0, 1.0};
    const fairsched_status mismatch = FAIRSCHED_STATUS_LENGTH_MISMATCH;
    const struct {
        const char *what;
        const double *machine;
        size_t machine_len;
        const double *idle;
        size_t idle_len;
        fairsched_status status;
    } cases[] = {
        {"idle shorter than the machine", CLUSTER, KINDS, CLUSTER, 1, mismatch},
        {"idle longer than the machine", CLUSTER, KINDS, THREE_KINDS, 3, mismatch},
        {"machine shorter than idle", CLUSTER, 1, CLUSTER, KINDS, mismatch},
        {"machine longer than idle", THREE_KINDS, 3, CLUSTER, KINDS, mismatch},
        {"both longer than the queue's kinds", THREE_KINDS, 3, THREE_KINDS, 3, mismatch},
        /* A NaN in an idle vector of the wrong length: the amounts are checked first. */
        {"NaN idle of the wrong length", CLUSTER, KINDS, (const double[]){NAN}, 1,
         FAIRSCHED_STATUS_NOT_FINITE},
    };
    drf_queue q = fixture();
    uint64_t ids[4];
    fairsched_qknobler_round_result round;
    POISON_FILL(ids);
    POISON_FILL(round);
    for (size_t i = 0; i < LENGTH(cases); i++) {
        CHECK_UNCHANGED_AS(cases[i].what, q.queue, cases[i].status,
                           fairsched_drf_queue_qknobler_round(
                               q.queue, 0.5, cases[i].machine, cases[i].machine_len,
                               cases[i].idle, cases[i].idle_len, ids, LENGTH(ids), &round));
    }
    CHECK_UNWRITTEN(ids);
    CHECK_UNWRITTEN(round);
    free(q.memory);
}

static void test_capacity_full(void) {
    drf_queue q = fixture();
    CHECK_OK(fairsched_drf_queue_add_user(q.queue, UNKNOWN_USER, 1.0, DEMANDS, KINDS));
    CHECK_UNCHANGED(q.queue, FAIRSCHED_STATUS_CAPACITY_FULL,
                    fairsched_drf_queue_add_user(q.queue, UNKNOWN_USER + 1, 1.0, DEMANDS, KINDS));
    /* A removed user's row is free at once. */
    CHECK_OK(fairsched_drf_queue_remove_user(q.queue, UNKNOWN_USER));
    CHECK_OK(fairsched_drf_queue_add_user(q.queue, UNKNOWN_USER + 1, 1.0, DEMANDS, KINDS));
    free(q.memory);
}

/* ---- Calls that succeed ---------------------------------------------------------------------- */

/* Rounds with no room for an id (NULL allowed) succeed and change nothing. */
static void test_rounds_without_room(void) {
    drf_queue q = fixture();
    size_t started;
    fairsched_qknobler_round_result round;
    POISON_FILL(started);
    POISON_FILL(round);
    CHECK_UNCHANGED(q.queue, FAIRSCHED_STATUS_OK,
                    fairsched_drf_queue_allocate_round(q.queue, CLUSTER, KINDS, NULL, 0,
                                                       &started));
    CHECK_UNCHANGED(q.queue, FAIRSCHED_STATUS_OK,
                    fairsched_drf_queue_qknobler_round(q.queue, 0.5, CLUSTER, KINDS, CLUSTER,
                                                       KINDS, NULL, 0, &round));
    CHECK(started == 0 && round.started == 0 && round.fairness == 0);
    free(q.memory);
}

/* next follows the weighted dominant share; with no active user it finds nothing, and rounds
 * start nothing. */
static void test_next(void) {
    drf_queue q = fixture();
    uint64_t id = 0;
    bool found = false;
    /* A: 2 tasks of dominant share 6/1000, weight 2; B: nothing running. */
    CHECK_OK(fairsched_drf_queue_next(q.queue, &id, &found));
    CHECK(found && id == USER_B);
    CHECK(user_of(q.queue, USER_A).weighted_share == 2 * 0.006 / 2);

    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_A, 0));
    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_B, 0));
    POISON_FILL(id);
    CHECK_OK(fairsched_drf_queue_next(q.queue, &id, &found));
    CHECK(!found);
    CHECK_UNWRITTEN(id);

    uint64_t ids[4];
    size_t started = 1;
    POISON_FILL(ids);
    CHECK_OK(fairsched_drf_queue_allocate_round(q.queue, CLUSTER, KINDS, ids, LENGTH(ids),
                                                &started));
    CHECK(started == 0);
    CHECK_UNWRITTEN(ids);
    free(q.memory);
}

/* start_next on Example 1 (A's tasks have dominant share 6/1000, B's 1/200, the task shares
 * the queue reports): each call starts one task of the user next names, the lowest weighted
 * dominant share (ties to the lower id), so starts go A B B A B A B A B A; each moves one of
 * that user's tasks from pending to running. With nobody active it finds nothing, writes no
 * id and changes nothing. */
static void test_start_next(void) {
    drf_queue q = queue_new(2);
    CHECK_OK(fairsched_drf_queue_add_user(q.queue, USER_A, 1.0, DEMANDS, KINDS));
    CHECK_OK(fairsched_drf_queue_add_user(q.queue, USER_B, 1.0, DEMANDS + KINDS, KINDS));
    CHECK(user_of(q.queue, USER_A).task_share == 0.006);
    CHECK(user_of(q.queue, USER_B).task_share == 0.005);
    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_A, 10));
    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_B, 10));
    static const uint64_t ORDER[] = {USER_A, USER_B, USER_B, USER_A, USER_B,
                                     USER_A, USER_B, USER_A, USER_B, USER_A};
    for (size_t i = 0; i < LENGTH(ORDER); i++) {
        uint64_t next = 0, started = 0;
        bool next_found = false, started_found = false;
        CHECK_OK(fairsched_drf_queue_next(q.queue, &next, &next_found));
        const fairsched_drf_user_info before = user_of(q.queue, ORDER[i]);
        CHECK_OK(fairsched_drf_queue_start_next(q.queue, &started, &started_found));
        CHECK(next_found && next == ORDER[i]);
        CHECK(started_found && started == ORDER[i]);
        const fairsched_drf_user_info after = user_of(q.queue, ORDER[i]);
        CHECK(after.running == before.running + 1 && after.pending == before.pending - 1);
        CHECK(after.task_share == before.task_share);
    }
    CHECK(user_of(q.queue, USER_A).running == 5 && user_of(q.queue, USER_B).running == 5);
    CHECK(user_of(q.queue, USER_A).dominant_share == 5 * 0.006);

    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_A, 0));
    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, USER_B, 0));
    uint64_t id;
    bool found = true;
    POISON_FILL(id);
    CHECK_UNCHANGED(q.queue, FAIRSCHED_STATUS_OK,
                    fairsched_drf_queue_start_next(q.queue, &id, &found));
    CHECK(!found);
    CHECK_UNWRITTEN(id);
    free(q.memory);
}

/* Ids and counts are whole u64s. */
static void test_full_u64_range(void) {
    drf_queue q = queue_new(1);
    CHECK_OK(fairsched_drf_queue_add_user(q.queue, UINT64_MAX, 1.0, DEMANDS, KINDS));
    CHECK_OK(fairsched_drf_queue_set_pending(q.queue, UINT64_MAX, UINT64_MAX));
    uint64_t id = 0;
    bool found = false;
    CHECK_OK(fairsched_drf_queue_next(q.queue, &id, &found));
    CHECK(found && id == UINT64_MAX);
    CHECK_OK(fairsched_drf_queue_tasks_started(q.queue, UINT64_MAX, UINT64_MAX));
    const fairsched_drf_user_info info = user_of(q.queue, UINT64_MAX);
    CHECK(info.id == UINT64_MAX && info.running == UINT64_MAX && info.pending == 0);
    free(q.memory);
}

/* QKnobler on one machine starts tasks on the queue and writes only the ids it started. */
static void test_qknobler_round(void) {
    drf_queue q = fixture();
    uint64_t ids[8];
    fairsched_qknobler_round_result round;
    POISON_FILL(ids);
    /* A small machine, idle: room for 2 of A's tasks or 4 of B's (B has 1 pending). */
    static const double MACHINE[KINDS] = {4.0, 12.0};
    CHECK_OK(fairsched_drf_queue_qknobler_round(q.queue, 1.0, MACHINE, KINDS, MACHINE, KINDS,
                                                ids, LENGTH(ids), &round));
    /* B, lowest, and then A are owed fairness; then nothing fits what is left, <2 CPUs, 4 GB>. */
    CHECK(round.started == 2 && round.fairness == 2);
    CHECK(ids[0] == USER_B && ids[1] == USER_A);
    CHECK(is_poison(ids + round.started, (LENGTH(ids) - round.started) * sizeof *ids));
    CHECK(user_of(q.queue, USER_A).running == 3 && user_of(q.queue, USER_B).running == 1);
    free(q.memory);
}

/* ---- QKnobler with heterogeneous tasks (section 6.1 C2) -------------------------------------- */

/* A MapReduce user, as drf.json's average_* cases: two maps <1, 2> running, pending reduce
 * <2, 8>, reduce <2, 8>, map <1, 2> on <4, 10> idle. First-Fit counts the first reduce (<2, 2>
 * left) and the map: (<2, 4> + <2, 8> + <1, 2>) / 4 = <1.25, 3.5>. */
static void test_average_demand(void) {
    static const double IDLE[2] = {4.0, 10.0}, RUNNING[2] = {2.0, 4.0};
    static const double PENDING[6] = {2.0, 8.0, 2.0, 8.0, 1.0, 2.0};
    static const double ZERO[2] = {0.0, 0.0};
    double average[2];
    uint64_t counted;
    CHECK_OK(fairsched_qknobler_average_demand(IDLE, 2, RUNNING, 2, 2, PENDING, 6, average, 2,
                                               &counted));
    CHECK(average[0] == 1.25 && average[1] == 3.5 && counted == 2);
    /* Nothing runs and nothing fits <0.5, 1>: the first pending task. */
    CHECK_OK(fairsched_qknobler_average_demand((const double[]){0.5, 1.0}, 2, ZERO, 2, 0, PENDING,
                                               6, average, 2, &counted));
    CHECK(average[0] == 2.0 && average[1] == 8.0 && counted == 0);
    /* Summed in order: ((1 + 0.1) + 0.2) / 4. */
    CHECK_OK(fairsched_qknobler_average_demand((const double[]){10.0}, 1, (const double[]){1.0}, 1,
                                               2, (const double[]){0.1, 0.2}, 2, average, 1,
                                               &counted));
    CHECK(average[0] == ((1.0 + 0.1) + 0.2) / 4.0 && counted == 2);

    /* Rejected calls write nothing. */
    const struct {
        const char *what;
        const double *idle;
        size_t idle_len;
        const double *sum;
        size_t sum_len;
        uint64_t running;
        const double *pending;
        size_t pending_len;
        size_t out_len;
        fairsched_status status;
    } cases[] = {
        {"no task at all", IDLE, 2, ZERO, 2, 0, PENDING, 0, 2, FAIRSCHED_STATUS_EMPTY},
        {"a sum without tasks", IDLE, 2, RUNNING, 2, 0, PENDING, 6, 2,
         FAIRSCHED_STATUS_OUT_OF_RANGE},
        {"tasks without a sum", IDLE, 2, ZERO, 2, 3, PENDING, 6, 2, FAIRSCHED_STATUS_OUT_OF_RANGE},
        {"ragged pending", IDLE, 2, ZERO, 2, 0, PENDING, 5, 2, FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {"short sum", IDLE, 2, ZERO, 1, 0, PENDING, 6, 2, FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {"short output", IDLE, 2, ZERO, 2, 0, PENDING, 6, 1, FAIRSCHED_STATUS_LENGTH_MISMATCH},
        {"zero pending task", IDLE, 2, ZERO, 2, 0, ZERO, 2, 2, FAIRSCHED_STATUS_NOT_POSITIVE},
        {"NaN idle", (const double[]){NAN, 1.0}, 2, ZERO, 2, 0, PENDING, 6, 2,
         FAIRSCHED_STATUS_NOT_FINITE},
        {"negative pending", IDLE, 2, ZERO, 2, 0, (const double[]){1.0, -1.0}, 2, 2,
         FAIRSCHED_STATUS_NEGATIVE},
        {"count overflow", IDLE, 2, RUNNING, 2, UINT64_MAX, PENDING, 6, 2,
         FAIRSCHED_STATUS_OUT_OF_RANGE},
        {"NULL pending", IDLE, 2, ZERO, 2, 0, NULL, 2, 2, FAIRSCHED_STATUS_NULL_POINTER},
        {"NULL idle", NULL, 2, ZERO, 2, 0, PENDING, 6, 2, FAIRSCHED_STATUS_NULL_POINTER},
    };
    for (size_t i = 0; i < LENGTH(cases); i++) {
        check_context("%s", cases[i].what);
        POISON_FILL(average);
        POISON_FILL(counted);
        CHECK_STATUS(fairsched_qknobler_average_demand(
                         cases[i].idle, cases[i].idle_len, cases[i].sum, cases[i].sum_len,
                         cases[i].running, cases[i].pending, cases[i].pending_len, average,
                         cases[i].out_len, &counted),
                     cases[i].status);
        CHECK_UNWRITTEN(average);
        CHECK_UNWRITTEN(counted);
    }
    check_context_clear();
    POISON_FILL(average);
    CHECK_STATUS(fairsched_qknobler_average_demand(IDLE, 2, RUNNING, 2, 2, PENDING, 6, average, 2,
                                                   NULL),
                 FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(average);
}

/* drf.json's choose_* cases: cluster <10, 20>, one machine <4, 8>; users (w, U_i, s_i^max,
 * next task): 0 (1, <2, 4>, 0.5, map <1, 2>), 1 (2, <4, 2>, 0.6, <3, 3>), 2 (1, <0, 0>, 0.5,
 * <5, 1>). s_i / w_i: 0.2, 0.2, 0 but user 2's task does not fit; the tie goes to user 0. */
static const double C2_CLUSTER[2] = {10.0, 20.0}, C2_MACHINE[2] = {4.0, 8.0};
static const double C2_WEIGHTS[3] = {1.0, 2.0, 1.0}, C2_ALLOCATED[6] = {2, 4, 4, 2, 0, 0};
static const double C2_MAX_SHARES[3] = {0.5, 0.6, 0.5}, C2_NEXT[6] = {1, 2, 3, 3, 5, 1};

static fairsched_status c2_choose(double rho, const double *idle, fairsched_qknobler_choice *out,
                                  bool *found) {
    return fairsched_qknobler_choose(rho, C2_CLUSTER, 2, C2_MACHINE, 2, idle, 2, C2_WEIGHTS, 3,
                                     C2_ALLOCATED, 6, C2_MAX_SHARES, 3, C2_NEXT, 6, out, found);
}

static void test_qknobler_choose(void) {
    fairsched_qknobler_choice choice;
    bool found = false;
    /* rho 0.5: 0.2 < 0.5 * 0.5, user 0 is owed. */
    CHECK_OK(c2_choose(0.5, C2_MACHINE, &choice, &found));
    CHECK(found && choice.user == 0 && choice.fairness);
    /* rho 0.3: 0.2 >= 0.15; affinity 1/4 + 2/8 = 0.5 for user 0, 3/4 + 3/8 for user 1. */
    CHECK_OK(c2_choose(0.3, C2_MACHINE, &choice, &found));
    CHECK(found && choice.user == 1 && !choice.fairness);
    CHECK_OK(c2_choose(1.0, C2_MACHINE, &choice, &found));
    CHECK(found && choice.user == 0 && choice.fairness);
    /* Nothing fits <0.5, 8>: found is false, the choice unwritten. */
    POISON_FILL(choice);
    CHECK_OK(c2_choose(0.5, (const double[]){0.5, 8.0}, &choice, &found));
    CHECK(!found);
    CHECK_UNWRITTEN(choice);
    /* No user at all (NULL arrays of length 0). */
    found = true;
    CHECK_OK(fairsched_qknobler_choose(0.5, C2_CLUSTER, 2, C2_MACHINE, 2, C2_MACHINE, 2, NULL, 0,
                                       NULL, 0, NULL, 0, NULL, 0, &choice, &found));
    CHECK(!found);

    /* Rejected calls write nothing. */
    bool flag;
    POISON_FILL(choice);
    POISON_FILL(flag);
    CHECK_STATUS(c2_choose(1.5, C2_MACHINE, &choice, &flag), FAIRSCHED_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(c2_choose(NAN, C2_MACHINE, &choice, &flag), FAIRSCHED_STATUS_NOT_FINITE);
    CHECK_STATUS(c2_choose(0.5, (const double[]){4.0, 9.0}, &choice, &flag),
                 FAIRSCHED_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(fairsched_qknobler_choose(0.5, C2_CLUSTER, 2, C2_MACHINE, 2, C2_MACHINE, 2,
                                           C2_WEIGHTS, 2, C2_ALLOCATED, 6, C2_MAX_SHARES, 3,
                                           C2_NEXT, 6, &choice, &flag),
                 FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK_STATUS(fairsched_qknobler_choose(0.5, C2_CLUSTER, 2, C2_MACHINE, 2, C2_MACHINE, 2,
                                           (const double[]){1.0, 0.0, 1.0}, 3, C2_ALLOCATED, 6,
                                           C2_MAX_SHARES, 3, C2_NEXT, 6, &choice, &flag),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_qknobler_choose(0.5, C2_CLUSTER, 2, C2_MACHINE, 2, C2_MACHINE, 2,
                                           C2_WEIGHTS, 3, C2_ALLOCATED, 6,
                                           (const double[]){0.5, -0.1, 0.5}, 3, C2_NEXT, 6,
                                           &choice, &flag),
                 FAIRSCHED_STATUS_NEGATIVE);
    CHECK_STATUS(fairsched_qknobler_choose(0.5, C2_CLUSTER, 2, C2_MACHINE, 2, C2_MACHINE, 2,
                                           C2_WEIGHTS, 3, C2_ALLOCATED, 6, C2_MAX_SHARES, 3,
                                           (const double[]){1, 2, 0, 0, 5, 1}, 6, &choice, &flag),
                 FAIRSCHED_STATUS_NOT_POSITIVE);
    CHECK_STATUS(fairsched_qknobler_choose(0.5, C2_CLUSTER, 2, C2_MACHINE, 1, C2_MACHINE, 1,
                                           C2_WEIGHTS, 3, C2_ALLOCATED, 6, C2_MAX_SHARES, 3,
                                           C2_NEXT, 6, &choice, &flag),
                 FAIRSCHED_STATUS_LENGTH_MISMATCH);
    CHECK_STATUS(c2_choose(0.5, NULL, &choice, &flag), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_STATUS(c2_choose(0.5, C2_MACHINE, NULL, &flag), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(choice);
    CHECK_UNWRITTEN(flag);
    CHECK_STATUS(c2_choose(0.5, C2_MACHINE, &choice, NULL), FAIRSCHED_STATUS_NULL_POINTER);
    CHECK_UNWRITTEN(choice);
}

/* ---- Runner ---------------------------------------------------------------------------------- */

static const test_case tests[] = {
    {"example_divisible", test_example_divisible},
    {"example_discrete", test_example_discrete},
    {"example_qknobler", test_example_qknobler},
    {"divisible_errors", test_divisible_errors},
    {"qknobler_allocate_errors", test_qknobler_allocate_errors},
    {"null_pointers", test_null_pointers},
    {"bad_users", test_bad_users},
    {"bad_ids_and_counts", test_bad_ids_and_counts},
    {"bad_rounds", test_bad_rounds},
    {"qknobler_round_lengths", test_qknobler_round_lengths},
    {"capacity_full", test_capacity_full},
    {"rounds_without_room", test_rounds_without_room},
    {"next", test_next},
    {"start_next", test_start_next},
    {"full_u64_range", test_full_u64_range},
    {"qknobler_round", test_qknobler_round},
    {"average_demand", test_average_demand},
    {"qknobler_choose", test_qknobler_choose},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

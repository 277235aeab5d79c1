/*
 * The contract every stateful object of the C ABI shares, checked once over a table of them
 * (cfq, drf_queue, hai, paf, drr_timeline, drr_predictor): the library builds each one by the
 * same setup path, `fairsched_<object>_storage_size(capacity, <size configuration...>, &size)`
 * then `fairsched_<object>_init(memory, memory_len, capacity, <configuration...>, &handle)`.
 * (Most objects' sizes depend on the capacity alone; DRR's timeline and predictor hold time
 * series whose length their configuration gives.)
 *
 * - storage_size checks `out_size` for NULL, then the capacity: 0 is NOT_POSITIVE, UINT32_MAX
 *   and above CAPACITY_TOO_LARGE.
 * - init checks, in this order: `out` NULL, `memory` NULL (NULL_POINTER), the capacity, the
 *   object's configuration, then that the object fits in `memory_len` bytes where `memory`
 *   lies (BUFFER_TOO_SMALL). A failed init writes neither the memory nor `*out`.
 * - storage_size's bytes are enough at any alignment and no more than the worst one needs; the
 *   handle lies inside the memory and works, up to its capacity and no further.
 *
 * Also the calls that belong to no object: the ABI version, the status messages and the panic
 * boundary. Each algorithm's own file tests what only it does.
 *
 * Built and run by run-tests.sh: C11, ASan and UBSan, -DFAIRSCHED_TESTING.
 */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- The table of objects -------------------------------------------------------------------- */

/* The largest capacity a test fills (the fill functions' arrays hold one more than this). */
enum { MAX_FILL = 8 };

/* An invalid configuration of an object and the status init must return for it. */
typedef struct {
    const char *what;
    const void *config;
    fairsched_status status;
} bad_config;

/* One stateful object, seen through the setup path all of them share. */
typedef struct {
    const char *name;
    /* Calls fairsched_<name>_storage_size with the capacity and what the configuration
     * `config` points to says of the size. */
    fairsched_status (*storage_size)(const void *config, uint32_t capacity, size_t *out_size);
    /* Calls fairsched_<name>_init with the configuration `config` points to (NULL for objects
     * without one); `out` is handed to the library as it is, NULL included. Every handle is a
     * pointer to an opaque struct, stored here as a void *: the library writes it, so the
     * test checks what the library left in `*out`, not what a wrapper copied. */
    fairsched_status (*init)(const void *config, void *memory, size_t memory_len,
                             uint32_t capacity, void **out);
    const void *config; /* a valid configuration */
    /* The invalid configurations (none for objects that take no configuration). */
    const bad_config *bad_configs;
    size_t bad_configs_len;
    /* Uses the handle of an object built with `capacity` (<= MAX_FILL) entries: fills it to
     * capacity through its main calls, checking their results, then checks that one entry
     * more is refused with CAPACITY_FULL. */
    void (*fill)(void *handle, uint32_t capacity);
} object;

/* The storage_size of an object whose size depends on its capacity alone. */
#define SIZE_OF_CAPACITY(object)                                                                  \
    static fairsched_status object##_size(const void *config, uint32_t capacity,                \
                                          size_t *out_size) {                                     \
        (void)config;                                                                             \
        return fairsched_##object##_storage_size(capacity, out_size);                             \
    }

SIZE_OF_CAPACITY(cfq)
SIZE_OF_CAPACITY(drf_queue)
SIZE_OF_CAPACITY(hai)
SIZE_OF_CAPACITY(paf)

/* ---- CFQ: a scheduler for `capacity` jobs ---------------------------------------------------- */

typedef struct {
    uint32_t slots;
    double start_time;
} cfq_config;

static fairsched_status cfq_init(const void *config, void *memory, size_t memory_len,
                                 uint32_t capacity, void **out) {
    const cfq_config *c = config;
    return fairsched_cfq_init(memory, memory_len, capacity, c->slots, c->start_time,
                              (fairsched_cfq **)out);
}

static const cfq_config CFQ_VALID = {2, 0.0};

static const bad_config CFQ_BAD[] = {
    {"no slot", &(const cfq_config){0, 0.0}, FAIRSCHED_STATUS_NOT_POSITIVE},
    {"NaN start", &(const cfq_config){1, NAN}, FAIRSCHED_STATUS_NOT_FINITE},
    {"infinite start", &(const cfq_config){1, INFINITY}, FAIRSCHED_STATUS_NOT_FINITE},
    {"-infinite start", &(const cfq_config){1, -INFINITY}, FAIRSCHED_STATUS_NOT_FINITE},
    {"start past 2^60", &(const cfq_config){1, 0x1p61}, FAIRSCHED_STATUS_OUT_OF_RANGE},
};

/* Jobs 0..capacity-1 of one pending task each, shorter first: one offer hands out a slot to
 * each in id order; removed, their rows free once GPS is past them. */
static void cfq_fill(void *handle, uint32_t capacity) {
    fairsched_cfq *cfq = handle;
    for (uint64_t id = 0; id < capacity; id++) {
        CHECK_OK(fairsched_cfq_arrive(cfq, 1.0, id, 1.0 + (double)id, 1));
        CHECK_OK(fairsched_cfq_set_pending(cfq, id, 1));
    }
    CHECK_STATUS(fairsched_cfq_arrive(cfq, 1.0, capacity, 1.0, 1),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    uint64_t ids[MAX_FILL + 1];
    size_t assigned = 0;
    CHECK_OK(fairsched_cfq_offer(cfq, ids, LENGTH(ids), &assigned));
    CHECK(assigned == capacity);
    for (uint64_t id = 0; id < capacity && id < assigned; id++) {
        CHECK(ids[id] == id);
        CHECK_OK(fairsched_cfq_remove(cfq, 2.0, id));
    }
    CHECK_OK(fairsched_cfq_advance(cfq, 100.0));
    fairsched_cfq_stats stats;
    CHECK_OK(fairsched_cfq_stats_get(cfq, &stats));
    CHECK(stats.rows_in_use == 0);
}

/* ---- DRF queue: `capacity` users sharing <200 CPUs, 1000 GB> --------------------------------- */

typedef struct {
    const double *cluster;
    size_t cluster_len;
} drf_config;

static fairsched_status drf_queue_init(const void *config, void *memory, size_t memory_len,
                                       uint32_t capacity, void **out) {
    const drf_config *c = config;
    return fairsched_drf_queue_init(memory, memory_len, capacity, c->cluster, c->cluster_len,
                                    (fairsched_drf_queue **)out);
}

static const double CLUSTER[2] = {200.0, 1000.0};
static const drf_config DRF_VALID = {CLUSTER, 2};
static const double NINE_ONES[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};

/* The cluster: each amount finite and positive, 1 to FAIRSCHED_MAX_RESOURCE_KINDS kinds. */
static const bad_config DRF_BAD[] = {
    {"NULL cluster", &(const drf_config){NULL, 2}, FAIRSCHED_STATUS_NULL_POINTER},
    {"no kind (NULL allowed)", &(const drf_config){NULL, 0}, FAIRSCHED_STATUS_EMPTY},
    {"NaN amount", &(const drf_config){(const double[]){NAN, 1000.0}, 2},
     FAIRSCHED_STATUS_NOT_FINITE},
    {"infinite amount", &(const drf_config){(const double[]){200.0, INFINITY}, 2},
     FAIRSCHED_STATUS_NOT_FINITE},
    {"zero amount", &(const drf_config){(const double[]){0.0, 1000.0}, 2},
     FAIRSCHED_STATUS_NOT_POSITIVE},
    {"negative amount", &(const drf_config){(const double[]){200.0, -1.0}, 2},
     FAIRSCHED_STATUS_NOT_POSITIVE},
    {"nine kinds", &(const drf_config){NINE_ONES, 9}, FAIRSCHED_STATUS_CAPACITY_FULL},
};

/* Users 0..capacity-1, each with two pending tasks of <1 CPU, 2 GB>: one round on the whole
 * cluster starts them all. */
static void drf_queue_fill(void *handle, uint32_t capacity) {
    fairsched_drf_queue *queue = handle;
    const double demand[2] = {1.0, 2.0};
    for (uint64_t id = 0; id < capacity; id++) {
        CHECK_OK(fairsched_drf_queue_add_user(queue, id, 1.0, demand, 2));
        CHECK_OK(fairsched_drf_queue_set_pending(queue, id, 2));
    }
    CHECK_STATUS(fairsched_drf_queue_add_user(queue, capacity, 1.0, demand, 2),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    uint64_t ids[2 * MAX_FILL + 1];
    size_t started = 0;
    CHECK_OK(fairsched_drf_queue_allocate_round(queue, CLUSTER, 2, ids, LENGTH(ids), &started));
    CHECK(started == 2 * (size_t)capacity);
    fairsched_drf_queue_stats stats;
    CHECK_OK(fairsched_drf_queue_stats_get(queue, &stats));
    CHECK(stats.users == capacity && stats.capacity == capacity && stats.kinds == 2);
}

/* ---- HAI: a workspace for batches of `capacity` jobs ----------------------------------------- */

static fairsched_status hai_init(const void *config, void *memory, size_t memory_len,
                                 uint32_t capacity, void **out) {
    (void)config; /* HAI takes no configuration */
    return fairsched_hai_init(memory, memory_len, capacity, (fairsched_hai **)out);
}

/* `capacity` jobs capped at 10 cores (theta 10; JCT 5 on 10 cores, waiting without) on 10
 * cores each: every job gets its 10. */
static void hai_fill(void *handle, uint32_t capacity) {
    fairsched_hai *hai = handle;
    uint32_t caps[MAX_FILL + 1], cores[MAX_FILL + 1];
    double jct[2 * (MAX_FILL + 1)], out_jct[MAX_FILL + 1];
    for (size_t j = 0; j <= capacity; j++) {
        caps[j] = 10;
        jct[2 * j] = INFINITY;
        jct[2 * j + 1] = 5.0;
    }
    fairsched_hai_summary summary;
    CHECK_OK(fairsched_hai_allocate(hai, FAIRSCHED_HAI_ALLOCATE, 10 * capacity, 10, caps,
                                    capacity, jct, 2 * (size_t)capacity, cores, capacity,
                                    out_jct, capacity, &summary));
    for (size_t j = 0; j < capacity; j++) {
        CHECK(cores[j] == 10 && out_jct[j] == 5.0);
    }
    CHECK(summary.jct_sum == 5.0 * capacity);
    CHECK_STATUS(fairsched_hai_allocate(hai, FAIRSCHED_HAI_ALLOCATE, 10 * (capacity + 1), 10,
                                        caps, capacity + 1, jct, 2 * ((size_t)capacity + 1),
                                        cores, capacity + 1, out_jct, capacity + 1, &summary),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
}

/* ---- PAF: a workspace for calls on `capacity` jobs ------------------------------------------- */

static fairsched_status paf_init(const void *config, void *memory, size_t memory_len,
                                 uint32_t capacity, void **out) {
    (void)config; /* PAF takes no configuration */
    return fairsched_paf_init(memory, memory_len, capacity, (fairsched_paf **)out);
}

/* Enforcement on `capacity` jobs of target 1, none running: one slot each, in index order. */
static void paf_fill(void *handle, uint32_t capacity) {
    fairsched_paf *paf = handle;
    uint32_t targets[MAX_FILL + 1], running[MAX_FILL + 1], given[MAX_FILL + 1];
    for (size_t j = 0; j <= capacity; j++) {
        targets[j] = 1;
        running[j] = 0;
    }
    size_t assigned = 0;
    CHECK_OK(fairsched_paf_enforce(paf, targets, capacity, targets, capacity, running, capacity, given,
                                   LENGTH(given), &assigned));
    CHECK(assigned == capacity);
    for (uint32_t j = 0; j < capacity && j < assigned; j++) {
        CHECK(given[j] == j);
    }
    CHECK_STATUS(fairsched_paf_enforce(paf, targets, capacity + 1, targets, capacity + 1, running,
                                       capacity + 1, given,
                                       LENGTH(given), &assigned),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
}

/* ---- DRR timeline: `capacity` running executors on a <4 CPUs, 8 GB> machine over 4 steps ---- */

typedef struct {
    const double *machine;
    size_t machine_len;
    uint32_t horizon;
} timeline_config;

static fairsched_status drr_timeline_size(const void *config, uint32_t capacity,
                                          size_t *out_size) {
    const timeline_config *c = config;
    return fairsched_drr_timeline_storage_size(capacity, c->machine_len, c->horizon, out_size);
}

static fairsched_status drr_timeline_init(const void *config, void *memory, size_t memory_len,
                                          uint32_t capacity, void **out) {
    const timeline_config *c = config;
    return fairsched_drr_timeline_init(memory, memory_len, capacity, c->machine, c->machine_len,
                                       c->horizon, (fairsched_drr_timeline **)out);
}

static const double MACHINE[2] = {4.0, 8.0};
static const timeline_config TIMELINE_VALID = {MACHINE, 2, 4};

/* The machine as fairsched_drr_machine checks a capacity, then the horizon, 1 to 256 steps. */
static const bad_config TIMELINE_BAD[] = {
    {"NULL machine", &(const timeline_config){NULL, 2, 4}, FAIRSCHED_STATUS_NULL_POINTER},
    {"no kind (NULL allowed)", &(const timeline_config){NULL, 0, 4}, FAIRSCHED_STATUS_EMPTY},
    {"NaN amount", &(const timeline_config){(const double[]){NAN, 8.0}, 2, 4},
     FAIRSCHED_STATUS_NOT_FINITE},
    {"zero amount", &(const timeline_config){(const double[]){4.0, 0.0}, 2, 4},
     FAIRSCHED_STATUS_NOT_POSITIVE},
    {"amount past DBL_MAX / 256", &(const timeline_config){(const double[]){1e308, 8.0}, 2, 4},
     FAIRSCHED_STATUS_OUT_OF_RANGE},
    {"nine kinds", &(const timeline_config){NINE_ONES, 9, 4}, FAIRSCHED_STATUS_CAPACITY_FULL},
    {"no step", &(const timeline_config){MACHINE, 2, 0}, FAIRSCHED_STATUS_EMPTY},
    {"257 steps", &(const timeline_config){MACHINE, 2, 257}, FAIRSCHED_STATUS_CAPACITY_FULL},
};

/* `capacity` executors of <0.5 CPU, 1 GB> for one step: ids 1 to `capacity`; the machine has
 * room for 8 of them, so the capacity is what refuses one more. */
static void drr_timeline_fill(void *handle, uint32_t capacity) {
    fairsched_drr_timeline *timeline = handle;
    const double demand[2] = {0.5, 1.0};
    for (uint64_t id = 1; id <= capacity; id++) {
        uint64_t placed = 0;
        CHECK_OK(fairsched_drr_timeline_place(timeline, demand, 2, &placed));
        CHECK(placed == id);
    }
    uint64_t more = 0;
    CHECK_STATUS(fairsched_drr_timeline_place(timeline, demand, 2, &more),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    fairsched_drr_timeline_stats stats;
    CHECK_OK(fairsched_drr_timeline_stats_get(timeline, &stats));
    CHECK(stats.running == capacity && stats.capacity == capacity && stats.next_id == capacity + 1);
}

/* ---- DRR predictor: `capacity` applications, their last 3 runs of up to 4 steps of 2 kinds -- */

typedef struct {
    size_t kinds;
    uint32_t window;
    uint32_t steps;
} predictor_config;

static fairsched_status drr_predictor_size(const void *config, uint32_t capacity,
                                           size_t *out_size) {
    const predictor_config *c = config;
    return fairsched_drr_predictor_storage_size(capacity, c->kinds, c->window, c->steps,
                                                out_size);
}

static fairsched_status drr_predictor_init(const void *config, void *memory, size_t memory_len,
                                           uint32_t capacity, void **out) {
    const predictor_config *c = config;
    return fairsched_drr_predictor_init(memory, memory_len, capacity, c->kinds, c->window,
                                        c->steps, (fairsched_drr_predictor **)out);
}

static const predictor_config PREDICTOR_VALID = {2, 3, 4};

static const bad_config PREDICTOR_BAD[] = {
    {"no kind", &(const predictor_config){0, 3, 4}, FAIRSCHED_STATUS_EMPTY},
    {"nine kinds", &(const predictor_config){9, 3, 4}, FAIRSCHED_STATUS_CAPACITY_FULL},
    {"window 0", &(const predictor_config){2, 0, 4}, FAIRSCHED_STATUS_NOT_POSITIVE},
    {"window 17", &(const predictor_config){2, 17, 4}, FAIRSCHED_STATUS_OUT_OF_RANGE},
    {"no step", &(const predictor_config){2, 3, 0}, FAIRSCHED_STATUS_EMPTY},
    {"257 steps", &(const predictor_config){2, 3, 257}, FAIRSCHED_STATUS_CAPACITY_FULL},
};

/* Applications 0..capacity-1 with one run each; one more is refused. */
static void drr_predictor_fill(void *handle, uint32_t capacity) {
    fairsched_drr_predictor *predictor = handle;
    const double run[4] = {1.0, 2.0, 3.0, 4.0};
    for (uint64_t id = 0; id < capacity; id++) {
        CHECK_OK(fairsched_drr_predictor_record(predictor, id, run, 4));
    }
    CHECK_STATUS(fairsched_drr_predictor_record(predictor, capacity, run, 4),
                 FAIRSCHED_STATUS_CAPACITY_FULL);
    for (uint64_t id = 0; id <= capacity; id++) {
        uint32_t runs = 99;
        CHECK_OK(fairsched_drr_predictor_runs(predictor, id, &runs));
        CHECK(runs == (id < capacity ? 1 : 0));
    }
}

static const object OBJECTS[] = {
    {"cfq", cfq_size, cfq_init, &CFQ_VALID, CFQ_BAD, LENGTH(CFQ_BAD), cfq_fill},
    {"drf_queue", drf_queue_size, drf_queue_init, &DRF_VALID, DRF_BAD, LENGTH(DRF_BAD),
     drf_queue_fill},
    {"hai", hai_size, hai_init, NULL, NULL, 0, hai_fill},
    {"paf", paf_size, paf_init, NULL, NULL, 0, paf_fill},
    {"drr_timeline", drr_timeline_size, drr_timeline_init, &TIMELINE_VALID, TIMELINE_BAD,
     LENGTH(TIMELINE_BAD), drr_timeline_fill},
    {"drr_predictor", drr_predictor_size, drr_predictor_init, &PREDICTOR_VALID, PREDICTOR_BAD,
     LENGTH(PREDICTOR_BAD), drr_predictor_fill},
};

/* ---- Memory ---------------------------------------------------------------------------------- */

/* A heap block holding the `size` bytes storage_size asks for at `misalignment` bytes past a
 * 16-byte boundary, filled with POISON. The memory ends where the block does, so ASan catches
 * a write past it. Release with block_free. */
typedef struct {
    unsigned char *base;   /* what malloc returned */
    unsigned char *memory; /* base + misalignment */
    size_t size;
} block;

static block block_new(const object *o, uint32_t capacity, size_t misalignment) {
    block b = {NULL, NULL, 0};
    CHECK_OK(o->storage_size(o->config, capacity, &b.size));
    b.base = malloc(misalignment + b.size);
    if (b.base == NULL) {
        abort(); /* nothing to test without memory */
    }
    b.memory = b.base + misalignment;
    memset(b.memory, POISON, b.size);
    /* malloc's blocks are 16-aligned (glibc's and ASan's on x86-64 and aarch64): checked, so
     * that the misalignments really are the ones the tests name. */
    CHECK((uintptr_t)b.memory % 16 == misalignment % 16);
    return b;
}

static void block_free(block b) {
    free(b.base);
}

/* The misalignment that needs the most slack whatever alignment (up to 16) the object needs:
 * an address 1 past a multiple of the alignment is the farthest from the next one. */
enum { WORST_MISALIGNMENT = 1 };

/* Checks that init with `config` on `memory_len` bytes of `b` and `capacity` returns `want`
 * and writes neither the block nor the handle. */
static void init_fails_at(const object *o, const void *config, block b, size_t memory_len,
                          uint32_t capacity, fairsched_status want, int line) {
    void *handle;
    POISON_FILL(handle);
    check_status_at(o->init(config, b.memory, memory_len, capacity, &handle), want,
                    "init", line);
    check_at(is_poison(b.memory, b.size), "memory left unwritten", line);
    check_at(is_poison(&handle, sizeof handle), "*out left unwritten", line);
}

#define CHECK_INIT_FAILS(o, config, b, memory_len, capacity, want) \
    init_fails_at(o, config, b, memory_len, capacity, want, __LINE__)

/* ---- storage_size ---------------------------------------------------------------------------- */

static void test_storage_size(void) {
    for (size_t i = 0; i < LENGTH(OBJECTS); i++) {
        const object *o = &OBJECTS[i];
        check_context("%s", o->name);
        /* out_size is checked first, whatever the capacity. */
        CHECK_STATUS(o->storage_size(o->config, 1, NULL), FAIRSCHED_STATUS_NULL_POINTER);
        CHECK_STATUS(o->storage_size(o->config, 0, NULL), FAIRSCHED_STATUS_NULL_POINTER);
        CHECK_STATUS(o->storage_size(o->config, UINT32_MAX, NULL),
                     FAIRSCHED_STATUS_NULL_POINTER);

        size_t size;
        POISON_FILL(size);
        CHECK_STATUS(o->storage_size(o->config, 0, &size), FAIRSCHED_STATUS_NOT_POSITIVE);
        CHECK_STATUS(o->storage_size(o->config, UINT32_MAX, &size),
                     FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
        CHECK_UNWRITTEN(size);

        /* The sizes grow with the capacity, up to the last one allowed (addressable when
         * size_t is wider than the capacity). */
        size_t one = 0, two = 0;
        CHECK_OK(o->storage_size(o->config, 1, &one));
        CHECK_OK(o->storage_size(o->config, 2, &two));
        CHECK(0 < one && one < two);
#if SIZE_MAX > UINT32_MAX
        size_t largest = 0;
        CHECK_OK(o->storage_size(o->config, UINT32_MAX - 1, &largest));
        CHECK(largest > two);
#endif
    }
}

/* ---- init: each check, in order -------------------------------------------------------------- */

static void test_init_null_pointers(void) {
    for (size_t i = 0; i < LENGTH(OBJECTS); i++) {
        const object *o = &OBJECTS[i];
        check_context("%s", o->name);
        block b = block_new(o, 1, 0);
        void *handle;
        POISON_FILL(handle);
        /* NULL out: nothing to write the handle to, so nothing is built; checked first, also
         * when the capacity and the size are wrong too. */
        CHECK_STATUS(o->init(o->config, b.memory, b.size, 1, NULL),
                     FAIRSCHED_STATUS_NULL_POINTER);
        CHECK_STATUS(o->init(o->config, b.memory, 0, 0, NULL), FAIRSCHED_STATUS_NULL_POINTER);
        CHECK(is_poison(b.memory, b.size));
        /* NULL memory, also with every later check failing too: it comes first. */
        CHECK_STATUS(o->init(o->config, NULL, b.size, 1, &handle), FAIRSCHED_STATUS_NULL_POINTER);
        CHECK_STATUS(o->init(o->config, NULL, 0, 0, &handle), FAIRSCHED_STATUS_NULL_POINTER);
        CHECK_STATUS(o->init(o->config, NULL, 0, UINT32_MAX, &handle),
                     FAIRSCHED_STATUS_NULL_POINTER);
        CHECK_UNWRITTEN(handle);
        block_free(b);
    }
}

/* The capacity is checked before the memory's size: 0 bytes do not mask a bad capacity. */
static void test_init_capacity(void) {
    for (size_t i = 0; i < LENGTH(OBJECTS); i++) {
        const object *o = &OBJECTS[i];
        check_context("%s", o->name);
        block b = block_new(o, 1, 0);
        CHECK_INIT_FAILS(o, o->config, b, b.size, 0, FAIRSCHED_STATUS_NOT_POSITIVE);
        CHECK_INIT_FAILS(o, o->config, b, 0, 0, FAIRSCHED_STATUS_NOT_POSITIVE);
        CHECK_INIT_FAILS(o, o->config, b, b.size, UINT32_MAX,
                         FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
        CHECK_INIT_FAILS(o, o->config, b, 0, UINT32_MAX, FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
        block_free(b);
    }
}

/* Each invalid configuration is refused with its status, after the capacity (a NULL pointer
 * among the configuration included) and before the memory's size. */
static void test_init_configuration(void) {
    for (size_t i = 0; i < LENGTH(OBJECTS); i++) {
        const object *o = &OBJECTS[i];
        block b = block_new(o, 1, 0);
        for (size_t k = 0; k < o->bad_configs_len; k++) {
            const bad_config *bad = &o->bad_configs[k];
            check_context("%s, %s", o->name, bad->what);
            CHECK_INIT_FAILS(o, bad->config, b, b.size, 1, bad->status);
            CHECK_INIT_FAILS(o, bad->config, b, 0, 1, bad->status);
            CHECK_INIT_FAILS(o, bad->config, b, b.size, UINT32_MAX,
                             FAIRSCHED_STATUS_CAPACITY_TOO_LARGE);
        }
        block_free(b);
    }
}

/* Too little memory is BUFFER_TOO_SMALL: none, the size for a smaller capacity, and one byte
 * less than storage_size where the block needs all of its slack. */
static void test_init_buffer_too_small(void) {
    for (size_t i = 0; i < LENGTH(OBJECTS); i++) {
        const object *o = &OBJECTS[i];
        check_context("%s", o->name);
        const fairsched_status small = FAIRSCHED_STATUS_BUFFER_TOO_SMALL;
        block one = block_new(o, 1, 0);
        CHECK_INIT_FAILS(o, o->config, one, 0, 1, small);
        CHECK_INIT_FAILS(o, o->config, one, one.size, 2, small);
        block_free(one);

        block worst = block_new(o, 1, WORST_MISALIGNMENT);
        CHECK_INIT_FAILS(o, o->config, worst, worst.size - 1, 1, small);
        /* ... and the whole size is enough there. */
        void *handle = NULL;
        CHECK_OK(o->init(o->config, worst.memory, worst.size, 1, &handle));
        block_free(worst);
    }
}

/* ---- Built objects --------------------------------------------------------------------------- */

/* For each object: builds it with `capacity` in exactly the bytes storage_size asks for, at
 * `misalignment` (ASan guards the end), `builds` times over in the same memory, and works each
 * build through to its capacity. The handle must lie inside the memory. */
static void build_each(uint32_t capacity, size_t misalignment, int builds) {
    for (size_t i = 0; i < LENGTH(OBJECTS); i++) {
        const object *o = &OBJECTS[i];
        check_context("%s, capacity %u, misalignment %zu", o->name, (unsigned)capacity,
                      misalignment);
        block b = block_new(o, capacity, misalignment);
        for (int build = 0; build < builds; build++) {
            void *handle = NULL;
            CHECK_OK(o->init(o->config, b.memory, b.size, capacity, &handle));
            const unsigned char *at = handle;
            CHECK(at >= b.memory && at < b.memory + b.size);
            if (handle != NULL) {
                o->fill(handle, capacity);
            }
        }
        block_free(b);
    }
}

/* Memory at every misalignment works. */
static void test_init_any_alignment(void) {
    for (size_t misalignment = 0; misalignment < 16; misalignment++) {
        build_each(4, misalignment, 1);
    }
}

/* The smallest capacity: one entry, and not two. */
static void test_capacity_one(void) {
    build_each(1, 0, 1);
}

/* init resets whatever the memory held: an object rebuilt over a full one starts empty. */
static void test_init_again(void) {
    build_each(2, 0, 2);
}

/* ---- Calls of no object ---------------------------------------------------------------------- */

static void test_abi_version(void) {
    CHECK(fairsched_abi_version() == FAIRSCHED_ABI_VERSION);
    CHECK(FAIRSCHED_ABI_VERSION == 3); /* the ABI these tests are written against */
}

static void test_status_messages(void) {
    for (uint32_t status = FAIRSCHED_STATUS_OK; status < FAIRSCHED_STATUS_COUNT; status++) {
        const char *message = fairsched_status_message(status);
        CHECK(message != NULL && message[0] != '\0' && strcmp(message, "unknown status") != 0);
    }
    /* Any number is safe to ask about: codes the library does not know are named as such. */
    CHECK(strcmp(fairsched_status_message(FAIRSCHED_STATUS_COUNT), "unknown status") == 0);
    CHECK(strcmp(fairsched_status_message(UINT32_MAX), "unknown status") == 0);
}

/* A Rust panic becomes a status, never an unwind into C. */
static void test_panic_is_caught(void) {
    CHECK(fairsched_testing_panic() == FAIRSCHED_STATUS_PANIC);
}

/* ---- Runner ---------------------------------------------------------------------------------- */

static const test_case tests[] = {
    {"storage_size", test_storage_size},
    {"init_null_pointers", test_init_null_pointers},
    {"init_capacity", test_init_capacity},
    {"init_configuration", test_init_configuration},
    {"init_buffer_too_small", test_init_buffer_too_small},
    {"init_any_alignment", test_init_any_alignment},
    {"capacity_one", test_capacity_one},
    {"init_again", test_init_again},
    {"abi_version", test_abi_version},
    {"status_messages", test_status_messages},
    {"panic_is_caught", test_panic_is_caught},
};

int main(void) {
    return run_tests(tests, LENGTH(tests));
}

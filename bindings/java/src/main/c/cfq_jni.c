/*
 * JNI glue between dev.fairsched.NativeCfq and the CFQ exports of the fairsched C ABI
 * (include/fairsched.h), with the conventions of glue.h.
 *
 * Arrays on the hot path never go through Get<Type>ArrayElements, which copies them: offer
 * writes through a stack buffer, set_pending_batch reads both arrays in place, pinned around
 * its single fairsched call (which keeps the batch all or nothing); setPendingAndOffer makes
 * both in one crossing, the one entry point that calls two exports. A job's information and
 * the stats are written by the library straight into the Cfq's buffer, laid out as in C. A
 * CfqProfiler's state is a fairsched_cfq_profiler in a direct buffer of its own, which the
 * library reads and writes in place.
 */
#include "dev_fairsched_NativeCfq.h"
#include "glue.h"

/* A constant of dev.fairsched.NativeCfq, e.g. CFQ(JOB_ARRIVAL). */
#define CFQ(name) dev_fairsched_NativeCfq_##name

ASSERT_OFFSET(fairsched_cfq_job_info, id, CFQ(JOB_ID));
ASSERT_OFFSET(fairsched_cfq_job_info, arrival, CFQ(JOB_ARRIVAL));
ASSERT_OFFSET(fairsched_cfq_job_info, slot_time, CFQ(JOB_SLOT_TIME));
ASSERT_OFFSET(fairsched_cfq_job_info, virtual_finish, CFQ(JOB_VIRTUAL_FINISH));
ASSERT_OFFSET(fairsched_cfq_job_info, gps_completion, CFQ(JOB_GPS_COMPLETION));
ASSERT_OFFSET(fairsched_cfq_job_info, completion, CFQ(JOB_COMPLETION));
ASSERT_OFFSET(fairsched_cfq_job_info, weight, CFQ(JOB_WEIGHT));
ASSERT_OFFSET(fairsched_cfq_job_info, pending_tasks, CFQ(JOB_PENDING_TASKS));
ASSERT_OFFSET(fairsched_cfq_job_info, backlogged, CFQ(JOB_BACKLOGGED));
ASSERT_OFFSET(fairsched_cfq_job_info, gps_active, CFQ(JOB_GPS_ACTIVE));
ASSERT_OFFSET(fairsched_cfq_job_info, completed, CFQ(JOB_COMPLETED));
ASSERT_SIZE(fairsched_cfq_job_info, CFQ(JOB_SIZE));

ASSERT_OFFSET(fairsched_cfq_stats, now, CFQ(STATS_NOW));
ASSERT_OFFSET(fairsched_cfq_stats, virtual_time, CFQ(STATS_VIRTUAL_TIME));
ASSERT_OFFSET(fairsched_cfq_stats, slots, CFQ(STATS_SLOTS));
ASSERT_OFFSET(fairsched_cfq_stats, capacity, CFQ(STATS_CAPACITY));
ASSERT_OFFSET(fairsched_cfq_stats, jobs, CFQ(STATS_JOBS));
ASSERT_OFFSET(fairsched_cfq_stats, backlogged, CFQ(STATS_BACKLOGGED));
ASSERT_OFFSET(fairsched_cfq_stats, gps_active, CFQ(STATS_GPS_ACTIVE));
ASSERT_OFFSET(fairsched_cfq_stats, rows_in_use, CFQ(STATS_ROWS_IN_USE));
ASSERT_SIZE(fairsched_cfq_stats, CFQ(STATS_SIZE));

ASSERT_OFFSET(fairsched_cfq_profiler, count, CFQ(PROFILER_COUNT));
ASSERT_OFFSET(fairsched_cfq_profiler, sum, CFQ(PROFILER_SUM));
ASSERT_OFFSET(fairsched_cfq_profiler, sum_low, CFQ(PROFILER_SUM_LOW));
ASSERT_SIZE(fairsched_cfq_profiler, CFQ(PROFILER_SIZE));

static fairsched_cfq *cfq_of(jlong handle) {
    return (fairsched_cfq *)(intptr_t)handle;
}

/* For the calls that produce one double: `status`, with `value` written to out[0] on success. */
static jint double_or_status(JNIEnv *env, fairsched_status status, double value,
                             jdoubleArray out) {
    if (status == FAIRSCHED_STATUS_OK) {
        (*env)->SetDoubleArrayRegion(env, out, 0, 1, &value);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_open(JNIEnv *env, jclass cls, jlong capacity,
                                                          jlong slots, jdouble start_time,
                                                          jlongArray out) {
    size_t size = 0;
    fairsched_status sized = fairsched_cfq_storage_size((uint32_t)capacity, &size);
    void *memory = storage_for(sized, size);
    fairsched_cfq *cfq = NULL;
    fairsched_status built = fairsched_cfq_init(memory, size, (uint32_t)capacity,
                                                (uint32_t)slots, start_time, &cfq);
    return opened(env, sized, built, memory, cfq, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_advance(JNIEnv *env, jclass cls, jlong cfq,
                                                             jdouble now) {
    return fairsched_cfq_advance(cfq_of(cfq), now);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_setSlots(JNIEnv *env, jclass cls, jlong cfq,
                                                              jdouble now, jlong slots) {
    return fairsched_cfq_set_slots(cfq_of(cfq), now, (uint32_t)slots);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_arrive(JNIEnv *env, jclass cls, jlong cfq,
                                                            jdouble now, jlong job_id,
                                                            jdouble slot_time, jlong weight) {
    return fairsched_cfq_arrive(cfq_of(cfq), now, (uint64_t)job_id, slot_time, (uint32_t)weight);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_reprofile(JNIEnv *env, jclass cls, jlong cfq,
                                                               jdouble now, jlong job_id,
                                                               jdouble slot_time) {
    return fairsched_cfq_reprofile(cfq_of(cfq), now, (uint64_t)job_id, slot_time);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_setPending(JNIEnv *env, jclass cls,
                                                                jlong cfq, jlong job_id,
                                                                jlong pending_tasks) {
    return fairsched_cfq_set_pending(cfq_of(cfq), (uint64_t)job_id, (uint32_t)pending_tasks);
}

/*
 * fairsched_cfq_set_pending_batch on both arrays, read in place (pinned around the call), its
 * status in *status. False when they could not be pinned: an OutOfMemoryError is pending and
 * nothing was called.
 */
static bool set_pending_batch(JNIEnv *env, jlong cfq, jlongArray job_ids,
                              jintArray pending_tasks, fairsched_status *status) {
    pinned_array ids = reading(env, job_ids), pending = reading(env, pending_tasks);
    pinned_array *const arrays[] = {&ids, &pending};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return false;
    }
    *status = fairsched_cfq_set_pending_batch(cfq_of(cfq), ids.elements, ids.length,
                                              pending.elements, pending.length);
    release(env, arrays, LENGTH(arrays));
    return true;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_setPendingBatch(JNIEnv *env, jclass cls,
                                                                     jlong cfq,
                                                                     jlongArray job_ids,
                                                                     jintArray pending_tasks) {
    fairsched_status status = FAIRSCHED_STATUS_OK;
    return set_pending_batch(env, cfq, job_ids, pending_tasks, &status) ? status
                                                                         : EXCEPTION_PENDING;
}

/*
 * Offers through a stack buffer, OFFER_CHUNK slots at a time, copied out with SetLongArrayRegion:
 * cheaper than pinning the array for the small batches of the hot path. Equivalent to a single
 * fairsched call, since an offer of k slots is k one-slot decisions in a row.
 */
enum { OFFER_CHUNK = 256 };

static jint offer(JNIEnv *env, jlong cfq, jlongArray out, jint free_slots) {
    uint64_t chunk[OFFER_CHUNK];
    size_t assigned = 0;
    size_t wanted;
    size_t given;
    do {
        wanted = (size_t)free_slots - assigned;
        if (wanted > OFFER_CHUNK) {
            wanted = OFFER_CHUNK;
        }
        fairsched_status status = fairsched_cfq_offer(cfq_of(cfq), chunk, wanted, &given);
        if (status != FAIRSCHED_STATUS_OK) {
            return count_or_status(status, 0);
        }
        (*env)->SetLongArrayRegion(env, out, (jsize)assigned, (jsize)given, (const jlong *)chunk);
        assigned += given;
    } while (given == wanted && assigned < (size_t)free_slots);
    return count_or_status(FAIRSCHED_STATUS_OK, assigned);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_offer(JNIEnv *env, jclass cls, jlong cfq,
                                                           jlongArray out, jint free_slots) {
    return offer(env, cfq, out, free_slots);
}

/*
 * A round in one crossing: set_pending_batch, then the offer if the counts were accepted. When
 * they are refused nothing has changed, `out` included, and their status is returned. A
 * failed offer after a successful set cannot happen: fairsched_cfq_offer fails only on a NULL
 * argument, and Java passes none (or with PANIC, a bug, after which Java closes the object).
 * The arrays are released before the offer, which copies out through SetLongArrayRegion.
 */
JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_setPendingAndOffer(
    JNIEnv *env, jclass cls, jlong cfq, jlongArray job_ids, jintArray pending_tasks,
    jlongArray out, jint free_slots) {
    fairsched_status status = FAIRSCHED_STATUS_OK;
    if (!set_pending_batch(env, cfq, job_ids, pending_tasks, &status)) {
        return EXCEPTION_PENDING;
    }
    if (status != FAIRSCHED_STATUS_OK) {
        return count_or_status(status, 0);
    }
    return offer(env, cfq, out, free_slots);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_peek(JNIEnv *env, jclass cls, jlong cfq,
                                                          jlongArray out) {
    uint64_t id = 0;
    bool found = false;
    fairsched_status status = fairsched_cfq_peek(cfq_of(cfq), &id, &found);
    return found_or_status(env, status, found, id, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_complete(JNIEnv *env, jclass cls, jlong cfq,
                                                              jdouble now, jlong job_id) {
    return fairsched_cfq_complete(cfq_of(cfq), now, (uint64_t)job_id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_remove(JNIEnv *env, jclass cls, jlong cfq,
                                                            jdouble now, jlong job_id) {
    return fairsched_cfq_remove(cfq_of(cfq), now, (uint64_t)job_id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_job(JNIEnv *env, jclass cls, jlong cfq,
                                                         jlong job_id, jobject out) {
    return fairsched_cfq_job_get(cfq_of(cfq), (uint64_t)job_id, struct_at(env, out));
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_delayBound(JNIEnv *env, jclass cls,
                                                                jdouble longest_task,
                                                                jdouble largest_slot_time,
                                                                jlong slots, jdoubleArray out) {
    double bound = 0.0;
    fairsched_status status =
        fairsched_cfq_delay_bound(longest_task, largest_slot_time, (uint32_t)slots, &bound);
    return double_or_status(env, status, bound, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_gpsCompletionEstimate(JNIEnv *env, jclass cls,
                                                                           jlong cfq,
                                                                           jlong job_id,
                                                                           jdoubleArray out) {
    double time = 0.0;
    fairsched_status status =
        fairsched_cfq_gps_completion_estimate(cfq_of(cfq), (uint64_t)job_id, &time);
    return double_or_status(env, status, time, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_stats(JNIEnv *env, jclass cls, jlong cfq,
                                                           jobject out) {
    return fairsched_cfq_stats_get(cfq_of(cfq), struct_at(env, out));
}

/* ---- The naive profiler ----------------------------------------------------------------------- */

static fairsched_cfq_profiler *profiler_at(JNIEnv *env, jobject buffer) {
    return struct_at(env, buffer);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_profilerInit(JNIEnv *env, jclass cls,
                                                                  jobject profiler) {
    return fairsched_cfq_profiler_init(profiler_at(env, profiler));
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_profilerObserve(JNIEnv *env, jclass cls,
                                                                     jobject profiler,
                                                                     jdouble duration) {
    return fairsched_cfq_profiler_observe(profiler_at(env, profiler), duration);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_profilerObserveBatch(JNIEnv *env, jclass cls,
                                                                          jobject profiler,
                                                                          jdoubleArray durations) {
    fairsched_cfq_profiler *state = profiler_at(env, profiler); /* before pinning: a JNI call */
    pinned_array batch = reading(env, durations);
    pinned_array *const arrays[] = {&batch};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_cfq_profiler_observe_batch(state, batch.elements, batch.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeCfq_profilerEstimate(JNIEnv *env, jclass cls,
                                                                      jobject profiler,
                                                                      jlong tasks,
                                                                      jdoubleArray out) {
    double slot_time = 0.0;
    fairsched_status status =
        fairsched_cfq_profiler_estimate(profiler_at(env, profiler), (uint64_t)tasks, &slot_time);
    return double_or_status(env, status, slot_time, out);
}

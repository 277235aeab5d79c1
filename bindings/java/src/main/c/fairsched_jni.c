/*
 * JNI glue between dev.fairsched.Native and the fairsched C ABI (include/fairsched.h): CFQ, the
 * status messages and freeing the storage of every native object. DRF and QKnobler are in
 * fairsched_drf_jni.c, PAF in paf_jni.c, DRR and MinFrag in fairsched_drr_jni.c; what they all
 * share is in fairsched_jni.h.
 *
 * Each function converts its arguments, makes one fairsched call and returns the status code;
 * Java turns codes into exceptions (Status.java), so that mapping lives in one place. Handles
 * travel as jlong, u64 ids as the same 64 bits in a jlong, u32 numbers as jlongs that Java has
 * checked in range (or, in arrays, as jints it has checked non-negative). Structures come back
 * as arrays laid out by Native's constants, which `javac -h` copies into dev_fairsched_Native.h
 * along with the prototypes checked here.
 *
 * Arrays on the hot path never go through Get<Type>ArrayElements, which copies them: offer
 * writes through a stack buffer, set_pending_batch reads both arrays in place, pinned around
 * its single fairsched call (which keeps the batch all or nothing).
 */
#include "fairsched_jni.h"

static fairsched_cfq *cfq_of(jlong handle) {
    return (fairsched_cfq *)(intptr_t)handle;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_open(JNIEnv *env, jclass cls, jlong capacity,
                                                       jlong slots, jdouble start_time,
                                                       jlongArray out) {
    size_t size;
    fairsched_status status = fairsched_cfq_storage_size((uint32_t)capacity, &size);
    if (status != FAIRSCHED_STATUS_OK) {
        return status;
    }
    void *memory = allocate_storage(env, size);
    if (memory == NULL) {
        return EXCEPTION_PENDING;
    }
    fairsched_cfq *cfq;
    status = fairsched_cfq_init(memory, size, (uint32_t)capacity, (uint32_t)slots, start_time,
                                &cfq);
    if (status != FAIRSCHED_STATUS_OK) {
        free(memory);
        return status;
    }
    write_opened(env, out, memory, cfq);
    return status;
}

JNIEXPORT void JNICALL Java_dev_fairsched_Native_free(JNIEnv *env, jclass cls, jlong memory) {
    free((void *)(intptr_t)memory);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_advance(JNIEnv *env, jclass cls, jlong cfq,
                                                          jdouble now) {
    return fairsched_cfq_advance(cfq_of(cfq), now);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_setSlots(JNIEnv *env, jclass cls, jlong cfq,
                                                           jdouble now, jlong slots) {
    return fairsched_cfq_set_slots(cfq_of(cfq), now, (uint32_t)slots);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_arrive(JNIEnv *env, jclass cls, jlong cfq,
                                                         jdouble now, jlong job_id,
                                                         jdouble slot_time, jlong weight) {
    return fairsched_cfq_arrive(cfq_of(cfq), now, (uint64_t)job_id, slot_time, (uint32_t)weight);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_setPending(JNIEnv *env, jclass cls, jlong cfq,
                                                             jlong job_id, jlong pending_tasks) {
    return fairsched_cfq_set_pending(cfq_of(cfq), (uint64_t)job_id, (uint32_t)pending_tasks);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_setPendingBatch(JNIEnv *env, jclass cls,
                                                                  jlong cfq, jlongArray job_ids,
                                                                  jintArray pending_tasks) {
    pinned_array ids = reading(env, job_ids);
    pinned_array pending = reading(env, pending_tasks);
    pinned_array *const arrays[] = {&ids, &pending};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_cfq_set_pending_batch(
        cfq_of(cfq), ids.elements, ids.length, pending.elements, pending.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

/*
 * Offers through a stack buffer, OFFER_CHUNK slots at a time, copied out with SetLongArrayRegion:
 * cheaper than pinning the array for the small batches of the hot path. Equivalent to a single
 * fairsched call, since an offer of k slots is k one-slot decisions in a row.
 */
enum { OFFER_CHUNK = 256 };

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_offer(JNIEnv *env, jclass cls, jlong cfq,
                                                        jlongArray out, jint free_slots) {
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

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_peek(JNIEnv *env, jclass cls, jlong cfq,
                                                       jlongArray out) {
    uint64_t id;
    bool found = false;
    fairsched_status status = fairsched_cfq_peek(cfq_of(cfq), &id, &found);
    if (status == FAIRSCHED_STATUS_OK && found) {
        const jlong next = (jlong)id;
        (*env)->SetLongArrayRegion(env, out, 0, 1, &next);
    }
    return count_or_status(status, found ? 1 : 0);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_complete(JNIEnv *env, jclass cls, jlong cfq,
                                                           jdouble now, jlong job_id) {
    return fairsched_cfq_complete(cfq_of(cfq), now, (uint64_t)job_id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_remove(JNIEnv *env, jclass cls, jlong cfq,
                                                         jdouble now, jlong job_id) {
    return fairsched_cfq_remove(cfq_of(cfq), now, (uint64_t)job_id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_job(JNIEnv *env, jclass cls, jlong cfq,
                                                      jlong job_id, jdoubleArray out) {
    fairsched_cfq_job_info info;
    fairsched_status status = fairsched_cfq_job_get(cfq_of(cfq), (uint64_t)job_id, &info);
    if (status == FAIRSCHED_STATUS_OK) {
        const jdouble fields[LAYOUT(JOB_LENGTH)] = {
            [LAYOUT(JOB_ARRIVAL)] = info.arrival,
            [LAYOUT(JOB_SLOT_TIME)] = info.slot_time,
            [LAYOUT(JOB_VIRTUAL_FINISH)] = info.virtual_finish,
            [LAYOUT(JOB_GPS_COMPLETION)] = info.gps_completion,
            [LAYOUT(JOB_COMPLETION)] = info.completion,
            [LAYOUT(JOB_WEIGHT)] = info.weight,
            [LAYOUT(JOB_PENDING_TASKS)] = info.pending_tasks,
            [LAYOUT(JOB_BACKLOGGED)] = info.backlogged,
            [LAYOUT(JOB_GPS_ACTIVE)] = info.gps_active,
            [LAYOUT(JOB_COMPLETED)] = info.completed,
        };
        (*env)->SetDoubleArrayRegion(env, out, 0, LAYOUT(JOB_LENGTH), fields);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_gpsCompletionEstimate(JNIEnv *env, jclass cls,
                                                                        jlong cfq, jlong job_id,
                                                                        jdoubleArray out) {
    double time;
    fairsched_status status =
        fairsched_cfq_gps_completion_estimate(cfq_of(cfq), (uint64_t)job_id, &time);
    if (status == FAIRSCHED_STATUS_OK) {
        (*env)->SetDoubleArrayRegion(env, out, 0, 1, &time);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_stats(JNIEnv *env, jclass cls, jlong cfq,
                                                        jdoubleArray out) {
    fairsched_cfq_stats stats;
    fairsched_status status = fairsched_cfq_stats_get(cfq_of(cfq), &stats);
    if (status == FAIRSCHED_STATUS_OK) {
        const jdouble fields[LAYOUT(STATS_LENGTH)] = {
            [LAYOUT(STATS_NOW)] = stats.now,
            [LAYOUT(STATS_VIRTUAL_TIME)] = stats.virtual_time,
            [LAYOUT(STATS_SLOTS)] = stats.slots,
            [LAYOUT(STATS_CAPACITY)] = stats.capacity,
            [LAYOUT(STATS_JOBS)] = stats.jobs,
            [LAYOUT(STATS_BACKLOGGED)] = stats.backlogged,
            [LAYOUT(STATS_GPS_ACTIVE)] = stats.gps_active,
            [LAYOUT(STATS_ROWS_IN_USE)] = stats.rows_in_use,
        };
        (*env)->SetDoubleArrayRegion(env, out, 0, LAYOUT(STATS_LENGTH), fields);
    }
    return status;
}

JNIEXPORT jstring JNICALL Java_dev_fairsched_Native_statusMessage(JNIEnv *env, jclass cls,
                                                                   jint status) {
    /* Any code is safe: the library names codes it does not know "unknown status". */
    return (*env)->NewStringUTF(env, fairsched_status_message((uint32_t)status));
}

#if defined(FAIRSCHED_TESTING)
/* dev.fairsched.NativeTesting is in the test sources, so javac -h declares no prototype. */
JNIEXPORT jint JNICALL Java_dev_fairsched_NativeTesting_testingPanic(JNIEnv *env, jclass cls) {
    return fairsched_testing_panic();
}
#endif

/*
 * JNI glue between dev.fairsched.Native and the fairsched C ABI (include/fairsched.h).
 *
 * Each function converts its arguments, makes one fairsched call and returns the status code;
 * Java turns codes into exceptions (Status.java), so that mapping lives in one place. Handles
 * travel as jlong, u64 ids as the same 64 bits in a jlong, u32 numbers as jlongs that Java has
 * checked in range (or, in arrays, as jints it has checked non-negative). Structures come back
 * as arrays laid out by Native's constants, which `javac -h` copies into dev_fairsched_Native.h
 * along with the prototypes checked here.
 *
 * Arrays on the hot path never go through Get<Type>ArrayElements, which copies them: offer
 * writes through a stack buffer, set_pending_batch reads both arrays in place inside a
 * Get/ReleasePrimitiveArrayCritical region around its single fairsched call, which keeps the
 * batch all or nothing. Nothing inside a critical region calls back into the JVM.
 */
#include <jni.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "dev_fairsched_Native.h"
#include "fairsched.h"
#include "jni_util.h"

/* A layout constant of dev.fairsched.Native, e.g. LAYOUT(JOB_ARRIVAL). */
#define LAYOUT(name) dev_fairsched_Native_##name

static fairsched_cfq *cfq_of(jlong handle) {
    return (fairsched_cfq *)(intptr_t)handle;
}

/* For the functions that return a count: the count, or the status negated. */
static jint count_or_status(fairsched_status status, size_t count) {
    return status == FAIRSCHED_STATUS_OK ? (jint)count : -(jint)status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_Native_open(JNIEnv *env, jclass cls, jlong capacity,
                                                       jlong slots, jdouble start_time,
                                                       jlongArray out) {
    size_t size;
    fairsched_status status = fairsched_cfq_storage_size((uint32_t)capacity, &size);
    if (status != FAIRSCHED_STATUS_OK) {
        return status;
    }
    void *memory = malloc(size);
    if (memory == NULL) {
        throw_out_of_memory(env, "no memory for the fairsched scheduler");
        return FAIRSCHED_STATUS_OK; /* Unseen: the exception is thrown on return. */
    }
    fairsched_cfq *cfq;
    status = fairsched_cfq_init(memory, size, (uint32_t)capacity, (uint32_t)slots, start_time,
                                &cfq);
    if (status != FAIRSCHED_STATUS_OK) {
        free(memory);
        return status;
    }
    const jlong opened[LAYOUT(OPEN_LENGTH)] = {
        [LAYOUT(OPEN_MEMORY)] = (jlong)(intptr_t)memory,
        [LAYOUT(OPEN_CFQ)] = (jlong)(intptr_t)cfq,
    };
    (*env)->SetLongArrayRegion(env, out, 0, LAYOUT(OPEN_LENGTH), opened);
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
    jsize ids_len = (*env)->GetArrayLength(env, job_ids);
    jsize pending_len = (*env)->GetArrayLength(env, pending_tasks);
    jlong *ids = (*env)->GetPrimitiveArrayCritical(env, job_ids, NULL);
    if (ids == NULL) {
        return FAIRSCHED_STATUS_OK; /* Unseen: OutOfMemoryError is thrown on return. */
    }
    jint *pending = (*env)->GetPrimitiveArrayCritical(env, pending_tasks, NULL);
    fairsched_status status = FAIRSCHED_STATUS_OK; /* Unseen if pending is NULL, as above. */
    if (pending != NULL) {
        status = fairsched_cfq_set_pending_batch(cfq_of(cfq), (const uint64_t *)ids,
                                                 (size_t)ids_len, (const uint32_t *)pending,
                                                 (size_t)pending_len);
        (*env)->ReleasePrimitiveArrayCritical(env, pending_tasks, pending, JNI_ABORT);
    }
    (*env)->ReleasePrimitiveArrayCritical(env, job_ids, ids, JNI_ABORT);
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

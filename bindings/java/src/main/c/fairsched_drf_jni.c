/*
 * JNI glue between dev.fairsched.NativeDrf and the DRF and QKnobler exports of the fairsched C
 * ABI (include/fairsched.h), with the conventions of fairsched_jni.c.
 *
 * Every array goes to the library in place: pinned (GetPrimitiveArrayCritical) around the one
 * fairsched call, so a round writes its ids straight into the Java array, and whatever the
 * length, the library checks it. The structures come back in the layouts of NativeDrf's
 * constants, which `javac -h` copies into dev_fairsched_NativeDrf.h.
 */
#include <string.h>

#include "dev_fairsched_NativeDrf.h"
#include "fairsched_jni.h"

/* A layout constant of dev.fairsched.NativeDrf, e.g. DRF_LAYOUT(USER_RUNNING). */
#define DRF_LAYOUT(name) dev_fairsched_NativeDrf_##name

_Static_assert(DRF_LAYOUT(MAX_RESOURCE_KINDS) == FAIRSCHED_MAX_RESOURCE_KINDS,
               "NativeDrf.MAX_RESOURCE_KINDS must be the header's");

static fairsched_drf_queue *queue_of(jlong handle) {
    return (fairsched_drf_queue *)(intptr_t)handle;
}

/* A double carried bit for bit in a jlong (Java: Double.longBitsToDouble). */
static jlong bits_of(double x) {
    jlong bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* ---- Over flat arrays ------------------------------------------------------------------------ */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_divisible(
    JNIEnv *env, jclass cls, jdoubleArray capacity, jdoubleArray weights, jdoubleArray demands,
    jdoubleArray out_tasks, jdoubleArray out_shares, jdoubleArray out_phi) {
    pinned_array c = reading(env, capacity), w = reading(env, weights), d = reading(env, demands);
    pinned_array tasks = writing(env, out_tasks), shares = writing(env, out_shares);
    pinned_array *const arrays[] = {&c, &w, &d, &tasks, &shares};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    double phi;
    fairsched_status status =
        fairsched_drf_divisible(c.elements, c.length, w.elements, w.length, d.elements, d.length,
                                tasks.elements, tasks.length, shares.elements, shares.length, &phi);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK) {
        (*env)->SetDoubleArrayRegion(env, out_phi, 0, 1, &phi);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_qknoblerAllocate(
    JNIEnv *env, jclass cls, jdoubleArray capacity, jdoubleArray weights, jdoubleArray demands,
    jdouble rho, jdoubleArray out_fair, jdoubleArray out_efficient, jlongArray out_whole,
    jdoubleArray out_summary) {
    pinned_array c = reading(env, capacity), w = reading(env, weights), d = reading(env, demands);
    pinned_array fair = writing(env, out_fair), efficient = writing(env, out_efficient);
    pinned_array whole = writing(env, out_whole);
    pinned_array *const arrays[] = {&c, &w, &d, &fair, &efficient, &whole};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_qknobler_summary summary;
    fairsched_status status = fairsched_qknobler_allocate(
        c.elements, c.length, w.elements, w.length, d.elements, d.length, rho, fair.elements,
        fair.length, efficient.elements, efficient.length, whole.elements, whole.length, &summary);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK) {
        jdouble fields[DRF_LAYOUT(SUMMARY_LENGTH)] = {
            [DRF_LAYOUT(SUMMARY_RHO)] = summary.rho,
            [DRF_LAYOUT(SUMMARY_PHI)] = summary.phi,
            [DRF_LAYOUT(SUMMARY_THETA)] = summary.theta,
            [DRF_LAYOUT(SUMMARY_SHARING_INCENTIVE_RHO)] = summary.sharing_incentive_rho,
            [DRF_LAYOUT(SUMMARY_EFFICIENCY)] = summary.efficiency,
            [DRF_LAYOUT(SUMMARY_KINDS)] = summary.kinds,
        };
        memcpy(&fields[DRF_LAYOUT(SUMMARY_RESIDUAL)], summary.residual, sizeof summary.residual);
        (*env)->SetDoubleArrayRegion(env, out_summary, 0, DRF_LAYOUT(SUMMARY_LENGTH), fields);
    }
    return status;
}

/* ---- The queue ------------------------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_openQueue(JNIEnv *env, jclass cls,
                                                               jlong users, jdoubleArray capacity,
                                                               jlongArray out) {
    size_t size;
    fairsched_status status = fairsched_drf_queue_storage_size((uint32_t)users, &size);
    if (status != FAIRSCHED_STATUS_OK) {
        return status;
    }
    void *memory = allocate_storage(env, size);
    if (memory == NULL) {
        return EXCEPTION_PENDING;
    }
    pinned_array c = reading(env, capacity);
    pinned_array *const arrays[] = {&c};
    if (!pin(env, arrays, LENGTH(arrays))) {
        free(memory);
        return EXCEPTION_PENDING;
    }
    fairsched_drf_queue *queue;
    status = fairsched_drf_queue_init(memory, size, (uint32_t)users, c.elements, c.length, &queue);
    release(env, arrays, LENGTH(arrays));
    if (status != FAIRSCHED_STATUS_OK) {
        free(memory);
        return status;
    }
    write_opened(env, out, memory, queue);
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_addUser(JNIEnv *env, jclass cls, jlong queue,
                                                             jlong id, jdouble weight,
                                                             jdoubleArray demand) {
    pinned_array d = reading(env, demand);
    pinned_array *const arrays[] = {&d};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_drf_queue_add_user(queue_of(queue), (uint64_t)id, weight, d.elements, d.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_removeUser(JNIEnv *env, jclass cls,
                                                                jlong queue, jlong id) {
    return fairsched_drf_queue_remove_user(queue_of(queue), (uint64_t)id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_setPending(JNIEnv *env, jclass cls,
                                                                jlong queue, jlong id,
                                                                jlong pending) {
    return fairsched_drf_queue_set_pending(queue_of(queue), (uint64_t)id, (uint64_t)pending);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_tasksStarted(JNIEnv *env, jclass cls,
                                                                  jlong queue, jlong id,
                                                                  jlong count) {
    return fairsched_drf_queue_tasks_started(queue_of(queue), (uint64_t)id, (uint64_t)count);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_tasksFinished(JNIEnv *env, jclass cls,
                                                                   jlong queue, jlong id,
                                                                   jlong count) {
    return fairsched_drf_queue_tasks_finished(queue_of(queue), (uint64_t)id, (uint64_t)count);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_next(JNIEnv *env, jclass cls, jlong queue,
                                                          jlongArray out) {
    uint64_t id;
    bool found = false;
    fairsched_status status = fairsched_drf_queue_next(queue_of(queue), &id, &found);
    if (status == FAIRSCHED_STATUS_OK && found) {
        const jlong next = (jlong)id;
        (*env)->SetLongArrayRegion(env, out, 0, 1, &next);
    }
    return count_or_status(status, found ? 1 : 0);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_startNext(JNIEnv *env, jclass cls,
                                                               jlong queue, jlongArray out) {
    uint64_t id;
    bool found = false;
    fairsched_status status = fairsched_drf_queue_start_next(queue_of(queue), &id, &found);
    if (status == FAIRSCHED_STATUS_OK && found) {
        const jlong started = (jlong)id;
        (*env)->SetLongArrayRegion(env, out, 0, 1, &started);
    }
    return count_or_status(status, found ? 1 : 0);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_user(JNIEnv *env, jclass cls, jlong queue,
                                                          jlong id, jlongArray out) {
    fairsched_drf_user_info info;
    fairsched_status status = fairsched_drf_queue_user_get(queue_of(queue), (uint64_t)id, &info);
    if (status == FAIRSCHED_STATUS_OK) {
        const jlong fields[DRF_LAYOUT(USER_LENGTH)] = {
            [DRF_LAYOUT(USER_RUNNING)] = (jlong)info.running,
            [DRF_LAYOUT(USER_PENDING)] = (jlong)info.pending,
            [DRF_LAYOUT(USER_WEIGHT)] = bits_of(info.weight),
            [DRF_LAYOUT(USER_DOMINANT_SHARE)] = bits_of(info.dominant_share),
            [DRF_LAYOUT(USER_WEIGHTED_SHARE)] = bits_of(info.weighted_share),
            [DRF_LAYOUT(USER_TASK_SHARE)] = bits_of(info.task_share),
        };
        (*env)->SetLongArrayRegion(env, out, 0, DRF_LAYOUT(USER_LENGTH), fields);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_stats(JNIEnv *env, jclass cls, jlong queue,
                                                           jlongArray out) {
    fairsched_drf_queue_stats stats;
    fairsched_status status = fairsched_drf_queue_stats_get(queue_of(queue), &stats);
    if (status == FAIRSCHED_STATUS_OK) {
        const jlong fields[DRF_LAYOUT(STATS_LENGTH)] = {
            [DRF_LAYOUT(STATS_CAPACITY)] = stats.capacity,
            [DRF_LAYOUT(STATS_USERS)] = stats.users,
            [DRF_LAYOUT(STATS_ACTIVE)] = stats.active,
            [DRF_LAYOUT(STATS_KINDS)] = stats.kinds,
        };
        (*env)->SetLongArrayRegion(env, out, 0, DRF_LAYOUT(STATS_LENGTH), fields);
    }
    return status;
}

/* ---- Rounds: one fairsched call each, ids written in place ----------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_allocateRound(JNIEnv *env, jclass cls,
                                                                   jlong queue, jdoubleArray free,
                                                                   jlongArray out) {
    pinned_array f = reading(env, free), ids = writing(env, out);
    pinned_array *const arrays[] = {&f, &ids};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    size_t started = 0;
    fairsched_status status = fairsched_drf_queue_allocate_round(
        queue_of(queue), f.elements, f.length, ids.elements, ids.length, &started);
    release(env, arrays, LENGTH(arrays));
    return count_or_status(status, started);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_qknoblerRound(JNIEnv *env, jclass cls,
                                                                   jlong queue, jdouble rho,
                                                                   jdoubleArray machine,
                                                                   jdoubleArray idle,
                                                                   jlongArray out,
                                                                   jlongArray out_round) {
    pinned_array m = reading(env, machine), i = reading(env, idle), ids = writing(env, out);
    pinned_array *const arrays[] = {&m, &i, &ids};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_qknobler_round_result round;
    fairsched_status status =
        fairsched_qknobler_round(queue_of(queue), rho, m.elements, m.length, i.elements, i.length,
                                 ids.elements, ids.length, &round);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK) {
        const jlong fields[DRF_LAYOUT(ROUND_LENGTH)] = {
            [DRF_LAYOUT(ROUND_STARTED)] = (jlong)round.started,
            [DRF_LAYOUT(ROUND_FAIRNESS)] = (jlong)round.fairness,
        };
        (*env)->SetLongArrayRegion(env, out_round, 0, DRF_LAYOUT(ROUND_LENGTH), fields);
    }
    return status;
}

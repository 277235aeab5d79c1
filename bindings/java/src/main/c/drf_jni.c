/*
 * JNI glue between dev.fairsched.NativeDrf and the DRF and QKnobler exports of the fairsched C
 * ABI (include/fairsched.h), with the conventions of glue.h.
 *
 * Every array goes to the library in place: pinned (GetPrimitiveArrayCritical) around the one
 * fairsched call, so a round writes its ids straight into the Java array, and whatever the
 * length, the library checks it. The queue's structures (a user, the stats, a QKnobler round)
 * are written by the library straight into the DrfQueue's buffer; QKnobler's summary, from a
 * call without an object, comes back as an array in the layout of NativeDrf's SUMMARY_*.
 */
#include <string.h>

#include "dev_fairsched_NativeDrf.h"
#include "glue.h"

/* A constant of dev.fairsched.NativeDrf, e.g. DRF(USER_RUNNING). */
#define DRF(name) dev_fairsched_NativeDrf_##name

_Static_assert(DRF(MAX_RESOURCE_KINDS) == FAIRSCHED_MAX_RESOURCE_KINDS,
               "NativeDrf.MAX_RESOURCE_KINDS must be the header's");

ASSERT_OFFSET(fairsched_drf_user_info, id, DRF(USER_ID));
ASSERT_OFFSET(fairsched_drf_user_info, running, DRF(USER_RUNNING));
ASSERT_OFFSET(fairsched_drf_user_info, pending, DRF(USER_PENDING));
ASSERT_OFFSET(fairsched_drf_user_info, weight, DRF(USER_WEIGHT));
ASSERT_OFFSET(fairsched_drf_user_info, dominant_share, DRF(USER_DOMINANT_SHARE));
ASSERT_OFFSET(fairsched_drf_user_info, weighted_share, DRF(USER_WEIGHTED_SHARE));
ASSERT_OFFSET(fairsched_drf_user_info, task_share, DRF(USER_TASK_SHARE));
ASSERT_SIZE(fairsched_drf_user_info, DRF(USER_SIZE));

ASSERT_OFFSET(fairsched_drf_queue_stats, capacity, DRF(STATS_CAPACITY));
ASSERT_OFFSET(fairsched_drf_queue_stats, users, DRF(STATS_USERS));
ASSERT_OFFSET(fairsched_drf_queue_stats, active, DRF(STATS_ACTIVE));
ASSERT_OFFSET(fairsched_drf_queue_stats, kinds, DRF(STATS_KINDS));
ASSERT_SIZE(fairsched_drf_queue_stats, DRF(STATS_SIZE));

ASSERT_OFFSET(fairsched_qknobler_round_result, started, DRF(ROUND_STARTED));
ASSERT_OFFSET(fairsched_qknobler_round_result, fairness, DRF(ROUND_FAIRNESS));
ASSERT_SIZE(fairsched_qknobler_round_result, DRF(ROUND_SIZE));

static fairsched_drf_queue *queue_of(jlong handle) {
    return (fairsched_drf_queue *)(intptr_t)handle;
}

/* ---- Over flat arrays ------------------------------------------------------------------------ */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_divisible(
    JNIEnv *env, jclass cls, jdoubleArray cluster, jdoubleArray weights, jdoubleArray demands,
    jdoubleArray out_tasks, jdoubleArray out_shares, jdoubleArray out_phi) {
    pinned_array c = reading(env, cluster), w = reading(env, weights), d = reading(env, demands);
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
    JNIEnv *env, jclass cls, jdoubleArray cluster, jdoubleArray weights, jdoubleArray demands,
    jdouble rho, jdoubleArray out_fair, jdoubleArray out_efficient, jlongArray out_whole,
    jdoubleArray out_summary) {
    pinned_array c = reading(env, cluster), w = reading(env, weights), d = reading(env, demands);
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
        jdouble fields[DRF(SUMMARY_LENGTH)] = {
            [DRF(SUMMARY_RHO)] = summary.rho,
            [DRF(SUMMARY_PHI)] = summary.phi,
            [DRF(SUMMARY_THETA)] = summary.theta,
            [DRF(SUMMARY_SHARING_INCENTIVE_RHO)] = summary.sharing_incentive_rho,
            [DRF(SUMMARY_EFFICIENCY)] = summary.efficiency,
            [DRF(SUMMARY_KINDS)] = summary.kinds,
        };
        memcpy(&fields[DRF(SUMMARY_RESIDUAL)], summary.residual, sizeof summary.residual);
        (*env)->SetDoubleArrayRegion(env, out_summary, 0, DRF(SUMMARY_LENGTH), fields);
    }
    return status;
}

/* ---- The queue ------------------------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_open(JNIEnv *env, jclass cls, jlong capacity,
                                                          jdoubleArray cluster, jlongArray out) {
    pinned_array c = reading(env, cluster);
    pinned_array *const arrays[] = {&c};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    size_t size = 0;
    fairsched_status sized = fairsched_drf_queue_storage_size((uint32_t)capacity, &size);
    void *memory = storage_for(sized, size);
    fairsched_drf_queue *queue = NULL;
    fairsched_status built = fairsched_drf_queue_init(memory, size, (uint32_t)capacity,
                                                      c.elements, c.length, &queue);
    release(env, arrays, LENGTH(arrays));
    return opened(env, sized, built, memory, queue, out);
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
    uint64_t id = 0;
    bool found = false;
    fairsched_status status = fairsched_drf_queue_next(queue_of(queue), &id, &found);
    return found_or_status(env, status, found, id, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_startNext(JNIEnv *env, jclass cls,
                                                               jlong queue, jlongArray out) {
    uint64_t id = 0;
    bool found = false;
    fairsched_status status = fairsched_drf_queue_start_next(queue_of(queue), &id, &found);
    return found_or_status(env, status, found, id, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_user(JNIEnv *env, jclass cls, jlong queue,
                                                          jlong id, jobject out) {
    return fairsched_drf_queue_user_get(queue_of(queue), (uint64_t)id, struct_at(env, out));
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_stats(JNIEnv *env, jclass cls, jlong queue,
                                                           jobject out) {
    return fairsched_drf_queue_stats_get(queue_of(queue), struct_at(env, out));
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
                                                                   jobject out_round) {
    fairsched_qknobler_round_result *round = struct_at(env, out_round);
    pinned_array m = reading(env, machine), i = reading(env, idle), ids = writing(env, out);
    pinned_array *const arrays[] = {&m, &i, &ids};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_drf_queue_qknobler_round(queue_of(queue), rho, m.elements, m.length, i.elements,
                                           i.length, ids.elements, ids.length, round);
    release(env, arrays, LENGTH(arrays));
    return status;
}

/* ---- QKnobler with heterogeneous tasks: stateless calls over flat arrays --------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_qknoblerAverageDemand(
    JNIEnv *env, jclass cls, jdoubleArray idle, jdoubleArray running_sum, jlong running,
    jdoubleArray pending, jdoubleArray out_average, jlongArray out_counted) {
    pinned_array i = reading(env, idle), s = reading(env, running_sum);
    pinned_array p = reading(env, pending), average = writing(env, out_average);
    pinned_array *const arrays[] = {&i, &s, &p, &average};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    uint64_t counted = 0;
    fairsched_status status = fairsched_qknobler_average_demand(
        i.elements, i.length, s.elements, s.length, (uint64_t)running, p.elements, p.length,
        average.elements, average.length, &counted);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK) {
        const jlong value = (jlong)counted;
        (*env)->SetLongArrayRegion(env, out_counted, 0, 1, &value);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrf_qknoblerChoose(
    JNIEnv *env, jclass cls, jdouble rho, jdoubleArray cluster, jdoubleArray machine,
    jdoubleArray idle, jdoubleArray weights, jdoubleArray allocated, jdoubleArray max_shares,
    jdoubleArray next, jlongArray out) {
    pinned_array c = reading(env, cluster), m = reading(env, machine), i = reading(env, idle);
    pinned_array w = reading(env, weights), a = reading(env, allocated);
    pinned_array s = reading(env, max_shares), n = reading(env, next);
    pinned_array *const arrays[] = {&c, &m, &i, &w, &a, &s, &n};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_qknobler_choice choice;
    bool found = false;
    fairsched_status status = fairsched_qknobler_choose(
        rho, c.elements, c.length, m.elements, m.length, i.elements, i.length, w.elements,
        w.length, a.elements, a.length, s.elements, s.length, n.elements, n.length, &choice,
        &found);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK && found) {
        const jlong values[2] = {(jlong)choice.user, choice.fairness ? 1 : 0};
        (*env)->SetLongArrayRegion(env, out, 0, 2, values);
    }
    return count_or_status(status, found ? 1 : 0);
}

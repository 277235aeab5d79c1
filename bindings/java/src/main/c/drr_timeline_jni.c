/*
 * JNI glue between dev.fairsched.NativeDrrTimeline and the DRR timeline exports of the
 * fairsched C ABI (include/fairsched.h), with the conventions of glue.h.
 *
 * Every array goes to the library in place: pinned around the one fairsched call, never
 * copied. The heartbeat's summary and the stats are written by the library straight into the
 * timeline's buffer; the few scalars of the other calls come back through one-element arrays.
 */
#include "dev_fairsched_NativeDrrTimeline.h"
#include "glue.h"

/* A constant of dev.fairsched.NativeDrrTimeline, e.g. TIMELINE(STATS_NOW). */
#define TIMELINE(name) dev_fairsched_NativeDrrTimeline_##name

ASSERT_OFFSET(fairsched_drr_timeline_heartbeat_result, placed, TIMELINE(HEARTBEAT_PLACED));
ASSERT_OFFSET(fairsched_drr_timeline_heartbeat_result, t_run, TIMELINE(HEARTBEAT_T_RUN));
ASSERT_OFFSET(fairsched_drr_timeline_heartbeat_result, drr, TIMELINE(HEARTBEAT_DRR));
ASSERT_OFFSET(fairsched_drr_timeline_heartbeat_result, first_id, TIMELINE(HEARTBEAT_FIRST_ID));
ASSERT_SIZE(fairsched_drr_timeline_heartbeat_result, TIMELINE(HEARTBEAT_SIZE));
/* Java reads `placed` as a long. */
_Static_assert(sizeof(size_t) == sizeof(jlong), "size_t and jlong must have the same size");

ASSERT_OFFSET(fairsched_drr_timeline_stats, now, TIMELINE(STATS_NOW));
ASSERT_OFFSET(fairsched_drr_timeline_stats, next_id, TIMELINE(STATS_NEXT_ID));
ASSERT_OFFSET(fairsched_drr_timeline_stats, running, TIMELINE(STATS_RUNNING));
ASSERT_OFFSET(fairsched_drr_timeline_stats, capacity, TIMELINE(STATS_CAPACITY));
ASSERT_OFFSET(fairsched_drr_timeline_stats, horizon, TIMELINE(STATS_HORIZON));
ASSERT_OFFSET(fairsched_drr_timeline_stats, t_run, TIMELINE(STATS_T_RUN));
ASSERT_OFFSET(fairsched_drr_timeline_stats, kinds, TIMELINE(STATS_KINDS));
ASSERT_OFFSET(fairsched_drr_timeline_stats, drr, TIMELINE(STATS_DRR));
ASSERT_OFFSET(fairsched_drr_timeline_stats, trc, TIMELINE(STATS_TRC));
ASSERT_SIZE(fairsched_drr_timeline_stats, TIMELINE(STATS_SIZE));

static fairsched_drr_timeline *timeline_of(jlong handle) {
    return (fairsched_drr_timeline *)(intptr_t)handle;
}

/* Writes `value` into out[0] when the call succeeded, and returns its status. */
static jint with_one(JNIEnv *env, fairsched_status status, uint64_t value, jlongArray out) {
    if (status == FAIRSCHED_STATUS_OK) {
        const jlong field = (jlong)value;
        (*env)->SetLongArrayRegion(env, out, 0, 1, &field);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_open(JNIEnv *env, jclass cls,
                                                                  jlong capacity,
                                                                  jdoubleArray machine,
                                                                  jlong horizon, jlongArray out) {
    pinned_array m = reading(env, machine);
    pinned_array *const arrays[] = {&m};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    size_t size = 0;
    fairsched_status sized = fairsched_drr_timeline_storage_size(
        (uint32_t)capacity, m.length, (uint32_t)horizon, &size);
    void *memory = storage_for(sized, size);
    fairsched_drr_timeline *timeline = NULL;
    fairsched_status built =
        fairsched_drr_timeline_init(memory, size, (uint32_t)capacity, m.elements, m.length,
                                    (uint32_t)horizon, &timeline);
    release(env, arrays, LENGTH(arrays));
    return opened(env, sized, built, memory, timeline, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_advance(JNIEnv *env, jclass cls,
                                                                     jlong timeline, jlong steps,
                                                                     jlongArray out_finished) {
    size_t finished = 0;
    fairsched_status status =
        fairsched_drr_timeline_advance(timeline_of(timeline), (uint64_t)steps, &finished);
    return with_one(env, status, finished, out_finished);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_place(JNIEnv *env, jclass cls,
                                                                   jlong timeline,
                                                                   jdoubleArray demand,
                                                                   jlongArray out_id) {
    pinned_array d = reading(env, demand);
    pinned_array *const arrays[] = {&d};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    uint64_t id = 0;
    fairsched_status status =
        fairsched_drr_timeline_place(timeline_of(timeline), d.elements, d.length, &id);
    release(env, arrays, LENGTH(arrays));
    return with_one(env, status, id, out_id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_release(JNIEnv *env, jclass cls,
                                                                     jlong timeline, jlong id) {
    return fairsched_drr_timeline_release(timeline_of(timeline), (uint64_t)id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_reprovision(
    JNIEnv *env, jclass cls, jlong timeline, jlong id, jdoubleArray observed,
    jdoubleArray predicted) {
    pinned_array o = reading(env, observed), p = reading(env, predicted);
    pinned_array *const arrays[] = {&o, &p};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_drr_timeline_reprovision(
        timeline_of(timeline), (uint64_t)id, o.elements, o.length, p.elements, p.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_heartbeat(
    JNIEnv *env, jclass cls, jlong timeline, jdoubleArray demands, jintArray steps,
    jintArray counts, jint metric, jintArray placements, jobject out) {
    fairsched_drr_timeline_heartbeat_result *beat = struct_at(env, out);
    pinned_array d = reading(env, demands), s = reading(env, steps), c = reading(env, counts);
    pinned_array p = writing(env, placements);
    pinned_array *const arrays[] = {&d, &s, &c, &p};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_drr_timeline_heartbeat(
        timeline_of(timeline), d.elements, d.length, s.elements, s.length, c.elements, c.length,
        (uint32_t)metric, p.elements, p.length, beat);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_heartbeatExecutors(
    JNIEnv *env, jclass cls, jlong timeline, jlong pending, jintArray counts, jint metric,
    jintArray placements, jobject out) {
    fairsched_drr_timeline_heartbeat_result *beat = struct_at(env, out);
    pinned_array c = reading(env, counts), p = writing(env, placements);
    pinned_array *const arrays[] = {&c, &p};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_drr_timeline_heartbeat_executors(
        timeline_of(timeline), (const fairsched_drr_executors *)(intptr_t)pending, c.elements,
        c.length, (uint32_t)metric, p.elements, p.length, beat);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_stats(JNIEnv *env, jclass cls,
                                                                   jlong timeline, jobject out) {
    return fairsched_drr_timeline_stats_get(timeline_of(timeline), struct_at(env, out));
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrTimeline_available(JNIEnv *env, jclass cls,
                                                                       jlong timeline,
                                                                       jdoubleArray out) {
    pinned_array a = writing(env, out);
    pinned_array *const arrays[] = {&a};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_drr_timeline_available(timeline_of(timeline), a.elements, a.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

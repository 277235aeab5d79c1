/*
 * JNI glue between dev.fairsched.NativeDrr and the DRR and MinFrag exports of the fairsched C
 * ABI (include/fairsched.h), with the conventions of glue.h.
 *
 * Every array goes to the library in place: pinned (GetPrimitiveArrayCritical) around the one
 * fairsched call, never copied, so MinFrag updates the machine's series and writes its
 * placements straight into the Java arrays. These calls have no object (and so no buffer):
 * their few scalar results come back as arrays in the layouts of NativeDrr's constants.
 */
#include "dev_fairsched_NativeDrr.h"
#include "glue.h"

/* A constant of dev.fairsched.NativeDrr, e.g. DRR(HEARTBEAT_DRR). */
#define DRR(name) dev_fairsched_NativeDrr_##name

_Static_assert(DRR(METRIC_DRR) == FAIRSCHED_DRR_METRIC_DRR &&
                   DRR(METRIC_TRC) == FAIRSCHED_DRR_METRIC_TRC &&
                   DRR(METRIC_TETRIS) == FAIRSCHED_DRR_METRIC_TETRIS,
               "NativeDrr.METRIC_* must be the header's");
/* A boolean[] is pinned and written as the bool array of fairsched_drr_score_machines. */
_Static_assert(sizeof(jboolean) == sizeof(bool), "jboolean and bool must have the same size");
_Static_assert(sizeof(jint) == sizeof(uint32_t), "jint and uint32_t must have the same size");
/* Drr.RHO is the header's FAIRSCHED_DRR_RHO: DrrTest reads the header (a double is no constant
 * expression for _Static_assert). */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrr_machine(JNIEnv *env, jclass cls,
                                                             jdoubleArray capacity,
                                                             jdoubleArray available, jlong t_run,
                                                             jdoubleArray out) {
    pinned_array c = reading(env, capacity), a = reading(env, available);
    pinned_array *const arrays[] = {&c, &a};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    double drr, trc;
    fairsched_status status = fairsched_drr_machine(c.elements, c.length, a.elements, a.length,
                                                    (uint32_t)t_run, &drr, &trc);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK) {
        const jdouble fields[DRR(MACHINE_LENGTH)] = {
            [DRR(MACHINE_DRR)] = drr,
            [DRR(MACHINE_TRC)] = trc,
        };
        (*env)->SetDoubleArrayRegion(env, out, 0, DRR(MACHINE_LENGTH), fields);
    }
    return status;
}

/* Writes the heartbeat but its count into out_heartbeat after a successful call. */
static jint heartbeat_of(JNIEnv *env, fairsched_status status, const fairsched_drr_heartbeat *beat,
                         jdoubleArray out_heartbeat) {
    if (status == FAIRSCHED_STATUS_OK) {
        const jdouble fields[DRR(HEARTBEAT_LENGTH)] = {
            [DRR(HEARTBEAT_T_RUN)] = beat->t_run,
            [DRR(HEARTBEAT_DRR)] = beat->drr,
        };
        (*env)->SetDoubleArrayRegion(env, out_heartbeat, 0, DRR(HEARTBEAT_LENGTH), fields);
    }
    return count_or_status(status, beat->placed);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrr_minFrag(
    JNIEnv *env, jclass cls, jdoubleArray capacity, jdoubleArray available, jlong t_run,
    jdoubleArray demands, jintArray steps, jint metric, jintArray placements,
    jdoubleArray out_heartbeat) {
    pinned_array c = reading(env, capacity), a = writing(env, available);
    pinned_array d = reading(env, demands), s = reading(env, steps);
    pinned_array p = writing(env, placements);
    pinned_array *const arrays[] = {&c, &a, &d, &s, &p};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_drr_heartbeat beat = {0};
    fairsched_status status = fairsched_drr_min_frag(
        c.elements, c.length, a.elements, a.length, (uint32_t)t_run, d.elements, d.length,
        s.elements, s.length, (uint32_t)metric, p.elements, p.length, &beat);
    release(env, arrays, LENGTH(arrays));
    return heartbeat_of(env, status, &beat, out_heartbeat);
}

/* ---- Executors laid out once ----------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrr_openExecutors(JNIEnv *env, jclass cls,
                                                                   jdoubleArray demands,
                                                                   jintArray steps, jint kinds,
                                                                   jlongArray out) {
    pinned_array d = reading(env, demands), s = reading(env, steps);
    pinned_array *const arrays[] = {&d, &s};
    /* The block is allocated before the arrays are pinned, from their lengths alone. */
    size_t size = 0;
    fairsched_status sized = fairsched_drr_executors_storage_size(d.length, s.length, &size);
    void *memory = storage_for(sized, size);
    if (!pin(env, arrays, LENGTH(arrays))) {
        free(memory);
        return EXCEPTION_PENDING;
    }
    fairsched_drr_executors *pending = NULL;
    fairsched_status built = fairsched_drr_executors_init(
        memory, size, d.elements, d.length, s.elements, s.length, (size_t)kinds, &pending);
    release(env, arrays, LENGTH(arrays));
    return opened(env, sized, built, memory, pending, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrr_minFragExecutors(
    JNIEnv *env, jclass cls, jdoubleArray capacity, jdoubleArray available, jlong t_run,
    jlong pending, jint metric, jintArray placements, jdoubleArray out_heartbeat) {
    pinned_array c = reading(env, capacity), a = writing(env, available);
    pinned_array p = writing(env, placements);
    pinned_array *const arrays[] = {&c, &a, &p};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_drr_heartbeat beat = {0};
    fairsched_status status = fairsched_drr_min_frag_executors(
        c.elements, c.length, a.elements, a.length, (uint32_t)t_run,
        (const fairsched_drr_executors *)(intptr_t)pending, (uint32_t)metric, p.elements,
        p.length, &beat);
    release(env, arrays, LENGTH(arrays));
    return heartbeat_of(env, status, &beat, out_heartbeat);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrr_scoreMachines(
    JNIEnv *env, jclass cls, jdoubleArray capacities, jint kinds, jdoubleArray available,
    jintArray t_runs, jdoubleArray demand, jint metric, jbooleanArray fits, jdoubleArray scores) {
    pinned_array c = reading(env, capacities), a = reading(env, available);
    pinned_array t = reading(env, t_runs), d = reading(env, demand);
    pinned_array f = writing(env, fits), s = writing(env, scores);
    pinned_array *const arrays[] = {&c, &a, &t, &d, &f, &s};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_drr_score_machines(
        c.elements, c.length, (size_t)kinds, a.elements, a.length, t.elements, t.length,
        d.elements, d.length, (uint32_t)metric, f.elements, f.length, s.elements, s.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrr_reprovision(JNIEnv *env, jclass cls,
                                                                 jdoubleArray remaining,
                                                                 jint kinds,
                                                                 jdoubleArray observed,
                                                                 jdoubleArray predicted) {
    pinned_array r = writing(env, remaining);
    pinned_array o = reading(env, observed), p = reading(env, predicted);
    pinned_array *const arrays[] = {&r, &o, &p};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_drr_reprovision(r.elements, r.length, (size_t)kinds,
                                                        o.elements, o.length, p.elements, p.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrr_reprovisionDue(JNIEnv *env, jclass cls,
                                                                    jdoubleArray elapsed,
                                                                    jdoubleArray expected,
                                                                    jdouble rho,
                                                                    jbooleanArray due) {
    pinned_array e = reading(env, elapsed), x = reading(env, expected), d = writing(env, due);
    pinned_array *const arrays[] = {&e, &x, &d};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    size_t count = 0;
    fairsched_status status = fairsched_drr_reprovision_due(
        e.elements, e.length, x.elements, x.length, rho, d.elements, d.length, &count);
    release(env, arrays, LENGTH(arrays));
    return count_or_status(status, count);
}

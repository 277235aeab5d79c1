/*
 * JNI glue between dev.fairsched.NativePaf and the PAF exports of the fairsched C ABI
 * (include/fairsched.h), with the conventions of glue.h.
 *
 * Every array goes to the library in place, with its own length: pinned
 * (GetPrimitiveArrayCritical) around the one fairsched call, never copied. The totals are
 * written by the library straight into the Paf's buffer.
 */
#include "dev_fairsched_NativePaf.h"
#include "glue.h"

/* A constant of dev.fairsched.NativePaf, e.g. PAF(TOTALS_SLOTS). */
#define PAF(name) dev_fairsched_NativePaf_##name

_Static_assert(PAF(LITERAL) == FAIRSCHED_PAF_LITERAL && PAF(FAST) == FAIRSCHED_PAF_FAST,
               "NativePaf's methods must be the header's FAIRSCHED_PAF_*");

ASSERT_OFFSET(fairsched_paf_totals, slots, PAF(TOTALS_SLOTS));
ASSERT_OFFSET(fairsched_paf_totals, moved, PAF(TOTALS_MOVED));
ASSERT_OFFSET(fairsched_paf_totals, fair_progress, PAF(TOTALS_FAIR_PROGRESS));
ASSERT_OFFSET(fairsched_paf_totals, paf_progress, PAF(TOTALS_PAF_PROGRESS));
ASSERT_OFFSET(fairsched_paf_totals, largest_loss, PAF(TOTALS_LARGEST_LOSS));
ASSERT_SIZE(fairsched_paf_totals, PAF(TOTALS_SIZE));

static fairsched_paf *paf_of(jlong handle) {
    return (fairsched_paf *)(intptr_t)handle;
}

/* ---- The workspace --------------------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_open(JNIEnv *env, jclass cls, jlong capacity,
                                                          jlongArray out) {
    size_t size = 0;
    fairsched_status sized = fairsched_paf_storage_size((uint32_t)capacity, &size);
    void *memory = storage_for(sized, size);
    fairsched_paf *paf = NULL;
    fairsched_status built = fairsched_paf_init(memory, size, (uint32_t)capacity, &paf);
    return opened(env, sized, built, memory, paf, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_allocate(
    JNIEnv *env, jclass cls, jlong paf, jintArray weights, jintArray curve_offsets,
    jdoubleArray points, jlong slots, jdouble alpha, jint method, jintArray out_fair,
    jintArray out_min, jintArray out_paf, jdoubleArray out_fair_progress,
    jdoubleArray out_paf_progress, jobject out_totals) {
    fairsched_paf_totals *totals = struct_at(env, out_totals);
    pinned_array w = reading(env, weights), o = reading(env, curve_offsets);
    pinned_array p = reading(env, points);
    pinned_array f = writing(env, out_fair), m = writing(env, out_min), a = writing(env, out_paf);
    pinned_array fp = writing(env, out_fair_progress), pp = writing(env, out_paf_progress);
    pinned_array *const arrays[] = {&w, &o, &p, &f, &m, &a, &fp, &pp};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_paf_allocate(
        paf_of(paf), w.elements, w.length, o.elements, p.elements, p.length, (uint32_t)slots,
        alpha, (uint32_t)method, f.elements, m.elements, a.elements, fp.elements, pp.elements,
        totals);
    release(env, arrays, LENGTH(arrays));
    return status;
}

/* ---- Jobs laid out once --------------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_openJobs(JNIEnv *env, jclass cls,
                                                              jintArray weights,
                                                              jintArray curve_offsets,
                                                              jdoubleArray points,
                                                              jlongArray out) {
    pinned_array w = reading(env, weights), o = reading(env, curve_offsets);
    pinned_array p = reading(env, points);
    pinned_array *const arrays[] = {&w, &o, &p};
    /* The block is allocated before the arrays are pinned, from their lengths alone. */
    size_t size = 0;
    fairsched_status sized = fairsched_paf_jobs_storage_size(w.length, p.length, &size);
    void *memory = storage_for(sized, size);
    if (!pin(env, arrays, LENGTH(arrays))) {
        free(memory);
        return EXCEPTION_PENDING;
    }
    fairsched_paf_jobs *jobs = NULL;
    fairsched_status built = fairsched_paf_jobs_init(memory, size, w.elements, w.length,
                                                     o.elements, p.elements, p.length, &jobs);
    release(env, arrays, LENGTH(arrays));
    return opened(env, sized, built, memory, jobs, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_allocateJobs(
    JNIEnv *env, jclass cls, jlong paf, jlong jobs, jlong slots, jdouble alpha, jint method,
    jintArray out_fair, jintArray out_min, jintArray out_paf, jdoubleArray out_fair_progress,
    jdoubleArray out_paf_progress, jobject out_totals) {
    fairsched_paf_totals *totals = struct_at(env, out_totals);
    pinned_array f = writing(env, out_fair), m = writing(env, out_min), a = writing(env, out_paf);
    pinned_array fp = writing(env, out_fair_progress), pp = writing(env, out_paf_progress);
    pinned_array *const arrays[] = {&f, &m, &a, &fp, &pp};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_paf_allocate_jobs(
        paf_of(paf), (const fairsched_paf_jobs *)(intptr_t)jobs, (uint32_t)slots, alpha,
        (uint32_t)method, f.elements, m.elements, a.elements, fp.elements, pp.elements, totals);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_enforce(JNIEnv *env, jclass cls, jlong paf,
                                                             jintArray weights,
                                                             jintArray targets,
                                                             jintArray running,
                                                             jintArray out_jobs) {
    pinned_array w = reading(env, weights), t = reading(env, targets), r = reading(env, running);
    pinned_array jobs = writing(env, out_jobs);
    pinned_array *const arrays[] = {&w, &t, &r, &jobs};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    size_t assigned = 0;
    fairsched_status status =
        fairsched_paf_enforce(paf_of(paf), w.elements, w.length, t.elements, t.length,
                              r.elements, r.length, jobs.elements, jobs.length, &assigned);
    release(env, arrays, LENGTH(arrays));
    return count_or_status(status, assigned);
}

/* ---- Ernest's model and curves: no workspace ------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_ernestFit(JNIEnv *env, jclass cls,
                                                               jintArray slots,
                                                               jdoubleArray runtimes,
                                                               jdoubleArray out_coefficients) {
    pinned_array s = reading(env, slots), r = reading(env, runtimes);
    pinned_array a = writing(env, out_coefficients);
    pinned_array *const arrays[] = {&s, &r, &a};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_paf_ernest_fit(s.elements, s.length, r.elements, r.length, a.elements);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_ernestTabulate(JNIEnv *env, jclass cls,
                                                                    jdoubleArray coefficients,
                                                                    jdoubleArray out_points) {
    pinned_array a = reading(env, coefficients), curve = writing(env, out_points);
    pinned_array *const arrays[] = {&a, &curve};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_paf_ernest_tabulate(a.elements, curve.elements, curve.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_curveCheck(JNIEnv *env, jclass cls,
                                                                jdoubleArray points) {
    pinned_array p = reading(env, points);
    pinned_array *const arrays[] = {&p};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    uint32_t concave_from = 0;
    fairsched_status status = fairsched_paf_curve_check(p.elements, p.length, &concave_from);
    release(env, arrays, LENGTH(arrays));
    return count_or_status(status, concave_from);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_concaveEnvelope(JNIEnv *env, jclass cls,
                                                                     jdoubleArray points,
                                                                     jdoubleArray out_points) {
    pinned_array p = reading(env, points), envelope = writing(env, out_points);
    pinned_array *const arrays[] = {&p, &envelope};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_paf_concave_envelope(p.elements, p.length,
                                                             envelope.elements, envelope.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_curveFromTasks(
    JNIEnv *env, jclass cls, jdoubleArray durations, jdouble warmup, jdoubleArray scratch,
    jdoubleArray out_points, jdoubleArray out_shortest) {
    pinned_array d = reading(env, durations), heap = writing(env, scratch);
    pinned_array curve = writing(env, out_points), shortest = writing(env, out_shortest);
    pinned_array *const arrays[] = {&d, &heap, &curve, &shortest};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_paf_curve_from_tasks(d.elements, d.length, warmup, heap.elements, heap.length,
                                       curve.elements, curve.length, shortest.elements);
    release(env, arrays, LENGTH(arrays));
    return status;
}

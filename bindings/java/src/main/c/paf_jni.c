/*
 * JNI glue between dev.fairsched.NativePaf and the PAF exports of the fairsched C ABI
 * (include/fairsched.h), with the conventions of fairsched_jni.c: each function makes one
 * fairsched call and returns its status code (or a count, or the status negated); Java maps
 * codes to exceptions and has checked the lengths the C exports take once for two arrays.
 *
 * Every array goes to the library in place: pinned (GetPrimitiveArrayCritical) around the one
 * fairsched call, never copied, with the helpers of fairsched_jni.h. The totals come back in
 * the layout of NativePaf's constants, which `javac -h` copies into dev_fairsched_NativePaf.h.
 */
#include "dev_fairsched_NativePaf.h"
#include "fairsched_jni.h"

/* A layout constant of dev.fairsched.NativePaf, e.g. PAF_LAYOUT(TOTALS_SLOTS). */
#define PAF_LAYOUT(name) dev_fairsched_NativePaf_##name

static fairsched_paf *paf_of(jlong handle) {
    return (fairsched_paf *)(intptr_t)handle;
}

/* ---- The workspace --------------------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_open(JNIEnv *env, jclass cls, jlong capacity,
                                                          jlongArray out) {
    size_t size;
    fairsched_status status = fairsched_paf_storage_size((uint32_t)capacity, &size);
    if (status != FAIRSCHED_STATUS_OK) {
        return status;
    }
    void *memory = allocate_storage(env, size);
    if (memory == NULL) {
        return EXCEPTION_PENDING;
    }
    fairsched_paf *paf;
    status = fairsched_paf_init(memory, size, (uint32_t)capacity, &paf);
    if (status != FAIRSCHED_STATUS_OK) {
        free(memory);
        return status;
    }
    write_opened(env, out, memory, paf);
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_allocate(
    JNIEnv *env, jclass cls, jlong paf, jintArray weights, jintArray offsets, jdoubleArray points,
    jlong slots, jdouble alpha, jint method, jintArray fair, jintArray min, jintArray allocation,
    jdoubleArray fair_progress, jdoubleArray paf_progress, jdoubleArray totals) {
    pinned_array w = reading(env, weights), o = reading(env, offsets), p = reading(env, points);
    pinned_array f = writing(env, fair), m = writing(env, min), a = writing(env, allocation);
    pinned_array fp = writing(env, fair_progress), pp = writing(env, paf_progress);
    pinned_array *const arrays[] = {&w, &o, &p, &f, &m, &a, &fp, &pp};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_paf_totals t;
    fairsched_status status = fairsched_paf_allocate(
        paf_of(paf), w.elements, w.length, o.elements, p.elements, p.length, (uint32_t)slots,
        alpha, (uint32_t)method, f.elements, m.elements, a.elements, fp.elements, pp.elements, &t);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK) {
        const jdouble fields[PAF_LAYOUT(TOTALS_LENGTH)] = {
            [PAF_LAYOUT(TOTALS_SLOTS)] = (jdouble)t.slots,
            [PAF_LAYOUT(TOTALS_MOVED)] = (jdouble)t.moved,
            [PAF_LAYOUT(TOTALS_FAIR_PROGRESS)] = t.fair_progress,
            [PAF_LAYOUT(TOTALS_PAF_PROGRESS)] = t.paf_progress,
            [PAF_LAYOUT(TOTALS_LARGEST_LOSS)] = t.largest_loss,
        };
        (*env)->SetDoubleArrayRegion(env, totals, 0, PAF_LAYOUT(TOTALS_LENGTH), fields);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_enforce(JNIEnv *env, jclass cls, jlong paf,
                                                             jintArray targets,
                                                             jintArray running, jintArray out) {
    pinned_array t = reading(env, targets), r = reading(env, running), given = writing(env, out);
    pinned_array *const arrays[] = {&t, &r, &given};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    size_t assigned = 0;
    fairsched_status status = fairsched_paf_enforce(paf_of(paf), t.elements, r.elements, t.length,
                                                    given.elements, given.length, &assigned);
    release(env, arrays, LENGTH(arrays));
    return count_or_status(status, assigned);
}

/* ---- Ernest's model and curves: no workspace ------------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_ernestFit(JNIEnv *env, jclass cls,
                                                               jintArray slots,
                                                               jdoubleArray runtimes,
                                                               jdoubleArray out) {
    pinned_array s = reading(env, slots), r = reading(env, runtimes), a = writing(env, out);
    pinned_array *const arrays[] = {&s, &r, &a};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_paf_ernest_fit(s.elements, r.elements, s.length, a.elements);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_ernestTabulate(JNIEnv *env, jclass cls,
                                                                    jdoubleArray coefficients,
                                                                    jdoubleArray out) {
    pinned_array a = reading(env, coefficients), curve = writing(env, out);
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
                                                                     jdoubleArray out) {
    pinned_array p = reading(env, points), envelope = writing(env, out);
    pinned_array *const arrays[] = {&p, &envelope};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_paf_concave_envelope(p.elements, envelope.elements, p.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

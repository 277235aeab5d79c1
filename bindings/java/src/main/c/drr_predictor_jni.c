/*
 * JNI glue between dev.fairsched.NativeDrrPredictor and the DRR predictor exports of the
 * fairsched C ABI (include/fairsched.h), with the conventions of glue.h.
 *
 * Every array goes to the library in place: pinned around the one fairsched call, never
 * copied, so a prediction is written straight into the Java array. What it wrote is written by
 * the library into the predictor's buffer.
 */
#include "dev_fairsched_NativeDrrPredictor.h"
#include "glue.h"

/* A constant of dev.fairsched.NativeDrrPredictor, e.g. PREDICTOR(PREDICTION_RUNS). */
#define PREDICTOR(name) dev_fairsched_NativeDrrPredictor_##name

ASSERT_OFFSET(fairsched_drr_prediction, steps, PREDICTOR(PREDICTION_STEPS));
ASSERT_OFFSET(fairsched_drr_prediction, runs, PREDICTOR(PREDICTION_RUNS));
ASSERT_SIZE(fairsched_drr_prediction, PREDICTOR(PREDICTION_SIZE));

static fairsched_drr_predictor *predictor_of(jlong handle) {
    return (fairsched_drr_predictor *)(intptr_t)handle;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrPredictor_open(JNIEnv *env, jclass cls,
                                                                   jlong capacity, jint kinds,
                                                                   jlong window, jlong steps,
                                                                   jlongArray out) {
    size_t size = 0;
    fairsched_status sized = fairsched_drr_predictor_storage_size(
        (uint32_t)capacity, (size_t)kinds, (uint32_t)window, (uint32_t)steps, &size);
    void *memory = storage_for(sized, size);
    fairsched_drr_predictor *predictor = NULL;
    fairsched_status built =
        fairsched_drr_predictor_init(memory, size, (uint32_t)capacity, (size_t)kinds,
                                     (uint32_t)window, (uint32_t)steps, &predictor);
    return opened(env, sized, built, memory, predictor, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrPredictor_record(JNIEnv *env, jclass cls,
                                                                     jlong predictor, jlong id,
                                                                     jdoubleArray run) {
    pinned_array r = reading(env, run);
    pinned_array *const arrays[] = {&r};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_drr_predictor_record(predictor_of(predictor), (uint64_t)id, r.elements, r.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrPredictor_forget(JNIEnv *env, jclass cls,
                                                                     jlong predictor, jlong id) {
    return fairsched_drr_predictor_forget(predictor_of(predictor), (uint64_t)id);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrPredictor_runs(JNIEnv *env, jclass cls,
                                                                   jlong predictor, jlong id) {
    uint32_t runs = 0;
    fairsched_status status =
        fairsched_drr_predictor_runs(predictor_of(predictor), (uint64_t)id, &runs);
    return count_or_status(status, runs);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeDrrPredictor_predict(
    JNIEnv *env, jclass cls, jlong predictor, jlong id, jdoubleArray peak, jlong steps,
    jdoubleArray series, jobject out) {
    fairsched_drr_prediction *prediction = struct_at(env, out);
    pinned_array p = reading(env, peak), s = writing(env, series);
    pinned_array *const arrays[] = {&p, &s};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status =
        fairsched_drr_predictor_predict(predictor_of(predictor), (uint64_t)id, p.elements,
                                        p.length, (uint32_t)steps, s.elements, s.length,
                                        prediction);
    release(env, arrays, LENGTH(arrays));
    return status;
}

/*
 * JNI glue between dev.fairsched.NativeHai and the HAI exports of the fairsched C ABI
 * (include/fairsched.h), with the conventions of glue.h.
 *
 * Every array goes to the library in place: pinned around the one fairsched call, never
 * copied. The summary is written by the library straight into the Hai's buffer.
 */
#include "dev_fairsched_NativeHai.h"
#include "glue.h"

/* A constant of dev.fairsched.NativeHai, e.g. HAI(SUMMARY_JCT_SUM). */
#define HAI(name) dev_fairsched_NativeHai_##name

_Static_assert(HAI(SHORTEST_JOB_OPTIMAL) == FAIRSCHED_HAI_SHORTEST_JOB_OPTIMAL &&
                   HAI(ALLOCATE) == FAIRSCHED_HAI_ALLOCATE &&
                   HAI(REBALANCE) == FAIRSCHED_HAI_REBALANCE,
               "NativeHai's methods must be the header's FAIRSCHED_HAI_*");

ASSERT_OFFSET(fairsched_hai_summary, jct_sum_start, HAI(SUMMARY_JCT_SUM_START));
ASSERT_OFFSET(fairsched_hai_summary, jct_sum, HAI(SUMMARY_JCT_SUM));
ASSERT_OFFSET(fairsched_hai_summary, transfers, HAI(SUMMARY_TRANSFERS));
ASSERT_SIZE(fairsched_hai_summary, HAI(SUMMARY_SIZE));

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeHai_open(JNIEnv *env, jclass cls, jlong capacity,
                                                          jlongArray out) {
    size_t size = 0;
    fairsched_status sized = fairsched_hai_storage_size((uint32_t)capacity, &size);
    void *memory = storage_for(sized, size);
    fairsched_hai *hai = NULL;
    fairsched_status built = fairsched_hai_init(memory, size, (uint32_t)capacity, &hai);
    return opened(env, sized, built, memory, hai, out);
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeHai_allocate(
    JNIEnv *env, jclass cls, jlong hai, jint method, jlong total_cores, jlong theta,
    jintArray caps, jdoubleArray jct, jintArray cores, jdoubleArray out_jct, jobject out_summary) {
    fairsched_hai_summary *summary = struct_at(env, out_summary);
    pinned_array c = reading(env, caps), t = reading(env, jct);
    pinned_array a = writing(env, cores), o = writing(env, out_jct);
    pinned_array *const arrays[] = {&c, &t, &a, &o};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_hai_allocate(
        (fairsched_hai *)(intptr_t)hai, (uint32_t)method, (uint32_t)total_cores,
        (uint32_t)theta, c.elements, c.length, t.elements, t.length, a.elements, a.length,
        o.elements, o.length, summary);
    release(env, arrays, LENGTH(arrays));
    return status;
}

/* ---- JCT tables from predictions: no workspace ----------------------------------------------- */

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeHai_tableFromDifferences(
    JNIEnv *env, jclass cls, jlong theta, jlong reference, jdouble jct_at_reference,
    jdoubleArray differences, jdoubleArray out_table) {
    pinned_array d = reading(env, differences), t = writing(env, out_table);
    pinned_array *const arrays[] = {&d, &t};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_hai_table_from_differences(
        (uint32_t)theta, (uint32_t)reference, jct_at_reference, d.elements, d.length,
        t.elements, t.length);
    release(env, arrays, LENGTH(arrays));
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeHai_tableFromSamples(
    JNIEnv *env, jclass cls, jlong theta, jintArray cores, jdoubleArray jct,
    jdoubleArray out_table, jdoubleArray out_coefficients) {
    pinned_array c = reading(env, cores), j = reading(env, jct);
    pinned_array t = writing(env, out_table), a = writing(env, out_coefficients);
    pinned_array *const arrays[] = {&c, &j, &t, &a};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_status status = fairsched_hai_table_from_samples(
        (uint32_t)theta, c.elements, c.length, j.elements, j.length, t.elements, t.length,
        a.elements);
    release(env, arrays, LENGTH(arrays));
    return status;
}

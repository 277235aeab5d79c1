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

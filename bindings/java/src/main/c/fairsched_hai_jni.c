/*
 * JNI glue between dev.fairsched.NativeHai and the HAI exports of the fairsched C ABI
 * (include/fairsched.h), with the conventions of fairsched_jni.c: each function makes one
 * fairsched call and returns its status code; Java maps codes to exceptions.
 *
 * Every array goes to the library in place: pinned around the one fairsched call, never
 * copied, with the helpers of fairsched_jni.h. The summary comes back in the layout of
 * NativeHai's constants, which `javac -h` copies into dev_fairsched_NativeHai.h.
 */
#include "dev_fairsched_NativeHai.h"
#include "fairsched_jni.h"

/* A constant of dev.fairsched.NativeHai, e.g. HAI_LAYOUT(SUMMARY_JCT_SUM). */
#define HAI_LAYOUT(name) dev_fairsched_NativeHai_##name

_Static_assert(HAI_LAYOUT(SHORTEST_JOB_OPTIMAL) == FAIRSCHED_HAI_SHORTEST_JOB_OPTIMAL,
               "NativeHai.SHORTEST_JOB_OPTIMAL");
_Static_assert(HAI_LAYOUT(ALLOCATE) == FAIRSCHED_HAI_ALLOCATE, "NativeHai.ALLOCATE");
_Static_assert(HAI_LAYOUT(REBALANCE) == FAIRSCHED_HAI_REBALANCE, "NativeHai.REBALANCE");

static fairsched_hai *hai_of(jlong handle) {
    return (fairsched_hai *)(intptr_t)handle;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeHai_open(JNIEnv *env, jclass cls, jlong capacity,
                                                          jlongArray out) {
    size_t size;
    fairsched_status status = fairsched_hai_storage_size((uint32_t)capacity, &size);
    if (status != FAIRSCHED_STATUS_OK) {
        return status;
    }
    void *memory = allocate_storage(env, size);
    if (memory == NULL) {
        return EXCEPTION_PENDING;
    }
    fairsched_hai *hai;
    status = fairsched_hai_init(memory, size, (uint32_t)capacity, &hai);
    if (status != FAIRSCHED_STATUS_OK) {
        free(memory);
        return status;
    }
    write_opened(env, out, memory, hai);
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeHai_allocate(
    JNIEnv *env, jclass cls, jlong hai, jint method, jlong total_cores, jlong theta,
    jintArray caps, jdoubleArray jct, jintArray cores, jdoubleArray jct_out,
    jdoubleArray summary) {
    pinned_array c = reading(env, caps), t = reading(env, jct);
    pinned_array a = writing(env, cores), o = writing(env, jct_out);
    pinned_array *const arrays[] = {&c, &t, &a, &o};
    if (!pin(env, arrays, LENGTH(arrays))) {
        return EXCEPTION_PENDING;
    }
    fairsched_hai_summary s;
    fairsched_status status = fairsched_hai_allocate(
        hai_of(hai), (uint32_t)method, (uint32_t)total_cores, (uint32_t)theta, c.elements,
        c.length, t.elements, t.length, a.elements, a.length, o.elements, o.length, &s);
    release(env, arrays, LENGTH(arrays));
    if (status == FAIRSCHED_STATUS_OK) {
        const jdouble fields[HAI_LAYOUT(SUMMARY_LENGTH)] = {
            [HAI_LAYOUT(SUMMARY_JCT_SUM_START)] = s.jct_sum_start,
            [HAI_LAYOUT(SUMMARY_JCT_SUM)] = s.jct_sum,
            [HAI_LAYOUT(SUMMARY_TRANSFERS)] = s.transfers,
        };
        (*env)->SetDoubleArrayRegion(env, summary, 0, HAI_LAYOUT(SUMMARY_LENGTH), fields);
    }
    return status;
}

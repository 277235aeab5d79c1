/*
 * JNI glue between dev.fairsched.NativePaf and the PAF part of the fairsched C ABI
 * (include/fairsched.h), in the manner of fairsched_jni.c: each function makes one fairsched
 * call and returns its status code; Java maps codes to exceptions and has checked the lengths.
 *
 * Arrays are read and written in place inside Get/ReleasePrimitiveArrayCritical regions around
 * the single fairsched call (never Get<Type>ArrayElements, which copies); nothing inside a
 * region calls back into the JVM. Outputs are released with mode 0 and inputs with JNI_ABORT.
 */
#include <jni.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "dev_fairsched_NativePaf.h"
#include "fairsched.h"
#include "jni_util.h"

#define LAYOUT(name) dev_fairsched_NativePaf_##name

static fairsched_paf *paf_of(jlong handle) {
    return (fairsched_paf *)(intptr_t)handle;
}

/* One array pinned for the call. */
typedef struct {
    jarray array;
    bool output;
    jsize length;
    void *data;
} pin;

static void unpin_all(JNIEnv *env, pin *pins, size_t count) {
    while (count-- > 0) {
        if (pins[count].data != NULL) {
            (*env)->ReleasePrimitiveArrayCritical(env, pins[count].array, pins[count].data,
                                                  pins[count].output ? 0 : JNI_ABORT);
        }
    }
}

/* Pins every array (lengths first: no JNI call may happen inside a region). False, with
 * OutOfMemoryError pending and nothing pinned, when the JVM cannot pin one. */
static bool pin_all(JNIEnv *env, pin *pins, size_t count) {
    for (size_t i = 0; i < count; i++) {
        pins[i].length = (*env)->GetArrayLength(env, pins[i].array);
        pins[i].data = NULL;
    }
    for (size_t i = 0; i < count; i++) {
        pins[i].data = (*env)->GetPrimitiveArrayCritical(env, pins[i].array, NULL);
        if (pins[i].data == NULL) {
            unpin_all(env, pins, i);
            return false;
        }
    }
    return true;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_open(JNIEnv *env, jclass cls,
                                                          jlong capacity, jlongArray out) {
    size_t size;
    fairsched_status status = fairsched_paf_storage_size((uint32_t)capacity, &size);
    if (status != FAIRSCHED_STATUS_OK) {
        return status;
    }
    void *memory = malloc(size);
    if (memory == NULL) {
        throw_out_of_memory(env, "no memory for the fairsched PAF workspace");
        return FAIRSCHED_STATUS_OK; /* Unseen: the exception is thrown on return. */
    }
    fairsched_paf *paf;
    status = fairsched_paf_init(memory, size, (uint32_t)capacity, &paf);
    if (status != FAIRSCHED_STATUS_OK) {
        free(memory);
        return status;
    }
    const jlong opened[LAYOUT(OPEN_LENGTH)] = {
        [LAYOUT(OPEN_MEMORY)] = (jlong)(intptr_t)memory,
        [LAYOUT(OPEN_PAF)] = (jlong)(intptr_t)paf,
    };
    (*env)->SetLongArrayRegion(env, out, 0, LAYOUT(OPEN_LENGTH), opened);
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_allocate(
    JNIEnv *env, jclass cls, jlong paf, jintArray weights, jintArray offsets, jdoubleArray points,
    jlong slots, jdouble alpha, jint method, jintArray fair, jintArray min, jintArray allocation,
    jdoubleArray fair_progress, jdoubleArray paf_progress, jdoubleArray totals) {
    pin pins[] = {{weights, false},    {offsets, false},       {points, false},
                  {fair, true},        {min, true},            {allocation, true},
                  {fair_progress, true}, {paf_progress, true}};
    enum { COUNT = sizeof pins / sizeof *pins };
    if (!pin_all(env, pins, COUNT)) {
        return FAIRSCHED_STATUS_OK; /* Unseen: OutOfMemoryError is thrown on return. */
    }
    fairsched_paf_totals t;
    fairsched_status status = fairsched_paf_allocate(
        paf_of(paf), pins[0].data, (size_t)pins[0].length, pins[1].data, pins[2].data,
        (size_t)pins[2].length, (uint32_t)slots, alpha, (uint32_t)method, pins[3].data,
        pins[4].data, pins[5].data, pins[6].data, pins[7].data, &t);
    unpin_all(env, pins, COUNT);
    if (status == FAIRSCHED_STATUS_OK) {
        const jdouble fields[LAYOUT(TOTALS_LENGTH)] = {
            [LAYOUT(TOTALS_SLOTS)] = (jdouble)t.slots,
            [LAYOUT(TOTALS_MOVED)] = (jdouble)t.moved,
            [LAYOUT(TOTALS_FAIR_PROGRESS)] = t.fair_progress,
            [LAYOUT(TOTALS_PAF_PROGRESS)] = t.paf_progress,
            [LAYOUT(TOTALS_LARGEST_LOSS)] = t.largest_loss,
        };
        (*env)->SetDoubleArrayRegion(env, totals, 0, LAYOUT(TOTALS_LENGTH), fields);
    }
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_enforce(JNIEnv *env, jclass cls, jlong paf,
                                                             jintArray targets,
                                                             jintArray running, jintArray out) {
    pin pins[] = {{targets, false}, {running, false}, {out, true}};
    enum { COUNT = sizeof pins / sizeof *pins };
    if (!pin_all(env, pins, COUNT)) {
        return 0; /* Unseen: OutOfMemoryError is thrown on return. */
    }
    size_t assigned = 0;
    fairsched_status status =
        fairsched_paf_enforce(paf_of(paf), pins[0].data, pins[1].data, (size_t)pins[0].length,
                              pins[2].data, (size_t)pins[2].length, &assigned);
    unpin_all(env, pins, COUNT);
    return status == FAIRSCHED_STATUS_OK ? (jint)assigned : -(jint)status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_ernestFit(JNIEnv *env, jclass cls,
                                                               jintArray slots,
                                                               jdoubleArray runtimes,
                                                               jdoubleArray out) {
    pin pins[] = {{slots, false}, {runtimes, false}, {out, true}};
    enum { COUNT = sizeof pins / sizeof *pins };
    if (!pin_all(env, pins, COUNT)) {
        return FAIRSCHED_STATUS_OK; /* Unseen: OutOfMemoryError is thrown on return. */
    }
    fairsched_status status = fairsched_paf_ernest_fit(pins[0].data, pins[1].data,
                                                       (size_t)pins[0].length, pins[2].data);
    unpin_all(env, pins, COUNT);
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_ernestTabulate(JNIEnv *env, jclass cls,
                                                                    jdoubleArray coefficients,
                                                                    jdoubleArray out) {
    pin pins[] = {{coefficients, false}, {out, true}};
    enum { COUNT = sizeof pins / sizeof *pins };
    if (!pin_all(env, pins, COUNT)) {
        return FAIRSCHED_STATUS_OK; /* Unseen: OutOfMemoryError is thrown on return. */
    }
    fairsched_status status =
        fairsched_paf_ernest_tabulate(pins[0].data, pins[1].data, (size_t)pins[1].length);
    unpin_all(env, pins, COUNT);
    return status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_curveCheck(JNIEnv *env, jclass cls,
                                                                jdoubleArray points) {
    pin pins[] = {{points, false}};
    if (!pin_all(env, pins, 1)) {
        return 0; /* Unseen: OutOfMemoryError is thrown on return. */
    }
    uint32_t concave_from = 0;
    fairsched_status status =
        fairsched_paf_curve_check(pins[0].data, (size_t)pins[0].length, &concave_from);
    unpin_all(env, pins, 1);
    return status == FAIRSCHED_STATUS_OK ? (jint)concave_from : -(jint)status;
}

JNIEXPORT jint JNICALL Java_dev_fairsched_NativePaf_concaveEnvelope(JNIEnv *env, jclass cls,
                                                                     jdoubleArray points,
                                                                     jdoubleArray out) {
    pin pins[] = {{points, false}, {out, true}};
    enum { COUNT = sizeof pins / sizeof *pins };
    if (!pin_all(env, pins, COUNT)) {
        return FAIRSCHED_STATUS_OK; /* Unseen: OutOfMemoryError is thrown on return. */
    }
    fairsched_status status =
        fairsched_paf_concave_envelope(pins[0].data, pins[1].data, (size_t)pins[0].length);
    unpin_all(env, pins, COUNT);
    return status;
}

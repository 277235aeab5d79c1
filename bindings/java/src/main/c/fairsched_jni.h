/*
 * What the JNI glue files (one per algorithm) share: the layouts of dev.fairsched.Native, the
 * storage of native objects, counts returned with statuses, and arrays pinned for one call.
 */
#ifndef FAIRSCHED_JNI_H
#define FAIRSCHED_JNI_H

#include <jni.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "dev_fairsched_Native.h"
#include "fairsched.h"

/* A layout constant of dev.fairsched.Native, e.g. LAYOUT(JOB_ARRIVAL). */
#define LAYOUT(name) dev_fairsched_Native_##name

/* The number of elements of an array (not of a pointer). */
#define LENGTH(array) (sizeof(array) / sizeof *(array))

/* What a function returns when an exception is pending (an OutOfMemoryError from
 * allocate_storage or pin): never seen, as Java throws the exception on return. */
#define EXCEPTION_PENDING FAIRSCHED_STATUS_OK

/* For the functions that return a count: the count, or the status negated. */
static inline jint count_or_status(fairsched_status status, size_t count) {
    return status == FAIRSCHED_STATUS_OK ? (jint)count : -(jint)status;
}

/* ---- Storage --------------------------------------------------------------------------------- */

/* `size` bytes for a native object; NULL, with an OutOfMemoryError pending, when there are
 * none (the caller then returns EXCEPTION_PENDING at once). */
static inline void *allocate_storage(JNIEnv *env, size_t size) {
    void *memory = malloc(size);
    if (memory == NULL) {
        jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (oom != NULL) {
            (*env)->ThrowNew(env, oom, "no memory for the fairsched storage");
        }
    }
    return memory;
}

/* Writes an open call's output (Native.OPEN_*): the block to free, then the handle inside it. */
static inline void write_opened(JNIEnv *env, jlongArray out, void *memory, void *handle) {
    const jlong opened[LAYOUT(OPEN_LENGTH)] = {
        [LAYOUT(OPEN_MEMORY)] = (jlong)(intptr_t)memory,
        [LAYOUT(OPEN_HANDLE)] = (jlong)(intptr_t)handle,
    };
    (*env)->SetLongArrayRegion(env, out, 0, LAYOUT(OPEN_LENGTH), opened);
}

/* ---- Arrays pinned for one call -------------------------------------------------------------- */

/*
 * A Java array handed to one fairsched call in place, without a copy: its length is read
 * first (reading or writing), then pin() takes every array of the call with
 * GetPrimitiveArrayCritical, and release() gives them back right after the call. No JNI
 * function may be called in between, which is why lengths are read before.
 */
typedef struct {
    jarray array;
    jint release_mode; /* JNI_ABORT for an array the call only reads, 0 to keep writes */
    size_t length;
    void *elements; /* set by pin() */
} pinned_array;

/* An array the call reads. */
static inline pinned_array reading(JNIEnv *env, jarray array) {
    return (pinned_array){array, JNI_ABORT, (size_t)(*env)->GetArrayLength(env, array), NULL};
}

/* An array the call writes (and may read). */
static inline pinned_array writing(JNIEnv *env, jarray array) {
    return (pinned_array){array, 0, (size_t)(*env)->GetArrayLength(env, array), NULL};
}

/* Releases the first `count` of `arrays`, last pinned first. */
static inline void release(JNIEnv *env, pinned_array *const *arrays, size_t count) {
    while (count > 0) {
        count--;
        (*env)->ReleasePrimitiveArrayCritical(env, arrays[count]->array, arrays[count]->elements,
                                              arrays[count]->release_mode);
    }
}

/* Pins every one of `arrays`. False when one cannot be: the others are released again and an
 * OutOfMemoryError is pending (the caller then returns EXCEPTION_PENDING at once). */
static inline bool pin(JNIEnv *env, pinned_array *const *arrays, size_t count) {
    for (size_t i = 0; i < count; i++) {
        arrays[i]->elements = (*env)->GetPrimitiveArrayCritical(env, arrays[i]->array, NULL);
        if (arrays[i]->elements == NULL) {
            release(env, arrays, i);
            return false;
        }
    }
    return true;
}

#endif /* FAIRSCHED_JNI_H */

/*
 * What the JNI glue files share. There is one glue file per Java class of natives, named after
 * it: cfq_jni.c holds the entry points of NativeCfq, drf_jni.c of NativeDrf, drr_jni.c of
 * NativeDrr, drr_timeline_jni.c of NativeDrrTimeline, drr_predictor_jni.c of
 * NativeDrrPredictor, hai_jni.c of NativeHai, paf_jni.c of NativePaf, library_jni.c of
 * NativeLibrary, object_jni.c of NativeObject, testing_jni.c of the test sources'
 * NativeTesting.
 *
 * Checked against Java at build time: each glue file includes the header `javac -h` generated
 * for its class, so a definition whose signature disagrees with its Java declaration does not
 * compile; build-native.sh compiles with -Wmissing-prototypes, so an entry point that no Java
 * class declares (a misspelt name) does not compile either, and it then checks with nm that
 * every entry point the headers declare is defined in the shared object.
 *
 * Conventions. Each entry point converts its arguments, makes one fairsched call and returns its
 * status code (cfq_jni.c's setPendingAndOffer, a round in one crossing, makes two in a row, the
 * second only if the first succeeded); Java turns codes into exceptions (Status.java), so that
 * mapping lives in one place. Those that produce a count return the count, or the status negated.
 * Handles travel as jlong, u64 ids as the same 64 bits in a jlong, u32 numbers as jlongs Java has
 * checked in range (or, in arrays, as jints it has checked non-negative). Every length is the
 * library's to check: each array goes with its own length. Constants shared with Java (array
 * layouts, codes, offsets) are Java's `static final`s, which `javac -h` copies into the generated
 * headers; where the header defines the same thing, an assertion checks they agree.
 */
#ifndef FAIRSCHED_GLUE_H
#define FAIRSCHED_GLUE_H

#include <jni.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "dev_fairsched_NativeObject.h"
#include "fairsched.h"

/* The number of elements of an array (not of a pointer). */
#define LENGTH(array) (sizeof(array) / sizeof *(array))

/* What an entry point returns when an exception is pending (an OutOfMemoryError): never
 * seen, as Java throws the exception on return. */
#define EXCEPTION_PENDING FAIRSCHED_STATUS_OK

/* For the entry points that return a count: the count, or the status negated. */
static inline jint count_or_status(fairsched_status status, size_t count) {
    return status == FAIRSCHED_STATUS_OK ? (jint)count : -(jint)status;
}

/* For the calls that may find an id (peek, next, start_next): 1 with the id written to
 * out[0], 0 when there is none, or the status negated. */
static inline jint found_or_status(JNIEnv *env, fairsched_status status, bool found,
                                   uint64_t id, jlongArray out) {
    if (status == FAIRSCHED_STATUS_OK && found) {
        const jlong value = (jlong)id;
        (*env)->SetLongArrayRegion(env, out, 0, 1, &value);
    }
    return count_or_status(status, found ? 1 : 0);
}

/* ---- Opening a native object ----------------------------------------------------------------- */

/*
 * Every open entry point (NativeCfq, NativeDrf, NativeHai, NativePaf, NativeDrrTimeline,
 * NativeDrrPredictor) is the same steps around its object's two setup exports, which take the
 * capacity first and the handle last (DRR's objects pass their size configuration to
 * storage_size too):
 *
 *     size_t size = 0;
 *     fairsched_status sized = fairsched_<object>_storage_size(capacity, &size);
 *     void *memory = storage_for(sized, size);
 *     fairsched_<object> *object = NULL;
 *     fairsched_status built = fairsched_<object>_init(memory, size, capacity, ..., &object);
 *     return opened(env, sized, built, memory, object, out);
 *
 * init is called even when there is no block: it checks its pointers before anything else and
 * fails with NULL_POINTER, writing nothing, and opened reports what failed first instead.
 * NativeObject's constructor is the Java side of the same steps.
 */

/* The block storage_size asked for: NULL when it failed (`sized`), or when malloc does. */
static inline void *storage_for(fairsched_status sized, size_t size) {
    return sized == FAIRSCHED_STATUS_OK ? malloc(size) : NULL;
}

/*
 * Ends an open: storage_size's status if it failed (`sized`); an OutOfMemoryError if there
 * was no memory for the block; init's status if it failed (`built`), the block freed again;
 * otherwise OK, with NativeObject's OPEN_* layout written to `out`: the block to free, then
 * the handle inside it.
 */
static inline jint opened(JNIEnv *env, fairsched_status sized, fairsched_status built,
                          void *memory, void *handle, jlongArray out) {
    if (sized != FAIRSCHED_STATUS_OK) {
        return sized;
    }
    if (memory == NULL) {
        jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (oom != NULL) {
            (*env)->ThrowNew(env, oom, "no memory for the fairsched storage");
        }
        return EXCEPTION_PENDING;
    }
    if (built != FAIRSCHED_STATUS_OK) {
        free(memory);
        return built;
    }
    const jlong object[dev_fairsched_NativeObject_OPEN_LENGTH] = {
        [dev_fairsched_NativeObject_OPEN_MEMORY] = (jlong)(intptr_t)memory,
        [dev_fairsched_NativeObject_OPEN_HANDLE] = (jlong)(intptr_t)handle,
    };
    (*env)->SetLongArrayRegion(env, out, 0, LENGTH(object), object);
    return FAIRSCHED_STATUS_OK;
}

/* ---- Structures written straight into Java --------------------------------------------------- */

/*
 * A structure an object's call writes (fairsched_cfq_job_info, fairsched_paf_totals, ...) goes
 * to the library as the address of the object's direct ByteBuffer (NativeObject.struct): the
 * library writes the C structure there, and Java reads its fields at the byte offsets its
 * Native* class declares, which ASSERT_LAYOUT checks against the header. One encoding, the
 * header's, and no copy on the way. A buffer that is not direct gives NULL, which the library
 * rejects with NULL_POINTER.
 */
static inline void *struct_at(JNIEnv *env, jobject buffer) {
    return (*env)->GetDirectBufferAddress(env, buffer);
}

/* Checks that the Java constant `offset` is where `field` lies in the C structure `type`. */
#define ASSERT_OFFSET(type, field, offset)                                                        \
    _Static_assert(offsetof(type, field) == (offset),                                            \
                   #offset " must be offsetof(" #type ", " #field ")")

/* Checks that the Java constant `size` is the size of the C structure `type`. */
#define ASSERT_SIZE(type, size)                                                                   \
    _Static_assert(sizeof(type) == (size), #size " must be sizeof(" #type ")")

/* ---- Arrays pinned for one call -------------------------------------------------------------- */

/*
 * A Java array handed to one fairsched call in place, without a copy: its length is read
 * first (reading or writing), then pin() takes every array of the call with
 * GetPrimitiveArrayCritical, and release() gives them back right after the call. No JNI
 * function may be called in between, which is why lengths (and buffer addresses) are read
 * before.
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

#endif /* FAIRSCHED_GLUE_H */

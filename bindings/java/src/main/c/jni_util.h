/*
 * Helpers shared by the JNI glue files (one per algorithm).
 */
#ifndef FAIRSCHED_JNI_UTIL_H
#define FAIRSCHED_JNI_UTIL_H

#include <jni.h>

/* Leaves an OutOfMemoryError pending, thrown when the native method returns. */
static inline void throw_out_of_memory(JNIEnv *env, const char *message) {
    jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
    if (oom != NULL) {
        (*env)->ThrowNew(env, oom, message);
    }
}

#endif

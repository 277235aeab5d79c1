/*
 * JNI glue between dev.fairsched.NativeLibrary and the exports of the fairsched C ABI
 * (include/fairsched.h) that belong to no object: the ABI version and the status messages.
 */
#include "dev_fairsched_NativeLibrary.h"
#include "glue.h"

/* The ABI this glue is compiled against is the one Java is written for; at run time,
 * NativeLibrary.load compares it with the library's (fairsched_abi_version). */
_Static_assert(dev_fairsched_NativeLibrary_ABI_VERSION == FAIRSCHED_ABI_VERSION,
               "NativeLibrary.ABI_VERSION must be the header's FAIRSCHED_ABI_VERSION");

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeLibrary_abiVersion(JNIEnv *env, jclass cls) {
    return (jint)fairsched_abi_version();
}

JNIEXPORT jstring JNICALL Java_dev_fairsched_NativeLibrary_statusMessage(JNIEnv *env, jclass cls,
                                                                          jint status) {
    /* Any code is safe: the library names codes it does not know "unknown status". */
    return (*env)->NewStringUTF(env, fairsched_status_message((uint32_t)status));
}

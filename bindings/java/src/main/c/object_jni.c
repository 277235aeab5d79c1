/*
 * JNI glue of dev.fairsched.NativeObject: freeing the block an open entry point allocated
 * (glue.h, storage_for and opened), once, when the object is closed or collected.
 */
#include "dev_fairsched_NativeObject.h"
#include "glue.h"

JNIEXPORT void JNICALL Java_dev_fairsched_NativeObject_free(JNIEnv *env, jclass cls,
                                                           jlong memory) {
    free((void *)(intptr_t)memory);
}

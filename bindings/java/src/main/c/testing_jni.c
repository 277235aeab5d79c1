/*
 * JNI glue of dev.fairsched.NativeTesting (in the test sources): the export that exists only
 * in testing builds of the library, which build-native.sh makes for the tests
 * (-DFAIRSCHED_TESTING) and never for the release jar, where this file compiles to nothing.
 * build-native.sh generates the class's JNI header itself, since Maven compiles the tests
 * after the native step.
 */
#if defined(FAIRSCHED_TESTING)
#include "dev_fairsched_NativeTesting.h"
#include "glue.h"

JNIEXPORT jint JNICALL Java_dev_fairsched_NativeTesting_panic(JNIEnv *env, jclass cls) {
    return fairsched_testing_panic();
}
#endif

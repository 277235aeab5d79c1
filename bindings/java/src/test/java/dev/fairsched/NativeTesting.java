package dev.fairsched;

/**
 * Native calls that exist only in testing builds of the library (-DFAIRSCHED_TESTING), in
 * src/main/c/testing_jni.c; build-native.sh generates this class's JNI header itself, as Maven
 * compiles the tests after the native step.
 */
final class NativeTesting {
    static {
        NativeLibrary.load();
    }

    private NativeTesting() {}

    /** {@code fairsched_testing_panic}: panics inside the boundary, so returns PANIC's code. */
    static native int panic();
}

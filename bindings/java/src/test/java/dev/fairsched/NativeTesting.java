package dev.fairsched;

/** Native calls that exist only in testing builds of the library (-DFAIRSCHED_TESTING). */
final class NativeTesting {
    static {
        NativeLibrary.load();
    }

    private NativeTesting() {}

    /** {@code fairsched_testing_panic}: panics inside the boundary, so returns PANIC's code. */
    static native int testingPanic();
}

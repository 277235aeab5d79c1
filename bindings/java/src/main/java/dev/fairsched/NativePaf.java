package dev.fairsched;

/**
 * The JNI entry points of PAF (src/main/c/paf_jni.c), one per fairsched export; {@link Paf} is
 * their only caller and checks every length and range the C side cannot. Conventions as in
 * {@link Native}: {@code int} results are status codes, except those producing a count or a
 * value ({@link #enforce}, {@link #curveCheck}), which return it, or the status negated.
 */
final class NativePaf {
    /** {@link #allocate}'s totals: {@code fairsched_paf_totals}, counts as exact doubles. */
    static final int TOTALS_SLOTS = 0;
    static final int TOTALS_MOVED = 1;
    static final int TOTALS_FAIR_PROGRESS = 2;
    static final int TOTALS_PAF_PROGRESS = 3;
    static final int TOTALS_LARGEST_LOSS = 4;
    static final int TOTALS_LENGTH = 5;

    static {
        NativeLibrary.load();
    }

    private NativePaf() {}

    /**
     * Allocates the storage for {@code capacity} jobs and builds a workspace in it, writing
     * {@code out[Native.OPEN_MEMORY]} and {@code out[Native.OPEN_HANDLE]}. Frees the storage
     * itself on failure; {@link Native#free} frees it otherwise.
     *
     * @throws OutOfMemoryError if the storage cannot be allocated
     */
    static native int open(long capacity, long[] out);

    /** Jobs as {@code weights.length} weights and the flat curves; outputs as long. */
    static native int allocate(long paf, int[] weights, int[] offsets, double[] points,
            long slots, double alpha, int method, int[] fair, int[] min, int[] allocation,
            double[] fairProgress, double[] pafProgress, double[] totals);

    /** Writes job indices into {@code out}; returns their count or the negated status. */
    static native int enforce(long paf, int[] targets, int[] running, int[] out);

    static native int ernestFit(int[] slots, double[] runtimes, double[] out);

    static native int ernestTabulate(double[] coefficients, double[] out);

    /** The curve's concave-from index, or the negated status. */
    static native int curveCheck(double[] points);

    static native int concaveEnvelope(double[] points, double[] out);
}

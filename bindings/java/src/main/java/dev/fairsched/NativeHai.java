package dev.fairsched;

/**
 * The JNI entry points of HAI (src/main/c/fairsched_hai_jni.c), one per fairsched export;
 * {@link Hai} is their only caller and checks every range the C side cannot. Conventions as in
 * {@link Native}: each returns the {@link Status} code.
 */
final class NativeHai {
    /** {@link #allocate}'s {@code method}: {@code FAIRSCHED_HAI_*}, checked by the glue. */
    static final int SHORTEST_JOB_OPTIMAL = 0;
    static final int ALLOCATE = 1;
    static final int REBALANCE = 2;

    /** {@link #allocate}'s summary: {@code fairsched_hai_summary}, the count as an exact double. */
    static final int SUMMARY_JCT_SUM_START = 0;
    static final int SUMMARY_JCT_SUM = 1;
    static final int SUMMARY_TRANSFERS = 2;
    static final int SUMMARY_LENGTH = 3;

    static {
        NativeLibrary.load();
    }

    private NativeHai() {}

    /**
     * Allocates the storage for {@code capacity} jobs and builds a workspace in it, writing
     * {@code out[Native.OPEN_MEMORY]} and {@code out[Native.OPEN_HANDLE]}. Frees the storage
     * itself on failure; {@link Native#free} frees it otherwise.
     *
     * @throws OutOfMemoryError if the storage cannot be allocated
     */
    static native int open(long capacity, long[] out);

    /** Reads and writes every array in place; the summary goes to {@code summary} on success. */
    static native int allocate(long hai, int method, long totalCores, long theta, int[] caps,
            double[] jct, int[] cores, double[] jctOut, double[] summary);
}

package dev.fairsched;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of HAI (src/main/c/hai_jni.c), one per fairsched export, with the
 * conventions of {@link NativeCfq}. {@link Hai} is their only caller and checks every range the
 * C side cannot.
 */
final class NativeHai {
    /** {@link #allocate}'s {@code method}: {@code FAIRSCHED_HAI_*}, checked by the glue. */
    static final int SHORTEST_JOB_OPTIMAL = 0;
    static final int ALLOCATE = 1;
    static final int REBALANCE = 2;

    /** {@code fairsched_hai_summary}: byte offsets of its fields, and its size. */
    static final int SUMMARY_JCT_SUM_START = 0;
    static final int SUMMARY_JCT_SUM = 8;
    static final int SUMMARY_TRANSFERS = 16;
    static final int SUMMARY_SIZE = 24;

    static {
        NativeLibrary.load();
    }

    private NativeHai() {}

    /** Opens a workspace for {@code capacity} jobs (see {@link NativeObject}). */
    static native int open(long capacity, long[] out);

    /**
     * Reads and writes every array in place; writes {@code fairsched_hai_summary} into {@code
     * outSummary} ({@code SUMMARY_*}).
     */
    static native int allocate(long hai, int method, long totalCores, long theta, int[] caps,
            double[] jct, int[] cores, double[] outJct, ByteBuffer outSummary);

    /** Writes the table in place ({@code fairsched_hai_table_from_differences}). */
    static native int tableFromDifferences(long theta, long reference, double jctAtReference,
            double[] differences, double[] outTable);

    /** Writes the table and the 4 coefficients in place ({@code fairsched_hai_table_from_samples}). */
    static native int tableFromSamples(long theta, int[] cores, double[] jct, double[] outTable,
            double[] outCoefficients);
}

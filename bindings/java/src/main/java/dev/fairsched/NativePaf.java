package dev.fairsched;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of PAF (src/main/c/paf_jni.c), one per fairsched export, with the
 * conventions of {@link NativeCfq}. {@link Paf} is their only caller and checks every range the
 * C side cannot. {@link #enforce} and {@link #curveCheck} return a count or an index, or the
 * status negated.
 */
final class NativePaf {
    /** {@link #allocate}'s {@code method}: {@code FAIRSCHED_PAF_*}, checked by the glue. */
    static final int LITERAL = 0;
    static final int FAST = 1;

    /** {@code fairsched_paf_totals}: byte offsets of its fields, and its size. */
    static final int TOTALS_SLOTS = 0;
    static final int TOTALS_MOVED = 8;
    static final int TOTALS_FAIR_PROGRESS = 16;
    static final int TOTALS_PAF_PROGRESS = 24;
    static final int TOTALS_LARGEST_LOSS = 32;
    static final int TOTALS_SIZE = 40;

    static {
        NativeLibrary.load();
    }

    private NativePaf() {}

    /** Opens a workspace for {@code capacity} jobs (see {@link NativeObject}). */
    static native int open(long capacity, long[] out);

    /**
     * Jobs as {@code weights.length} weights and the flat curves ({@code curveOffsets} holds
     * {@code weights.length + 1} entries); outputs one per job; writes {@code
     * fairsched_paf_totals} into {@code outTotals} ({@code TOTALS_*}).
     */
    static native int allocate(long paf, int[] weights, int[] curveOffsets, double[] points,
            long slots, double alpha, int method, int[] outFair, int[] outMin, int[] outPaf,
            double[] outFairProgress, double[] outPafProgress, ByteBuffer outTotals);

    /** Writes job indices into {@code outJobs}; returns their count or the negated status. */
    static native int openJobs(int[] weights, int[] curveOffsets, double[] points, long[] out);

    static native int allocateJobs(long paf, long jobs, long slots, double alpha, int method,
            int[] outFair, int[] outMin, int[] outPaf, double[] outFairProgress,
            double[] outPafProgress, ByteBuffer outTotals);

    static native int enforce(long paf, int[] weights, int[] targets, int[] running,
            int[] outJobs);

    static native int ernestFit(int[] slots, double[] runtimes, double[] outCoefficients);

    static native int ernestTabulate(double[] coefficients, double[] outPoints);

    /** The curve's concave-from index, or the negated status. */
    static native int curveCheck(double[] points);

    static native int concaveEnvelope(double[] points, double[] outPoints);

    /** Writes the curve into {@code outPoints} and the shortest JCT into {@code outShortest[0]}. */
    static native int curveFromTasks(double[] durations, double warmup, double[] scratch,
            double[] outPoints, double[] outShortest);
}

package dev.fairsched;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of DRR's predictor (src/main/c/drr_predictor_jni.c), one per fairsched
 * export, with the conventions of {@link NativeCfq}. {@link DrrPredictor} is their only caller
 * and checks every range the C side cannot.
 */
final class NativeDrrPredictor {
    /** {@code fairsched_drr_prediction}: byte offsets of its fields, and its size. */
    static final int PREDICTION_STEPS = 0;
    static final int PREDICTION_RUNS = 4;
    static final int PREDICTION_SIZE = 8;

    static {
        NativeLibrary.load();
    }

    private NativeDrrPredictor() {}

    /** Opens a predictor for {@code capacity} applications (see {@link NativeObject}). */
    static native int open(long capacity, int kinds, long window, long steps, long[] out);

    static native int record(long predictor, long id, double[] run);

    static native int forget(long predictor, long id);

    /** Returns the runs kept of {@code id}, or the status negated. */
    static native int runs(long predictor, long id);

    /**
     * Writes the series into {@code series} in place, and {@code fairsched_drr_prediction} into
     * {@code out} ({@code PREDICTION_*}).
     */
    static native int predict(long predictor, long id, double[] peak, long steps, double[] series,
            ByteBuffer out);
}

package dev.fairsched;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of DRR's machine timeline (src/main/c/drr_timeline_jni.c), one per
 * fairsched export, with the conventions of {@link NativeCfq}. {@link DrrTimeline} is their only
 * caller and checks every range the C side cannot.
 */
final class NativeDrrTimeline {
    /** {@code fairsched_drr_timeline_heartbeat_result}: byte offsets of its fields, its size. */
    static final int HEARTBEAT_PLACED = 0;
    static final int HEARTBEAT_T_RUN = 8;
    static final int HEARTBEAT_DRR = 16;
    static final int HEARTBEAT_FIRST_ID = 24;
    static final int HEARTBEAT_SIZE = 32;

    /** {@code fairsched_drr_timeline_stats}: byte offsets of its fields, and its size. */
    static final int STATS_NOW = 0;
    static final int STATS_NEXT_ID = 8;
    static final int STATS_RUNNING = 16;
    static final int STATS_CAPACITY = 20;
    static final int STATS_HORIZON = 24;
    static final int STATS_T_RUN = 28;
    static final int STATS_KINDS = 32;
    static final int STATS_DRR = 40;
    static final int STATS_TRC = 48;
    static final int STATS_SIZE = 56;

    /** The largest structure a call writes into the timeline's buffer. */
    static final int STRUCT_SIZE = Math.max(HEARTBEAT_SIZE, STATS_SIZE);

    static {
        NativeLibrary.load();
    }

    private NativeDrrTimeline() {}

    /** Opens a timeline for {@code capacity} executors (see {@link NativeObject}). */
    static native int open(long capacity, double[] machine, long horizon, long[] out);

    /** Writes the executors let go into {@code outFinished[0]}. */
    static native int advance(long timeline, long steps, long[] outFinished);

    /** Writes the executor's id into {@code outId[0]}. */
    static native int place(long timeline, double[] demand, long[] outId);

    static native int release(long timeline, long id);

    static native int reprovision(long timeline, long id, double[] observed, double[] predicted);

    /**
     * Writes the placements in place and {@code fairsched_drr_timeline_heartbeat_result} into
     * {@code out} ({@code HEARTBEAT_*}).
     */
    static native int heartbeat(long timeline, double[] demands, int[] steps, int[] counts,
            int metric, int[] placements, ByteBuffer out);

    /** {@link #heartbeat} over executors from {@code NativeDrr.openExecutors}. */
    static native int heartbeatExecutors(long timeline, long pending, int[] counts, int metric,
            int[] placements, ByteBuffer out);

    /** Writes {@code fairsched_drr_timeline_stats} into {@code out} ({@code STATS_*}). */
    static native int stats(long timeline, ByteBuffer out);

    /** Copies the available series into {@code out}, which must hold exactly H · kinds. */
    static native int available(long timeline, double[] out);
}

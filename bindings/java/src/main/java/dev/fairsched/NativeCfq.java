package dev.fairsched;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of CFQ (src/main/c/cfq_jni.c), one per fairsched export, plus {@link
 * #setPendingAndOffer}, two exports in one crossing. {@link Cfq} and {@link CfqProfiler} are
 * their only callers and check every argument the C side cannot.
 *
 * <p>Conventions, those of every {@code Native*} class (see src/main/c/glue.h):
 * <ul>
 *   <li>{@code cfq} is the {@code fairsched_cfq *} handle; u64 ids travel as the same 64 bits in a
 *       {@code long}; u32 numbers as {@code long}s in their range, or in arrays as non-negative
 *       {@code int}s.
 *   <li>A method returning {@code int} returns the {@link Status} code, except those that
 *       produce a count ({@link #offer}, {@link #setPendingAndOffer}, {@link #peek}): they
 *       return the count, or the status code negated on failure.
 *   <li>A C structure is written by the library into the object's {@link NativeObject#struct()}
 *       buffer, at the byte offsets below, which the glue checks against the header; {@code
 *       javac -h} copies these constants into the generated header.
 * </ul>
 */
final class NativeCfq {
    /** {@code fairsched_cfq_job_info}: byte offsets of its fields, and its size. */
    static final int JOB_ID = 0;
    static final int JOB_ARRIVAL = 8;
    static final int JOB_SLOT_TIME = 16;
    static final int JOB_VIRTUAL_FINISH = 24;
    static final int JOB_GPS_COMPLETION = 32;
    static final int JOB_COMPLETION = 40;
    static final int JOB_WEIGHT = 48;
    static final int JOB_PENDING_TASKS = 52;
    static final int JOB_BACKLOGGED = 56;
    static final int JOB_GPS_ACTIVE = 57;
    static final int JOB_COMPLETED = 58;
    static final int JOB_SIZE = 64;

    /** {@code fairsched_cfq_stats}: byte offsets of its fields, and its size. */
    static final int STATS_NOW = 0;
    static final int STATS_VIRTUAL_TIME = 8;
    static final int STATS_SLOTS = 16;
    static final int STATS_CAPACITY = 20;
    static final int STATS_JOBS = 24;
    static final int STATS_BACKLOGGED = 28;
    static final int STATS_GPS_ACTIVE = 32;
    static final int STATS_ROWS_IN_USE = 36;
    static final int STATS_SIZE = 40;

    /**
     * {@code fairsched_cfq_profiler}: byte offsets of its fields, and its size. {@link
     * CfqProfiler} keeps one in a direct buffer of its own.
     */
    static final int PROFILER_COUNT = 0;
    static final int PROFILER_SUM = 8;
    static final int PROFILER_SUM_LOW = 16;
    static final int PROFILER_SIZE = 24;

    /** The largest structure a {@link Cfq} receives. */
    static final int STRUCT_SIZE = Math.max(JOB_SIZE, STATS_SIZE);

    static {
        NativeLibrary.load();
    }

    private NativeCfq() {}

    /** Opens a scheduler for {@code capacity} jobs (see {@link NativeObject}). */
    static native int open(long capacity, long slots, double startTime, long[] out);

    static native int advance(long cfq, double now);

    static native int setSlots(long cfq, double now, long slots);

    static native int arrive(long cfq, double now, long jobId, double slotTime, long weight);

    static native int reprofile(long cfq, double now, long jobId, double slotTime);

    static native int setPending(long cfq, long jobId, long pendingTasks);

    /** Reads both arrays in place, without copying; the library checks their lengths. */
    static native int setPendingBatch(long cfq, long[] jobIds, int[] pendingTasks);

    /** Writes the ids given into {@code out[0..count)}; returns the count or the negated status. */
    static native int offer(long cfq, long[] out, int freeSlots);

    /**
     * {@link #setPendingBatch} then, if it succeeded, {@link #offer}, in one crossing: returns
     * the offer's count, or the negated status of whichever call failed (the first changes
     * nothing when it fails, and the offer is then not made).
     */
    static native int setPendingAndOffer(long cfq, long[] jobIds, int[] pendingTasks,
            long[] out, int freeSlots);

    /** 1 with the id in {@code out[0]}, 0 when no job is backlogged, or the negated status. */
    static native int peek(long cfq, long[] out);

    static native int complete(long cfq, double now, long jobId);

    static native int remove(long cfq, double now, long jobId);

    /** Writes {@code fairsched_cfq_job_info} into {@code out} ({@code JOB_*}). */
    static native int job(long cfq, long jobId, ByteBuffer out);

    static native int gpsCompletionEstimate(long cfq, long jobId, double[] out);

    /** Theorem 1's bound ({@code fairsched_cfq_delay_bound}), written into {@code out[0]}. */
    static native int delayBound(double longestTask, double largestSlotTime, long slots,
            double[] out);

    /** Writes {@code fairsched_cfq_stats} into {@code out} ({@code STATS_*}). */
    static native int stats(long cfq, ByteBuffer out);

    /**
     * The naive profiler's calls, on the {@code fairsched_cfq_profiler} in the direct buffer
     * {@code profiler} ({@code PROFILER_*}). {@code profilerEstimate} writes the estimate into
     * {@code out[0]}.
     */
    static native int profilerInit(ByteBuffer profiler);

    static native int profilerObserve(ByteBuffer profiler, double duration);

    /** Reads {@code durations} in place, without copying. */
    static native int profilerObserveBatch(ByteBuffer profiler, double[] durations);

    static native int profilerEstimate(ByteBuffer profiler, long tasks, double[] out);
}

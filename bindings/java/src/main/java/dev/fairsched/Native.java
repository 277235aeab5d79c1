package dev.fairsched;

/**
 * The JNI entry points of CFQ (src/main/c/fairsched_jni.c), one per fairsched export, and what
 * every native object shares: the status messages, the layout of {@link #open}'s output and
 * {@link #free}. {@link Cfq} is the only caller of the CFQ ones and checks every argument the C
 * side cannot. DRF and QKnobler have theirs in {@link NativeDrf}, PAF in {@link NativePaf}, DRR
 * and MinFrag in {@link NativeDrr}.
 *
 * <p>Conventions (those of {@link NativeDrf}, {@link NativePaf} and {@link NativeDrr} too):
 * <ul>
 *   <li>{@code cfq} is the {@code fairsched_cfq *} handle; u64 ids travel as the same 64 bits in a
 *       {@code long}; u32 numbers as {@code long}s in their range, or in arrays as non-negative
 *       {@code int}s.
 *   <li>A method returning {@code int} returns the {@link Status} code, except those that
 *       produce a count ({@link #offer}, {@link #peek}): they return the count, or the status
 *       code negated on failure.
 *   <li>Structures come back as arrays in the layouts below. {@code javac -h} copies these
 *       constants into the generated header, so Java and C share one definition.
 * </ul>
 */
final class Native {
    /**
     * The output of {@link #open}, {@link NativeDrf#openQueue} and {@link NativePaf#open}: the
     * block to free, then the handle inside it.
     */
    static final int OPEN_MEMORY = 0;
    static final int OPEN_HANDLE = 1;
    static final int OPEN_LENGTH = 2;

    /** {@link #job}'s output: {@code fairsched_cfq_job_info} without the id, booleans as 0 or 1. */
    static final int JOB_ARRIVAL = 0;
    static final int JOB_SLOT_TIME = 1;
    static final int JOB_VIRTUAL_FINISH = 2;
    static final int JOB_GPS_COMPLETION = 3;
    static final int JOB_COMPLETION = 4;
    static final int JOB_WEIGHT = 5;
    static final int JOB_PENDING_TASKS = 6;
    static final int JOB_BACKLOGGED = 7;
    static final int JOB_GPS_ACTIVE = 8;
    static final int JOB_COMPLETED = 9;
    static final int JOB_LENGTH = 10;

    /** {@link #stats}'s output: {@code fairsched_cfq_stats}, counts as exact doubles. */
    static final int STATS_NOW = 0;
    static final int STATS_VIRTUAL_TIME = 1;
    static final int STATS_SLOTS = 2;
    static final int STATS_CAPACITY = 3;
    static final int STATS_JOBS = 4;
    static final int STATS_BACKLOGGED = 5;
    static final int STATS_GPS_ACTIVE = 6;
    static final int STATS_ROWS_IN_USE = 7;
    static final int STATS_LENGTH = 8;

    static {
        NativeLibrary.load();
    }

    private Native() {}

    /**
     * Allocates the storage for {@code capacity} jobs and builds a scheduler in it, writing
     * {@code out[OPEN_MEMORY]} and {@code out[OPEN_HANDLE]}. Frees the storage itself on failure.
     *
     * @throws OutOfMemoryError if the storage cannot be allocated
     */
    static native int open(long capacity, long slots, double startTime, long[] out);

    /**
     * Frees a block {@link #open}, {@link NativeDrf#openQueue} or {@link NativePaf#open}
     * allocated.
     */
    static native void free(long memory);

    static native int advance(long cfq, double now);

    static native int setSlots(long cfq, double now, long slots);

    static native int arrive(long cfq, double now, long jobId, double slotTime, long weight);

    static native int setPending(long cfq, long jobId, long pendingTasks);

    /** Reads both arrays in place, without copying; their lengths are passed on unchecked. */
    static native int setPendingBatch(long cfq, long[] jobIds, int[] pendingTasks);

    /** Writes the ids given into {@code out[0..count)}; returns the count or the negated status. */
    static native int offer(long cfq, long[] out, int freeSlots);

    /** 1 with the id in {@code out[0]}, 0 when no job is backlogged, or the negated status. */
    static native int peek(long cfq, long[] out);

    static native int complete(long cfq, double now, long jobId);

    static native int remove(long cfq, double now, long jobId);

    static native int job(long cfq, long jobId, double[] out);

    static native int gpsCompletionEstimate(long cfq, long jobId, double[] out);

    static native int stats(long cfq, double[] out);

    /** {@code fairsched_status_message} for a code of {@link Status}. */
    static native String statusMessage(int status);
}

package dev.fairsched;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of DRF and QKnobler (src/main/c/drf_jni.c), one per fairsched export,
 * with the conventions of {@link NativeCfq}. {@link Drf}, {@link DrfQueue} and {@link QKnobler}
 * are their only callers, and pass no null array.
 *
 * <p>{@code queue} is the {@code fairsched_drf_queue *} handle. Every array is handed to the
 * library in place (pinned for the call, never copied) with its own length, whatever it is:
 * the library checks lengths.
 */
final class NativeDrf {
    /** {@code FAIRSCHED_MAX_RESOURCE_KINDS}: the glue checks the two agree. */
    static final int MAX_RESOURCE_KINDS = 8;

    /** {@code fairsched_drf_user_info}: byte offsets of its fields, and its size. */
    static final int USER_ID = 0;
    static final int USER_RUNNING = 8;
    static final int USER_PENDING = 16;
    static final int USER_WEIGHT = 24;
    static final int USER_DOMINANT_SHARE = 32;
    static final int USER_WEIGHTED_SHARE = 40;
    static final int USER_TASK_SHARE = 48;
    static final int USER_SIZE = 56;

    /** {@code fairsched_drf_queue_stats}: byte offsets of its fields, and its size. */
    static final int STATS_CAPACITY = 0;
    static final int STATS_USERS = 4;
    static final int STATS_ACTIVE = 8;
    static final int STATS_KINDS = 12;
    static final int STATS_SIZE = 16;

    /** {@code fairsched_qknobler_round_result}: byte offsets of its fields, and its size. */
    static final int ROUND_STARTED = 0;
    static final int ROUND_FAIRNESS = 8;
    static final int ROUND_SIZE = 16;

    /** The largest structure a {@link DrfQueue} receives. */
    static final int STRUCT_SIZE = Math.max(USER_SIZE, Math.max(STATS_SIZE, ROUND_SIZE));

    /**
     * {@link #qknoblerAllocate}'s summary: {@code fairsched_qknobler_summary}, its kinds as an
     * exact double and its residual, all {@link #MAX_RESOURCE_KINDS} amounts, last.
     */
    static final int SUMMARY_RHO = 0;
    static final int SUMMARY_PHI = 1;
    static final int SUMMARY_THETA = 2;
    static final int SUMMARY_SHARING_INCENTIVE_RHO = 3;
    static final int SUMMARY_EFFICIENCY = 4;
    static final int SUMMARY_KINDS = 5;
    static final int SUMMARY_RESIDUAL = 6;
    static final int SUMMARY_LENGTH = SUMMARY_RESIDUAL + MAX_RESOURCE_KINDS;

    static {
        NativeLibrary.load();
    }

    private NativeDrf() {}

    /**
     * {@code fairsched_drf_divisible}, with one output slot per element of {@code outTasks} and
     * {@code outShares}; {@code φ} goes to {@code outPhi[0]}.
     */
    static native int divisible(
            double[] cluster,
            double[] weights,
            double[] demands,
            double[] outTasks,
            double[] outShares,
            double[] outPhi);

    /**
     * {@code fairsched_qknobler_allocate}, with one output slot per element of each per-user
     * array; the summary goes to {@code outSummary} (layout {@code SUMMARY_*}).
     */
    static native int qknoblerAllocate(
            double[] cluster,
            double[] weights,
            double[] demands,
            double rho,
            double[] outFair,
            double[] outEfficient,
            long[] outWhole,
            double[] outSummary);

    /**
     * Opens a queue for {@code capacity} users sharing {@code cluster} (see {@link
     * NativeObject}).
     */
    static native int open(long capacity, double[] cluster, long[] out);

    static native int addUser(long queue, long id, double weight, double[] demand);

    static native int removeUser(long queue, long id);

    static native int setPending(long queue, long id, long pending);

    static native int tasksStarted(long queue, long id, long count);

    static native int tasksFinished(long queue, long id, long count);

    /** 1 with the id in {@code out[0]}, 0 when no user is active, or the negated status. */
    static native int next(long queue, long[] out);

    /**
     * {@code fairsched_drf_queue_start_next}: 1 with the id of the user whose task started in
     * {@code out[0]}, 0 when no user is active, or the negated status.
     */
    static native int startNext(long queue, long[] out);

    /** Writes {@code fairsched_drf_user_info} into {@code out} ({@code USER_*}). */
    static native int user(long queue, long id, ByteBuffer out);

    /** Writes {@code fairsched_drf_queue_stats} into {@code out} ({@code STATS_*}). */
    static native int stats(long queue, ByteBuffer out);

    /**
     * Writes the ids of the tasks started into {@code out} (room for its length); returns how
     * many or the negated status.
     */
    static native int allocateRound(long queue, double[] free, long[] out);

    /**
     * {@code fairsched_drf_queue_qknobler_round}: writes the ids of the tasks started into {@code
     * out} (room for its length) and {@code fairsched_qknobler_round_result} into {@code
     * outRound} ({@code ROUND_*}).
     */
    static native int qknoblerRound(long queue, double rho, double[] machine, double[] idle,
            long[] out, ByteBuffer outRound);

    /**
     * {@code fairsched_qknobler_average_demand}: the average into {@code outAverage} (one slot
     * per element), the pending tasks counted into {@code outCounted[0]}.
     */
    static native int qknoblerAverageDemand(double[] idle, double[] runningSum, long running,
            double[] pending, double[] outAverage, long[] outCounted);

    /**
     * {@code fairsched_qknobler_choose}: 1 with the user's index in {@code out[0]} and 1 (fairness)
     * or 0 (efficiency) in {@code out[1]}, 0 when no task fits, or the negated status.
     */
    static native int qknoblerChoose(double rho, double[] cluster, double[] machine, double[] idle,
            double[] weights, double[] allocated, double[] maxShares, double[] next, long[] out);
}

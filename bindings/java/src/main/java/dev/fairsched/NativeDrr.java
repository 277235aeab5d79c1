package dev.fairsched;

/**
 * The JNI entry points of DRR and MinFrag (src/main/c/drr_jni.c), one per fairsched export,
 * with the conventions of {@link NativeCfq}. {@link Drr} is their only caller: it passes no
 * null array and no array the call writes that is also one it reads.
 *
 * <p>Every array is handed to the library in place (pinned for the call, never copied), with
 * its own length. These calls belong to no object, so no buffer receives their few scalar
 * results: they come back as arrays in the layouts below.
 */
final class NativeDrr {
    /** The metric codes, {@code FAIRSCHED_DRR_METRIC_*}: the glue checks they are the header's. */
    static final int METRIC_DRR = 0;
    static final int METRIC_TRC = 1;
    static final int METRIC_TETRIS = 2;

    /** {@link #machine}'s output: θ(j) and TRC. */
    static final int MACHINE_DRR = 0;
    static final int MACHINE_TRC = 1;
    static final int MACHINE_LENGTH = 2;

    /**
     * {@link #minFrag}'s output: {@code fairsched_drr_heartbeat} but its {@code placed}, which
     * is returned; {@code t_run} as an exact double.
     */
    static final int HEARTBEAT_T_RUN = 0;
    static final int HEARTBEAT_DRR = 1;
    static final int HEARTBEAT_LENGTH = 2;

    static {
        NativeLibrary.load();
    }

    private NativeDrr() {}

    /** {@code fairsched_drr_machine}; the results go to {@code out} (layout {@code MACHINE_*}). */
    static native int machine(double[] capacity, double[] available, long tRun, double[] out);

    /**
     * {@code fairsched_drr_min_frag}, {@code available} updated in place: returns how many
     * executors were placed (their indices at the front of {@code placements}), or the negated
     * status; the rest of the heartbeat goes to {@code outHeartbeat} (layout {@code
     * HEARTBEAT_*}).
     */
    static native int minFrag(double[] capacity, double[] available, long tRun, double[] demands,
            int[] steps, int metric, int[] placements, double[] outHeartbeat);

    /**
     * {@code fairsched_drr_executors_storage_size} then {@code fairsched_drr_executors_init}:
     * writes {@link NativeObject}'s {@code OPEN_*} into {@code out}.
     */
    static native int openExecutors(double[] demands, int[] steps, int kinds, long[] out);

    /** {@link #minFrag} over executors from {@link #openExecutors}. */
    static native int minFragExecutors(double[] capacity, double[] available, long tRun,
            long pending, int metric, int[] placements, double[] outHeartbeat);

    /**
     * {@code fairsched_drr_score_machines} over {@code tRuns.length} machines; {@code
     * capacities} holds exactly {@code kinds} amounts a machine.
     */
    static native int scoreMachines(double[] capacities, int kinds, double[] available,
            int[] tRuns, double[] demand, int metric, boolean[] fits, double[] scores);

    /**
     * {@code fairsched_drr_reprovision}, {@code remaining} scaled in place; {@code observed} and
     * {@code predicted} hold exactly {@code kinds} amounts each.
     */
    static native int reprovision(double[] remaining, int kinds, double[] observed,
            double[] predicted);

    /**
     * {@code fairsched_drr_reprovision_due}, the flags written into {@code due} in place:
     * returns how many are due, or the negated status.
     */
    static native int reprovisionDue(double[] elapsed, double[] expected, double rho,
            boolean[] due);
}

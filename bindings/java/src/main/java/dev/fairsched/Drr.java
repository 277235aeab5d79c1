package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;
import static dev.fairsched.Arguments.requireU32;

import java.lang.ref.Reference;
import java.util.Objects;

/**
 * DRR and MinFrag (Elasecutor, Liu et al.): packing executors whose demand varies over time onto
 * machines whose available resources vary too, so that as little as possible is left idle.
 *
 * <p><b>Series.</b> Time is in steps of a caller-chosen length, and every series is a flat,
 * time-major {@code double[]}: the amount of resource kind {@code r} at step {@code t} is {@code
 * series[t * kinds + r]}, for 1 to 8 kinds and 1 to 256 steps. A <i>machine</i> is its {@code
 * capacity} (one amount per kind, each positive), its predicted {@code available} series over a
 * horizon of {@code H} steps (each amount finite, not negative, at most the capacity of its
 * kind) and {@code tRun}, the step at which the first of its running executors finishes: 1 to
 * {@code H}, and {@code H} when none runs or none finishes within the horizon. An
 * <i>executor</i> is its predicted demand series, {@code T_i} steps of at most {@code H}.
 *
 * <p><b>Calls.</b> Static methods over arrays, with no state: one native call each, every array
 * read or written in place (pinned for the call, never copied), outputs into arrays the caller
 * provides. A call that fails throws {@link FairschedException} and writes nothing, in-place
 * series included. An array a call writes may also be one it reads: the read one is copied
 * first, so the result is that of separate arrays holding the same values. Steps, {@code t_run}s
 * and placements are C {@code uint32_t}s: {@code tRun} as a {@code long} in {@code [0, 2^32)},
 * arrays as non-negative {@code int}s; anything else throws {@link IllegalArgumentException}
 * before any native call, as does a negative {@code kinds}.
 */
public final class Drr {
    /**
     * The paper's {@code ρ} for {@link #reprovisionDue} (§III-C, C: {@code FAIRSCHED_DRR_RHO}): a
     * stage running longer than 1.1 times its expected execution time triggers reprovisioning.
     */
    public static final double RHO = 1.1;

    private Drr() {}

    /** How a placement is scored (C: {@code FAIRSCHED_DRR_METRIC_*}). */
    public enum Metric {
        /**
         * The dominant remaining resource {@code θ(i, j)} (§III-B2): the largest average share of
         * any kind the machine leaves idle until {@code t* = min(t_run, T_i)}. Smaller is better.
         */
        DRR(NativeDrr.METRIC_DRR),
        /**
         * The total remaining capacity (§V-F): the same averages summed over the kinds instead of
         * their maximum. Smaller is better.
         */
        TRC(NativeDrr.METRIC_TRC),
        /**
         * Tetris' alignment of the executor's peak demand with what the machine has available now
         * (step 0), both normalized by capacity. Larger is better.
         */
        TETRIS(NativeDrr.METRIC_TETRIS);

        private final int code;

        Metric(int code) {
            this.code = code;
        }

        /** The C code, {@code FAIRSCHED_DRR_METRIC_*}. */
        public int code() {
            return code;
        }
    }

    /**
     * What a machine leaves idle until its {@code t_run}.
     *
     * @param drr {@code θ(j)}, its dominant remaining resource, in {@code [0, 1]}
     * @param trc its total remaining capacity, in {@code [0, kinds]}
     */
    public record Remaining(double drr, double trc) {}

    /**
     * What one MinFrag heartbeat did.
     *
     * @param placed the executors placed: their indices are {@code placements[0..placed)}, in
     *     order
     * @param tRun the machine's {@code t_run} afterwards: the earliest finish, placed executors
     *     included
     * @param drr {@code θ(j)} afterwards
     */
    public record Heartbeat(int placed, long tRun, double drr) {}

    /**
     * A machine's {@code θ(j)} and TRC until {@code tRun} (see the class documentation for the
     * machine).
     *
     * @throws IllegalArgumentException if {@code tRun} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#OUT_OF_RANGE} for {@code tRun} outside 1 to the
     *     horizon or an amount above capacity; {@link Status#LENGTH_MISMATCH} for a series that
     *     is not whole steps; {@link Status#EMPTY} or {@link Status#CAPACITY_FULL} for no kind or
     *     step, or more than 8 kinds or 256 steps; {@link Status#NOT_FINITE}, {@link
     *     Status#NOT_POSITIVE} or {@link Status#NEGATIVE} for an amount
     */
    public static Remaining machine(double[] capacity, double[] available, long tRun) {
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(available, "available");
        requireU32(tRun, "tRun");
        double[] out = new double[NativeDrr.MACHINE_LENGTH];
        FairschedException.check(NativeDrr.machine(capacity, available, tRun, out));
        return new Remaining(out[NativeDrr.MACHINE_DRR], out[NativeDrr.MACHINE_TRC]);
    }

    /**
     * One heartbeat of MinFrag (Elasecutor's Algorithm 1) on one machine ({@code capacity},
     * {@code available}, {@code tRun}) over the pending executors, executor {@code i} running
     * {@code steps[i]} steps with its demand series back to back in {@code demands}: among the
     * executors that fit, places the one with the best score under {@code metric} (for {@link
     * Metric#DRR} the smallest {@code θ(i, j)}; ties to the lower index), subtracts its series
     * from {@code available}, sets {@code t_run} to {@code min(t_run, T_i)}, and repeats until
     * none fits. Writes the placed executors' indices, in order, to the front of {@code
     * placements} and updates {@code available} in place. One native call, no allocation but
     * the result.
     *
     * @throws IllegalArgumentException if {@code tRun} or a step is not a {@code uint32_t}
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code placements} has less
     *     room than there are executors, an executor has other kinds than the machine or {@code
     *     demands} is not their series back to back; {@link Status#OUT_OF_RANGE} for an
     *     executor longer than the horizon; {@link Status#CAPACITY_FULL} for more than 4096
     *     executors; as {@link #machine} for the machine; {@link Status#NOT_FINITE}, {@link
     *     Status#NEGATIVE} or {@link Status#EMPTY} for a demand or a step count of 0
     */
    public static Heartbeat minFrag(double[] capacity, double[] available, long tRun,
            double[] demands, int[] steps, Metric metric, int[] placements) {
        Objects.requireNonNull(metric, "metric");
        return minFrag(capacity, available, tRun, demands, steps, metric.code(), placements);
    }

    /** {@link #minFrag(double[], double[], long, double[], int[], Metric, int[])} for any code. */
    static Heartbeat minFrag(double[] capacity, double[] available, long tRun, double[] demands,
            int[] steps, int metric, int[] placements) {
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(available, "available");
        Objects.requireNonNull(demands, "demands");
        Objects.requireNonNull(placements, "placements");
        requireU32(tRun, "tRun");
        requireNonNegative(steps, "steps");
        double[] out = new double[NativeDrr.HEARTBEAT_LENGTH];
        int placed = FairschedException.count(NativeDrr.minFrag(apart(capacity, available),
                available, tRun, apart(demands, available),
                steps == placements ? steps.clone() : steps, metric, placements, out));
        return new Heartbeat(
                placed, (long) out[NativeDrr.HEARTBEAT_T_RUN], out[NativeDrr.HEARTBEAT_DRR]);
    }

    /**
     * {@link #minFrag(double[], double[], long, double[], int[], Metric, int[])} over executors
     * laid out once: the same heartbeat, their series neither pinned nor checked again (only
     * against the machine: its kinds and its horizon). {@code placements} needs room for {@code
     * pending.size()}. One native call, no allocation but the result.
     *
     * @throws IllegalArgumentException if {@code tRun} is not a {@code uint32_t}
     * @throws IllegalStateException if {@code pending} is closed
     * @throws FairschedException as {@link #minFrag(double[], double[], long, double[], int[],
     *     Metric, int[])} for valid executors
     */
    public static Heartbeat minFrag(double[] capacity, double[] available, long tRun,
            DrrExecutors pending, Metric metric, int[] placements) {
        Objects.requireNonNull(metric, "metric");
        return minFrag(capacity, available, tRun, pending, metric.code(), placements);
    }

    /** {@link #minFrag(double[], double[], long, DrrExecutors, Metric, int[])} for any code. */
    static Heartbeat minFrag(double[] capacity, double[] available, long tRun,
            DrrExecutors pending, int metric, int[] placements) {
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(available, "available");
        Objects.requireNonNull(pending, "pending");
        Objects.requireNonNull(placements, "placements");
        requireU32(tRun, "tRun");
        double[] out = new double[NativeDrr.HEARTBEAT_LENGTH];
        int placed;
        try {
            placed = FairschedException.count(NativeDrr.minFragExecutors(
                    apart(capacity, available), available, tRun, pending.handle(), metric,
                    placements, out));
        } finally {
            Reference.reachabilityFence(pending);
        }
        return new Heartbeat(
                placed, (long) out[NativeDrr.HEARTBEAT_T_RUN], out[NativeDrr.HEARTBEAT_DRR]);
    }

    /**
     * Scores one executor ({@code demand}, a series over {@code kinds} kinds) on {@code
     * tRuns.length} machines sharing {@code kinds} and a horizon {@code H}: machine {@code j}'s
     * capacity is {@code capacities[j * kinds ..][.. kinds]}, its available series {@code
     * available[j * H * kinds ..][.. H * kinds]} and its {@code t_run} {@code tRuns[j]}. Writes,
     * for each machine, whether the executor fits into {@code fits[j]} and its score under
     * {@code metric} into {@code scores[j]}; where it does not fit the score is the worst there
     * is, {@code +∞} ({@code -∞} for {@link Metric#TETRIS}), so the best machine is simply the
     * best score. One native call, no allocation.
     *
     * @throws IllegalArgumentException for a negative {@code kinds} or a {@code t_run} not a
     *     {@code uint32_t}
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code capacities} does not
     *     hold {@code kinds} amounts a machine, {@code fits} or {@code scores} does not hold one entry a
     *     machine, the machines' series do not share a horizon of whole steps or {@code demand}
     *     is not whole steps; {@link Status#EMPTY} for no machine; {@link Status#OUT_OF_RANGE}
     *     for an executor longer than the horizon; as {@link #machine} for each machine
     */
    public static void scoreMachines(double[] capacities, int kinds, double[] available,
            int[] tRuns, double[] demand, Metric metric, boolean[] fits, double[] scores) {
        Objects.requireNonNull(metric, "metric");
        scoreMachines(capacities, kinds, available, tRuns, demand, metric.code(), fits, scores);
    }

    /**
     * {@link #scoreMachines(double[], int, double[], int[], double[], Metric, boolean[],
     * double[])} for any code.
     */
    static void scoreMachines(double[] capacities, int kinds, double[] available, int[] tRuns,
            double[] demand, int metric, boolean[] fits, double[] scores) {
        Objects.requireNonNull(capacities, "capacities");
        Objects.requireNonNull(available, "available");
        Objects.requireNonNull(demand, "demand");
        Objects.requireNonNull(fits, "fits");
        Objects.requireNonNull(scores, "scores");
        requireNonNegative(kinds, "kinds");
        requireNonNegative(tRuns, "tRuns");
        FairschedException.check(NativeDrr.scoreMachines(apart(capacities, scores), kinds,
                apart(available, scores), tRuns, apart(demand, scores), metric, fits, scores));
    }

    /**
     * Reprovisioning (§III-C): scales an executor's {@code remaining} demand series (over {@code
     * kinds} kinds) in place by {@code observed[r] / predicted[r]} for each kind {@code r}, the
     * usage observed over one monitoring period against the usage predicted for it (each finite
     * and not negative). A kind predicted at zero is left as it is.
     *
     * @throws IllegalArgumentException for a negative {@code kinds}
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code observed} or {@code
     *     predicted} does not hold {@code kinds} amounts or {@code remaining} is not whole steps;
     *     {@link Status#OUT_OF_RANGE} if a scaled amount would overflow; {@link
     *     Status#NOT_FINITE}, {@link Status#NEGATIVE}, {@link Status#EMPTY} or {@link
     *     Status#CAPACITY_FULL} for an amount, no kind or step, more than 8 kinds or 256 steps
     */
    public static void reprovision(double[] remaining, int kinds, double[] observed,
            double[] predicted) {
        Objects.requireNonNull(remaining, "remaining");
        Objects.requireNonNull(observed, "observed");
        Objects.requireNonNull(predicted, "predicted");
        requireNonNegative(kinds, "kinds");
        FairschedException.check(NativeDrr.reprovision(remaining, kinds,
                apart(observed, remaining), apart(predicted, remaining)));
    }

    /**
     * Reprovisioning's trigger (§III-C) for a batch of executors: executor {@code i} is due when
     * its current stage has run {@code elapsed[i]} (finite, not negative) and that is longer
     * than {@code rho} times the stage's expected execution time {@code expected[i]} (finite,
     * positive, in the same unit): {@code elapsed[i] > rho · expected[i]}, strictly. The
     * paper's {@code rho} is {@link #RHO}; any finite {@code rho} of at least 1 is accepted.
     * Writes whether each is due into {@code due}. One native call, no allocation.
     *
     * @return how many are due
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code expected} or {@code
     *     due} is not one per executor; {@link Status#NOT_FINITE} for a NaN or infinite {@code
     *     rho} or time; {@link Status#OUT_OF_RANGE} for {@code rho} below 1; {@link
     *     Status#NEGATIVE} for a negative time; {@link Status#NOT_POSITIVE} for an expected time
     *     of 0
     */
    public static int reprovisionDue(double[] elapsed, double[] expected, double rho,
            boolean[] due) {
        Objects.requireNonNull(elapsed, "elapsed");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(due, "due");
        return FairschedException.count(NativeDrr.reprovisionDue(elapsed, expected, rho, due));
    }

    /** {@code read}, or a copy of it when it is {@code written}, which the call writes. */
    private static double[] apart(double[] read, double[] written) {
        return read == written ? read.clone() : read;
    }
}

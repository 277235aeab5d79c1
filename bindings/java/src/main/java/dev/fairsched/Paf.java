package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;
import static dev.fairsched.Arguments.requireU32;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Performance-Aware Fair allocation (Chen, Wang, Li): slots move from jobs that barely slow down
 * to jobs that speed up most, starting from weighted max-min fair shares, while every job keeps
 * at least {@code alpha} of the progress its fair share gives it (Algorithm 1).
 *
 * <p>A job is a weight (at least 1) and a progress curve {@code p(0..=d)}: {@code p(0) = 0},
 * finite, never decreasing; its length minus one is the job's demand. A {@code Paf} is only the
 * native scratch space for up to {@code capacity} jobs per call; the static helpers (Ernest's
 * model, curve checks) need none.
 *
 * <p><b>Numbers.</b> Weights, slots, targets and running counts are C {@code uint32_t}s; arrays
 * carry them as non-negative {@code int}s, scalars as {@code long}s in {@code [0, 2^32)}. A value
 * outside that range throws {@link IllegalArgumentException} before any native call.
 *
 * <p><b>Errors, memory, threads.</b> As for {@link Cfq}: a rejected call throws {@link
 * FairschedException} and writes nothing; {@link #close()} frees the native memory (a {@link
 * Cleaner} is the backstop); not thread-safe.
 */
public final class Paf extends NativeObject {
    /** {@link #allocate}'s {@code method}: Algorithm 1 one slot at a time, the reference. */
    public static final int LITERAL = NativePaf.LITERAL;
    /** {@link #allocate}'s {@code method}: the fast algorithm, with the same result. */
    public static final int FAST = NativePaf.FAST;

    /**
     * A workspace for calls of up to {@code capacity} jobs.
     *
     * @throws IllegalArgumentException if {@code capacity} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#NOT_POSITIVE} for 0; {@link
     *     Status#CAPACITY_TOO_LARGE} for {@code 2^32 - 1}
     * @throws OutOfMemoryError if the native storage cannot be allocated
     */
    public Paf(long capacity) {
        super(NativePaf.TOTALS_SIZE,
                out -> NativePaf.open(requireU32(capacity, "capacity"), out));
    }

    /**
     * Algorithm 1 for jobs with {@code weights[j]} and {@code curves[j]} sharing {@code slots}
     * slots with fairness knob {@code alpha} in [0, 1], in one native call. A job whose curve is
     * {@link #noCurve} keeps its fair share. The curves are laid end to end first (a {@link
     * PafJobs}); to allocate many times over the same jobs without that copy, build a {@code
     * PafJobs} once and call {@link #allocate(PafJobs, long, double, int)}.
     *
     * @param method {@link #LITERAL} or {@link #FAST}
     * @throws IllegalArgumentException for a negative weight, {@code slots} beyond {@code
     *     uint32_t}, or curves of more than {@code 2^31 - 1} points
     * @throws FairschedException {@link Status#NOT_POSITIVE} (a weight of 0, no slot), {@link
     *     Status#OUT_OF_RANGE} or {@link Status#NOT_FINITE} ({@code alpha}, an unknown method, a
     *     curve value), {@link Status#EMPTY}, {@link Status#NEGATIVE}, {@link
     *     Status#NOT_MONOTONE} (a curve), {@link Status#CAPACITY_FULL} (too many jobs), {@link
     *     Status#LENGTH_MISMATCH} (weights and curves)
     */
    public PafAllocation allocate(int[] weights, double[][] curves, long slots, double alpha,
            int method) {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(curves, "curves");
        requireNonNegative(weights, "weights");
        requireU32(slots, "slots");
        return allocate(PafJobs.once(weights, curves), slots, alpha, method);
    }

    /**
     * Algorithm 1 for {@code jobs}, laid out once, as {@link #allocate(int[], double[][], long,
     * double, int)} for their weights and curves: the same result and errors, without copying
     * or checking a curve again; only the result is allocated.
     *
     * @throws NullPointerException if {@code jobs} is null
     * @throws IllegalStateException if {@code jobs} are closed
     * @throws IllegalArgumentException for {@code slots} beyond {@code uint32_t}
     * @throws FairschedException as {@link #allocate(int[], double[][], long, double, int)},
     *     but {@link Status#LENGTH_MISMATCH}, which {@link PafJobs} reports when built
     */
    public PafAllocation allocate(PafJobs jobs, long slots, double alpha, int method) {
        Objects.requireNonNull(jobs, "jobs");
        requireU32(slots, "slots");
        int n = jobs.size();
        int[] fair = new int[n];
        int[] min = new int[n];
        int[] paf = new int[n];
        double[] fairProgress = new double[n];
        double[] pafProgress = new double[n];
        ByteBuffer totals = struct();
        if (jobs.laid == null) {
            check(NativePaf.allocate(handle(), jobs.weights, jobs.offsets, jobs.points, slots,
                    alpha, method, fair, min, paf, fairProgress, pafProgress, totals));
        } else {
            try {
                check(NativePaf.allocateJobs(handle(), jobs.laid.handle(), slots, alpha, method,
                        fair, min, paf, fairProgress, pafProgress, totals));
            } finally {
                Reference.reachabilityFence(jobs);
            }
        }
        return new PafAllocation(fair, min, paf, fairProgress, pafProgress,
                totals.getLong(NativePaf.TOTALS_SLOTS), totals.getLong(NativePaf.TOTALS_MOVED),
                totals.getDouble(NativePaf.TOTALS_FAIR_PROGRESS),
                totals.getDouble(NativePaf.TOTALS_PAF_PROGRESS),
                totals.getDouble(NativePaf.TOTALS_LARGEST_LOSS));
    }

    /**
     * Which jobs get {@code out.length} free slots (§IV-B): each to a job below its target, the
     * one holding the fewest slots per unit of weight (smallest {@code running[j] /
     * weights[j]}, as Spark's fair scheduler; ties to the lower index). Writes one job index
     * per slot into {@code out} and returns how many, fewer when every job reaches its target.
     * One native call, no allocation.
     *
     * @throws IllegalArgumentException for a negative count or weight
     * @throws FairschedException {@link Status#CAPACITY_FULL} for too many jobs; {@link
     *     Status#LENGTH_MISMATCH} if {@code weights}, {@code targets} and {@code running} differ
     *     in length; {@link Status#NOT_POSITIVE} for a weight of 0
     */
    public int enforce(int[] weights, int[] targets, int[] running, int[] out) {
        requireNonNegative(weights, "weights");
        requireNonNegative(targets, "targets");
        requireNonNegative(running, "running");
        Objects.requireNonNull(out, "out");
        return count(NativePaf.enforce(handle(), weights, targets, running, out));
    }

    /**
     * The curve of a job of {@code demand} slots whose progress curve is unknown: {@code demand
     * + 1} NaNs. In {@link #allocate} such a job keeps exactly its fair share and takes no part
     * in transfers (PAF paper, INFOCOM 2018, §IV-A); its progress is NaN.
     *
     * @throws IllegalArgumentException for a negative demand or one of {@code 2^31 - 1}
     */
    public static double[] noCurve(int demand) {
        if (demand < 0 || demand == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("demand: " + demand);
        }
        double[] curve = new double[demand + 1];
        Arrays.fill(curve, Double.NaN);
        return curve;
    }

    /**
     * Fits Ernest's model {@code t(x) = a0 + a1 x + a2 / x + a3 ln x} (every {@code a_i >= 0})
     * to samples ({@code slots[i]} slots, normalized run time {@code runtimes[i]}) by
     * non-negative least squares; returns {@code {a0, a1, a2, a3}}.
     *
     * @throws IllegalArgumentException for a negative slot count
     * @throws FairschedException {@link Status#UNDERDETERMINED} when the samples cannot
     *     determine the model; {@link Status#LENGTH_MISMATCH} if {@code slots} and {@code
     *     runtimes} differ in length; {@link Status#EMPTY}, {@link Status#NOT_POSITIVE}, {@link
     *     Status#NOT_FINITE}, {@link Status#OUT_OF_RANGE} for bad samples
     */
    public static double[] ernestFit(int[] slots, double[] runtimes) {
        requireNonNegative(slots, "slots");
        Objects.requireNonNull(runtimes, "runtimes");
        double[] coefficients = new double[4];
        FairschedException.check(NativePaf.ernestFit(slots, runtimes, coefficients));
        return coefficients;
    }

    /**
     * Writes the progress curve {@code p(0..out.length)} of an Ernest model into {@code out} (a
     * job of demand {@code out.length - 1}), never falling: past the shortest run time it stays
     * flat.
     *
     * @throws IllegalArgumentException unless there are 4 coefficients
     * @throws FairschedException {@link Status#EMPTY} for an empty {@code out}; {@link
     *     Status#NEGATIVE}, {@link Status#NOT_FINITE}, {@link Status#NOT_POSITIVE}, {@link
     *     Status#OUT_OF_RANGE} for the coefficients
     */
    public static void ernestTabulate(double[] coefficients, double[] out) {
        if (coefficients.length != 4) {
            throw new IllegalArgumentException("4 coefficients, got " + coefficients.length);
        }
        FairschedException.check(NativePaf.ernestTabulate(coefficients, out));
    }

    /**
     * Checks a curve as {@link #allocate} does ({@code fairsched_paf_curve_check}) and returns
     * the smallest {@code k} such that it is concave on {@code k..=d} (0: concave everywhere).
     *
     * @throws FairschedException as {@link #allocate} for a curve
     */
    public static int curveCheck(double[] curve) {
        return FairschedException.count(
                NativePaf.curveCheck(Objects.requireNonNull(curve, "curve")));
    }

    /**
     * The upper concave envelope of a curve: the remedy for non-concave curves.
     *
     * @throws FairschedException as {@link #allocate} for a curve
     */
    public static double[] concaveEnvelope(double[] curve) {
        double[] envelope = new double[curve.length];
        FairschedException.check(NativePaf.concaveEnvelope(curve, envelope));
        return envelope;
    }

    /**
     * Builds a job's progress curve from its observed task durations (PAF paper, INFOCOM 2018,
     * §II-A, §II-B, §V-B): the job alone on {@code x} slots, its tasks started in order on the
     * slot that frees first, a slot's first task cold (its duration), its later ones warm
     * (duration / {@code warmup}, the JVM warm-up factor, at least 1). Writes {@code p(0..=d)}
     * into {@code out} ({@code d + 1} values for {@code d} tasks): {@code p(0) = 0}, {@code p(x)}
     * the running maximum of the shortest JCT over the JCT on {@code x} slots, 1 from the fewest
     * slots giving the shortest JCT on; returns that shortest JCT. One native call.
     *
     * @throws FairschedException {@link Status#EMPTY} for no task; {@link Status#NOT_FINITE} or
     *     {@link Status#NEGATIVE} for a duration, {@link Status#OUT_OF_RANGE} for durations
     *     summing beyond {@code Double.MAX_VALUE}; {@link Status#NOT_FINITE} or {@link
     *     Status#OUT_OF_RANGE} (below 1) for {@code warmup}; {@link Status#LENGTH_MISMATCH}
     *     unless {@code out.length} is {@code durations.length + 1}; {@link
     *     Status#NOT_POSITIVE} when the job would take no time (every duration 0). Nothing is
     *     written then.
     */
    public static double curveFromTasks(double[] durations, double warmup, double[] out) {
        Objects.requireNonNull(durations, "durations");
        Objects.requireNonNull(out, "out");
        double[] shortest = new double[1];
        FairschedException.check(NativePaf.curveFromTasks(durations, warmup,
                new double[durations.length], out, shortest));
        return shortest[0];
    }
}

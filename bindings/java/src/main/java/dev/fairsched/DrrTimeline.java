package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;
import static dev.fairsched.Arguments.requireU32;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One machine over time, as Elasecutor's scheduler keeps it (Liu, Xu: <i>Elasecutor: Elastic
 * Executor Scheduling in Data Analytics Systems</i>, IEEE/ACM Transactions on Networking, 2021,
 * §III-B and §III-C): the executors running on it, each holding its predicted demand series from
 * the step it started, and what that leaves, the available series {@code AR} over a horizon of
 * {@code H} steps from now. What a scheduler otherwise keeps beside {@link Drr#minFrag}: time
 * moves on by steps ({@link #advance}: an executor whose series has ended has finished as
 * predicted and is let go), executors are placed ({@link #place}, or by MinFrag in one call,
 * {@link #heartbeat}), released when they finish early ({@link #release}: the rest of their
 * series comes back), and reprovisioned ({@link #reprovision}: §III-C's scaling of the
 * remaining series). Nothing is ever over-committed: a demand that does not fit is refused with
 * {@link Status#DOES_NOT_FIT}. {@code AR} is exact: after any sequence of calls it is, bit for
 * bit, the capacity minus every running executor's demand, subtracted in the order they were
 * placed.
 *
 * <p><b>Series.</b> Time-major and flat as in {@link Drr}: the amount of kind {@code r} at step
 * {@code t} is {@code series[t * kinds + r]}, over the machine's kinds (1 to 8), for 1 to
 * {@code H} steps ({@code H} at most 256).
 *
 * <p><b>Numbers.</b> Executors get ids 1, 2, 3, ... in the order they are placed, C {@code
 * uint64_t}s carried bit for bit by {@code long}, as are the steps {@link #advance} moves and the
 * clock. Capacities and the horizon are C {@code uint32_t}s taken as {@code long}s: a value
 * outside {@code [0, 2^32)} is rejected with {@link IllegalArgumentException}, as is a negative
 * step count or count of copies.
 *
 * <p><b>Errors, memory, threads.</b> As for {@link Cfq}: a rejected call throws {@link
 * FairschedException} (each method lists its statuses) and changes nothing; {@link #close()}
 * frees the native memory (a {@link Cleaner} is the backstop); not thread-safe.
 */
public final class DrrTimeline extends NativeObject {
    /** The length of the available series: H · kinds. */
    private final int seriesLength;

    /**
     * What one {@link #heartbeat} did.
     *
     * @param placed the executors placed: their pending indices are {@code placements[0..placed)},
     *     in order (an index repeats for an application's copies)
     * @param firstId the id of the first one placed; the k-th placed (from 0) has id {@code
     *     firstId + k}
     * @param tRun the machine's {@code t_run} afterwards
     * @param drr {@code θ(j)} afterwards
     */
    public record Heartbeat(int placed, long firstId, long tRun, double drr) {}

    /**
     * The timeline as a whole (C: {@code fairsched_drr_timeline_stats}).
     *
     * @param now the current step
     * @param nextId the id the next executor placed gets
     * @param running the executors running
     * @param capacity the executors the storage holds
     * @param horizon {@code H}, the steps of the available series
     * @param tRun the steps until the first running executor's series ends ({@code H} with none)
     * @param kinds the resource kinds
     * @param drr {@code θ(j)}, the machine's dominant remaining resource until {@code t_run}
     * @param trc its total remaining capacity until {@code t_run}
     */
    public record Stats(long now, long nextId, long running, long capacity, long horizon,
            long tRun, long kinds, double drr, double trc) {}

    /**
     * The timeline of a machine of capacity {@code machine} (one amount per kind, 1 to 8 kinds,
     * each positive and at most {@code Double.MAX_VALUE / 256}) over a horizon of {@code horizon}
     * steps (1 to 256), at step 0 with nothing running, for up to {@code capacity} executors
     * running at once.
     *
     * @throws IllegalArgumentException if {@code capacity} or {@code horizon} is not a {@code
     *     uint32_t}
     * @throws FairschedException {@link Status#NOT_POSITIVE} for a capacity of 0 or an amount
     *     not above zero; {@link Status#CAPACITY_TOO_LARGE} for {@code 2^32 - 1}; {@link
     *     Status#EMPTY} for no kind or a horizon of 0; {@link Status#CAPACITY_FULL} for more than
     *     8 kinds or 256 steps; {@link Status#NOT_FINITE} or {@link Status#OUT_OF_RANGE} for an
     *     amount
     * @throws OutOfMemoryError if the native storage cannot be allocated
     */
    public DrrTimeline(long capacity, double[] machine, long horizon) {
        super(NativeDrrTimeline.STRUCT_SIZE, out -> NativeDrrTimeline.open(
                requireU32(capacity, "capacity"), Objects.requireNonNull(machine, "machine"),
                requireU32(horizon, "horizon"), out));
        seriesLength = (int) horizon * machine.length;
    }

    /**
     * Moves time {@code steps} steps on (a {@code uint64_t}; 0 changes nothing): the available
     * series slides, and every executor whose series has ended by then is let go.
     *
     * @return how many executors were let go, finished as predicted
     * @throws FairschedException {@link Status#OUT_OF_RANGE} if the clock would pass {@code
     *     2^64 - 257}
     */
    public long advance(long steps) {
        long[] finished = new long[1];
        check(NativeDrrTimeline.advance(handle(), steps, finished));
        return finished[0];
    }

    /**
     * Places one executor now, reserving {@code demand}, its series from the current step.
     *
     * @return its id
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} for a series not of whole steps
     *     of the machine's kinds; {@link Status#EMPTY} for no step; {@link Status#OUT_OF_RANGE}
     *     for more steps than the horizon; {@link Status#CAPACITY_FULL} for more than 256 steps
     *     or when the timeline runs its capacity of executors; {@link Status#NOT_FINITE} or
     *     {@link Status#NEGATIVE} for an amount; {@link Status#DOES_NOT_FIT} when some step
     *     needs more of a kind than is available
     */
    public long place(double[] demand) {
        Objects.requireNonNull(demand, "demand");
        long[] id = new long[1];
        check(NativeDrrTimeline.place(handle(), demand, id));
        return id[0];
    }

    /**
     * Releases executor {@code id} before its series ends (it finished early, or was stopped):
     * the rest of its series becomes available again.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID} for an id not running (never placed,
     *     released, or let go when its series ended)
     */
    public void release(long id) {
        check(NativeDrrTimeline.release(handle(), id));
    }

    /**
     * Reprovisions executor {@code id} (§III-C): its series from the current step on is scaled by
     * {@code observed[r] / predicted[r]} for each kind {@code r}, the usage observed over one
     * monitoring period against the usage predicted for it (a kind predicted at zero is left as
     * it is), as {@link Drr#reprovision} scales a series.
     *
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code observed} or {@code
     *     predicted} is not of the machine's kinds; {@link Status#NOT_FINITE} or {@link
     *     Status#NEGATIVE} for an amount; {@link Status#UNKNOWN_ID} for an id not running;
     *     {@link Status#OUT_OF_RANGE} if a scaled amount would overflow; {@link
     *     Status#DOES_NOT_FIT} if the scaled series needs more than the machine has at some step
     */
    public void reprovision(long id, double[] observed, double[] predicted) {
        Objects.requireNonNull(observed, "observed");
        Objects.requireNonNull(predicted, "predicted");
        check(NativeDrrTimeline.reprovision(handle(), id, observed, predicted));
    }

    /**
     * One MinFrag heartbeat (Elasecutor's Algorithm 1) of this machine over the pending
     * executors, executor {@code i} running {@code steps[i]} steps with its series back to back
     * in {@code demands} and standing for {@code counts[i]} identical executors (an
     * application's; 1 for one executor, 0 for none): among those that fit, places the one with
     * the best score under {@code metric} (for {@link Drr.Metric#DRR} the smallest {@code θ(i,
     * j)}; ties to the lower index), and repeats until none fits, {@code placements} is full, or
     * the timeline runs its capacity of executors. Writes the placed executors' indices, in
     * order, to the front of {@code placements}. One native call.
     *
     * @throws IllegalArgumentException for a negative step count or count of copies
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code counts} is not one per
     *     executor, or {@code demands} not their series back to back over the machine's kinds;
     *     {@link Status#OUT_OF_RANGE} for an executor longer than the horizon; as {@link
     *     Drr#minFrag} for the executors
     */
    public Heartbeat heartbeat(double[] demands, int[] steps, int[] counts, Drr.Metric metric,
            int[] placements) {
        Objects.requireNonNull(metric, "metric");
        return heartbeat(demands, steps, counts, metric.code(), placements);
    }

    /** {@link #heartbeat(double[], int[], int[], Drr.Metric, int[])} for any metric code. */
    Heartbeat heartbeat(double[] demands, int[] steps, int[] counts, int metric,
            int[] placements) {
        Objects.requireNonNull(demands, "demands");
        Objects.requireNonNull(placements, "placements");
        requireNonNegative(Objects.requireNonNull(steps, "steps"), "steps");
        requireNonNegative(Objects.requireNonNull(counts, "counts"), "counts");
        // The library writes the placements while it reads the rest.
        int[] readSteps = steps == placements ? steps.clone() : steps;
        int[] readCounts = counts == placements ? counts.clone() : counts;
        check(NativeDrrTimeline.heartbeat(
                handle(), demands, readSteps, readCounts, metric, placements, struct()));
        return heartbeatResult();
    }

    /**
     * {@link #heartbeat(double[], int[], int[], Drr.Metric, int[])} over executors laid out
     * once: the same heartbeat, their series neither pinned nor checked again (only against the
     * machine: its kinds and its horizon); {@code counts} holds one count per executor.
     *
     * @throws IllegalArgumentException for a negative count of copies
     * @throws IllegalStateException if {@code pending} or this timeline is closed
     * @throws FairschedException as {@link #heartbeat(double[], int[], int[], Drr.Metric,
     *     int[])} for valid executors
     */
    public Heartbeat heartbeat(DrrExecutors pending, int[] counts, Drr.Metric metric,
            int[] placements) {
        Objects.requireNonNull(metric, "metric");
        return heartbeat(pending, counts, metric.code(), placements);
    }

    /** {@link #heartbeat(DrrExecutors, int[], Drr.Metric, int[])} for any metric code. */
    Heartbeat heartbeat(DrrExecutors pending, int[] counts, int metric, int[] placements) {
        Objects.requireNonNull(pending, "pending");
        Objects.requireNonNull(placements, "placements");
        requireNonNegative(Objects.requireNonNull(counts, "counts"), "counts");
        // The library writes the placements while it reads the counts.
        int[] readCounts = counts == placements ? counts.clone() : counts;
        try {
            check(NativeDrrTimeline.heartbeatExecutors(
                    handle(), pending.handle(), readCounts, metric, placements, struct()));
        } finally {
            Reference.reachabilityFence(pending);
        }
        return heartbeatResult();
    }

    /** The heartbeat the library wrote into the buffer. */
    private Heartbeat heartbeatResult() {
        ByteBuffer beat = struct();
        return new Heartbeat((int) beat.getLong(NativeDrrTimeline.HEARTBEAT_PLACED),
                beat.getLong(NativeDrrTimeline.HEARTBEAT_FIRST_ID),
                Integer.toUnsignedLong(beat.getInt(NativeDrrTimeline.HEARTBEAT_T_RUN)),
                beat.getDouble(NativeDrrTimeline.HEARTBEAT_DRR));
    }

    /** The timeline as a whole. */
    public Stats stats() {
        ByteBuffer stats = struct();
        check(NativeDrrTimeline.stats(handle(), stats));
        return new Stats(
                stats.getLong(NativeDrrTimeline.STATS_NOW),
                stats.getLong(NativeDrrTimeline.STATS_NEXT_ID),
                Integer.toUnsignedLong(stats.getInt(NativeDrrTimeline.STATS_RUNNING)),
                Integer.toUnsignedLong(stats.getInt(NativeDrrTimeline.STATS_CAPACITY)),
                Integer.toUnsignedLong(stats.getInt(NativeDrrTimeline.STATS_HORIZON)),
                Integer.toUnsignedLong(stats.getInt(NativeDrrTimeline.STATS_T_RUN)),
                Integer.toUnsignedLong(stats.getInt(NativeDrrTimeline.STATS_KINDS)),
                stats.getDouble(NativeDrrTimeline.STATS_DRR),
                stats.getDouble(NativeDrrTimeline.STATS_TRC));
    }

    /** The available series {@code AR} from the current step: H steps of the machine's kinds. */
    public double[] available() {
        double[] out = new double[seriesLength];
        check(NativeDrrTimeline.available(handle(), out));
        return out;
    }
}

package dev.fairsched;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The CFQ paper's naive profiler (§V-B): it observes the run time of every task that finishes,
 * and estimates a new job's slot-time as its number of tasks times the mean of every duration
 * observed, for {@link Cfq#arrive} or, once the job's own tasks have run, {@link
 * Cfq#reprofile}.
 *
 * <pre>{@code
 * CfqProfiler profiler = new CfqProfiler();
 * profiler.observe(new double[] {3.0, 5.0, 4.0});   // three tasks finished
 * cfq.arrive(now, jobId, profiler.estimate(10), 1); // 10 tasks: 40.0 of slot-time
 * }</pre>
 *
 * <p>The mean is exact to the last bit, however many durations are observed: the library keeps
 * the count and a sum in two doubles (see {@code fairsched_cfq_profiler} in the header). The
 * state is that C structure, 24 bytes in a direct buffer this object owns: there is nothing to
 * close. Every call crosses into the library once; observe durations in batches ({@link
 * #observe(double[])}) where they come in batches.
 *
 * <p><b>Errors.</b> A call the library rejects throws {@link FairschedException} carrying the
 * {@link Status}, and changes nothing.
 *
 * <p><b>Threads.</b> Not thread-safe: use a profiler from one thread at a time.
 */
public final class CfqProfiler {
    /** The {@code fairsched_cfq_profiler}, 8-byte aligned, in native byte order. */
    private final ByteBuffer state = ByteBuffer.allocateDirect(
                    NativeCfq.PROFILER_SIZE + Long.BYTES - 1)
            .alignedSlice(Long.BYTES)
            .order(ByteOrder.nativeOrder());

    /** A profiler that has observed nothing. */
    public CfqProfiler() {
        FairschedException.check(NativeCfq.profilerInit(state));
    }

    /**
     * Observes one finished task that ran {@code duration} (the unit of slot-times).
     *
     * @throws FairschedException {@link Status#NOT_FINITE} for NaN or an infinity; {@link
     *     Status#NEGATIVE} below zero; {@link Status#OUT_OF_RANGE} above 2^60 (the largest
     *     slot-time), or past {@code 2^64 - 1} durations in all
     */
    public void observe(double duration) {
        FairschedException.check(NativeCfq.profilerObserve(state, duration));
    }

    /**
     * Observes every one of {@code durations}, in one native call and all or nothing.
     *
     * @throws NullPointerException if {@code durations} is null
     * @throws FairschedException as {@link #observe(double)}, for the first invalid duration
     */
    public void observe(double[] durations) {
        Objects.requireNonNull(durations, "durations");
        FairschedException.check(NativeCfq.profilerObserveBatch(state, durations));
    }

    /**
     * The slot-time of a new job of {@code tasks} tasks: {@code tasks} times the mean duration
     * observed. {@code tasks} is a C {@code uint64_t} carried bit for bit, as ids are: a
     * negative {@code long} is a count above {@code 2^63}.
     *
     * @throws FairschedException {@link Status#NOT_POSITIVE} for 0 tasks; {@link Status#EMPTY}
     *     before the first observation; {@link Status#NOT_POSITIVE} (every duration was 0) or
     *     {@link Status#OUT_OF_RANGE} (above 2^60) for an estimate {@link Cfq#arrive} would
     *     refuse
     */
    public double estimate(long tasks) {
        double[] out = new double[1];
        FairschedException.check(NativeCfq.profilerEstimate(state, tasks, out));
        return out[0];
    }

    /** The number of durations observed, a C {@code uint64_t} carried bit for bit. */
    public long count() {
        return state.getLong(NativeCfq.PROFILER_COUNT);
    }

    /** A copy of the whole state, for tests to check that a failed call changed nothing. */
    ByteBuffer snapshot() {
        ByteBuffer copy = ByteBuffer.allocate(NativeCfq.PROFILER_SIZE);
        copy.put(state.duplicate().limit(NativeCfq.PROFILER_SIZE));
        return copy.flip();
    }
}

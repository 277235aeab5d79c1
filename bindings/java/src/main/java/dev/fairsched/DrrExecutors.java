package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;

import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Pending executors laid out once for any number of MinFrag heartbeats ({@link
 * Drr#minFrag(double[], double[], long, DrrExecutors, Drr.Metric, int[])}, {@link
 * DrrTimeline#heartbeat(DrrExecutors, int[], Drr.Metric, int[])}): executor {@code i} running
 * {@code steps[i]} steps with its demand series back to back in {@code demands}, over {@code
 * kinds} kinds, as {@link Drr#minFrag(double[], double[], long, double[], int[], Drr.Metric,
 * int[])} takes them.
 *
 * <p>The library copies the series into native memory and checks them there once, so that a
 * heartbeat neither pins nor checks them again (that was a fifth of a heartbeat's instructions
 * for 100 executors of 16 to 64 steps); later changes to the arrays it was built from do not
 * reach it. {@link #close} frees the native memory (or the garbage collector does, once it is
 * unreachable); a heartbeat over closed executors throws {@link IllegalStateException}. Not
 * thread-safe.
 */
public final class DrrExecutors extends NativeObject {
    private final int size;

    /**
     * Lays out {@code steps.length} executors over {@code kinds} kinds.
     *
     * @throws IllegalArgumentException for a negative step count or {@code kinds}
     * @throws FairschedException as {@link Drr#minFrag(double[], double[], long, double[],
     *     int[], Drr.Metric, int[])} for the same executors on a machine of {@code kinds}
     *     kinds: {@link Status#EMPTY} for no kind or a step count of 0; {@link
     *     Status#CAPACITY_FULL} for more than 8 kinds, 256 steps or 4096 executors; {@link
     *     Status#LENGTH_MISMATCH} if {@code demands} is not their series back to back; {@link
     *     Status#NOT_FINITE} or {@link Status#NEGATIVE} for an amount
     * @throws OutOfMemoryError if the native memory cannot be allocated
     */
    public DrrExecutors(double[] demands, int[] steps, int kinds) {
        super(0, open(demands, steps, kinds));
        size = steps.length;
    }

    /** The open native for the arguments, checked first. */
    private static ToIntFunction<long[]> open(double[] demands, int[] steps, int kinds) {
        Objects.requireNonNull(demands, "demands");
        requireNonNegative(Objects.requireNonNull(steps, "steps"), "steps");
        requireNonNegative(kinds, "kinds");
        return out -> NativeDrr.openExecutors(demands, steps, kinds, out);
    }

    /** The number of executors. */
    public int size() {
        return size;
    }
}

package dev.fairsched;

import java.util.Objects;

/**
 * Weighted DRF (Dominant Resource Fairness, Ghodsi et al.) in closed form, as the QKnobler paper
 * models it: users share a capacity of several resource kinds, every task of a user needs the
 * same demand vector, and a user's <i>dominant share</i> is the largest share of any kind its
 * tasks hold. DRF equalizes dominant shares divided by weights. For whole tasks started and
 * finished over time, see {@link DrfQueue}; for fairness traded for efficiency, {@link
 * QKnobler}.
 *
 * <p><b>Arrays.</b> {@code capacity} holds one amount per resource kind (1 to 8 kinds, each
 * finite and positive, in any unit); {@code weights} one weight per user (finite, positive);
 * {@code demands} every user's per-task demand, row after row: user {@code i}'s is {@code
 * demands[i * kinds .. (i + 1) * kinds)}, each amount finite and not negative, not all zero.
 * A weight, and the dominant share of the capacity one task takes, lie within [2^-60, 2^60]
 * ({@link Status#OUT_OF_RANGE} otherwise). The arrays are read in place, never copied.
 */
public final class Drf {
    private Drf() {}

    /**
     * The divisible DRF allocation.
     *
     * @param tasks {@code N_i^max}: every user's tasks, fractional
     * @param shares {@code s_i^max = w_i / φ}: every user's dominant share
     * @param phi {@code φ}: one unit of weighted dominant share costs {@code φ} of the busiest
     *     resource
     */
    public record Divisible(double[] tasks, double[] shares, double phi) {}

    /**
     * Divisible weighted DRF of the users (see the class documentation for the arrays): with
     * divisible tasks and unlimited demand, every user gets {@code N_i^max = w_i / (φ δ_i)}
     * tasks, where {@code δ_i} is the dominant share of one of its tasks.
     *
     * @throws FairschedException {@link Status#EMPTY} with no kind or no user; {@link
     *     Status#CAPACITY_FULL} with more than 8 kinds; {@link Status#LENGTH_MISMATCH} if {@code
     *     demands} is not one row per user; {@link Status#NOT_FINITE}, {@link
     *     Status#NOT_POSITIVE} or {@link Status#NEGATIVE} for a number
     */
    public static Divisible divisible(double[] capacity, double[] weights, double[] demands) {
        requireArrays(capacity, weights, demands);
        double[] tasks = new double[weights.length];
        double[] shares = new double[weights.length];
        double[] phi = new double[1];
        FairschedException.check(
                NativeDrf.divisible(capacity, weights, demands, tasks, shares, phi));
        return new Divisible(tasks, shares, phi[0]);
    }

    /** Rejects null users' arrays, which the native side cannot take. */
    static void requireArrays(double[] capacity, double[] weights, double[] demands) {
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(demands, "demands");
    }
}

package dev.fairsched;

/**
 * One {@link Paf#allocate} result: per job, in the order given, and in total.
 *
 * @param fair fair shares (weighted max-min, whole slots)
 * @param min minimum allocations: the fewest slots keeping {@code alpha} of the fair progress
 * @param paf PAF allocations
 * @param fairProgress progress at the fair shares
 * @param pafProgress progress at the PAF allocations
 * @param slots slots allocated, the same under both
 * @param moved slots moved from givers to takers
 * @param totalFairProgress total progress at the fair shares
 * @param totalPafProgress total progress under PAF (never below the fair total)
 * @param largestLoss the largest relative loss of a job, {@code 1 - p(paf) / p(fair)}
 */
public record PafAllocation(
        int[] fair,
        int[] min,
        int[] paf,
        double[] fairProgress,
        double[] pafProgress,
        long slots,
        long moved,
        double totalFairProgress,
        double totalPafProgress,
        double largestLoss) {}

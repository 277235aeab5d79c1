package dev.fairsched;

import static dev.fairsched.NativeDrf.SUMMARY_EFFICIENCY;
import static dev.fairsched.NativeDrf.SUMMARY_KINDS;
import static dev.fairsched.NativeDrf.SUMMARY_LENGTH;
import static dev.fairsched.NativeDrf.SUMMARY_PHI;
import static dev.fairsched.NativeDrf.SUMMARY_RESIDUAL;
import static dev.fairsched.NativeDrf.SUMMARY_RHO;
import static dev.fairsched.NativeDrf.SUMMARY_SHARING_INCENTIVE_RHO;
import static dev.fairsched.NativeDrf.SUMMARY_THETA;

import java.util.Arrays;

/**
 * QKnobler (Tang, Yu, Li): DRF's fairness traded for efficiency with a knob {@code ρ} in
 * {@code [0, 1]}, with a guaranteed bound on the unfairness. {@code ρ = 1} is DRF exactly,
 * {@code ρ = 0} pure efficiency.
 *
 * <p>{@link #allocate} is the two-stage allocation over users given as for {@link Drf}: every
 * user first gets {@code ρ} of its DRF tasks (the fairness-oriented stage), then what is left
 * goes where it is worth most (the efficiency-oriented stage, a linear program). The online
 * form, the paper's Algorithm 1 on one machine at a time, is {@link DrfQueue#qknoblerRound}.
 */
public final class QKnobler {
    private QKnobler() {}

    /**
     * QKnobler's allocation, one entry per user in each array.
     *
     * @param fair {@code N̄_i = ρ N_i^max}: the tasks of the fairness-oriented stage
     * @param efficient {@code N'_i}: the tasks of the efficiency-oriented stage
     * @param whole the tasks of both stages rounded down to whole tasks, never exceeding any
     *     capacity (u64s carried bit for bit)
     * @param summary what was decided besides
     */
    public record Allocation(double[] fair, double[] efficient, long[] whole, Summary summary) {}

    /**
     * What {@link #allocate} decided besides the per-user tasks.
     *
     * @param rho the knob
     * @param phi DRF's {@code φ} (see {@link Drf.Divisible})
     * @param theta Theorem 1's bound on {@code |s_i/w_i - s_j/w_j|}
     * @param sharingIncentiveRho Theorem 2: the smallest knob with sharing incentive, {@code φ /
     *     Σw}
     * @param efficiency {@code ε(U)}, eq. 7: every user's tasks times their normalized size,
     *     summed
     * @param residual {@code r'}: what the fairness stage leaves, one amount per kind
     */
    public record Summary(
            double rho,
            double phi,
            double theta,
            double sharingIncentiveRho,
            double efficiency,
            double[] residual) {}

    /**
     * How a {@link DrfQueue#qknoblerRound} went.
     *
     * @param started the tasks started, whose users' ids were written
     * @param fairness how many of them the fairness-oriented branch chose; the rest came from
     *     efficiency
     */
    public record Round(int started, int fairness) {}

    /**
     * QKnobler's allocation of the users (arrays as for {@link Drf}) at knob {@code rho}.
     *
     * @throws FairschedException {@link Status#NOT_FINITE} or {@link Status#OUT_OF_RANGE} for
     *     {@code rho}; otherwise as {@link Drf#divisible}
     */
    public static Allocation allocate(
            double[] capacity, double[] weights, double[] demands, double rho) {
        Drf.requireArrays(capacity, weights, demands);
        double[] fair = new double[weights.length];
        double[] efficient = new double[weights.length];
        long[] whole = new long[weights.length];
        double[] summary = new double[SUMMARY_LENGTH];
        FairschedException.check(NativeDrf.qknoblerAllocate(
                capacity, weights, demands, rho, fair, efficient, whole, summary));
        int kinds = (int) summary[SUMMARY_KINDS];
        return new Allocation(fair, efficient, whole, new Summary(
                summary[SUMMARY_RHO],
                summary[SUMMARY_PHI],
                summary[SUMMARY_THETA],
                summary[SUMMARY_SHARING_INCENTIVE_RHO],
                summary[SUMMARY_EFFICIENCY],
                Arrays.copyOfRange(summary, SUMMARY_RESIDUAL, SUMMARY_RESIDUAL + kinds)));
    }
}

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
import java.util.Objects;
import java.util.Optional;

/**
 * QKnobler (Tang, Yu, Li): DRF's fairness traded for efficiency with a knob {@code ρ} in
 * {@code [0, 1]}, with a guaranteed bound on the unfairness. {@code ρ = 1} is DRF exactly,
 * {@code ρ = 0} pure efficiency.
 *
 * <p>{@link #allocate} is the two-stage allocation over users given as for {@link Drf}: every
 * user first gets {@code ρ} of its DRF tasks (the fairness-oriented stage), then what is left
 * goes where it is worth most (the efficiency-oriented stage, a linear program). The online
 * form, the paper's Algorithm 1 on one machine at a time, is {@link DrfQueue#qknoblerRound}.
 *
 * <p>For users whose tasks differ in demand (map and reduce tasks, §6.1 C2), the caller keeps
 * the state (the paper's QueueInfo Tracker) and calls three stateless pieces: {@link
 * #averageDemand} for each user's current average task demand, {@link Drf#divisible} over those
 * averages for every {@code s_i^max} (the MDRS updater), and {@link #choose} for each task.
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

    /**
     * {@link #averageDemand}'s estimate of one user's current average task demand.
     *
     * @param average one amount per kind
     * @param counted the pending tasks counted First-Fit into the idle resources
     */
    public record Average(double[] average, long counted) {}

    /**
     * The paper's fitness-based estimate (§6.1 C2) of a user's current average task demand: over
     * its running tasks and the pending tasks that fit the cluster's idle resources, counted
     * First-Fit in queue order (a task that fits what is still idle is counted and takes its
     * demand from it; one that does not is skipped). With nothing running and nothing fitting,
     * the average is the first pending task's demand ({@code counted} 0).
     *
     * @param idle the cluster's idle resources, one amount per kind (1 to 8)
     * @param runningSum the demands of the user's running tasks summed, one amount per kind (all
     *     zero exactly when {@code running} is 0)
     * @param running how many tasks the user runs (a u64, carried bit for bit)
     * @param pending the demands of its pending tasks in queue order, row-major
     * @throws FairschedException {@link Status#EMPTY} for a user with no task at all, {@link
     *     Status#OUT_OF_RANGE} for a sum that cannot come from {@code running} tasks or an
     *     average that overflows, {@link Status#LENGTH_MISMATCH} for vectors of other kinds, or
     *     the statuses of an invalid amount
     */
    public static Average averageDemand(
            double[] idle, double[] runningSum, long running, double[] pending) {
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(runningSum, "runningSum");
        Objects.requireNonNull(pending, "pending");
        double[] average = new double[idle.length];
        long[] counted = new long[1];
        FairschedException.check(NativeDrf.qknoblerAverageDemand(
                idle, runningSum, running, pending, average, counted));
        return new Average(average, counted[0]);
    }

    /**
     * {@link #choose}'s decision.
     *
     * @param user the user's index in the arrays given
     * @param fairness true when the fairness-oriented branch chose it, false for efficiency
     */
    public record Choice(int user, boolean fairness) {}

    /**
     * Algorithm 1's decision for one task on one machine with heterogeneous tasks: among the
     * active users whose next task fits {@code idle}, the one with the lowest {@code s_i / w_i},
     * {@code s_i = max_k U_ik / cluster_k} (ties: lower index), gets it when {@code s_i < ρ
     * s_i^max} (always at {@code rho = 1}); otherwise the fitting task with the highest affinity
     * to {@code idle} does (ties: lower index). User {@code i} is at index {@code i} of each
     * per-user array; vectors are row-major with one amount per kind of {@code cluster}.
     *
     * @param rho the knob, finite in [0, 1]
     * @param cluster the cluster's capacity
     * @param machine the machine's capacity
     * @param idle what the machine has idle, at most its capacity
     * @param weights {@code w_i}
     * @param allocated {@code U_i}: the resources of each user's running tasks
     * @param maxShares {@code s_i^max}, e.g. {@link Drf#divisible}'s shares over the users'
     *     average demands
     * @param next the demand of each user's next pending task
     * @return the decision, or empty when no task fits
     * @throws FairschedException for invalid input (see the C header's {@code
     *     fairsched_qknobler_choose})
     */
    public static Optional<Choice> choose(double rho, double[] cluster, double[] machine,
            double[] idle, double[] weights, double[] allocated, double[] maxShares,
            double[] next) {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(allocated, "allocated");
        Objects.requireNonNull(maxShares, "maxShares");
        Objects.requireNonNull(next, "next");
        long[] out = new long[2];
        int found = FairschedException.count(NativeDrf.qknoblerChoose(
                rho, cluster, machine, idle, weights, allocated, maxShares, next, out));
        return found == 0
                ? Optional.empty()
                : Optional.of(new Choice((int) out[0], out[1] != 0));
    }
}

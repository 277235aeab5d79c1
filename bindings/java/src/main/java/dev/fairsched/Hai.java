package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;
import static dev.fairsched.Arguments.requireU32;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * ReB's allocation of cores to a batch of jobs (Hu, Li, Guo), from each job's predicted job
 * completion time (JCT) at every allocation: the shortest-job-optimal start, then HAI's
 * transfers of cores from the jobs whose JCT rises least to those whose JCT falls most, while
 * that lowers the total JCT.
 *
 * <p>A {@link Batch} describes the jobs: {@code totalCores} cores in steps of {@code theta},
 * each job's cap and its JCT table. Each call writes one allocation (cores) and one predicted
 * JCT per job into arrays the caller provides, in one native call, and returns a {@link
 * Summary}. {@link #rebalance} reads the current allocation from the same array: call it when a
 * job arrives (add it with 0 cores) or leaves (drop it from the arrays). An {@code Hai} is only
 * the native scratch space for batches of up to {@code capacity} jobs.
 *
 * <p><b>Numbers.</b> Capacity, total cores and theta are C {@code uint32_t}s, taken as {@code
 * long}s: a value outside {@code [0, 2^32)} is rejected with {@link IllegalArgumentException}.
 * Caps and allocations are {@code int}s, so at most {@link Integer#MAX_VALUE} cores; a negative
 * one is rejected the same way.
 *
 * <p><b>Errors, memory, threads.</b> As for {@link Cfq}: a rejected call throws {@link
 * FairschedException} (each method lists its statuses) and writes nothing; {@link #close()}
 * frees the native memory (a {@link Cleaner} is the backstop); not thread-safe.
 */
public final class Hai extends NativeObject {
    /**
     * A workspace for batches of up to {@code capacity} jobs (60 bytes a job).
     *
     * @throws IllegalArgumentException if {@code capacity} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#NOT_POSITIVE} for 0; {@link
     *     Status#CAPACITY_TOO_LARGE} for {@code 2^32 - 1}
     * @throws OutOfMemoryError if the native storage cannot be allocated
     */
    public Hai(long capacity) {
        super(NativeHai.SUMMARY_SIZE,
                out -> NativeHai.open(requireU32(capacity, "capacity"), out));
    }

    /**
     * The shortest-job-optimal allocation alone (ReB Algorithm 1): by increasing least JCT,
     * each job gets the smallest allocation reaching it while cores last; the first that does
     * not fit gets the rest, rounded down to a multiple of theta; the later ones nothing.
     * Writes each job's cores into {@code cores} and predicted JCT into {@code jct}.
     *
     * @throws FairschedException as {@link #allocate}
     */
    public Summary shortestJobOptimal(Batch batch, int[] cores, double[] jct) {
        return call(NativeHai.SHORTEST_JOB_OPTIMAL, batch, cores, jct);
    }

    /**
     * ReB's allocation: the shortest-job-optimal start, then the HAI transfers (Algorithms 1
     * and 2). Writes each job's cores into {@code cores} and predicted JCT into {@code jct},
     * one per job each.
     *
     * @throws NullPointerException if an array is null
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} for an output not of one value
     *     per job, or tables not of {@code cap / theta + 1} values each; {@link
     *     Status#NOT_POSITIVE} for a theta, cap or JCT of zero (or less), or fewer cores than
     *     theta; {@link Status#CAPACITY_FULL} for more jobs than the capacity; {@link
     *     Status#OUT_OF_RANGE} for a cap not a multiple of theta or a JCT above 2^60; {@link
     *     Status#NOT_FINITE} for a NaN or infinite JCT (but an infinite one at 0 cores)
     */
    public Summary allocate(Batch batch, int[] cores, double[] jct) {
        return call(NativeHai.ALLOCATE, batch, cores, jct);
    }

    /**
     * Rebalances in place from the allocation in {@code cores}: every job keeps what it holds;
     * the free cores go to the jobs below their optimum, shortest first; then the jobs that
     * held no cores and still lack take cores from the others while that lowers the total JCT.
     * Cores never move between two jobs that held some. From no allocation at all this is
     * {@link #allocate}.
     *
     * @throws IllegalArgumentException if an allocation is negative
     * @throws FairschedException as {@link #allocate}, and {@link Status#OUT_OF_RANGE} for an
     *     allocation above its job's cap or not a multiple of theta, or allocations adding up to
     *     more than the total cores
     */
    public Summary rebalance(Batch batch, int[] cores, double[] jct) {
        requireNonNegative(Objects.requireNonNull(cores, "cores"), "cores");
        return call(NativeHai.REBALANCE, batch, cores, jct);
    }

    private Summary call(int method, Batch batch, int[] cores, double[] jct) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(cores, "cores");
        Objects.requireNonNull(jct, "jct");
        ByteBuffer summary = struct();
        check(NativeHai.allocate(handle(), method, batch.totalCores(), batch.theta(),
                batch.caps(), batch.jct(), cores, jct, summary));
        return new Summary(summary.getDouble(NativeHai.SUMMARY_JCT_SUM_START),
                summary.getDouble(NativeHai.SUMMARY_JCT_SUM),
                Integer.toUnsignedLong(summary.getInt(NativeHai.SUMMARY_TRANSFERS)));
    }

    /**
     * A batch of jobs sharing {@code totalCores} cores in steps of {@code theta}. {@code
     * caps[j]} is job j's cap in cores, a positive multiple of theta. {@code jct} holds the JCT
     * tables concatenated in job order: job j's is {@code caps[j] / theta + 1} values, its JCT
     * at 0, theta, 2 theta, ..., {@code caps[j]} cores; the first may be {@link
     * Double#POSITIVE_INFINITY} (the job waits without cores). The arrays are used as they are
     * at each call, not copied.
     */
    public record Batch(long totalCores, long theta, int[] caps, double[] jct) {
        /**
         * Checks what Java can: the numbers' ranges and the arrays' presence.
         *
         * @throws IllegalArgumentException if {@code totalCores} or {@code theta} is not a
         *     {@code uint32_t}, or a cap is negative
         * @throws NullPointerException if an array is null
         */
        public Batch {
            requireU32(totalCores, "totalCores");
            requireU32(theta, "theta");
            requireNonNegative(Objects.requireNonNull(caps, "caps"), "caps");
            Objects.requireNonNull(jct, "jct");
        }
    }

    /**
     * What a call did besides writing the allocation: the total JCT before the first transfer
     * (after the shortest-job-optimal start, or for a rebalance after the free cores were
     * handed out; infinite while a job waits), the total JCT of the allocation written, and the
     * number of transfers of theta cores.
     */
    public record Summary(double jctSumStart, double jctSum, long transfers) {}
}

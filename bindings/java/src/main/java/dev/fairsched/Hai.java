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
 * the native scratch space for batches of up to {@code capacity} jobs. The static {@link
 * #tableFromDifferences} and {@link #tableFromSamples} build a job's JCT table from
 * predictions and need none.
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

    /**
     * Writes a job's JCT table from one known JCT and ReB's predicted differences (§3.3,
     * §4.3) into {@code table}: JCT at 0, theta, ..., cap cores, with cap = {@code
     * (table.length - 1) * theta}. {@code jctAtReference} is the JCT on {@code reference}
     * cores; {@code differences[i]} is {@code JCT((i + 1) theta) - JCT((i + 2) theta)}, how
     * much the JCT falls when the job gets theta more cores (negative past its optimum), {@code
     * table.length - 2} of them. The table is summed outward from the reference; {@code
     * table[0]} is infinite (the job waits).
     *
     * @throws IllegalArgumentException if {@code theta} or {@code reference} is not a {@code
     *     uint32_t}
     * @throws NullPointerException if an array is null
     * @throws FairschedException {@link Status#NOT_POSITIVE} for a theta of 0, a table of
     *     fewer than 2 values, or a JCT of 0 or less; {@link Status#LENGTH_MISMATCH} for
     *     differences not of {@code table.length - 2} values; {@link Status#OUT_OF_RANGE} for a
     *     cap above {@code 2^32 - 1}, a reference of 0, not a multiple of theta or above the
     *     cap, or a JCT above 2^60; {@link Status#NOT_FINITE} for a NaN or infinite JCT or
     *     difference
     */
    public static void tableFromDifferences(long theta, long reference, double jctAtReference,
            double[] differences, double[] table) {
        requireU32(theta, "theta");
        requireU32(reference, "reference");
        Objects.requireNonNull(differences, "differences");
        Objects.requireNonNull(table, "table");
        FairschedException.check(NativeHai.tableFromDifferences(theta, reference,
                jctAtReference, differences, table));
    }

    /**
     * Fits Ernest's model {@code JCT(a) = a0 + a1 a + a2 / a + a3 ln a} (every {@code a_i >=
     * 0}) to measured runs ({@code jct[i]} seconds on {@code cores[i]} cores; at least four) by
     * non-negative least squares, writes its table into {@code table} (JCT at 0, theta, ...,
     * cap cores, cap = {@code (table.length - 1) * theta}, infinite at 0) and returns {@code
     * {a0, a1, a2, a3}}.
     *
     * @throws IllegalArgumentException if {@code theta} is not a {@code uint32_t} or a core
     *     count is negative
     * @throws NullPointerException if an array is null
     * @throws FairschedException {@link Status#NOT_POSITIVE} for a theta of 0, a table of
     *     fewer than 2 values, or a run on 0 cores or of 0 seconds or less; {@link
     *     Status#OUT_OF_RANGE} for a cap above {@code 2^32 - 1}, or a JCT above 2^60; then as
     *     {@link Paf#ernestFit} for the runs ({@link Status#UNDERDETERMINED} when they cannot
     *     determine the model)
     */
    public static double[] tableFromSamples(long theta, int[] cores, double[] jct,
            double[] table) {
        requireU32(theta, "theta");
        requireNonNegative(Objects.requireNonNull(cores, "cores"), "cores");
        Objects.requireNonNull(jct, "jct");
        Objects.requireNonNull(table, "table");
        double[] coefficients = new double[4];
        FairschedException.check(NativeHai.tableFromSamples(theta, cores, jct, table,
                coefficients));
        return coefficients;
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

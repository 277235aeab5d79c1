package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;
import static dev.fairsched.Arguments.requireSameLength;

import java.util.Objects;

/**
 * Jobs laid out once for {@link Paf#allocate(PafJobs, long, double, int)}: the weights, and the
 * curves end to end with where each starts, as the native library takes them. A scheduler that
 * allocates many times over the same jobs builds them once, so that no call copies or allocates
 * a curve; {@link Paf#allocate(int[], double[][], long, double, int)} builds them for every
 * call.
 *
 * <p>Immutable: the library copies the jobs into native memory and checks each curve there once,
 * with where its concave tail starts, so that an allocation neither copies nor checks a curve
 * again (that was a third of an allocation's instructions for 200 jobs); later changes to the
 * arrays it was built from do not reach it, and it may be shared between threads and
 * workspaces. {@link #close} frees the native memory (or the garbage collector does, once it is
 * unreachable); an allocation over closed jobs throws {@link IllegalStateException}. Jobs the
 * library refuses stay in Java memory instead, and every allocation over them throws the error
 * {@link Paf#allocate(int[], double[][], long, double, int)} documents for them.
 */
public final class PafJobs implements AutoCloseable {
    private final int size;
    /** The jobs in native memory; null for jobs the library refuses, and for {@link #once}. */
    final Laid laid;
    /**
     * Jobs not laid out natively only (null otherwise): the weights, and the curves end to end
     * with where each starts.
     */
    final int[] weights;
    final int[] offsets;
    final double[] points;

    /**
     * Lays out jobs with {@code weights[j]} and {@code curves[j]}; a job whose curve is {@link
     * Paf#noCurve} keeps its fair share.
     *
     * @throws NullPointerException if {@code weights}, {@code curves} or a curve is null
     * @throws IllegalArgumentException for a negative weight, or curves of more than {@code
     *     2^31 - 1} points
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code weights} and {@code
     *     curves} differ in length
     * @throws OutOfMemoryError if the native memory cannot be allocated
     */
    public PafJobs(int[] weights, double[][] curves) {
        this(weights, curves, true);
    }

    /**
     * The jobs of one {@link Paf#allocate(int[], double[][], long, double, int)}: laid out in
     * Java memory only, which that one call reads as it is.
     */
    static PafJobs once(int[] weights, double[][] curves) {
        return new PafJobs(weights, curves, false);
    }

    private PafJobs(int[] weights, double[][] curves, boolean layOut) {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(curves, "curves");
        requireNonNegative(weights, "weights");
        requireSameLength(weights.length, curves.length);
        int n = weights.length;
        int[] offsets = new int[n + 1];
        long total = 0;
        for (int j = 0; j < n; j++) {
            total += Objects.requireNonNull(curves[j], "curves[" + j + "]").length;
            if (total > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("the curves hold more than 2^31 - 1 points");
            }
            offsets[j + 1] = (int) total;
        }
        double[] points = new double[(int) total];
        for (int j = 0; j < n; j++) {
            System.arraycopy(curves[j], 0, points, offsets[j], curves[j].length);
        }
        size = n;
        laid = layOut ? Laid.of(weights, offsets, points) : null;
        this.weights = laid == null ? weights.clone() : null;
        this.offsets = laid == null ? offsets : null;
        this.points = laid == null ? points : null;
    }

    /** Frees the native memory; allocations over the jobs then throw. Idempotent. */
    @Override
    public void close() {
        if (laid != null) {
            laid.close();
        }
    }

    /** The jobs laid out in native memory ({@code fairsched_paf_jobs_init}). */
    static final class Laid extends NativeObject {
        private Laid(int[] weights, int[] offsets, double[] points) {
            super(0, out -> NativePaf.openJobs(weights, offsets, points, out));
        }

        /** The jobs laid out, or null when the library refuses them. */
        static Laid of(int[] weights, int[] offsets, double[] points) {
            try {
                return new Laid(weights, offsets, points);
            } catch (FairschedException refused) {
                return null;
            }
        }
    }

    /** The number of jobs. */
    public int size() {
        return size;
    }
}

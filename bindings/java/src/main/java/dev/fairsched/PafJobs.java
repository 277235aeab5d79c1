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
 * <p>Immutable: it holds copies, so later changes to the arrays it was built from do not reach
 * it, and it may be shared between threads and workspaces. It is plain Java memory (nothing to
 * close). The library checks the curves at every allocation, with the errors {@link
 * Paf#allocate(int[], double[][], long, double, int)} documents.
 */
public final class PafJobs {
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
     */
    public PafJobs(int[] weights, double[][] curves) {
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
        this.weights = weights.clone();
        this.offsets = offsets;
        this.points = points;
    }

    /** The number of jobs. */
    public int size() {
        return weights.length;
    }
}

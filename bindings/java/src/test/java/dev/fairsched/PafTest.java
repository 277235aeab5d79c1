package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The PAF paper's examples through the binding, and its error paths. */
class PafTest {
    private static double[] prefix(double... increments) {
        double[] p = new double[increments.length + 1];
        for (int i = 0; i < increments.length; i++) {
            p[i + 1] = p[i] + increments[i];
        }
        return p;
    }

    private static final double[] FLAT = prefix(0.25, 0.25, 0.125, 0.125, 0.0625, 0.0625,
            0.03125, 0.03125, 0.015625, 0.015625, 0.0078125, 0.0078125);
    private static final double[] STEEP = prefix(0.125, 0.125, 0.125, 0.125, 0.125, 0.125,
            0.09375, 0.09375, 0.0625, 0.0625, 0.03125, 0.03125);

    /** Fig. 6: two jobs start at 6 slots each and end at 4 and 8, with both methods. */
    @Test
    void figure6TwoJobs() {
        try (Paf paf = new Paf(2)) {
            for (int method : new int[] {Paf.LITERAL, Paf.FAST}) {
                PafAllocation a = paf.allocate(new int[] {1, 1}, new double[][] {FLAT, STEEP},
                        12, 0.8, method);
                assertArrayEquals(new int[] {6, 6}, a.fair());
                assertArrayEquals(new int[] {4, 8}, a.paf());
                assertEquals(2, a.moved());
                assertEquals(0.875 + 0.75, a.totalFairProgress());
                assertEquals(0.75 + 0.9375, a.totalPafProgress());
            }
            int[] given = new int[3];
            assertEquals(2, paf.enforce(new int[] {1, 1}, new int[] {4, 8}, new int[] {4, 6}, given));
            assertArrayEquals(new int[] {1, 1, 0}, given);
        }
    }

    /** §IV-A: a job without a curve keeps its fair share and takes no part in transfers. */
    @Test
    void jobWithoutCurveKeepsItsFairShare() {
        double[] elastic = {0, 0.5, 0.75, 0.875, 0.9375, 0.96875, 0.984375, 0.9921875, 0.99609375};
        double[] linear = {0, 0.1875, 0.375, 0.5625, 0.75, 0.9375, 1.125, 1.3125, 1.5};
        try (Paf paf = new Paf(3)) {
            PafAllocation a = paf.allocate(new int[] {1, 1, 2},
                    new double[][] {elastic, Paf.noCurve(8), linear}, 12, 0.5, Paf.FAST);
            assertArrayEquals(new int[] {3, 3, 6}, a.fair());
            assertArrayEquals(new int[] {1, 3, 3}, a.min());
            assertArrayEquals(new int[] {2, 3, 7}, a.paf());
            assertEquals(Double.NaN, a.fairProgress()[1]);
            assertEquals(Double.NaN, a.pafProgress()[1]);
            assertEquals(2.0, a.totalFairProgress());
            assertEquals(2.0625, a.totalPafProgress());
        }
        assertEquals(1, Paf.noCurve(0).length);
    }

    /**
     * Jobs laid out once allocate as the arrays do, call after call, and keep their own copy
     * of the weights and curves.
     */
    @Test
    void jobsLaidOutOnce() {
        int[] weights = {1, 1, 2};
        double[][] curves = {FLAT, Paf.noCurve(3), STEEP.clone()};
        PafJobs jobs = new PafJobs(weights, curves);
        assertEquals(3, jobs.size());
        try (Paf paf = new Paf(3)) {
            for (int method : new int[] {Paf.LITERAL, Paf.FAST}) {
                PafAllocation want = paf.allocate(weights, curves, 20, 0.8, method);
                for (int call = 0; call < 2; call++) {
                    assertSameAllocation(want, paf.allocate(jobs, 20, 0.8, method));
                }
            }
            PafAllocation want = paf.allocate(jobs, 20, 0.8, Paf.FAST);
            weights[0] = 7;
            curves[2][4] = 0;
            assertSameAllocation(want, paf.allocate(jobs, 20, 0.8, Paf.FAST));
            PafAllocation none = paf.allocate(new PafJobs(new int[0], new double[0][]), 20, 0.8,
                    Paf.FAST);
            assertEquals(0, none.paf().length);
            assertEquals(0, none.slots());
        }
    }

    /**
     * Jobs laid out natively are freed by close (twice is allowed), after which an allocation
     * over them throws; jobs the library refuses report their error at every allocation, before
     * and after close.
     */
    @Test
    void jobsClose() {
        try (Paf paf = new Paf(2)) {
            PafJobs jobs = new PafJobs(new int[] {1, 1}, new double[][] {FLAT, STEEP});
            assertEquals(2, paf.allocate(jobs, 12, 0.9, Paf.FAST).paf().length);
            jobs.close();
            jobs.close();
            assertThrows(IllegalStateException.class, () -> paf.allocate(jobs, 12, 0.9, Paf.FAST));
            PafJobs refused = new PafJobs(new int[] {0}, new double[][] {FLAT});
            rejects(Status.NOT_POSITIVE, () -> paf.allocate(refused, 12, 0.9, Paf.FAST));
            refused.close();
            rejects(Status.NOT_POSITIVE, () -> paf.allocate(refused, 12, 0.9, Paf.FAST));
        }
    }

    /** Two allocations with the same values, bit for bit. */
    private static void assertSameAllocation(PafAllocation want, PafAllocation got) {
        assertArrayEquals(want.fair(), got.fair());
        assertArrayEquals(want.min(), got.min());
        assertArrayEquals(want.paf(), got.paf());
        assertArrayEquals(want.fairProgress(), got.fairProgress());
        assertArrayEquals(want.pafProgress(), got.pafProgress());
        assertEquals(want.slots(), got.slots());
        assertEquals(want.moved(), got.moved());
        assertEquals(want.totalFairProgress(), got.totalFairProgress());
        assertEquals(want.totalPafProgress(), got.totalPafProgress());
        assertEquals(want.largestLoss(), got.largestLoss());
    }

    /**
     * Invalid jobs are rejected: by {@code PafJobs} when the arrays disagree, by the
     * allocation otherwise.
     */
    @Test
    void jobsErrors() {
        rejects(Status.LENGTH_MISMATCH,
                () -> new PafJobs(new int[] {1}, new double[][] {FLAT, STEEP}));
        assertThrows(IllegalArgumentException.class,
                () -> new PafJobs(new int[] {-1}, new double[][] {FLAT}));
        assertThrows(NullPointerException.class, () -> new PafJobs(null, new double[][] {FLAT}));
        assertThrows(NullPointerException.class, () -> new PafJobs(new int[] {1}, null));
        assertThrows(NullPointerException.class,
                () -> new PafJobs(new int[] {1}, new double[][] {null}));
        Paf paf = new Paf(2);
        Object[][] cases = {
            {Status.NOT_MONOTONE, new int[] {1}, new double[][] {{0, 1, 0.5}}},
            {Status.EMPTY, new int[] {1}, new double[][] {{}}},
            {Status.NOT_POSITIVE, new int[] {0}, new double[][] {FLAT}},
            {Status.NOT_FINITE, new int[] {1}, new double[][] {{0, Double.NaN}}},
            {Status.CAPACITY_FULL, new int[] {1, 1, 1}, new double[][] {FLAT, FLAT, FLAT}},
        };
        for (Object[] c : cases) {
            PafJobs jobs = new PafJobs((int[]) c[1], (double[][]) c[2]);
            rejects((Status) c[0], () -> paf.allocate(jobs, 12, 0.9, Paf.FAST));
        }
        PafJobs jobs = new PafJobs(new int[] {1, 1}, new double[][] {FLAT, STEEP});
        rejects(Status.NOT_POSITIVE, () -> paf.allocate(jobs, 0, 0.9, Paf.FAST));
        rejects(Status.OUT_OF_RANGE, () -> paf.allocate(jobs, 12, 0.9, 7));
        assertThrows(IllegalArgumentException.class,
                () -> paf.allocate(jobs, 1L << 32, 0.9, Paf.FAST));
        assertThrows(NullPointerException.class,
                () -> paf.allocate((PafJobs) null, 12, 0.9, Paf.FAST));
        paf.close();
        assertThrows(IllegalStateException.class, () -> paf.allocate(jobs, 12, 0.9, Paf.FAST));
    }

    /** §V-A: weights 12:3:1 on 128 slots with demands of 128 give 96, 24, 8. */
    @Test
    void testbedFairShares() {
        double[] linear = new double[129];
        Arrays.setAll(linear, x -> x / 128.0);
        try (Paf paf = new Paf(3)) {
            PafAllocation a = paf.allocate(new int[] {12, 3, 1},
                    new double[][] {linear, linear, linear}, 128, 0.9, Paf.FAST);
            assertArrayEquals(new int[] {96, 24, 8}, a.fair());
        }
    }

    @Test
    void ernestAndCurves() {
        int[] slots = {1, 2, 4, 8, 16};
        double[] runtimes = Arrays.stream(slots).mapToDouble(x -> 0.25 + 1.0 / x).toArray();
        double[] a = Paf.ernestFit(slots, runtimes);
        assertEquals(0.25, a[0], 1e-9);
        assertEquals(1.0, a[2], 1e-9);
        double[] curve = new double[9];
        Paf.ernestTabulate(a, curve);
        assertEquals(0, Paf.curveCheck(curve));
        assertEquals(1, Paf.curveCheck(new double[] {0, 0.125, 0.5, 0.75, 0.875}));
        double[] envelope = Paf.concaveEnvelope(new double[] {0, 0.125, 0.25, 0.875, 1});
        assertEquals(0.875, envelope[3]);
        assertTrue(envelope[1] > 0.125);
    }

    /**
     * A job's curve from its task durations: 4, 2, 6 and 2 s, warm tasks taking half (delta
     * 2). JCT 9 on 1 slot (4 + 1 + 3 + 1), 5 on 2, 6 on 3 and 4: fastest on 2 slots.
     */
    @Test
    void curveFromTasks() {
        double[] curve = new double[5];
        assertEquals(5.0, Paf.curveFromTasks(new double[] {4, 2, 6, 2}, 2.0, curve));
        assertArrayEquals(new double[] {0, 5.0 / 9, 1, 1, 1}, curve);
        assertEquals(0, Paf.curveCheck(curve));
    }

    /** Every invalid input is rejected with its status, and the curve is left as it was. */
    @Test
    void curveFromTasksErrors() {
        double[] tasks = {4, 2, 6, 2};
        Object[][] cases = {
            {Status.EMPTY, new double[0], 2.0, 1},
            {Status.NOT_FINITE, new double[] {1, Double.NaN}, 2.0, 3},
            {Status.NEGATIVE, new double[] {1, -0.5}, 2.0, 3},
            {Status.OUT_OF_RANGE, new double[] {Double.MAX_VALUE, Double.MAX_VALUE}, 2.0, 3},
            {Status.OUT_OF_RANGE, tasks, 0.5, 5},
            {Status.NOT_FINITE, tasks, Double.POSITIVE_INFINITY, 5},
            {Status.NOT_FINITE, tasks, Double.NaN, 5},
            {Status.LENGTH_MISMATCH, tasks, 2.0, 4},
            {Status.LENGTH_MISMATCH, tasks, 2.0, 6},
            {Status.NOT_POSITIVE, new double[] {0, 0}, 2.0, 3},
        };
        for (Object[] c : cases) {
            double[] curve = new double[(int) c[3]];
            Arrays.fill(curve, -7);
            double[] before = curve.clone();
            rejects((Status) c[0], () -> Paf.curveFromTasks((double[]) c[1], (double) c[2], curve));
            assertArrayEquals(before, curve, "curve written for " + c[0]);
        }
        assertThrows(NullPointerException.class, () -> Paf.curveFromTasks(null, 2.0, new double[1]));
        assertThrows(NullPointerException.class, () -> Paf.curveFromTasks(tasks, 2.0, null));
    }

    private static void rejects(Status status, Executable call) {
        assertEquals(status, assertThrows(FairschedException.class, call).status());
    }

    @Test
    void errors() {
        Paf paf = new Paf(2);
        double[][] two = {FLAT, STEEP};
        int[] ones = {1, 1};
        rejects(Status.NOT_FINITE, () -> paf.allocate(ones, two, 12, Double.NaN, Paf.FAST));
        rejects(Status.OUT_OF_RANGE, () -> paf.allocate(ones, two, 12, 1.5, Paf.FAST));
        rejects(Status.OUT_OF_RANGE, () -> paf.allocate(ones, two, 12, 0.9, 7));
        rejects(Status.NOT_POSITIVE, () -> paf.allocate(ones, two, 0, 0.9, Paf.FAST));
        rejects(Status.NOT_POSITIVE, () -> paf.allocate(new int[] {1, 0}, two, 12, 0.9, Paf.FAST));
        rejects(Status.CAPACITY_FULL,
                () -> paf.allocate(new int[] {1, 1, 1}, new double[][] {FLAT, FLAT, FLAT}, 12, 0.9,
                        Paf.FAST));
        rejects(Status.NOT_MONOTONE,
                () -> paf.allocate(new int[] {1}, new double[][] {{0, 1, 0.5}}, 12, 0.9, Paf.FAST));
        rejects(Status.EMPTY,
                () -> paf.allocate(new int[] {1}, new double[][] {{}}, 12, 0.9, Paf.FAST));
        rejects(Status.CAPACITY_FULL,
                () -> paf.enforce(new int[] {1, 1, 1}, new int[] {1, 1, 1}, new int[] {0, 0, 0},
                        new int[2]));
        rejects(Status.UNDERDETERMINED,
                () -> Paf.ernestFit(new int[] {1, 2, 4}, new double[] {1, 0.7, 0.5}));
        rejects(Status.NEGATIVE,
                () -> Paf.ernestTabulate(new double[] {1, -1, 0, 0}, new double[3]));
        rejects(Status.NOT_MONOTONE, () -> Paf.curveCheck(new double[] {0, 1, 0.5}));
        rejects(Status.NOT_POSITIVE, () -> new Paf(0));
        rejects(Status.CAPACITY_TOO_LARGE, () -> new Paf(0xFFFF_FFFFL));
        rejects(Status.LENGTH_MISMATCH,
                () -> Paf.ernestFit(new int[] {1, 2, 4, 8, 16}, new double[] {1, 0.7, 0.5}));
        rejects(Status.EMPTY, () -> Paf.concaveEnvelope(new double[0]));
        rejects(Status.NOT_MONOTONE, () -> Paf.concaveEnvelope(new double[] {0, 1, 0.5}));
        assertThrows(IllegalArgumentException.class,
                () -> paf.allocate(new int[] {-1, 1}, two, 12, 0.9, Paf.FAST));
        assertThrows(IllegalArgumentException.class,
                () -> paf.allocate(ones, two, 1L << 32, 0.9, Paf.FAST));
        rejects(Status.LENGTH_MISMATCH,
                () -> paf.enforce(new int[] {1}, new int[] {1}, new int[] {}, new int[2]));
        rejects(Status.LENGTH_MISMATCH,
                () -> paf.enforce(new int[] {1}, new int[] {1}, new int[] {0, 0}, new int[2]));
        rejects(Status.LENGTH_MISMATCH,
                () -> paf.enforce(new int[] {1, 1}, new int[] {1}, new int[] {0}, new int[2]));
        rejects(Status.NOT_POSITIVE,
                () -> paf.enforce(new int[] {0}, new int[] {1}, new int[] {0}, new int[2]));
        rejects(Status.NOT_FINITE, () -> paf.allocate(new int[] {1},
                new double[][] {{0, Double.NaN}}, 12, 0.9, Paf.FAST));
        assertThrows(IllegalArgumentException.class, () -> Paf.noCurve(-1));
        paf.close();
        paf.close();
        assertThrows(IllegalStateException.class,
                () -> paf.allocate(ones, two, 12, 0.9, Paf.FAST));
    }
}

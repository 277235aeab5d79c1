package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The QKnobler paper's Example 1 through {@link Drf}, {@link DrfQueue} and {@link QKnobler}, as
 * bindings/c/test_drf.c checks it in C: 200 CPUs and 1000 GB shared by user A, whose tasks need
 * {@code <1 CPU, 6 GB>}, and user B, {@code <1 CPU, 2 GB>}, of equal weights.
 */
class QKnoblerExampleTest {
    private static final double[] CAPACITY = {200, 1000};
    private static final double[] WEIGHTS = {1, 1};
    private static final double[] DEMANDS = {1, 6, 1, 2};

    /** The relative tolerance for a value worked out by hand as a fraction. */
    private static final double FRACTION = 1e-12;

    /** The relative tolerance for a value the library finds by linear programming. */
    private static final double EFFICIENT = 1e-9;

    @Test
    void divisibleDrfEqualizesDominantSharesAt6Over11() {
        Drf.Divisible drf = Drf.divisible(CAPACITY, WEIGHTS, DEMANDS);
        assertClose(1000.0 / 11, drf.tasks()[0], FRACTION);
        assertClose(1200.0 / 11, drf.tasks()[1], FRACTION);
        assertClose(6.0 / 11, drf.shares()[0], FRACTION);
        assertClose(6.0 / 11, drf.shares()[1], FRACTION);
        assertClose(11.0 / 6, drf.phi(), FRACTION);
    }

    @Test
    void discreteDrfGivesWholeTasks() {
        assertEquals(Map.of(0L, 91L, 1L, 109L), discreteRound(2));
        // With a third user C, <1 CPU, 2 GB> (the paper's figure rounds 58.8/70.6/70.6).
        assertEquals(Map.of(0L, 59L, 1L, 71L, 2L, 70L), discreteRound(3));
    }

    /** Users 0, A, 1, B, and then as many like B as asked, in one round on the capacity. */
    private static Map<Long, Long> discreteRound(int users) {
        try (DrfQueue queue = new DrfQueue(8, CAPACITY)) {
            for (long user = 0; user < users; user++) {
                queue.addUser(user, 1, user == 0 ? new double[] {1, 6} : new double[] {1, 2});
                queue.setPending(user, 1000);
            }
            long[] out = new long[300];
            int started = queue.allocateRound(CAPACITY, out);
            assertEquals(200, started, "one task per CPU");
            return Arrays.stream(out, 0, started).boxed()
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        }
    }

    /**
     * One task at a time: A's tasks have dominant share 6/1000, B's 1/200 (their task shares),
     * so {@link DrfQueue#startNext}, following the lowest weighted dominant share (ties to the
     * lower id), starts A B B A B A B A B A, each time the user {@link DrfQueue#next} names,
     * moving one of its tasks from pending to running.
     */
    @Test
    void startNextFollowsTheLowestWeightedShare() {
        long a = 1;
        long b = 2;
        try (DrfQueue queue = new DrfQueue(2, CAPACITY)) {
            queue.addUser(a, 1, new double[] {1, 6});
            queue.addUser(b, 1, new double[] {1, 2});
            assertEquals(0.006, queue.user(a).taskShare());
            assertEquals(0.005, queue.user(b).taskShare());
            queue.setPending(a, 10);
            queue.setPending(b, 10);
            long[] order = new long[10];
            for (int i = 0; i < order.length; i++) {
                long next = queue.next().orElseThrow();
                DrfQueue.UserInfo before = queue.user(next);
                order[i] = queue.startNext().orElseThrow();
                assertEquals(next, order[i]);
                DrfQueue.UserInfo after = queue.user(next);
                assertEquals(before.running() + 1, after.running());
                assertEquals(before.pending() - 1, after.pending());
            }
            assertArrayEquals(new long[] {a, b, b, a, b, a, b, a, b, a}, order);
            assertEquals(5 * 0.006, queue.user(a).dominantShare());

            queue.setPending(a, 0);
            queue.setPending(b, 0);
            DrfQueue.Stats stats = queue.stats();
            DrfQueue.UserInfo userA = queue.user(a);
            assertEquals(OptionalLong.empty(), queue.startNext());
            assertEquals(stats, queue.stats());
            assertEquals(userA, queue.user(a));
        }
    }

    @Test
    void qknoblerAtZeroIsPureEfficiency() {
        QKnobler.Allocation allocation = QKnobler.allocate(CAPACITY, WEIGHTS, DEMANDS, 0);
        // A: 150 tasks (150 CPUs, 900 GB); B: 50 (50 CPUs, 100 GB).
        assertArrayEquals(new double[] {0, 0}, allocation.fair());
        assertClose(150, allocation.efficient()[0], EFFICIENT);
        assertClose(50, allocation.efficient()[1], EFFICIENT);
        assertArrayEquals(new long[] {150, 50}, allocation.whole());
        QKnobler.Summary summary = allocation.summary();
        assertEquals(0, summary.rho());
        assertClose(11.0 / 6, summary.phi(), FRACTION);
        // Theorem 2: sharing incentive from ρ = φ / Σw = 11/12 on.
        assertClose(11.0 / 12, summary.sharingIncentiveRho(), FRACTION);
        assertArrayEquals(CAPACITY, summary.residual());
    }

    @Test
    void qknoblerAtOneIsDrf() {
        QKnobler.Allocation allocation = QKnobler.allocate(CAPACITY, WEIGHTS, DEMANDS, 1);
        assertClose(1000.0 / 11, allocation.fair()[0], FRACTION);
        assertClose(1200.0 / 11, allocation.fair()[1], FRACTION);
        assertArrayEquals(new double[] {0, 0}, allocation.efficient());
        assertArrayEquals(new long[] {90, 109}, allocation.whole());
        assertEquals(0, allocation.summary().theta());
    }

    private static void assertClose(double expected, double actual, double relative) {
        assertEquals(expected, actual, relative * Math.abs(expected));
    }
}

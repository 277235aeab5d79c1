package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HAI through JNI: the paper's micro-benchmark and an arrival exactly (as tests/hai_paper.rs
 * runs them in Rust), then every rejection, by the library or the binding, writing nothing.
 */
class HaiTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    /** The PageRank job of ReB §4.2 with theta = 1: 1600 / a + a, optimum 40, waits at 0. */
    private static double[] pagerank() {
        return IntStream.rangeClosed(0, 60).mapToDouble(a -> a == 0 ? INF : 1600.0 / a + a)
                .toArray();
    }

    /** The same shape in whole numbers with theta = 10. */
    private static final double[] PAGERANK_10 = {INF, 170, 100, 84, 80, 82, 87};

    /** {@code jobs} copies of {@code table}. */
    private static Hai.Batch batch(long capacity, long theta, int jobs, double[] table) {
        int[] caps = new int[jobs];
        Arrays.fill(caps, (int) ((table.length - 1) * theta));
        double[] jct = IntStream.range(0, jobs).mapToObj(j -> DoubleStream.of(table))
                .flatMapToDouble(s -> s).toArray();
        return new Hai.Batch(capacity, theta, caps, jct);
    }

    /** ReB §4.2, Fig. 3: the start leaves one of four jobs waiting; HAI starts all four. */
    @Test
    void microBenchmark() {
        try (Hai hai = new Hai(4)) {
            Hai.Batch batch = batch(120, 1, 4, pagerank());
            int[] cores = new int[4];
            double[] jct = new double[4];

            Hai.Summary start = hai.shortestJobOptimal(batch, cores, jct);
            assertArrayEquals(new int[] {40, 40, 40, 0}, cores);
            assertArrayEquals(new double[] {80, 80, 80, INF}, jct);
            assertEquals(new Hai.Summary(INF, INF, 0), start);

            Hai.Summary all = hai.allocate(batch, cores, jct);
            double each = 1600.0 / 30 + 30;
            assertArrayEquals(new int[] {30, 30, 30, 30}, cores);
            assertArrayEquals(new double[] {each, each, each, each}, jct);
            assertEquals(new Hai.Summary(INF, each + each + each + each, 30), all);
        }
    }

    /** A fifth job arrives: it takes from jobs 0 and 1, in place; running jobs only give. */
    @Test
    void arrivalRebalancesInPlace() {
        int[] cores = {30, 30, 30, 30, 0};
        double[] jct = new double[5];
        try (Hai hai = new Hai(8)) {
            Hai.Summary summary = hai.rebalance(batch(120, 10, 5, PAGERANK_10), cores, jct);
            assertArrayEquals(new int[] {20, 20, 30, 30, 20}, cores);
            assertArrayEquals(new double[] {100, 100, 84, 84, 100}, jct);
            assertEquals(new Hai.Summary(INF, 468, 2), summary);
        }
    }

    /** Two jobs on 50 cores, θ = 10, the current allocation {20, 20}. */
    private static final Hai.Batch TWO = batch(50, 10, 2, PAGERANK_10);

    /** A call that must fail with {@code outcome}: a {@link Status} or an exception class. */
    private static Arguments rejects(String name, Object outcome, Consumer<Hai> call) {
        return arguments(name, outcome, call);
    }

    static Stream<Arguments> libraryRejections() {
        double[] nan = TWO.jct().clone();
        nan[9] = Double.NaN;
        return Stream.of(
                rejects("cores too short", Status.LENGTH_MISMATCH,
                        h -> h.allocate(TWO, new int[1], new double[2])),
                rejects("jct too long", Status.LENGTH_MISMATCH,
                        h -> h.shortestJobOptimal(TWO, new int[2], new double[3])),
                rejects("theta 0", Status.NOT_POSITIVE,
                        h -> h.allocate(new Hai.Batch(50, 0, TWO.caps(), TWO.jct()),
                                new int[2], new double[2])),
                rejects("capacity below theta", Status.NOT_POSITIVE,
                        h -> h.allocate(new Hai.Batch(9, 10, TWO.caps(), TWO.jct()),
                                new int[2], new double[2])),
                rejects("too many jobs", Status.CAPACITY_FULL,
                        h -> h.allocate(batch(50, 10, 3, PAGERANK_10), new int[3],
                                new double[3])),
                rejects("NaN JCT", Status.NOT_FINITE,
                        h -> h.allocate(new Hai.Batch(50, 10, TWO.caps(), nan), new int[2],
                                new double[2])),
                rejects("cap not a multiple of theta", Status.OUT_OF_RANGE,
                        h -> h.allocate(new Hai.Batch(50, 10, new int[] {60, 55}, TWO.jct()),
                                new int[2], new double[2])),
                rejects("allocations over capacity", Status.OUT_OF_RANGE,
                        h -> h.rebalance(TWO, new int[] {30, 30}, new double[2])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("libraryRejections")
    void libraryRejectsAndWritesNothing(String name, Status status, Consumer<Hai> call) {
        try (Hai hai = new Hai(2)) {
            FairschedException e =
                    assertThrows(FairschedException.class, () -> call.accept(hai));
            assertEquals(status, e.status(), e.getMessage());
        }
    }

    /** ReB's predicted differences rebuild the PageRank table of §4.2; a rejection writes nothing. */
    @Test
    void tableFromDifferences() {
        double[] differences = {70, 16, 4, -2, -5};
        double[] table = new double[7];
        Hai.tableFromDifferences(10, 40, 80, differences, table);
        assertArrayEquals(PAGERANK_10, table);
        double[] untouched = {-1, -1, -1, -1, -1, -1, -1};
        double[] failed = untouched.clone();
        FairschedException e = assertThrows(FairschedException.class,
                () -> Hai.tableFromDifferences(10, 45, 80, differences, failed));
        assertEquals(Status.OUT_OF_RANGE, e.status());
        assertArrayEquals(untouched, failed);
    }

    /** Ernest's model fitted to runs of 20 + a / 2 + 400 / a gives back its coefficients and table. */
    @Test
    void tableFromSamples() {
        int[] cores = {1, 2, 4, 8, 16, 32, 64};
        double[] jct = IntStream.of(cores).mapToDouble(a -> 20 + a / 2.0 + 400.0 / a).toArray();
        double[] table = new double[41];
        double[] a = Hai.tableFromSamples(2, cores, jct, table);
        assertArrayEquals(new double[] {20, 0.5, 400, 0}, a, 1e-7);
        assertEquals(INF, table[0]);
        for (int k = 1; k < table.length; k++) {
            double want = 20 + k + 400.0 / (2 * k);
            assertEquals(want, table[k], 1e-9 * want, "JCT(" + 2 * k + ")");
        }
        double[] failed = {-1, -1};
        FairschedException e = assertThrows(FairschedException.class,
                () -> Hai.tableFromSamples(1, new int[] {1, 2, 4}, new double[] {3, 2, 1}, failed));
        assertEquals(Status.UNDERDETERMINED, e.status());
        assertArrayEquals(new double[] {-1, -1}, failed);
    }

    /** The arrays of a failed call keep their contents, a rebalance's cores included. */
    @Test
    void failedCallsWriteNothing() {
        try (Hai hai = new Hai(2)) {
            int[] cores = {30, 30};
            double[] jct = {-1, -1};
            assertThrows(FairschedException.class, () -> hai.rebalance(TWO, cores, jct));
            assertArrayEquals(new int[] {30, 30}, cores);
            assertArrayEquals(new double[] {-1, -1}, jct);
            int[] out = {7, 7};
            Hai.Batch odd = new Hai.Batch(50, 10, new int[] {60, 55}, TWO.jct());
            assertThrows(FairschedException.class, () -> hai.allocate(odd, out, jct));
            assertArrayEquals(new int[] {7, 7}, out);
            assertArrayEquals(new double[] {-1, -1}, jct);
        }
    }

    /** The capacity is checked as for every object: at least 1, below 2^32 - 1. */
    @Test
    void constructorRejectsCapacities() {
        FairschedException zero = assertThrows(FairschedException.class, () -> new Hai(0));
        assertEquals(Status.NOT_POSITIVE, zero.status());
        FairschedException large =
                assertThrows(FairschedException.class, () -> new Hai(0xFFFF_FFFFL));
        assertEquals(Status.CAPACITY_TOO_LARGE, large.status());
        new Hai(1).close();
    }

    @Test
    void closingTwiceIsHarmlessAndUseAfterCloseThrows() {
        Hai hai = new Hai(2);
        hai.close();
        hai.close();
        assertThrows(IllegalStateException.class,
                () -> hai.allocate(TWO, new int[2], new double[2]));
    }

    static Stream<Arguments> bindingRejections() {
        Class<IllegalArgumentException> illegal = IllegalArgumentException.class;
        Class<NullPointerException> npe = NullPointerException.class;
        int[] caps = TWO.caps();
        double[] jct = TWO.jct();
        return Stream.of(
                rejects("new Hai(-1)", illegal, h -> new Hai(-1).close()),
                rejects("new Hai(2^32)", illegal, h -> new Hai(1L << 32).close()),
                rejects("total cores -1", illegal, h -> new Hai.Batch(-1, 1, caps, jct)),
                rejects("theta 2^32", illegal, h -> new Hai.Batch(1, 1L << 32, caps, jct)),
                rejects("negative cap", illegal,
                        h -> new Hai.Batch(50, 10, new int[] {60, -10}, jct)),
                rejects("null caps", npe, h -> new Hai.Batch(50, 10, null, jct)),
                rejects("null jct", npe, h -> new Hai.Batch(50, 10, caps, null)),
                rejects("null batch", npe, h -> h.allocate(null, new int[2], new double[2])),
                rejects("null cores", npe, h -> h.allocate(TWO, null, new double[2])),
                rejects("null jct out", npe, h -> h.rebalance(TWO, new int[2], null)),
                rejects("table theta -1", illegal,
                        h -> Hai.tableFromDifferences(-1, 10, 1, new double[0], new double[2])),
                rejects("table reference 2^32", illegal,
                        h -> Hai.tableFromDifferences(1, 1L << 32, 1, new double[0], new double[2])),
                rejects("null differences", npe,
                        h -> Hai.tableFromDifferences(1, 1, 1, null, new double[2])),
                rejects("null table", npe,
                        h -> Hai.tableFromSamples(1, new int[4], new double[4], null)),
                rejects("negative sample cores", illegal,
                        h -> Hai.tableFromSamples(1, new int[] {1, -2, 4, 8}, new double[4],
                                new double[2])),
                rejects("negative current allocation", illegal,
                        h -> h.rebalance(TWO, new int[] {-10, 0}, new double[2])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingRejections")
    void bindingRejectsBeforeTheNativeCall(
            String name, Class<? extends RuntimeException> type, Consumer<Hai> call) {
        try (Hai hai = new Hai(2)) {
            assertThrows(type, () -> call.accept(hai));
        }
    }
}

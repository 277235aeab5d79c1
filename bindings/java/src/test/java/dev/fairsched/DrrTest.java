package dev.fairsched;

import static java.lang.Double.NEGATIVE_INFINITY;
import static java.lang.Double.NaN;
import static java.lang.Double.POSITIVE_INFINITY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DRR and MinFrag through {@link Drr}, as bindings/c/test_drr.c checks them in C: exact
 * fractions on a machine of capacity {@code (4, 8)} over four steps, the Elasecutor paper's Fig.
 * 6 as reconstructed in tests/drr_paper.rs, then every call with invalid input, which must
 * throw and write nothing, in-place series included.
 */
class DrrTest {
    private static final double[] CAPACITY = {4, 8};
    private static final double[] AVAILABLE = {3, 6, 2, 5, 4, 8, 1, 2};
    private static final double[] NINE_KINDS = {1, 1, 1, 1, 1, 1, 1, 1, 1};

    @Test
    void machine() {
        // CPU (3+2+4+1)/16 = 5/8, memory (6+5+8+2)/32 = 21/32.
        assertEquals(new Drr.Remaining(21.0 / 32, 5.0 / 8 + 21.0 / 32),
                Drr.machine(CAPACITY, AVAILABLE, 4));
    }

    /** {@code demand}'s score on the machine with {@code tRun}; NaN when it does not fit. */
    private static double scoreOn(double[] demand, int tRun, Drr.Metric metric) {
        boolean[] fits = new boolean[1];
        double[] scores = new double[1];
        Drr.scoreMachines(CAPACITY, 2, AVAILABLE, new int[] {tRun}, demand, metric, fits, scores);
        return fits[0] ? scores[0] : NaN;
    }

    /** {@code t* = min(t_run, T_i)}: set by the new executor, then by a running one. */
    @Test
    void tStar() {
        // T_i = 2 < t_run = 4: CPU ((3-1)+(2-2))/8 = 1/4, memory ((6-2)+(5-1))/16 = 1/2.
        double[] first = {1, 2, 2, 1};
        assertEquals(0.5, scoreOn(first, 4, Drr.Metric.DRR));
        assertEquals(0.75, scoreOn(first, 4, Drr.Metric.TRC));
        assertEquals(9.0 / 16, scoreOn(first, 4, Drr.Metric.TETRIS));
        // t_run = 1 < T_i = 3: CPU (3-1)/4 = 1/2, memory (6-1)/8 = 5/8.
        double[] second = {1, 1, 1, 1, 1, 1};
        assertEquals(5.0 / 8, scoreOn(second, 1, Drr.Metric.DRR));
        assertEquals(16.0 / 24, scoreOn(second, 4, Drr.Metric.DRR));
    }

    /** One executor on three machines: where it does not fit, the worst score of the metric. */
    @Test
    void scoreMachines() {
        double[] capacities = {4, 8, 4, 8, 8, 8};
        double[] available = new double[24];
        System.arraycopy(AVAILABLE, 0, available, 0, 8);
        Arrays.fill(available, 16, 24, 8);
        int[] tRuns = {4, 4, 1};
        double[] demand = {1, 2, 2, 1};
        Map<Drr.Metric, double[]> expected = new LinkedHashMap<>();
        expected.put(Drr.Metric.DRR, new double[] {0.5, POSITIVE_INFINITY, 0.875});
        expected.put(Drr.Metric.TRC, new double[] {0.75, POSITIVE_INFINITY, 1.625});
        expected.put(Drr.Metric.TETRIS, new double[] {0.5625, NEGATIVE_INFINITY, 0.5});
        expected.forEach((metric, scores) -> {
            boolean[] fits = new boolean[3];
            double[] got = new double[3];
            Drr.scoreMachines(capacities, 2, available, tRuns, demand, metric, fits, got);
            assertArrayEquals(new boolean[] {true, false, true}, fits, metric.name());
            assertArrayEquals(scores, got, metric.name());
        });
    }

    /**
     * Fig. 6 reconstructed: {@code θ(1, j) = 53/112}, {@code θ(2, j) = 13/32}, so executor 2
     * goes first; then executor 1 no longer fits (no network left at step 0).
     */
    @Test
    void minFragFigure6() {
        double[] capacity = {16, 64, 10, 500};
        double[] available = new double[36];
        for (int t = 0; t < 8; t++) {
            System.arraycopy(new double[] {12, 40, 6, 300}, 0, available, 4 * t, 4);
        }
        System.arraycopy(capacity, 0, available, 32, 4);
        double[] demands = {
            5, 17, 6, 300, 5, 17, 6, 200, 5, 17, 6, 200, 4, 16, 6, 200, // executor 1
            4, 16, 5, 200, 4, 16, 5, 200, 4, 16, 5, 200,
            6, 20, 6, 300, 6, 20, 5, 300, 6, 20, 5, 300, 6, 20, 5, 300, // executor 2
            5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 4, 250, 4, 8, 2, 100,
        };
        int[] placements = {99, 99};
        Drr.Heartbeat beat = Drr.minFrag(
                capacity, available, 8, demands, new int[] {7, 9}, Drr.Metric.DRR, placements);
        assertEquals(new Drr.Heartbeat(1, 8, 13.0 / 32), beat);
        assertArrayEquals(new int[] {1, 99}, placements);
        assertArrayEquals(new double[] {0, 0}, Arrays.copyOfRange(available, 2, 4));
    }

    /** The example of the Rust documentation: the exact fit first, then nothing else fits. */
    @Test
    void minFragExactFitFirst() {
        double[] available = {2, 4, 2, 4, 4, 8, 4, 8};
        double[] demands = {2, 4, 2, 4, 1, 0, 1, 0, 1, 0, 1, 0};
        int[] placements = new int[2];
        Drr.Heartbeat beat = Drr.minFrag(
                CAPACITY, available, 2, demands, new int[] {2, 4}, Drr.Metric.DRR, placements);
        assertEquals(new Drr.Heartbeat(1, 2, 0), beat);
        assertEquals(0, placements[0]);
        assertArrayEquals(new double[] {0, 0, 0, 0, 4, 8, 4, 8}, available);
    }

    @Test
    void reprovision() {
        double[] remaining = {2, 4, 1, 3, 6, 5};
        // CPU ×3/2, memory ×1/4, a kind predicted at zero left as it is.
        Drr.reprovision(remaining, 3, new double[] {3, 1, 7}, new double[] {2, 4, 0});
        assertArrayEquals(new double[] {3, 1, 1, 4.5, 1.5, 5}, remaining);
    }

    /** An array a call writes may also be one it reads: as if they were separate copies. */
    @Test
    void writtenArraysMayBeReadOnes() {
        double[] machine = {4, 8}; // one step whose available series is the capacity
        double[] separate = machine.clone();
        double[] demands = {1, 2, 4, 8};
        int[] steps = {1, 1};
        Drr.Heartbeat want = Drr.minFrag(
                machine.clone(), separate, 1, demands, steps, Drr.Metric.DRR, new int[2]);
        Drr.Heartbeat got =
                Drr.minFrag(machine, machine, 1, demands, steps, Drr.Metric.DRR, new int[2]);
        assertEquals(want, got);
        assertArrayEquals(separate, machine);
        int[] shared = {1, 1};
        assertEquals(1, Drr.minFrag(new double[] {4, 8}, new double[] {4, 8}, 1, demands, shared,
                Drr.Metric.DRR, shared).placed());
        assertEquals(1, shared[0]);

        double[] series = {2, 1};
        Drr.reprovision(series, 2, series, new double[] {1, 2});
        assertArrayEquals(new double[] {4, 0.5}, series);
    }

    /** §III-C: due once a stage has run longer than rho times its expected time, strictly. */
    @Test
    void reprovisionDue() {
        boolean[] due = new boolean[4];
        assertEquals(1, Drr.reprovisionDue(
                new double[] {10, 10.5, 12, 0}, new double[] {10, 10, 10, 10}, Drr.RHO, due));
        assertArrayEquals(new boolean[] {false, false, true, false}, due);
        boolean[] two = new boolean[2];
        assertEquals(1, Drr.reprovisionDue(
                new double[] {3, Math.nextUp(3.0)}, new double[] {2, 2}, 1.5, two));
        assertArrayEquals(new boolean[] {false, true}, two);
    }

    static Stream<Arguments> invalidDue() {
        double[] ones = {1, 1};
        return Stream.of(
                due(Status.LENGTH_MISMATCH, ones, new double[] {1}, Drr.RHO, 2),
                due(Status.LENGTH_MISMATCH, ones, ones, Drr.RHO, 1),
                due(Status.NOT_FINITE, ones, ones, NaN, 2),
                due(Status.OUT_OF_RANGE, ones, ones, 0.99, 2),
                due(Status.NEGATIVE, new double[] {1, -1}, ones, Drr.RHO, 2),
                due(Status.NOT_FINITE, new double[] {POSITIVE_INFINITY, 1}, ones, Drr.RHO, 2),
                due(Status.NOT_POSITIVE, ones, new double[] {1, 0}, Drr.RHO, 2));
    }

    private static Arguments due(Status status, double[] elapsed, double[] expected, double rho,
            int length) {
        return arguments(status, elapsed, expected, rho, length);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidDue")
    void invalidDueWritesNothing(Status status, double[] elapsed, double[] expected, double rho,
            int length) {
        boolean[] due = new boolean[length];
        Arrays.fill(due, true);
        FairschedException e = assertThrows(FairschedException.class,
                () -> Drr.reprovisionDue(elapsed, expected, rho, due));
        assertEquals(status, e.status());
        boolean[] unwritten = new boolean[length];
        Arrays.fill(unwritten, true);
        assertArrayEquals(unwritten, due);
    }

    /** {@link Drr#RHO} is the header's {@code FAIRSCHED_DRR_RHO}. */
    @Test
    void rhoIsTheHeaders() {
        Matcher m = Pattern.compile("#define FAIRSCHED_DRR_RHO ([0-9.]+)").matcher(Header.text());
        assertTrue(m.find());
        assertEquals(Double.parseDouble(m.group(1)), Drr.RHO);
    }

    /** The metric codes are the header's {@code FAIRSCHED_DRR_METRIC_*}, name for name. */
    @Test
    void metricsMatchTheHeader() {
        Map<String, Integer> inHeader =
                Header.constants("#define FAIRSCHED_DRR_METRIC_(\\w+) (\\d+)");
        Map<String, Integer> inJava = new LinkedHashMap<>();
        for (Drr.Metric metric : Drr.Metric.values()) {
            inJava.put(metric.name(), metric.code());
        }
        assertEquals(inHeader, inJava);
    }

    // ---- Invalid input: the status, and nothing written ------------------------------------

    static Stream<Arguments> invalidMachines() {
        return Stream.of(
                machine(Status.NOT_FINITE, CAPACITY, new double[] {NaN, 1}, 1),
                machine(Status.NEGATIVE, CAPACITY, new double[] {-1, 1}, 1),
                machine(Status.OUT_OF_RANGE, CAPACITY, new double[] {5, 1}, 1),
                machine(Status.NOT_POSITIVE, new double[] {0, 8}, AVAILABLE, 4),
                machine(Status.OUT_OF_RANGE, CAPACITY, AVAILABLE, 0),
                machine(Status.OUT_OF_RANGE, CAPACITY, AVAILABLE, 5),
                machine(Status.LENGTH_MISMATCH, CAPACITY, Arrays.copyOf(AVAILABLE, 7), 3),
                machine(Status.EMPTY, new double[0], AVAILABLE, 4),
                machine(Status.EMPTY, CAPACITY, new double[0], 4),
                machine(Status.CAPACITY_FULL, NINE_KINDS, NINE_KINDS, 1),
                machine(Status.CAPACITY_FULL, new double[] {1}, new double[257], 1));
    }

    private static Arguments machine(
            Status status, double[] capacity, double[] available, long tRun) {
        return arguments(status, capacity, available, tRun);
    }

    @ParameterizedTest
    @MethodSource("invalidMachines")
    void machineRejects(Status status, double[] capacity, double[] available, long tRun) {
        rejects(status, () -> Drr.machine(capacity, available, tRun));
    }

    static Stream<Arguments> invalidHeartbeats() {
        double[] ones = new double[12];
        Arrays.fill(ones, 1);
        int[] many = new int[4097];
        Arrays.fill(many, 1);
        return Stream.of(
                heartbeat(Status.NOT_FINITE, new double[] {1, NaN}, new int[] {1}, 0, 4),
                heartbeat(Status.NOT_FINITE, new double[] {POSITIVE_INFINITY, 1}, new int[] {1}, 0,
                        4),
                heartbeat(Status.NEGATIVE, new double[] {1, -1}, new int[] {1}, 0, 4),
                heartbeat(Status.OUT_OF_RANGE, Arrays.copyOf(ones, 10), new int[] {5}, 0, 4),
                heartbeat(Status.EMPTY, new double[0], new int[] {0}, 0, 4),
                heartbeat(Status.LENGTH_MISMATCH, Arrays.copyOf(ones, 3), new int[] {1, 1}, 0, 4),
                heartbeat(Status.LENGTH_MISMATCH, Arrays.copyOf(ones, 4), new int[] {1, 1}, 0, 1),
                heartbeat(Status.OUT_OF_RANGE, Arrays.copyOf(ones, 2), new int[] {1}, 3, 4),
                heartbeat(Status.CAPACITY_FULL, new double[2 * 4097], many, 0, 4097));
    }

    private static Arguments heartbeat(
            Status status, double[] demands, int[] steps, int metric, int placements) {
        return arguments(status, demands, steps, metric, placements);
    }

    @ParameterizedTest
    @MethodSource("invalidHeartbeats")
    void minFragRejectsAndWritesNothing(
            Status status, double[] demands, int[] steps, int metric, int room) {
        double[] available = AVAILABLE.clone();
        int[] placements = new int[room];
        Arrays.fill(placements, 99);
        int[] unwritten = placements.clone();
        rejects(status,
                () -> Drr.minFrag(CAPACITY, available, 4, demands, steps, metric, placements));
        assertArrayEquals(AVAILABLE, available);
        assertArrayEquals(unwritten, placements);
    }

    /**
     * Each of those through executors laid out once: the same status, from the constructor for
     * the executors themselves, from the heartbeat otherwise, which then writes nothing.
     */
    @ParameterizedTest
    @MethodSource("invalidHeartbeats")
    void laidOutMinFragRejectsAndWritesNothing(
            Status status, double[] demands, int[] steps, int metric, int room) {
        double[] available = AVAILABLE.clone();
        int[] placements = new int[room];
        Arrays.fill(placements, 99);
        int[] unwritten = placements.clone();
        FairschedException e = assertThrows(FairschedException.class, () -> {
            try (DrrExecutors pending = new DrrExecutors(demands, steps, 2)) {
                Drr.minFrag(CAPACITY, available, 4, pending, metric, placements);
            }
        });
        assertEquals(status, e.status());
        assertArrayEquals(AVAILABLE, available);
        assertArrayEquals(unwritten, placements);
    }

    /**
     * Laid out executors give Fig. 6's heartbeat, twice, after the arrays they were built from
     * changed; kinds the machine does not have are the flat call's statuses; closed executors
     * throw.
     */
    @Test
    void laidOutExecutors() {
        double[] capacity = {16, 64, 10, 500};
        double[] available = new double[36];
        for (int t = 0; t < 8; t++) {
            System.arraycopy(new double[] {12, 40, 6, 300}, 0, available, 4 * t, 4);
        }
        System.arraycopy(capacity, 0, available, 32, 4);
        double[] demands = {
            5, 17, 6, 300, 5, 17, 6, 200, 5, 17, 6, 200, 4, 16, 6, 200,
            4, 16, 5, 200, 4, 16, 5, 200, 4, 16, 5, 200,
            6, 20, 6, 300, 6, 20, 5, 300, 6, 20, 5, 300, 6, 20, 5, 300,
            5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 4, 250, 4, 8, 2, 100,
        };
        int[] steps = {7, 9};
        DrrExecutors pending = new DrrExecutors(demands, steps, 4);
        assertEquals(2, pending.size());
        Arrays.fill(demands, 0);
        for (int i = 0; i < 2; i++) {
            double[] series = available.clone();
            int[] placements = {99, 99};
            assertEquals(new Drr.Heartbeat(1, 8, 13.0 / 32),
                    Drr.minFrag(capacity, series, 8, pending, Drr.Metric.DRR, placements));
            assertArrayEquals(new int[] {1, 99}, placements);
        }
        rejects(Status.LENGTH_MISMATCH, () -> Drr.minFrag(CAPACITY, AVAILABLE.clone(), 4, pending,
                Drr.Metric.DRR, new int[2]));
        rejects(Status.EMPTY, () -> Drr.minFrag(new double[0], AVAILABLE.clone(), 4, pending,
                Drr.Metric.DRR, new int[2]));
        rejects(Status.CAPACITY_FULL, () -> Drr.minFrag(NINE_KINDS, NINE_KINDS.clone(), 1,
                pending, Drr.Metric.DRR, new int[2]));
        rejects(Status.EMPTY, () -> new DrrExecutors(new double[0], new int[0], 0));
        rejects(Status.CAPACITY_FULL, () -> new DrrExecutors(NINE_KINDS, new int[] {1}, 9));
        assertThrows(IllegalArgumentException.class,
                () -> new DrrExecutors(new double[2], new int[] {-1}, 2));
        assertThrows(IllegalArgumentException.class,
                () -> new DrrExecutors(new double[2], new int[] {1}, -1));
        assertThrows(NullPointerException.class, () -> Drr.minFrag(CAPACITY, AVAILABLE.clone(),
                4, (DrrExecutors) null, Drr.Metric.DRR, new int[2]));
        pending.close();
        pending.close();
        assertThrows(IllegalStateException.class, () -> Drr.minFrag(capacity, available.clone(),
                8, pending, Drr.Metric.DRR, new int[2]));
    }

    static Stream<Arguments> invalidScorings() {
        double[] capacities = {4, 8, 4, 8};
        double[] available = new double[16];
        System.arraycopy(AVAILABLE, 0, available, 0, 8);
        System.arraycopy(AVAILABLE, 0, available, 8, 8);
        int[] tRuns = {4, 4};
        double[] demand = {1, 1};
        return Stream.of(
                scoring(Status.NOT_FINITE, capacities, 2, available, tRuns, new double[] {NaN, 1},
                        0, 2),
                scoring(Status.OUT_OF_RANGE, capacities, 2, available, tRuns, new double[10], 0, 2),
                scoring(Status.OUT_OF_RANGE, capacities, 2, available, new int[] {4, 9}, demand, 0,
                        2),
                scoring(Status.OUT_OF_RANGE, capacities, 2, available, tRuns, demand, 7, 2),
                scoring(Status.LENGTH_MISMATCH, capacities, 2, available, tRuns, demand, 0, 1),
                scoring(Status.EMPTY, new double[0], 2, new double[0], new int[0], demand, 0, 0),
                scoring(Status.LENGTH_MISMATCH, capacities, 2, available, tRuns,
                        new double[] {1, 1, 1}, 0, 2),
                scoring(Status.EMPTY, new double[0], 0, available, tRuns, new double[0], 0, 2),
                scoring(Status.LENGTH_MISMATCH, capacities, 2, Arrays.copyOf(available, 14), tRuns,
                        demand, 0, 2),
                // kinds amounts a machine: capacities_len must be t_runs_len * kinds.
                scoring(Status.LENGTH_MISMATCH, new double[] {4, 8}, 2, available, tRuns, demand,
                        0, 2),
                scoring(Status.LENGTH_MISMATCH, capacities, 1, available, tRuns, demand, 0, 2));
    }

    private static Arguments scoring(Status status, double[] capacities, int kinds,
            double[] available, int[] tRuns, double[] demand, int metric, int outputs) {
        return arguments(status, capacities, kinds, available, tRuns, demand, metric, outputs);
    }

    @ParameterizedTest
    @MethodSource("invalidScorings")
    void scoreMachinesRejectsAndWritesNothing(Status status, double[] capacities, int kinds,
            double[] available, int[] tRuns, double[] demand, int metric, int outputs) {
        boolean[] fits = new boolean[outputs];
        Arrays.fill(fits, true);
        double[] scores = new double[outputs];
        Arrays.fill(scores, 7);
        rejects(status, () -> Drr.scoreMachines(
                capacities, kinds, available, tRuns, demand, metric, fits, scores));
        boolean[] unfit = new boolean[outputs];
        Arrays.fill(unfit, true);
        double[] unscored = new double[outputs];
        Arrays.fill(unscored, 7);
        assertArrayEquals(unfit, fits);
        assertArrayEquals(unscored, scores);
    }

    static Stream<Arguments> invalidReprovisions() {
        double[] one = {1, 1};
        double[] series = {1, 2, 3, 4};
        return Stream.of(
                reprovision(Status.NEGATIVE, series, 2, new double[] {-1, 1}, one),
                reprovision(Status.NOT_FINITE, series, 2, one,
                        new double[] {POSITIVE_INFINITY, 1}),
                reprovision(Status.NEGATIVE, new double[] {1, -2, 3, 4}, 2, one, one),
                reprovision(Status.OUT_OF_RANGE, series, 2, new double[] {1e308, 1},
                        new double[] {1e-10, 1}),
                reprovision(Status.LENGTH_MISMATCH, new double[] {1, 2, 3}, 2, one, one),
                reprovision(Status.EMPTY, series, 0, new double[0], new double[0]),
                reprovision(Status.EMPTY, new double[0], 2, one, one),
                // observed_len and predicted_len must both be kinds.
                reprovision(Status.LENGTH_MISMATCH, series, 2, new double[] {1}, one),
                reprovision(Status.LENGTH_MISMATCH, series, 2, one, new double[] {1, 1, 1}));
    }

    private static Arguments reprovision(
            Status status, double[] remaining, int kinds, double[] observed, double[] predicted) {
        return arguments(status, remaining, kinds, observed, predicted);
    }

    @ParameterizedTest
    @MethodSource("invalidReprovisions")
    void reprovisionRejectsAndWritesNothing(
            Status status, double[] remaining, int kinds, double[] observed, double[] predicted) {
        double[] scaled = remaining.clone();
        rejects(status, () -> Drr.reprovision(scaled, kinds, observed, predicted));
        assertArrayEquals(remaining, scaled);
    }

    /** What the binding rejects before any native call: nothing is written either. */
    @Test
    void bindingRejections() {
        double[] available = AVAILABLE.clone();
        int[] placements = {99};
        Class<IllegalArgumentException> iae = IllegalArgumentException.class;
        assertThrows(iae, () -> Drr.machine(CAPACITY, AVAILABLE, -1));
        assertThrows(iae, () -> Drr.machine(CAPACITY, AVAILABLE, 1L << 32));
        assertThrows(iae, () -> Drr.minFrag(CAPACITY, available, 4, new double[] {1, 1},
                new int[] {-1}, Drr.Metric.DRR, placements));
        assertThrows(iae, () -> Drr.scoreMachines(CAPACITY, 2, AVAILABLE, new int[] {-4},
                new double[] {1, 1}, Drr.Metric.DRR, new boolean[1], new double[1]));
        assertThrows(iae, () -> Drr.scoreMachines(new double[0], -1, AVAILABLE, new int[0],
                new double[] {1, 1}, Drr.Metric.DRR, new boolean[0], new double[0]));
        assertThrows(iae, () -> Drr.reprovision(available, -1, new double[0], new double[0]));
        Class<NullPointerException> npe = NullPointerException.class;
        assertThrows(npe, () -> Drr.machine(null, AVAILABLE, 4));
        assertThrows(npe, () -> Drr.minFrag(CAPACITY, available, 4, new double[] {1, 1},
                new int[] {1}, null, placements));
        assertThrows(npe, () -> Drr.minFrag(CAPACITY, available, 4, new double[] {1, 1},
                new int[] {1}, Drr.Metric.DRR, null));
        assertThrows(npe, () -> Drr.scoreMachines(CAPACITY, 2, AVAILABLE, new int[] {4},
                new double[] {1, 1}, Drr.Metric.DRR, null, new double[1]));
        assertThrows(npe, () -> Drr.reprovision(available, 2, null, CAPACITY));
        assertArrayEquals(AVAILABLE, available);
        assertArrayEquals(new int[] {99}, placements);
    }

    private static void rejects(Status status, Executable call) {
        assertEquals(status, assertThrows(FairschedException.class, call).status());
    }
}

package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * QKnobler with heterogeneous tasks (§6.1 C2) through {@link QKnobler#averageDemand}, {@link
 * Drf#divisible} and {@link QKnobler#choose}, as bindings/c/test_drf.c and the Go tests check it.
 */
class QKnoblerHeterogeneousTest {
    private static final double[] CLUSTER = {10, 20};
    private static final double[] MACHINE = {4, 8};
    private static final double[] WEIGHTS = {1, 1};
    private static final double[] ALLOCATED = {1, 2, 2, 8};
    private static final double[] NEXT = {2, 8, 1, 2};

    /**
     * Two MapReduce users with {@code <7, 10>} of the cluster idle. A runs a map {@code <1, 2>},
     * two reduces {@code <2, 8>} pending: First-Fit counts the first ({@code <5, 2>} left), not
     * the second: {@code (<1, 2> + <2, 8>) / 2 = <1.5, 5>}. B runs a reduce, three maps pending,
     * all counted: {@code (<2, 8> + 3 <1, 2>) / 4 = <1.25, 3.5>}. DRF over the averages: memory's
     * load {@code (5/0.25 + 3.5/0.175) / 20 = 2} is {@code φ}, {@code s^max = 1/2} each. On a
     * machine {@code <4, 8>} with {@code <3, 8>} idle A ({@code s = 0.1}) is the lowest: owed at
     * {@code ρ = 0.3}; at {@code ρ = 0.1} its reduce has the higher affinity (1.375 to 0.4375).
     */
    @Test
    void mapReduceUsersByHand() {
        double[] idle = {7, 10};
        QKnobler.Average a = QKnobler.averageDemand(idle, new double[] {1, 2}, 1,
                new double[] {2, 8, 2, 8});
        QKnobler.Average b = QKnobler.averageDemand(idle, new double[] {2, 8}, 1,
                new double[] {1, 2, 1, 2, 1, 2});
        assertArrayEquals(new double[] {1.5, 5}, a.average());
        assertEquals(1, a.counted());
        assertArrayEquals(new double[] {1.25, 3.5}, b.average());
        assertEquals(3, b.counted());
        Drf.Divisible drf = Drf.divisible(CLUSTER, WEIGHTS,
                new double[] {1.5, 5, 1.25, 3.5});
        assertEquals(2.0, drf.phi());
        assertArrayEquals(new double[] {0.5, 0.5}, drf.shares());
        double[] busy = {3, 8};
        assertEquals(Optional.of(new QKnobler.Choice(0, true)), choose(0.3, busy, drf.shares()));
        assertEquals(Optional.of(new QKnobler.Choice(0, false)), choose(0.1, busy, drf.shares()));
        assertEquals(Optional.empty(), choose(0.5, new double[] {0.5, 8}, drf.shares()));
        // Nothing running and nothing fits: the first pending task.
        QKnobler.Average waiting = QKnobler.averageDemand(new double[] {0.5, 1},
                new double[] {0, 0}, 0, new double[] {2, 8, 1, 2});
        assertArrayEquals(new double[] {2, 8}, waiting.average());
        assertEquals(0, waiting.counted());
    }

    private static Optional<QKnobler.Choice> choose(double rho, double[] idle, double[] shares) {
        return QKnobler.choose(rho, CLUSTER, MACHINE, idle, WEIGHTS, ALLOCATED, shares, NEXT);
    }

    @Test
    void invalidEstimatesAreRefused() {
        double[] zero = {0, 0};
        double[] pending = {1, 2};
        assertStatus(Status.EMPTY, () -> QKnobler.averageDemand(MACHINE, zero, 0, new double[0]));
        assertStatus(Status.OUT_OF_RANGE,
                () -> QKnobler.averageDemand(MACHINE, new double[] {1, 0}, 0, pending));
        assertStatus(Status.OUT_OF_RANGE, () -> QKnobler.averageDemand(MACHINE, zero, 2, pending));
        assertStatus(Status.LENGTH_MISMATCH,
                () -> QKnobler.averageDemand(MACHINE, zero, 0, new double[] {1, 2, 3}));
        assertStatus(Status.NOT_FINITE,
                () -> QKnobler.averageDemand(new double[] {Double.NaN, 1}, zero, 0, pending));
        assertStatus(Status.NEGATIVE,
                () -> QKnobler.averageDemand(MACHINE, zero, 0, new double[] {1, -1}));
        assertStatus(Status.NOT_POSITIVE, () -> QKnobler.averageDemand(MACHINE, zero, 0, zero));
        // u64::MAX running (-1L carried bit for bit) plus one counted task overflows.
        assertStatus(Status.OUT_OF_RANGE,
                () -> QKnobler.averageDemand(MACHINE, new double[] {1, 1}, -1L, pending));
        assertThrows(NullPointerException.class,
                () -> QKnobler.averageDemand(MACHINE, zero, 0, null));
    }

    @Test
    void invalidDecisionsAreRefused() {
        double[] shares = {0.5, 0.5};
        assertStatus(Status.OUT_OF_RANGE, () -> choose(1.5, MACHINE, shares));
        assertStatus(Status.NOT_FINITE, () -> choose(Double.NaN, MACHINE, shares));
        assertStatus(Status.OUT_OF_RANGE, () -> choose(0.5, new double[] {4, 9}, shares));
        assertStatus(Status.LENGTH_MISMATCH, () -> choose(0.5, new double[] {4}, shares));
        assertStatus(Status.LENGTH_MISMATCH, () -> choose(0.5, MACHINE, new double[] {0.5}));
        assertStatus(Status.NEGATIVE, () -> choose(0.5, MACHINE, new double[] {0.5, -1}));
        assertStatus(Status.NOT_POSITIVE, () -> QKnobler.choose(0.5, CLUSTER, MACHINE, MACHINE,
                new double[] {1, 0}, ALLOCATED, shares, NEXT));
        assertStatus(Status.NOT_POSITIVE, () -> QKnobler.choose(0.5, CLUSTER, MACHINE, MACHINE,
                WEIGHTS, ALLOCATED, shares, new double[] {1, 2, 0, 0}));
        assertStatus(Status.NEGATIVE, () -> QKnobler.choose(0.5, CLUSTER, MACHINE, MACHINE,
                WEIGHTS, new double[] {1, 2, -2, 8}, shares, NEXT));
        assertThrows(NullPointerException.class, () -> QKnobler.choose(0.5, CLUSTER, MACHINE,
                MACHINE, WEIGHTS, ALLOCATED, null, NEXT));
    }

    private static void assertStatus(Status status, Executable call) {
        assertEquals(status, assertThrows(FairschedException.class, call).status());
    }
}

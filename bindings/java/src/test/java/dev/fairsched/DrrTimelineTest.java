package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A machine's timeline through JNI, as bindings/c/test_drr_timeline.c checks it in C: a
 * hand-built sequence worked out exactly, a heartbeat placing an application's copies up to the
 * capacity, then every rejection, by the library or the binding, changing nothing.
 */
class DrrTimelineTest {
    private static final double[] MACHINE = {4, 8};

    /** The state a failed call must leave as it was. */
    private static List<Object> state(DrrTimeline t) {
        return List.of(t.stats(), Arrays.toString(t.available()));
    }

    @Test
    void sequence() {
        try (DrrTimeline t = new DrrTimeline(4, MACHINE, 4)) {
            double[] all = {4, 8, 4, 8, 4, 8, 4, 8};
            assertArrayEquals(all, t.available());
            assertEquals(new DrrTimeline.Stats(0, 1, 0, 4, 4, 4, 2, 1, 2), t.stats());
            // Executor 1: all the CPU and half the memory for two steps; executor 2 misfits.
            assertEquals(1, t.place(new double[] {4, 4, 4, 4}));
            double[] two = {1, 0, 1, 0, 1, 0, 1, 0};
            FairschedException e = assertThrows(FairschedException.class, () -> t.place(two));
            assertEquals(Status.DOES_NOT_FIT, e.status());
            assertEquals(0, t.advance(1));
            assertArrayEquals(new double[] {0, 4, 4, 8, 4, 8, 4, 8}, t.available());
            assertEquals(new DrrTimeline.Stats(1, 2, 1, 4, 4, 1, 2, 0.5, 0.5), t.stats());
            // Released early: its last step comes back, and executor 2 fits.
            t.release(1);
            assertArrayEquals(all, t.available());
            assertEquals(2, t.place(two));
            assertEquals(0, t.advance(1));
            // Twice the predicted CPU observed: the remaining three steps double.
            t.reprovision(2, new double[] {2, 0}, new double[] {1, 0});
            assertArrayEquals(new double[] {2, 8, 2, 8, 2, 8, 4, 8}, t.available());
            // Its series ends at step 5: it finishes as predicted.
            assertEquals(1, t.advance(3));
            assertArrayEquals(all, t.available());
            assertEquals(5, t.stats().now());
            assertEquals(3, t.stats().nextId());
        }
    }

    /** Four executors of {@code (2, 2)} (an application) and one of {@code (3, 3, 3)}: room for 3. */
    @Test
    void heartbeatPlacesCopies() {
        try (DrrTimeline t = new DrrTimeline(3, new double[] {10}, 3)) {
            double[] demands = {2, 2, 3, 3, 3};
            int[] steps = {2, 3};
            int[] counts = {4, 1};
            int[] placements = new int[8];
            DrrTimeline.Heartbeat beat =
                    t.heartbeat(demands, steps, counts, Drr.Metric.DRR, placements);
            assertEquals(new DrrTimeline.Heartbeat(3, 1, 2, 0.3), beat);
            assertArrayEquals(new int[] {1, 0, 0}, Arrays.copyOf(placements, 3));
            assertArrayEquals(new double[] {3, 3, 7}, t.available());
            assertEquals(new DrrTimeline.Heartbeat(0, 4, 2, 0.3),
                    t.heartbeat(demands, steps, counts, Drr.Metric.TRC, placements));
        }
    }

    /** Executors laid out once: the same heartbeats as the flat ones. */
    @Test
    void heartbeatOverLaidOutExecutors() {
        double[] demands = {2, 2, 3, 3, 3};
        int[] steps = {2, 3};
        int[] counts = {4, 1};
        try (DrrTimeline flat = new DrrTimeline(3, new double[] {10}, 3);
                DrrTimeline laid = new DrrTimeline(3, new double[] {10}, 3);
                DrrExecutors pending = new DrrExecutors(demands, steps, 1)) {
            for (Drr.Metric metric : new Drr.Metric[] {Drr.Metric.DRR, Drr.Metric.TRC}) {
                int[] want = new int[8];
                int[] got = new int[8];
                assertEquals(flat.heartbeat(demands, steps, counts, metric, want),
                        laid.heartbeat(pending, counts, metric, got));
                assertArrayEquals(want, got);
                assertArrayEquals(flat.available(), laid.available());
            }
        }
    }

    /** The heartbeat's statuses over laid out executors; nothing changes, closed ones throw. */
    @Test
    void laidOutRejectionsChangeNothing() {
        DrrExecutors closed = new DrrExecutors(new double[] {1, 1}, new int[] {1}, 2);
        closed.close();
        try (DrrTimeline t = new DrrTimeline(2, MACHINE, 3);
                DrrExecutors two = new DrrExecutors(new double[] {1, 1}, new int[] {1}, 2);
                DrrExecutors longer = new DrrExecutors(new double[8], new int[] {4}, 2);
                DrrExecutors three = new DrrExecutors(new double[3], new int[] {1}, 3)) {
            t.place(new double[] {1, 2, 1, 2});
            List<Object> before = state(t);
            int[] placements = {99, 99};
            int[] one = {1};
            assertEquals(Status.LENGTH_MISMATCH,
                    failure(() -> t.heartbeat(two, new int[2], Drr.Metric.DRR, placements)));
            assertEquals(Status.OUT_OF_RANGE, failure(() -> t.heartbeat(two, one, 3, placements)));
            assertEquals(Status.OUT_OF_RANGE,
                    failure(() -> t.heartbeat(longer, one, Drr.Metric.DRR, placements)));
            assertEquals(Status.LENGTH_MISMATCH,
                    failure(() -> t.heartbeat(three, one, Drr.Metric.DRR, placements)));
            assertThrows(IllegalArgumentException.class,
                    () -> t.heartbeat(two, new int[] {-1}, Drr.Metric.DRR, placements));
            assertThrows(NullPointerException.class,
                    () -> t.heartbeat((DrrExecutors) null, one, Drr.Metric.DRR, placements));
            assertThrows(IllegalStateException.class,
                    () -> t.heartbeat(closed, one, Drr.Metric.DRR, placements));
            assertArrayEquals(new int[] {99, 99}, placements);
            assertEquals(before, state(t));
        }
    }

    /** An array the heartbeat writes may also be one it reads. */
    @Test
    void placementsMayBeTheCounts() {
        try (DrrTimeline t = new DrrTimeline(4, new double[] {4}, 2)) {
            int[] shared = {2, 0};
            DrrTimeline.Heartbeat beat = t.heartbeat(
                    new double[] {1, 1}, new int[] {1, 1}, shared, Drr.Metric.DRR, shared);
            assertEquals(2, beat.placed());
            assertArrayEquals(new int[] {0, 0}, shared);
        }
    }

    static Stream<Arguments> rejections() {
        double[] ok = {1, 1};
        int[] one = {1};
        return Stream.of(
                rejected(Status.OUT_OF_RANGE, t -> t.advance(-1)),
                rejected(Status.LENGTH_MISMATCH, t -> t.place(new double[] {1})),
                rejected(Status.EMPTY, t -> t.place(new double[0])),
                rejected(Status.NOT_FINITE, t -> t.place(new double[] {Double.NaN, 1})),
                rejected(Status.NEGATIVE, t -> t.place(new double[] {-1, 1})),
                rejected(Status.OUT_OF_RANGE, t -> t.place(new double[8])),
                rejected(Status.DOES_NOT_FIT, t -> t.place(new double[] {4, 1})),
                rejected(Status.UNKNOWN_ID, t -> t.release(9)),
                rejected(Status.UNKNOWN_ID, t -> t.reprovision(9, ok, ok)),
                rejected(Status.LENGTH_MISMATCH, t -> t.reprovision(1, new double[] {1}, ok)),
                rejected(Status.NEGATIVE, t -> t.reprovision(1, ok, new double[] {-1, 1})),
                rejected(Status.OUT_OF_RANGE,
                        t -> t.reprovision(1, new double[] {1e308, 1}, new double[] {1e-308, 1})),
                rejected(Status.DOES_NOT_FIT, t -> t.reprovision(1, new double[] {5, 1}, ok)),
                rejected(Status.LENGTH_MISMATCH,
                        t -> t.heartbeat(ok, one, new int[2], Drr.Metric.DRR, new int[2])),
                rejected(Status.OUT_OF_RANGE, t -> t.heartbeat(ok, one, one, 3, new int[2])),
                rejected(Status.OUT_OF_RANGE,
                        t -> t.heartbeat(new double[8], new int[] {4}, one, Drr.Metric.DRR,
                                new int[2])));
    }

    private static Arguments rejected(Status status, Consumer<DrrTimeline> call) {
        return arguments(status, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void rejectionsChangeNothing(Status status, Consumer<DrrTimeline> call) {
        try (DrrTimeline t = new DrrTimeline(2, MACHINE, 3)) {
            t.place(new double[] {1, 2, 1, 2});
            t.advance(1);
            List<Object> before = state(t);
            FairschedException e = assertThrows(FairschedException.class, () -> call.accept(t));
            assertEquals(status, e.status());
            assertEquals(before, state(t));
        }
    }

    @Test
    void theBindingRejectsWhatCCannotTake() {
        assertThrows(IllegalArgumentException.class, () -> new DrrTimeline(-1, MACHINE, 4));
        assertThrows(IllegalArgumentException.class, () -> new DrrTimeline(1, MACHINE, 1L << 32));
        assertThrows(NullPointerException.class, () -> new DrrTimeline(1, null, 4));
        try (DrrTimeline t = new DrrTimeline(1, MACHINE, 4)) {
            int[] placements = new int[1];
            assertThrows(IllegalArgumentException.class, () -> t.heartbeat(new double[2],
                    new int[] {-1}, new int[] {1}, Drr.Metric.DRR, placements));
            assertThrows(IllegalArgumentException.class, () -> t.heartbeat(new double[2],
                    new int[] {1}, new int[] {-1}, Drr.Metric.DRR, placements));
        }
    }

    @Test
    void configurationErrorsAreStatuses() {
        assertEquals(Status.NOT_POSITIVE, failure(() -> new DrrTimeline(0, MACHINE, 4)));
        assertEquals(Status.EMPTY, failure(() -> new DrrTimeline(1, MACHINE, 0)));
        assertEquals(Status.CAPACITY_FULL, failure(() -> new DrrTimeline(1, MACHINE, 257)));
        assertEquals(Status.NOT_POSITIVE, failure(() -> new DrrTimeline(1, new double[2], 4)));
        assertEquals(Status.EMPTY, failure(() -> new DrrTimeline(1, new double[0], 4)));
    }

    private static Status failure(Runnable call) {
        return assertThrows(FairschedException.class, call::run).status();
    }

    @Test
    void callsAfterCloseThrow() {
        DrrTimeline t = new DrrTimeline(1, MACHINE, 4);
        t.close();
        t.close();
        assertThrows(IllegalStateException.class, t::stats);
        assertThrows(IllegalStateException.class, () -> t.advance(1));
        assertThrows(IllegalStateException.class, () -> t.place(new double[] {1, 1}));
    }
}

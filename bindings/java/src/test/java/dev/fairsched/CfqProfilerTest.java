package dev.fairsched;

import static java.lang.Double.NaN;
import static java.lang.Double.POSITIVE_INFINITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.ByteBuffer;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The naive profiler ({@link CfqProfiler}) and re-profiling ({@link Cfq#reprofile}): estimates
 * exact to the bit, every invalid input rejected with nothing changed, and an estimate
 * corrected while the job runs.
 */
class CfqProfilerTest {
    @Test
    void estimatesTasksTimesTheMean() {
        CfqProfiler profiler = new CfqProfiler();
        assertEquals(0, profiler.count());
        assertEquals(Status.EMPTY, assertThrows(FairschedException.class,
                () -> profiler.estimate(3)).status());
        profiler.observe(3.0);
        profiler.observe(new double[] {5.0, 4.0});
        profiler.observe(new double[0]);
        assertEquals(3, profiler.count());
        assertEquals(40.0, profiler.estimate(10));
        assertEquals(4.0, profiler.estimate(1));
    }

    @Test
    void theMeanIsExact() {
        CfqProfiler profiler = new CfqProfiler();
        profiler.observe(new double[] {0.1, 0.2, 0.3});
        assertEquals(0.2, profiler.estimate(1)); // (0.1 + 0.2 + 0.3) / 3 is 0.20000000000000004
        assertEquals(0.6000000000000001, profiler.estimate(3));
    }

    static Stream<Arguments> rejections() {
        return Stream.of(
                rejects("observe(NaN)", Status.NOT_FINITE, p -> p.observe(NaN)),
                rejects("observe(inf)", Status.NOT_FINITE, p -> p.observe(POSITIVE_INFINITY)),
                rejects("observe(-1)", Status.NEGATIVE, p -> p.observe(-1.0)),
                rejects("observe(2^61)", Status.OUT_OF_RANGE, p -> p.observe(0x1p61)),
                rejects("observe([1, NaN])", Status.NOT_FINITE,
                        p -> p.observe(new double[] {1.0, NaN})),
                rejects("observe([1, -1])", Status.NEGATIVE,
                        p -> p.observe(new double[] {1.0, -1.0})),
                rejects("observe([1, 2^61])", Status.OUT_OF_RANGE,
                        p -> p.observe(new double[] {1.0, 0x1p61})),
                rejects("estimate(0)", Status.NOT_POSITIVE, p -> p.estimate(0)),
                // A u64 carried bit for bit: 2^64 - 1 tasks of 2 s is beyond 2^60.
                rejects("estimate(-1)", Status.OUT_OF_RANGE, p -> p.estimate(-1)),
                rejects("observe(null)", NullPointerException.class,
                        p -> p.observe((double[]) null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void invalidInputChangesNothing(String call, Object expected, Consumer<CfqProfiler> invalid) {
        CfqProfiler profiler = new CfqProfiler();
        profiler.observe(new double[] {1.0, 3.0});
        ByteBuffer before = profiler.snapshot();
        if (expected instanceof Status status) {
            FairschedException e =
                    assertThrows(FairschedException.class, () -> invalid.accept(profiler));
            assertEquals(status, e.status(), e.getMessage());
        } else {
            assertThrows(NullPointerException.class, () -> invalid.accept(profiler));
        }
        assertEquals(before, profiler.snapshot());
        assertEquals(4.0, profiler.estimate(2));
    }

    @Test
    void durationsOfZeroGiveNoSlotTime() {
        CfqProfiler profiler = new CfqProfiler();
        profiler.observe(new double[] {0.0, -0.0});
        assertEquals(Status.NOT_POSITIVE, assertThrows(FairschedException.class,
                () -> profiler.estimate(4)).status());
    }

    /**
     * A job profiled from the tasks seen so far, then corrected once its own tasks show it is
     * longer: it stays in GPS, later in the order, with the corrected slot-time.
     */
    @Test
    void aProfiledJobCorrectedWhileItRuns() {
        try (Cfq cfq = new Cfq(8, 1, 0.0)) {
            CfqProfiler profiler = new CfqProfiler();
            profiler.observe(new double[] {1.0, 1.0});
            cfq.arrive(0.0, 1, profiler.estimate(4), 1);    // 4 s
            cfq.arrive(0.0, 2, 6.0, 1);
            cfq.setPendingBatch(new long[] {1, 2}, new int[] {3, 1});
            assertEquals(1, cfq.peek().getAsLong());
            cfq.reprofile(2.0, 1, 12.0);                    // its tasks take 3 s each
            JobInfo job = cfq.job(1);
            assertEquals(12.0, job.slotTime());
            assertEquals(12.0, job.virtualFinish());
            assertEquals(OptionalDouble.empty(), job.gpsCompletion());
            assertEquals(2, cfq.peek().getAsLong());
            // A correction below the virtual time (1 at t = 2) ends the job in GPS at once.
            cfq.reprofile(2.0, 2, 0.5);
            assertEquals(OptionalDouble.of(2.0), cfq.job(2).gpsCompletion());
            assertFalse(cfq.job(1).gpsCompletion().isPresent());
            assertEquals(1, cfq.stats().gpsActive());
            // Out of GPS, a correction only moves its backlog key: F + (L' - L) / w = 0.5 + 5.5.
            cfq.reprofile(3.0, 2, 6.0);
            assertEquals(6.0, cfq.job(2).virtualFinish());
            assertEquals(OptionalDouble.of(2.0), cfq.job(2).gpsCompletion());
            assertEquals(1, cfq.stats().gpsActive());
        }
    }

    private static Arguments rejects(String call, Object expected, Consumer<CfqProfiler> invalid) {
        return arguments(call, expected, invalid);
    }
}

package dev.fairsched;

import static java.lang.Double.NaN;
import static java.lang.Double.POSITIVE_INFINITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every call with invalid input throws, and changes nothing: whether the library rejects it
 * (a {@link FairschedException} with the mapped {@link Status}) or the binding does first.
 */
class ErrorPathTest {
    private static final double BEYOND_MAX_TIME = 0x1p61;
    private static final long BEYOND_U32 = 1L << 32;

    /**
     * At time 2, full: job 1 backlogged with 2 tasks, job 2 completed, job 3 backlogged with 1.
     */
    private Cfq cfq;

    @BeforeEach
    void fill() {
        cfq = new Cfq(3, 2, 0);
        cfq.arrive(1, 1, 4, 1);
        cfq.arrive(1, 2, 2, 1);
        cfq.arrive(1, 3, 6, 2);
        cfq.setPending(1, 2);
        cfq.setPending(3, 1);
        cfq.complete(2, 2);
    }

    @AfterEach
    void close() {
        cfq.close();
    }

    static Stream<Arguments> libraryRejections() {
        return Stream.of(
                rejects("advance(NaN)", Status.NOT_FINITE, c -> c.advance(NaN)),
                rejects("advance(inf)", Status.NOT_FINITE, c -> c.advance(POSITIVE_INFINITY)),
                rejects("advance(2^61)", Status.OUT_OF_RANGE, c -> c.advance(BEYOND_MAX_TIME)),
                rejects("advance(past)", Status.TIME_WENT_BACKWARDS, c -> c.advance(1)),
                rejects("setSlots(0)", Status.NOT_POSITIVE, c -> c.setSlots(3, 0)),
                rejects("setSlots(NaN time)", Status.NOT_FINITE, c -> c.setSlots(NaN, 1)),
                rejects("setSlots(past)", Status.TIME_WENT_BACKWARDS, c -> c.setSlots(1, 1)),
                rejects("arrive(NaN time)", Status.NOT_FINITE, c -> c.arrive(NaN, 9, 1, 1)),
                rejects("arrive(past)", Status.TIME_WENT_BACKWARDS, c -> c.arrive(1, 9, 1, 1)),
                rejects("arrive(inf slot-time)", Status.NOT_FINITE,
                        c -> c.arrive(3, 9, POSITIVE_INFINITY, 1)),
                rejects("arrive(NaN slot-time)", Status.NOT_FINITE, c -> c.arrive(3, 9, NaN, 1)),
                rejects("arrive(zero slot-time)", Status.NOT_POSITIVE, c -> c.arrive(3, 9, 0, 1)),
                rejects("arrive(negative slot-time)", Status.NOT_POSITIVE,
                        c -> c.arrive(3, 9, -1, 1)),
                rejects("arrive(2^61 slot-time)", Status.OUT_OF_RANGE,
                        c -> c.arrive(3, 9, BEYOND_MAX_TIME, 1)),
                rejects("arrive(weight 0)", Status.NOT_POSITIVE, c -> c.arrive(3, 9, 1, 0)),
                rejects("arrive(duplicate)", Status.DUPLICATE_ID, c -> c.arrive(3, 1, 1, 1)),
                rejects("arrive(full)", Status.CAPACITY_FULL, c -> c.arrive(3, 9, 1, 1)),
                rejects("setPending(unknown)", Status.UNKNOWN_ID, c -> c.setPending(9, 1)),
                rejects("setPending(completed)", Status.JOB_COMPLETED, c -> c.setPending(2, 1)),
                rejects("setPendingBatch(lengths)", Status.LENGTH_MISMATCH,
                        c -> c.setPendingBatch(new long[] {1, 3}, new int[] {1})),
                rejects("setPendingBatch(unknown)", Status.UNKNOWN_ID,
                        c -> c.setPendingBatch(new long[] {1, 9}, new int[] {5, 5})),
                rejects("setPendingBatch(completed)", Status.JOB_COMPLETED,
                        c -> c.setPendingBatch(new long[] {3, 2}, new int[] {4, 1})),
                // Counts refused: the offer is not made either.
                rejects("offer(counts, lengths)", Status.LENGTH_MISMATCH,
                        c -> c.offer(new long[] {1, 3}, new int[] {1}, new long[2], 2)),
                rejects("offer(counts, unknown)", Status.UNKNOWN_ID,
                        c -> c.offer(new long[] {1, 9}, new int[] {5, 5}, new long[2], 2)),
                rejects("offer(counts, completed)", Status.JOB_COMPLETED,
                        c -> c.offer(new long[] {3, 2}, new int[] {4, 1}, new long[2], 2)),
                rejects("complete(unknown)", Status.UNKNOWN_ID, c -> c.complete(3, 9)),
                rejects("complete(completed)", Status.JOB_COMPLETED, c -> c.complete(3, 2)),
                rejects("complete(past)", Status.TIME_WENT_BACKWARDS, c -> c.complete(1, 1)),
                rejects("complete(NaN time)", Status.NOT_FINITE, c -> c.complete(NaN, 1)),
                rejects("remove(unknown)", Status.UNKNOWN_ID, c -> c.remove(3, 9)),
                rejects("remove(past)", Status.TIME_WENT_BACKWARDS, c -> c.remove(1, 1)),
                rejects("remove(inf time)", Status.NOT_FINITE, c -> c.remove(POSITIVE_INFINITY, 1)),
                rejects("reprofile(NaN time)", Status.NOT_FINITE, c -> c.reprofile(NaN, 1, 1)),
                rejects("reprofile(past)", Status.TIME_WENT_BACKWARDS, c -> c.reprofile(1, 1, 1)),
                rejects("reprofile(2^61 time)", Status.OUT_OF_RANGE,
                        c -> c.reprofile(BEYOND_MAX_TIME, 1, 1)),
                rejects("reprofile(NaN slot-time)", Status.NOT_FINITE, c -> c.reprofile(3, 1, NaN)),
                rejects("reprofile(zero slot-time)", Status.NOT_POSITIVE, c -> c.reprofile(3, 1, 0)),
                rejects("reprofile(negative slot-time)", Status.NOT_POSITIVE,
                        c -> c.reprofile(3, 1, -1)),
                rejects("reprofile(2^61 slot-time)", Status.OUT_OF_RANGE,
                        c -> c.reprofile(3, 1, BEYOND_MAX_TIME)),
                rejects("reprofile(unknown)", Status.UNKNOWN_ID, c -> c.reprofile(3, 9, 1)),
                rejects("reprofile(completed)", Status.JOB_COMPLETED, c -> c.reprofile(3, 2, 1)),
                rejects("job(unknown)", Status.UNKNOWN_ID, c -> c.job(9)),
                rejects("gpsCompletionEstimate(unknown)", Status.UNKNOWN_ID,
                        c -> c.gpsCompletionEstimate(9)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("libraryRejections")
    void libraryRejectsAndChangesNothing(String call, Status status, Consumer<Cfq> invalid) {
        Snapshot before = snapshot();
        FairschedException e = assertThrows(FairschedException.class, () -> invalid.accept(cfq));
        assertEquals(status, e.status(), e.getMessage());
        assertEquals(before, snapshot());
    }

    static Stream<Arguments> bindingRejections() {
        Class<IllegalArgumentException> illegal = IllegalArgumentException.class;
        return Stream.of(
                rejects("setSlots(-1)", illegal, c -> c.setSlots(3, -1)),
                rejects("setSlots(2^32)", illegal, c -> c.setSlots(3, BEYOND_U32)),
                rejects("arrive(weight -1)", illegal, c -> c.arrive(3, 9, 1, -1)),
                rejects("arrive(weight 2^32)", illegal, c -> c.arrive(3, 9, 1, BEYOND_U32)),
                rejects("setPending(-1)", illegal, c -> c.setPending(1, -1)),
                rejects("setPending(2^32)", illegal, c -> c.setPending(1, BEYOND_U32)),
                rejects("setPendingBatch(-1)", illegal,
                        c -> c.setPendingBatch(new long[] {1, 3}, new int[] {1, -1})),
                rejects("setPendingBatch(null ids)", NullPointerException.class,
                        c -> c.setPendingBatch(null, new int[0])),
                rejects("offer(-1)", illegal, c -> c.offer(-1)),
                rejects("offer(buffer too short)", IndexOutOfBoundsException.class,
                        c -> c.offer(new long[1], 2)),
                // Valid new counts with an invalid rest: the counts are not set either.
                rejects("offer(counts, -1 slots)", illegal,
                        c -> c.offer(new long[] {1, 3}, new int[] {5, 5}, new long[2], -1)),
                rejects("offer(counts, buffer too short)", IndexOutOfBoundsException.class,
                        c -> c.offer(new long[] {1, 3}, new int[] {5, 5}, new long[1], 2)),
                rejects("offer(counts, null buffer)", NullPointerException.class,
                        c -> c.offer(new long[] {1, 3}, new int[] {5, 5}, null, 2)),
                rejects("offer(counts -1)", illegal,
                        c -> c.offer(new long[] {1, 3}, new int[] {5, -1}, new long[2], 2)),
                rejects("offer(counts, null ids)", NullPointerException.class,
                        c -> c.offer(null, new int[0], new long[2], 2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingRejections")
    void bindingRejectsAndChangesNothing(
            String call, Class<? extends RuntimeException> type, Consumer<Cfq> invalid) {
        Snapshot before = snapshot();
        assertThrows(type, () -> invalid.accept(cfq));
        assertEquals(before, snapshot());
    }

    static Stream<Arguments> constructorRejections() {
        return Stream.of(
                arguments(0L, 1L, 0.0, Status.NOT_POSITIVE),
                arguments(1L, 0L, 0.0, Status.NOT_POSITIVE),
                arguments(0xFFFF_FFFFL, 1L, 0.0, Status.CAPACITY_TOO_LARGE),
                arguments(1L, 1L, NaN, Status.NOT_FINITE),
                arguments(1L, 1L, BEYOND_MAX_TIME, Status.OUT_OF_RANGE),
                arguments(1L, 1L, -BEYOND_MAX_TIME, Status.OUT_OF_RANGE),
                // The capacity is checked before the configuration.
                arguments(0L, 0L, NaN, Status.NOT_POSITIVE),
                arguments(0xFFFF_FFFFL, 0L, NaN, Status.CAPACITY_TOO_LARGE));
    }

    @ParameterizedTest
    @MethodSource("constructorRejections")
    void constructorMapsStatus(long capacity, long slots, double start, Status status) {
        FairschedException e =
                assertThrows(FairschedException.class, () -> new Cfq(capacity, slots, start));
        assertEquals(status, e.status());
    }

    @ParameterizedTest
    @MethodSource("outOfU32")
    void constructorRejectsNumbersBeyondU32(long capacity, long slots) {
        assertThrows(IllegalArgumentException.class, () -> new Cfq(capacity, slots, 0));
    }

    static Stream<Arguments> outOfU32() {
        return Stream.of(arguments(-1L, 1L), arguments(1L, -1L), arguments(BEYOND_U32, 1L));
    }

    /** All the state a call could change: the stats and every job. */
    private record Snapshot(Stats stats, List<JobInfo> jobs) {}

    private Snapshot snapshot() {
        return new Snapshot(cfq.stats(), List.of(cfq.job(1), cfq.job(2), cfq.job(3)));
    }

    private static Arguments rejects(String call, Object expected, Consumer<Cfq> invalid) {
        return arguments(call, expected, invalid);
    }
}

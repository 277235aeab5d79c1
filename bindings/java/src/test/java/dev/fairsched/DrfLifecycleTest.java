package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A {@link DrfQueue}'s ownership, the full range of its ids and counts, and what rounds write. */
class DrfLifecycleTest {
    private static final double[] CAPACITY = {10, 10};
    private static final double[] ONE_EACH = {1, 1};

    @Test
    void closingTwiceIsHarmless() {
        DrfQueue queue = new DrfQueue(1, CAPACITY);
        queue.close();
        queue.close();
    }

    static Stream<Arguments> everyCall() {
        long[] out = new long[1];
        return Stream.of(
                call("addUser", q -> q.addUser(1, 1, ONE_EACH)),
                call("removeUser", q -> q.removeUser(1)),
                call("setPending", q -> q.setPending(1, 1)),
                call("tasksStarted", q -> q.tasksStarted(1, 1)),
                call("tasksFinished", q -> q.tasksFinished(1, 1)),
                call("next", DrfQueue::next),
                call("startNext", DrfQueue::startNext),
                call("user", q -> q.user(1)),
                call("stats", DrfQueue::stats),
                call("allocateRound", q -> q.allocateRound(CAPACITY, out)),
                call("qknoblerRound", q -> q.qknoblerRound(1, CAPACITY, CAPACITY, out)));
    }

    private static Arguments call(String name, Consumer<DrfQueue> call) {
        return arguments(name, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyCall")
    void everyCallAfterCloseThrows(String name, Consumer<DrfQueue> call) {
        DrfQueue queue = new DrfQueue(1, CAPACITY);
        queue.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> call.accept(queue));
        assertEquals("the DrfQueue is closed", e.getMessage());
    }

    @Test
    void idsAndCountsCarryAll64Bits() {
        long maxU64 = -1;
        try (DrfQueue queue = new DrfQueue(2, CAPACITY)) {
            queue.addUser(maxU64, 1, ONE_EACH);
            queue.addUser(Long.MIN_VALUE, 1, ONE_EACH);
            queue.setPending(maxU64, maxU64);
            assertEquals(OptionalLong.of(maxU64), queue.next());
            queue.tasksStarted(maxU64, maxU64);
            DrfQueue.UserInfo user = queue.user(maxU64);
            assertEquals(maxU64, user.id());
            assertEquals("18446744073709551615", Long.toUnsignedString(user.running()));
            assertEquals(0, user.pending());
            queue.tasksFinished(maxU64, maxU64);
            assertEquals(0, queue.user(maxU64).running());
        }
    }

    @Test
    void roundsWriteOnlyWhatTheyStart() {
        try (DrfQueue queue = new DrfQueue(2, CAPACITY)) {
            queue.addUser(7, 1, ONE_EACH);
            queue.setPending(7, 2);
            long[] out = {-5, -5, -5, -5};
            assertEquals(2, queue.allocateRound(CAPACITY, out));
            assertArrayEquals(new long[] {7, 7, -5, -5}, out);
            assertEquals(new DrfQueue.UserInfo(7, 2, 0, 1, 0.2, 0.2, 0.1), queue.user(7));

            queue.setPending(7, 1);
            assertEquals(new QKnobler.Round(1, 1), queue.qknoblerRound(1, CAPACITY, CAPACITY, out));
            assertArrayEquals(new long[] {7, 7, -5, -5}, out);
            assertEquals(0, queue.allocateRound(CAPACITY, new long[0]));
            assertEquals(new DrfQueue.Stats(2, 1, 0, 2), queue.stats());
        }
    }

    /** A round is one native call whatever its size. */
    @Test
    void largeRoundsFillTheArray() {
        try (DrfQueue queue = new DrfQueue(2, new double[] {100_000})) {
            queue.addUser(1, 1, new double[] {1});
            queue.addUser(2, 1, new double[] {1});
            queue.setPending(1, 50_000);
            queue.setPending(2, 50_000);
            long[] out = new long[100_000];
            assertEquals(100_000, queue.allocateRound(new double[] {100_000}, out));
            assertEquals(50_000, queue.user(1).running());
            assertEquals(50_000, queue.user(2).running());
        }
    }
}

package dev.fairsched;

import static java.lang.Double.NaN;
import static java.lang.Double.POSITIVE_INFINITY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every DRF and QKnobler call with invalid input throws, and changes nothing: whether the
 * library rejects it (a {@link FairschedException} with the mapped {@link Status}) or the
 * binding does first. Rounds that fail write no id.
 */
class DrfErrorPathTest {
    private static final double[] CAPACITY = {200, 1000};
    private static final double[] NINE_KINDS = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    private static final long MAX_U64 = -1;
    private static final long SENTINEL = -5;

    /** Where the rounds write; filled with {@link #SENTINEL} before each test. */
    private static final long[] OUT = new long[4];

    /**
     * Full, with room for three users: 1 (weight 2, {@code <1, 6>}) with 2 tasks running and 3
     * pending, 2 (weight 1, {@code <1, 2>}) with 1 pending, 3 (weight 1, {@code <2, 2>}) idle.
     */
    private DrfQueue queue;

    @BeforeEach
    void fill() {
        Arrays.fill(OUT, SENTINEL);
        queue = new DrfQueue(3, CAPACITY);
        queue.addUser(1, 2, new double[] {1, 6});
        queue.addUser(2, 1, new double[] {1, 2});
        queue.addUser(3, 1, new double[] {2, 2});
        queue.tasksStarted(1, 2);
        queue.setPending(1, 3);
        queue.setPending(2, 1);
    }

    @AfterEach
    void close() {
        queue.close();
    }

    static Stream<Arguments> libraryRejections() {
        return Stream.of(
                rejects("addUser(weight 0)", Status.NOT_POSITIVE, q -> q.addUser(9, 0, demand())),
                rejects("addUser(weight -1)", Status.NOT_POSITIVE, q -> q.addUser(9, -1, demand())),
                rejects("addUser(weight NaN)", Status.NOT_FINITE, q -> q.addUser(9, NaN, demand())),
                rejects("addUser(weight inf)", Status.NOT_FINITE,
                        q -> q.addUser(9, POSITIVE_INFINITY, demand())),
                rejects("addUser(NaN demand)", Status.NOT_FINITE,
                        q -> q.addUser(9, 1, new double[] {NaN, 1})),
                rejects("addUser(negative demand)", Status.NEGATIVE,
                        q -> q.addUser(9, 1, new double[] {-1, 1})),
                rejects("addUser(all-zero demand)", Status.NOT_POSITIVE,
                        q -> q.addUser(9, 1, new double[] {0, 0})),
                rejects("addUser(no kind)", Status.EMPTY, q -> q.addUser(9, 1, new double[0])),
                rejects("addUser(one kind)", Status.LENGTH_MISMATCH,
                        q -> q.addUser(9, 1, new double[] {1})),
                rejects("addUser(three kinds)", Status.LENGTH_MISMATCH,
                        q -> q.addUser(9, 1, new double[] {1, 1, 1})),
                rejects("addUser(nine kinds)", Status.CAPACITY_FULL,
                        q -> q.addUser(9, 1, NINE_KINDS)),
                rejects("addUser(duplicate)", Status.DUPLICATE_ID, q -> q.addUser(2, 1, demand())),
                rejects("addUser(full)", Status.CAPACITY_FULL, q -> q.addUser(9, 1, demand())),
                rejects("removeUser(unknown)", Status.UNKNOWN_ID, q -> q.removeUser(9)),
                rejects("setPending(unknown)", Status.UNKNOWN_ID, q -> q.setPending(9, 1)),
                rejects("tasksStarted(unknown)", Status.UNKNOWN_ID, q -> q.tasksStarted(9, 1)),
                rejects("tasksStarted(beyond u64)", Status.OUT_OF_RANGE,
                        q -> q.tasksStarted(1, MAX_U64)),
                rejects("tasksFinished(unknown)", Status.UNKNOWN_ID, q -> q.tasksFinished(9, 1)),
                rejects("tasksFinished(more than run)", Status.NEGATIVE,
                        q -> q.tasksFinished(1, 3)),
                rejects("user(unknown)", Status.UNKNOWN_ID, q -> q.user(9)),
                rejects("allocateRound(NaN)", Status.NOT_FINITE, round(NaN, 0)),
                rejects("allocateRound(inf)", Status.NOT_FINITE, round(0, POSITIVE_INFINITY)),
                rejects("allocateRound(negative)", Status.NEGATIVE, round(-1, 0)),
                rejects("allocateRound(one kind)", Status.LENGTH_MISMATCH, round(1)),
                rejects("allocateRound(no kind)", Status.EMPTY, round()),
                rejects("allocateRound(nine kinds)", Status.CAPACITY_FULL, round(NINE_KINDS)),
                rejects("qknoblerRound(rho NaN)", Status.NOT_FINITE, qknobler(NaN, CAPACITY)),
                rejects("qknoblerRound(rho inf)", Status.NOT_FINITE,
                        qknobler(POSITIVE_INFINITY, CAPACITY)),
                rejects("qknoblerRound(rho -0.1)", Status.OUT_OF_RANGE, qknobler(-0.1, CAPACITY)),
                rejects("qknoblerRound(rho 1.5)", Status.OUT_OF_RANGE, qknobler(1.5, CAPACITY)),
                rejects("qknoblerRound(zero machine)", Status.NOT_POSITIVE,
                        q -> q.qknoblerRound(0.5, new double[] {0, 1000}, new double[2], OUT)),
                rejects("qknoblerRound(NaN machine)", Status.NOT_FINITE,
                        q -> q.qknoblerRound(0.5, new double[] {NaN, 1000}, new double[2], OUT)),
                rejects("qknoblerRound(idle above machine)", Status.OUT_OF_RANGE,
                        qknobler(0.5, new double[] {201, 0})),
                rejects("qknoblerRound(negative idle)", Status.NEGATIVE,
                        qknobler(0.5, new double[] {-1, 0})),
                rejects("qknoblerRound(one kind)", Status.LENGTH_MISMATCH,
                        q -> q.qknoblerRound(0.5, new double[] {200}, new double[] {1}, OUT)),
                rejects("qknoblerRound(idle of another length)", Status.LENGTH_MISMATCH,
                        qknobler(0.5, new double[] {1})),
                rejects("qknoblerRound(machine of another length)", Status.LENGTH_MISMATCH,
                        q -> q.qknoblerRound(0.5, new double[] {200}, new double[] {1, 1}, OUT)),
                rejects("qknoblerRound(both of three kinds)", Status.LENGTH_MISMATCH,
                        q -> q.qknoblerRound(
                                0.5, new double[] {200, 1000, 1}, new double[] {1, 1, 1}, OUT)),
                // The library checks each vector's amounts before its kinds.
                rejects("qknoblerRound(NaN idle of another length)", Status.NOT_FINITE,
                        qknobler(0.5, new double[] {NaN})));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("libraryRejections")
    void libraryRejectsAndChangesNothing(String call, Status status, Consumer<DrfQueue> invalid) {
        Snapshot before = snapshot();
        FairschedException e = assertThrows(FairschedException.class, () -> invalid.accept(queue));
        assertEquals(status, e.status(), e.getMessage());
        assertEquals(before, snapshot());
        assertUnwritten();
    }

    static Stream<Arguments> bindingRejections() {
        Class<NullPointerException> npe = NullPointerException.class;
        return Stream.of(
                rejects("addUser(null)", npe, q -> q.addUser(9, 1, null)),
                rejects("allocateRound(null free)", npe, q -> q.allocateRound(null, OUT)),
                rejects("allocateRound(null out)", npe, q -> q.allocateRound(CAPACITY, null)),
                rejects("qknoblerRound(null machine)", npe,
                        q -> q.qknoblerRound(0.5, null, CAPACITY, OUT)),
                rejects("qknoblerRound(null idle)", npe,
                        q -> q.qknoblerRound(0.5, CAPACITY, null, OUT)),
                rejects("qknoblerRound(null out)", npe,
                        q -> q.qknoblerRound(0.5, CAPACITY, CAPACITY, null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindingRejections")
    void bindingRejectsAndChangesNothing(
            String call, Class<? extends RuntimeException> type, Consumer<DrfQueue> invalid) {
        Snapshot before = snapshot();
        assertThrows(type, () -> invalid.accept(queue));
        assertEquals(before, snapshot());
        assertUnwritten();
    }

    static Stream<Arguments> constructorRejections() {
        return Stream.of(
                arguments(0L, CAPACITY, Status.NOT_POSITIVE),
                arguments(0xFFFF_FFFFL, CAPACITY, Status.CAPACITY_TOO_LARGE),
                arguments(1L, new double[0], Status.EMPTY),
                arguments(1L, new double[] {0, 1000}, Status.NOT_POSITIVE),
                arguments(1L, new double[] {-200, 1000}, Status.NOT_POSITIVE),
                arguments(1L, new double[] {NaN, 1000}, Status.NOT_FINITE),
                arguments(1L, new double[] {200, POSITIVE_INFINITY}, Status.NOT_FINITE),
                arguments(1L, NINE_KINDS, Status.CAPACITY_FULL),
                // The capacity is checked before the cluster.
                arguments(0L, new double[0], Status.NOT_POSITIVE),
                arguments(0xFFFF_FFFFL, new double[] {NaN}, Status.CAPACITY_TOO_LARGE));
    }

    @ParameterizedTest
    @MethodSource("constructorRejections")
    void constructorMapsStatus(long users, double[] capacity, Status status) {
        FairschedException e =
                assertThrows(FairschedException.class, () -> new DrfQueue(users, capacity));
        assertEquals(status, e.status());
    }

    @ParameterizedTest
    @MethodSource("outOfU32")
    void constructorRejectsUsersBeyondU32(long users) {
        assertThrows(IllegalArgumentException.class, () -> new DrfQueue(users, CAPACITY));
    }

    static Stream<Long> outOfU32() {
        return Stream.of(-1L, 1L << 32);
    }

    /** Users that {@link Drf#divisible} and {@link QKnobler#allocate} both reject. */
    static Stream<Arguments> invalidUsers() {
        double[] weights = {1, 1};
        double[] demands = {1, 6, 1, 2};
        return Stream.of(
                users(Status.EMPTY, new double[0], weights, demands),
                users(Status.NOT_FINITE, new double[] {NaN, 1000}, weights, demands),
                users(Status.NOT_FINITE, new double[] {200, POSITIVE_INFINITY}, weights, demands),
                users(Status.NOT_POSITIVE, new double[] {0, 1000}, weights, demands),
                users(Status.NOT_POSITIVE, new double[] {-200, 1000}, weights, demands),
                users(Status.CAPACITY_FULL, NINE_KINDS, new double[] {1}, NINE_KINDS),
                users(Status.EMPTY, CAPACITY, new double[0], new double[0]),
                users(Status.NOT_POSITIVE, CAPACITY, new double[] {0, 1}, demands),
                users(Status.NOT_POSITIVE, CAPACITY, new double[] {1, -1}, demands),
                users(Status.NOT_FINITE, CAPACITY, new double[] {NaN, 1}, demands),
                users(Status.NOT_FINITE, CAPACITY, new double[] {1, POSITIVE_INFINITY}, demands),
                users(Status.NEGATIVE, CAPACITY, weights, new double[] {1, 6, -1, 2}),
                users(Status.NOT_FINITE, CAPACITY, weights, new double[] {1, NaN, 1, 2}),
                users(Status.NOT_POSITIVE, CAPACITY, weights, new double[] {1, 6, 0, 0}),
                users(Status.LENGTH_MISMATCH, CAPACITY, weights, new double[] {1, 6, 1}),
                users(Status.LENGTH_MISMATCH, CAPACITY, weights, new double[] {1, 6, 1, 2, 1, 2}));
    }

    @ParameterizedTest
    @MethodSource("invalidUsers")
    void divisibleRejectsUsers(Status status, double[] capacity, double[] weights, double[] demands) {
        FairschedException e = assertThrows(
                FairschedException.class, () -> Drf.divisible(capacity, weights, demands));
        assertEquals(status, e.status());
    }

    @ParameterizedTest
    @MethodSource("invalidUsers")
    void allocateRejectsUsers(Status status, double[] capacity, double[] weights, double[] demands) {
        FairschedException e = assertThrows(
                FairschedException.class, () -> QKnobler.allocate(capacity, weights, demands, 0.5));
        assertEquals(status, e.status());
    }

    static Stream<Arguments> invalidRhos() {
        return Stream.of(
                arguments(NaN, Status.NOT_FINITE),
                arguments(POSITIVE_INFINITY, Status.NOT_FINITE),
                arguments(-0.1, Status.OUT_OF_RANGE),
                arguments(Math.nextUp(1.0), Status.OUT_OF_RANGE));
    }

    @ParameterizedTest
    @MethodSource("invalidRhos")
    void allocateRejectsRho(double rho, Status status) {
        FairschedException e = assertThrows(FairschedException.class,
                () -> QKnobler.allocate(CAPACITY, new double[] {1, 1}, new double[] {1, 6, 1, 2}, rho));
        assertEquals(status, e.status());
    }

    /** All the state a call could change: the stats and every user. */
    private record Snapshot(DrfQueue.Stats stats, List<DrfQueue.UserInfo> users) {}

    private Snapshot snapshot() {
        return new Snapshot(queue.stats(), List.of(queue.user(1), queue.user(2), queue.user(3)));
    }

    private static void assertUnwritten() {
        long[] sentinels = new long[OUT.length];
        Arrays.fill(sentinels, SENTINEL);
        assertArrayEquals(sentinels, OUT, "ids written by a failed round");
    }

    /** A valid demand for the queue's two kinds. */
    private static double[] demand() {
        return new double[] {1, 1};
    }

    private static Consumer<DrfQueue> round(double... free) {
        return q -> q.allocateRound(free, OUT);
    }

    /** A QKnobler round on a machine of the queue's capacity. */
    private static Consumer<DrfQueue> qknobler(double rho, double[] idle) {
        return q -> q.qknoblerRound(rho, CAPACITY, idle, OUT);
    }

    private static Arguments users(
            Status status, double[] capacity, double[] weights, double[] demands) {
        return arguments(status, capacity, weights, demands);
    }

    private static Arguments rejects(String call, Object expected, Consumer<DrfQueue> invalid) {
        return arguments(call, expected, invalid);
    }
}

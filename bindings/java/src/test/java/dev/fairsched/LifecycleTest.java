package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ownership, the status table, panics, and the full range of ids and counts. */
class LifecycleTest {
    @Test
    void closingTwiceIsHarmless() {
        Cfq cfq = new Cfq(1, 1, 0);
        cfq.close();
        cfq.close();
    }

    static Stream<Arguments> everyCall() {
        return Stream.of(
                call("advance", c -> c.advance(1)),
                call("setSlots", c -> c.setSlots(1, 1)),
                call("arrive", c -> c.arrive(1, 1, 1, 1)),
                call("reprofile", c -> c.reprofile(1, 1, 1)),
                call("setPending", c -> c.setPending(1, 1)),
                call("setPendingBatch", c -> c.setPendingBatch(new long[1], new int[1])),
                call("offer", c -> c.offer(new long[1], 1)),
                call("peek", Cfq::peek),
                call("complete", c -> c.complete(1, 1)),
                call("remove", c -> c.remove(1, 1)),
                call("job", c -> c.job(1)),
                call("gpsCompletionEstimate", c -> c.gpsCompletionEstimate(1)),
                call("stats", Cfq::stats));
    }

    private static Arguments call(String name, Consumer<Cfq> call) {
        return arguments(name, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyCall")
    void everyCallAfterCloseThrows(String name, Consumer<Cfq> call) {
        Cfq cfq = new Cfq(1, 1, 0);
        cfq.close();
        assertThrows(IllegalStateException.class, () -> call.accept(cfq));
    }

    @Test
    void panicInTheLibraryIsAnException() {
        int code = NativeTesting.panic();
        FairschedException e =
                assertThrows(FairschedException.class, () -> FairschedException.check(code));
        assertEquals(Status.PANIC, e.status());
        assertTrue(e.getMessage().contains("panic"), e.getMessage());
    }

    /** Every status has the library's message; a code the library does not know has one too. */
    @Test
    void statusMessagesAreTheLibrarys() {
        NativeLibrary.load();
        assertEquals("unknown status", NativeLibrary.statusMessage(Status.values().length));
        assertEquals("unknown status", NativeLibrary.statusMessage(-1));
        FairschedException e = assertThrows(FairschedException.class,
                () -> FairschedException.check(Status.UNKNOWN_ID.code()));
        assertEquals("UNKNOWN_ID: " + Status.UNKNOWN_ID.message(), e.getMessage());
    }

    /** The library loaded is of the ABI the glue was compiled for (checked by the loader). */
    @Test
    void abiVersionIsTheHeaders() {
        assertEquals(Map.of("ABI_VERSION", NativeLibrary.ABI_VERSION),
                Header.constants("#define FAIRSCHED_(ABI_VERSION) (\\d+)"));
        NativeLibrary.load();
        assertEquals(NativeLibrary.ABI_VERSION, NativeLibrary.abiVersion());
    }

    /** A library of another ABI is refused, saying which two versions disagree. */
    @Test
    void anotherAbiIsRefused() {
        NativeLibrary.requireAbi(NativeLibrary.ABI_VERSION);
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class,
                () -> NativeLibrary.requireAbi(NativeLibrary.ABI_VERSION + 1));
        String expected = "ABI version " + (NativeLibrary.ABI_VERSION + 1) + ", but its JNI glue"
                + " was compiled against fairsched.h of ABI version " + NativeLibrary.ABI_VERSION;
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /** Status must mirror the C enum name for name and code for code. */
    @Test
    void statusTableMatchesTheHeader() {
        Map<String, Integer> inHeader = Header.constants("FAIRSCHED_STATUS_(\\w+) = (\\d+),");
        Map<String, Integer> inJava = new LinkedHashMap<>();
        for (Status status : Status.values()) {
            inJava.put(status.name(), status.code());
            assertEquals(status, Status.of(status.code()));
            assertFalse(status.message().isEmpty(), status.name());
        }
        assertEquals(inHeader, inJava);
    }

    @Test
    void idsCarryAll64Bits() {
        long maxU64 = -1;
        try (Cfq cfq = new Cfq(2, 1, 0)) {
            cfq.arrive(0, maxU64, 1, 1);
            cfq.arrive(0, Long.MIN_VALUE, 2, 1);
            cfq.setPendingBatch(new long[] {Long.MIN_VALUE, maxU64}, new int[] {1, 1});
            assertEquals(OptionalLong.of(maxU64), cfq.peek());
            assertArrayEquals(new long[] {maxU64, Long.MIN_VALUE}, cfq.offer(2));
            assertEquals(maxU64, cfq.job(maxU64).id());
            assertEquals("18446744073709551615", Long.toUnsignedString(cfq.job(maxU64).id()));
        }
    }

    @Test
    void countsSpanTheWholeU32Range() {
        long maxU32 = 0xFFFF_FFFFL;
        try (Cfq cfq = new Cfq(1, maxU32, 0)) {
            cfq.arrive(0, 1, 1, maxU32);
            cfq.setPending(1, maxU32);
            JobInfo job = cfq.job(1);
            assertEquals(maxU32, job.weight());
            assertEquals(maxU32, job.pendingTasks());
            assertEquals(maxU32, cfq.stats().slots());
        }
    }

    @Test
    void offerWritesOnlyWhatItAssigns() {
        try (Cfq cfq = new Cfq(2, 1, 0)) {
            cfq.arrive(0, 7, 1, 1);
            cfq.setPending(7, 2);
            long[] out = {-5, -5, -5, -5};
            assertEquals(2, cfq.offer(out, 3));
            assertArrayEquals(new long[] {7, 7, -5, -5}, out);
            assertEquals(0, cfq.offer(out, 0));
            assertEquals(OptionalLong.empty(), cfq.peek());
        }
    }

    /** The glue offers in chunks of 256 slots; an offer spanning several must not show it. */
    @Test
    void offerSpansChunks() {
        try (Cfq cfq = new Cfq(2, 1, 0)) {
            cfq.arrive(0, 1, 1, 1);
            cfq.arrive(0, 2, 2, 1);
            cfq.setPendingBatch(new long[] {1, 2}, new int[] {300, 212});
            long[] expected = new long[512];
            Arrays.fill(expected, 0, 300, 1);
            Arrays.fill(expected, 300, 512, 2);
            assertArrayEquals(expected, cfq.offer(1000));
            assertEquals(OptionalLong.empty(), cfq.peek());
        }
    }

    @Test
    void batchTakesTheLastCountOfARepeatedIdAndMayBeEmpty() {
        try (Cfq cfq = new Cfq(2, 1, 0)) {
            cfq.arrive(0, 1, 1, 1);
            cfq.setPendingBatch(new long[] {1, 1}, new int[] {5, 2});
            cfq.setPendingBatch(new long[0], new int[0]);
            assertEquals(2, cfq.job(1).pendingTasks());
            assertEquals(1, cfq.stats().backlogged());
            assertArrayEquals(new long[] {1, 1}, cfq.offer(3));
        }
    }
}

package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The CFQ paper's worked example (Fig. 2 and 3), as tests/cfq_paper.rs runs it in Rust. */
class PaperExampleTest {
    @Test
    void figures2And3() {
        try (Cfq cfq = new Cfq(8, 3, 0)) {
            cfq.arrive(0, 1, 9, 1);
            cfq.arrive(0, 2, 16, 1);
            cfq.setPending(1, 1);
            cfq.setPending(2, 4);
            assertEquals(9.0, cfq.job(1).virtualFinish());
            assertEquals(16.0, cfq.job(2).virtualFinish());
            assertArrayEquals(new long[] {1, 2, 2}, cfq.offer(3));

            cfq.arrive(4, 3, 8, 1);
            cfq.setPending(3, 2);
            assertEquals(14.0, cfq.job(3).virtualFinish());
            assertArrayEquals(new long[] {3, 3}, cfq.offer(2));

            cfq.complete(8, 3);
            assertEquals(7.0, cfq.job(1).gpsCompletion().getAsDouble());
            assertEquals(31.0 / 3, cfq.gpsCompletionEstimate(3));
            assertArrayEquals(new long[] {2, 2}, cfq.offer(2));
            cfq.complete(9, 1);
            cfq.complete(12, 2);

            assertCompletions(cfq, 1, 9, 7);
            assertCompletions(cfq, 2, 12, 11);
            assertCompletions(cfq, 3, 8, 10.333333333333334);
        }
    }

    /** Theorem 1's bound on the example: longest task 9, largest slot-time 16, on 3 slots. */
    @Test
    void delayBound() {
        assertEquals(2 * 9.0 + 16.0 / 3, Cfq.delayBound(9, 16, 3));
        assertEquals(Status.NOT_FINITE,
                assertThrows(FairschedException.class, () -> Cfq.delayBound(Double.NaN, 16, 3))
                        .status());
        assertEquals(Status.OUT_OF_RANGE,
                assertThrows(FairschedException.class, () -> Cfq.delayBound(17, 16, 3)).status());
        assertEquals(Status.NOT_POSITIVE,
                assertThrows(FairschedException.class, () -> Cfq.delayBound(9, 16, 0)).status());
        assertThrows(IllegalArgumentException.class, () -> Cfq.delayBound(9, 16, -1));
    }

    /** Compares exactly: the binding must hand over the library's doubles untouched. */
    private static void assertCompletions(Cfq cfq, long id, double real, double gps) {
        JobInfo job = cfq.job(id);
        assertEquals(real, job.completion().getAsDouble(), "completion of job " + id);
        assertEquals(gps, job.gpsCompletion().getAsDouble(), "GPS completion of job " + id);
    }
}

package dev.fairsched.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * CFQ's naive profiler in a real Spark driver (local[2], taskSeconds 0.25): jobs without a
 * {@code fairsched.slotTime} run under CFQ with the slot-time the profiler gives, read from the
 * core while they run. The first job, before any task has finished, gets its task count times
 * 0.25 s; a later one its task count times the exact mean of the durations the driver's task
 * ends reported (this test's listener sees the same events, after the scheduler's); each is
 * re-profiled once, at its first task end, to its task count times that task's duration. A job
 * with the property keeps it.
 */
class CfqProfilingTest {
    private static final long WAIT = 20_000;

    @Test
    void jobsWithoutSlotTimeAreProfiledThenCorrected() throws Exception {
        JavaSparkContext sc = SparkJobs.start("fairsched:local[2]", "cfq-profiler",
                "spark.fairsched.policy", "cfq", "spark.fairsched.cfq.taskSeconds", "0.25");
        try {
            Recorder rec = new Recorder();
            sc.sc().addSparkListener(rec);
            FairschedTaskScheduler f = (FairschedTaskScheduler) sc.sc().taskScheduler();
            Throwable[] failure = new Throwable[1];

            // A, 3 tasks, nothing observed yet: 3 x 0.25 s until its first task ends, then
            // 3 x that task's duration, which its second task end does not change.
            Thread a = SparkJobs.submit(sc, new long[] {800, 2000, 2000},
                    Map.of("test.label", "A"), failure);
            rec.awaitLaunches(1, WAIT);
            int idA = rec.jobId("A");
            assertEquals(0.75, slotTime(f, idA));
            long firstA = rec.awaitTaskEnds("A", 1, WAIT).get(0);
            assertEquals(3 * (firstA / 1000.0), slotTime(f, idA));
            rec.awaitTaskEnds("A", 2, WAIT);
            assertEquals(3 * (firstA / 1000.0), slotTime(f, idA));
            a.join();
            rec.awaitEnd("A", WAIT); // the scheduler has seen every task end before this
            List<Long> observed = rec.durations();
            assertEquals(3, observed.size());

            // B, 2 tasks: 2 x the exact mean of the 3 durations observed, then corrected. Its
            // second task runs long after the first, so that B is still in the core when read.
            Thread b = SparkJobs.submit(sc, new long[] {500, 2500}, Map.of("test.label", "B"),
                    failure);
            rec.awaitLaunches(4, WAIT);
            int idB = rec.jobId("B");
            assertEquals(2 * exactMeanSeconds(observed), slotTime(f, idB));
            long firstB = rec.awaitTaskEnds("B", 1, WAIT).get(0);
            assertEquals(2 * (firstB / 1000.0), slotTime(f, idB));
            b.join();

            // C gives its slot-time: never re-profiled.
            Thread c = SparkJobs.submit(sc, new long[] {300, 2500},
                    Map.of("test.label", "C", "fairsched.slotTime", "5"), failure);
            rec.awaitLaunches(6, WAIT);
            int idC = rec.jobId("C");
            assertEquals(5.0, slotTime(f, idC));
            rec.awaitTaskEnds("C", 1, WAIT);
            assertEquals(5.0, slotTime(f, idC));
            c.join();
            assertNull(failure[0]);
        } finally {
            sc.stop();
        }
    }

    private static double slotTime(FairschedTaskScheduler f, int jobId) {
        return f.cfqJob(jobId).orElseThrow(() -> new AssertionError("job " + jobId
                + " is not in the core")).slotTime();
    }

    /** The mean of the durations in seconds (each {@code ms / 1000.0}), correctly rounded. */
    private static double exactMeanSeconds(List<Long> millis) {
        BigDecimal sum = BigDecimal.ZERO;
        for (long ms : millis) {
            sum = sum.add(new BigDecimal(ms / 1000.0)); // the double's exact value
        }
        return sum.divide(BigDecimal.valueOf(millis.size()), new MathContext(200)).doubleValue();
    }
}

package dev.fairsched.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weights reach both policies: from the {@code fairsched.weight} job property, and otherwise
 * from the job's Spark pool weight under {@code spark.scheduler.mode=FAIR}.
 */
class WeightsTest {
    /** Long enough for the scheduler's state to be read while the jobs run. */
    static final long TASK_MILLIS = 600;

    @TempDir
    Path dir;

    /** The weight CFQ's core gave a job with {@code props}, read while it runs. */
    private static long cfqWeight(JavaSparkContext sc, Map<String, String> props)
            throws Exception {
        Recorder rec = new Recorder();
        sc.sc().addSparkListener(rec);
        Throwable[] failure = new Throwable[1];
        Map<String, String> labelled = new HashMap<>(props);
        labelled.put("test.label", "J");
        Thread job = SparkJobs.submit(sc, 2, TASK_MILLIS, labelled, failure);
        rec.awaitLaunches(2, 10_000);
        FairschedTaskScheduler f = (FairschedTaskScheduler) sc.sc().taskScheduler();
        long weight = f.cfqJob(rec.jobId("J")).orElseThrow().weight();
        job.join();
        assertNull(failure[0]);
        return weight;
    }

    @Test
    void cfqTakesTheJobPropertyThenThePoolWeight() throws Exception {
        Path pools = dir.resolve("fairscheduler.xml");
        Files.writeString(pools, """
                <?xml version="1.0"?>
                <allocations>
                  <pool name="heavy"><schedulingMode>FIFO</schedulingMode><weight>4</weight><minShare>0</minShare></pool>
                </allocations>
                """);
        JavaSparkContext sc = SparkJobs.start("fairsched:local[2]", "weights-cfq",
                "spark.fairsched.policy", "cfq", "spark.scheduler.mode", "FAIR",
                "spark.scheduler.allocation.file", pools.toString());
        try {
            assertEquals(3, cfqWeight(sc, Map.of("fairsched.slotTime", "1",
                    "fairsched.weight", "3", "spark.scheduler.pool", "heavy")));
            assertEquals(4, cfqWeight(sc, Map.of("fairsched.slotTime", "1",
                    "spark.scheduler.pool", "heavy")));
        } finally {
            sc.stop();
        }
    }

    @Test
    void pafSharesByWeight() throws Exception {
        // Two jobs without a curve keep their fair shares: 3 slots weighted 2:1 give 2 and 1.
        JavaSparkContext sc = SparkJobs.start("fairsched:local[3]", "weights-paf",
                "spark.fairsched.policy", "paf");
        try {
            Recorder rec = new Recorder();
            sc.sc().addSparkListener(rec);
            Throwable[] failure = new Throwable[1];
            Thread light = SparkJobs.submit(sc, 6, TASK_MILLIS,
                    Map.of("test.label", "light", "fairsched.weight", "1"), failure);
            rec.awaitLaunches(3, 10_000);
            Thread heavy = SparkJobs.submit(sc, 6, TASK_MILLIS,
                    Map.of("test.label", "heavy", "fairsched.weight", "2"), failure);
            rec.awaitLaunches(4, 10_000);
            FairschedTaskScheduler f = (FairschedTaskScheduler) sc.sc().taskScheduler();
            assertEquals(Map.of(rec.jobId("light"), 1, rec.jobId("heavy"), 2), f.pafTargets());
            light.join();
            heavy.join();
            assertNull(failure[0]);
        } finally {
            sc.stop();
        }
    }
}

package dev.fairsched.spark;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** Bad configuration fails the application at start, a bad job property fails that job. */
class BadConfigurationTest {
    private static void startFails(String expected, String... settings) {
        Exception e = assertThrows(Exception.class,
                () -> SparkJobs.start("fairsched:local[2]", "bad-config", settings).stop());
        String all = messages(e);
        assertTrue(all.contains(expected), all);
    }

    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t.getMessage()).append(" | ");
        }
        return b.toString();
    }

    @Test
    void unknownPolicy() {
        startFails("spark.fairsched.policy='drf' is not a policy", "spark.fairsched.policy", "drf");
    }

    @Test
    void unknownSetting() {
        startFails("unknown setting spark.fairsched.polcy", "spark.fairsched.polcy", "cfq");
    }

    @Test
    void badAlphaAndCapacity() {
        startFails("spark.fairsched.paf.alpha=0 is outside (0, 1]", "spark.fairsched.policy",
                "paf", "spark.fairsched.paf.alpha", "0");
        startFails("spark.fairsched.capacity='lots' is not an integer",
                "spark.fairsched.capacity", "lots");
        startFails("spark.fairsched.cfq.taskSeconds=0 must be finite and above 0 seconds",
                "spark.fairsched.cfq.taskSeconds", "0");
        startFails("spark.fairsched.cfq.taskSeconds='1s' is not a number",
                "spark.fairsched.cfq.taskSeconds", "1s");
    }

    @Test
    void badJobPropertiesFailTheJobAndSparkGoesOn() {
        JavaSparkContext sc = SparkJobs.start("fairsched:local[2]", "bad-props",
                "spark.fairsched.policy", "cfq");
        try {
            jobFails(sc, Map.of("fairsched.slotTime", "abc"), "fairsched.slotTime='abc'");
            jobFails(sc, Map.of("fairsched.slotTime", "-1"),
                    "a slot-time must be finite and above 0");
            jobFails(sc, Map.of("fairsched.slotTime", "1", "fairsched.weight", "0"),
                    "a weight must be at least 1");
            // The driver still schedules good jobs, one without a slot-time (profiled).
            SparkJobs.sleepJob(sc, 2, 1, Map.of("fairsched.slotTime", "0.1",
                    "fairsched.weight", "1"));
            sc.setLocalProperty("fairsched.slotTime", null);
            SparkJobs.sleepJob(sc, 2, 1, Map.of());
        } finally {
            sc.stop();
        }
        JavaSparkContext paf = SparkJobs.start("fairsched:local[2]", "bad-props",
                "spark.fairsched.policy", "paf");
        try {
            jobFails(paf, Map.of("fairsched.ernest", "1,2,3"), "expected 4 coefficients");
            jobFails(paf, Map.of("fairsched.ernest", "1,-2,3,4"), "at least 0");
            jobFails(paf, Map.of("fairsched.ernestSamples", "2:1"), "rejected by the core");
            SparkJobs.sleepJob(paf, 2, 1, Map.of("fairsched.ernest", "1,0,1,0"));
        } finally {
            paf.stop();
        }
    }

    private static void jobFails(JavaSparkContext sc, Map<String, String> props,
            String expected) {
        for (String k : new String[] {"fairsched.slotTime", "fairsched.weight",
                "fairsched.ernest", "fairsched.ernestSamples"}) {
            sc.setLocalProperty(k, null);
        }
        Exception e = assertThrows(Exception.class, () -> SparkJobs.sleepJob(sc, 2, 1, props));
        String all = messages(e);
        assertTrue(all.contains(expected), all);
        for (String k : props.keySet()) {
            sc.setLocalProperty(k, null);
        }
    }
}

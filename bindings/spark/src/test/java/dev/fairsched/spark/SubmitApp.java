package dev.fairsched.spark;

import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The application {@link SparkSubmitTest} hands to Spark's own {@code SparkSubmit}: it takes its
 * master and settings from what spark-submit passed (nothing set here), runs one job, and prints
 * which task scheduler and policy Spark built for it.
 */
public final class SubmitApp {
    private SubmitApp() {}

    public static void main(String[] args) {
        JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("submit-app"));
        try {
            SparkJobs.sleepJob(sc, 2, 1, Map.of("fairsched.slotTime", "0.1"));
            Object scheduler = sc.sc().taskScheduler();
            String policy = scheduler instanceof FairschedTaskScheduler f
                    ? f.stats().policy() : "none";
            System.out.println("submitted: " + scheduler.getClass().getSimpleName() + " "
                    + policy);
        } finally {
            sc.stop();
        }
    }
}

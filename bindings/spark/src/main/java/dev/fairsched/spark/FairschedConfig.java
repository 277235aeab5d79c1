package dev.fairsched.spark;

import java.util.Locale;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import scala.Tuple2;

/**
 * The application's {@code spark.fairsched.*} settings, validated once when the SparkContext
 * creates its task scheduler: a bad value fails the application at start.
 *
 * <ul>
 *   <li>{@code spark.fairsched.policy}: {@code cfq} (default), {@code paf}, or {@code spark}
 *       (Spark's own FIFO/FAIR order from {@code spark.scheduler.mode}, through the same timed
 *       hook: the baseline of the benchmark);
 *   <li>{@code spark.fairsched.capacity}: CFQ rows, jobs known at once (default 10000);
 *   <li>{@code spark.fairsched.paf.alpha}: PAF's fairness knob in (0, 1] (default 0.9);
 *   <li>{@code spark.fairsched.cfq.taskSeconds}: CFQ's profiler, the mean task duration in
 *       seconds assumed until the driver has seen a task finish (default 1.0, finite and above
 *       0).
 * </ul>
 * Any other {@code spark.fairsched.*} key is rejected (a typo must not silently fall back).
 */
public record FairschedConfig(Policy policy, long capacity, double alpha, double taskSeconds) {
    /** The ordering policies. */
    public enum Policy { CFQ, PAF, SPARK }

    public static final String POLICY = "spark.fairsched.policy";
    public static final String CAPACITY = "spark.fairsched.capacity";
    public static final String ALPHA = "spark.fairsched.paf.alpha";
    public static final String TASK_SECONDS = "spark.fairsched.cfq.taskSeconds";
    private static final List<String> KNOWN = List.of(POLICY, CAPACITY, ALPHA, TASK_SECONDS);

    static FairschedConfig from(SparkConf conf) throws SparkException {
        for (Tuple2<String, String> kv : conf.getAllWithPrefix("spark.fairsched.")) {
            String key = "spark.fairsched." + kv._1();
            if (!KNOWN.contains(key)) {
                throw new SparkException("fairsched: unknown setting " + key + " (known: "
                        + String.join(", ", KNOWN) + ")");
            }
        }
        String p = conf.get(POLICY, "cfq").trim().toLowerCase(Locale.ROOT);
        Policy policy = switch (p) {
            case "cfq" -> Policy.CFQ;
            case "paf" -> Policy.PAF;
            case "spark" -> Policy.SPARK;
            default -> throw new SparkException("fairsched: " + POLICY + "='" + conf.get(POLICY)
                    + "' is not a policy (expected cfq, paf or spark)");
        };
        String c = conf.get(CAPACITY, "10000").trim();
        long capacity;
        try {
            capacity = Long.parseLong(c);
        } catch (NumberFormatException e) {
            throw new SparkException("fairsched: " + CAPACITY + "='" + c + "' is not an integer");
        }
        if (capacity < 1 || capacity > 100_000_000L) {
            throw new SparkException("fairsched: " + CAPACITY + "=" + capacity
                    + " is outside [1, 100000000]");
        }
        double alpha = number(conf, ALPHA, "0.9");
        if (!(alpha > 0 && alpha <= 1)) {
            throw new SparkException("fairsched: " + ALPHA + "=" + conf.get(ALPHA).trim()
                    + " is outside (0, 1]");
        }
        double taskSeconds = number(conf, TASK_SECONDS, "1.0");
        if (!(taskSeconds > 0) || Double.isInfinite(taskSeconds)) {
            throw new SparkException("fairsched: " + TASK_SECONDS + "="
                    + conf.get(TASK_SECONDS).trim() + " must be finite and above 0 seconds");
        }
        return new FairschedConfig(policy, capacity, alpha, taskSeconds);
    }

    private static double number(SparkConf conf, String key, String fallback)
            throws SparkException {
        String v = conf.get(key, fallback).trim();
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new SparkException("fairsched: " + key + "='" + v + "' is not a number");
        }
    }
}

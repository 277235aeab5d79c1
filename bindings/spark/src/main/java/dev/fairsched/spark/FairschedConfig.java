package dev.fairsched.spark;

import java.util.Locale;
import java.util.Set;
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
 *   <li>{@code spark.fairsched.paf.alpha}: PAF's fairness knob in (0, 1] (default 0.9).
 * </ul>
 * Any other {@code spark.fairsched.*} key is rejected (a typo must not silently fall back).
 */
public record FairschedConfig(Policy policy, long capacity, double alpha) {
    /** The ordering policies. */
    public enum Policy { CFQ, PAF, SPARK }

    public static final String POLICY = "spark.fairsched.policy";
    public static final String CAPACITY = "spark.fairsched.capacity";
    public static final String ALPHA = "spark.fairsched.paf.alpha";
    private static final Set<String> KNOWN = Set.of(POLICY, CAPACITY, ALPHA);

    static FairschedConfig from(SparkConf conf) throws SparkException {
        for (Tuple2<String, String> kv : conf.getAllWithPrefix("spark.fairsched.")) {
            String key = "spark.fairsched." + kv._1();
            if (!KNOWN.contains(key)) {
                throw new SparkException("fairsched: unknown setting " + key + " (known: "
                        + POLICY + ", " + CAPACITY + ", " + ALPHA + ")");
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
        String a = conf.get(ALPHA, "0.9").trim();
        double alpha;
        try {
            alpha = Double.parseDouble(a);
        } catch (NumberFormatException e) {
            throw new SparkException("fairsched: " + ALPHA + "='" + a + "' is not a number");
        }
        if (!(alpha > 0 && alpha <= 1)) {
            throw new SparkException("fairsched: " + ALPHA + "=" + a + " is outside (0, 1]");
        }
        return new FairschedConfig(policy, capacity, alpha);
    }
}

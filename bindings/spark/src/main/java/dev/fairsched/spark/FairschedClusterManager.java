package dev.fairsched.spark;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkException;
import org.apache.spark.scheduler.ExternalClusterManager;
import org.apache.spark.scheduler.SchedulerBackend;
import org.apache.spark.scheduler.TaskScheduler;
import org.apache.spark.scheduler.TaskSchedulerImpl;
import org.apache.spark.scheduler.local.LocalSchedulerBackend;

/**
 * Spark finds this class through {@code META-INF/services/
 * org.apache.spark.scheduler.ExternalClusterManager} when the master URL is one Spark does not
 * know itself: {@code fairsched:local[N]} (or {@code local-fairsched[N]}, the spelling {@code
 * spark-submit} accepts, since it only lets masters starting with {@code local}, {@code spark},
 * {@code k8s} or {@code yarn} through), with an optional {@code ,F} for task failures as in
 * {@code local[N,F]}. It builds Spark's own {@link LocalSchedulerBackend} over a {@link
 * FairschedTaskScheduler}.
 */
public final class FairschedClusterManager implements ExternalClusterManager {
    private static final Pattern URL =
            Pattern.compile("(?:fairsched:local|local-fairsched)\\[\\s*([0-9]+|\\*)\\s*(?:,\\s*([0-9]+)\\s*)?\\]");

    /** Spark's own {@code MAX_LOCAL_TASK_FAILURES}: local mode does not retry a failed task. */
    private static final int MAX_LOCAL_TASK_FAILURES = 1;

    @Override
    public boolean canCreate(String masterUrl) {
        return masterUrl != null && URL.matcher(masterUrl.trim()).matches();
    }

    static int threads(String masterUrl) throws SparkException {
        Matcher m = URL.matcher(masterUrl.trim());
        if (!m.matches()) {
            throw new SparkException("fairsched: cannot parse master URL '" + masterUrl + "'");
        }
        int threads = m.group(1).equals("*")
                ? Runtime.getRuntime().availableProcessors()
                : parsePositive(m.group(1), masterUrl);
        return threads;
    }

    private static int maxFailures(String masterUrl) throws SparkException {
        Matcher m = URL.matcher(masterUrl.trim());
        m.matches();
        return m.group(2) == null ? MAX_LOCAL_TASK_FAILURES : parsePositive(m.group(2), masterUrl);
    }

    private static int parsePositive(String s, String masterUrl) throws SparkException {
        try {
            int v = Integer.parseInt(s);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new SparkException("fairsched: master URL '" + masterUrl
                + "': expected a positive count, got '" + s + "'");
    }

    @Override
    public TaskScheduler createTaskScheduler(SparkContext sc, String masterUrl) {
        try {
            FairschedConfig config = FairschedConfig.from(sc.getConf());
            int threads = threads(masterUrl);
            return new FairschedTaskScheduler(sc, maxFailures(masterUrl), config, threads);
        } catch (SparkException e) {
            // Spark rethrows a SparkException from here as it is (anything else is wrapped in
            // "External scheduler cannot be instantiated"): the user sees our message on top.
            throw FairschedClusterManager.<RuntimeException>sneaky(e);
        }
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> E sneaky(Throwable e) throws E {
        throw (E) e;
    }

    @Override
    public SchedulerBackend createSchedulerBackend(SparkContext sc, String masterUrl,
            TaskScheduler scheduler) {
        try {
            return new LocalSchedulerBackend(sc.getConf(), (TaskSchedulerImpl) scheduler,
                    threads(masterUrl));
        } catch (SparkException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public void initialize(TaskScheduler scheduler, SchedulerBackend backend) {
        ((TaskSchedulerImpl) scheduler).initialize(backend);
    }
}

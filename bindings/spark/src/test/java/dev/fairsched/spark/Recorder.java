package dev.fairsched.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;

/**
 * Records, from Spark's own events, when each task of a labelled job launched (the scheduler's
 * launch time), the duration of every task that succeeded (labelled or not, in the order of the
 * events) and when each job ended. A job's label is its local property "test.label".
 */
final class Recorder extends SparkListener {
    record Launch(String label, long time, long taskId) {}

    private final Map<Integer, String> stageLabel = new ConcurrentHashMap<>();
    private final Map<Integer, String> jobLabel = new ConcurrentHashMap<>();
    private final Map<String, Integer> labelJob = new ConcurrentHashMap<>();
    /** Durations of the tasks that succeeded, in milliseconds, with their labels (or null). */
    private final List<Long> durations = new ArrayList<>();
    private final List<String> durationLabels = new ArrayList<>();
    private final List<Launch> launches = new ArrayList<>();
    private final Map<String, Long> ends = new ConcurrentHashMap<>();

    @Override
    public void onJobStart(SparkListenerJobStart e) {
        String label = e.properties() == null ? null : e.properties().getProperty("test.label");
        if (label != null) {
            jobLabel.put(e.jobId(), label);
            labelJob.put(label, e.jobId());
            scala.collection.Iterator<Object> it = e.stageIds().iterator();
            while (it.hasNext()) {
                stageLabel.put((Integer) it.next(), label);
            }
        }
    }

    @Override
    public synchronized void onTaskStart(SparkListenerTaskStart e) {
        String label = stageLabel.get(e.stageId());
        if (label != null) {
            launches.add(new Launch(label, e.taskInfo().launchTime(), e.taskInfo().taskId()));
            notifyAll();
        }
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
        if (e.taskInfo().successful()) {
            durations.add(e.taskInfo().duration());
            durationLabels.add(stageLabel.get(e.stageId()));
            notifyAll();
        }
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd e) {
        String label = jobLabel.get(e.jobId());
        if (label != null) {
            ends.put(label, e.time());
            notifyAll();
        }
    }

    /** The Spark job id of the job labelled {@code label} (once it started). */
    int jobId(String label) {
        return labelJob.get(label);
    }

    /**
     * Waits until {@code n} tasks of the job labelled {@code label} have succeeded, and returns
     * their durations in milliseconds, in the order of the events.
     */
    synchronized List<Long> awaitTaskEnds(String label, int n, long timeoutMillis)
            throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < end) {
            List<Long> mine = new ArrayList<>();
            for (int i = 0; i < durations.size(); i++) {
                if (label.equals(durationLabels.get(i))) {
                    mine.add(durations.get(i));
                }
            }
            if (mine.size() >= n) {
                return mine;
            }
            wait(10);
        }
        throw new AssertionError(label + ": fewer than " + n + " tasks succeeded in time");
    }

    /** Waits until the job labelled {@code label} has ended. */
    synchronized void awaitEnd(String label, long timeoutMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (!ends.containsKey(label) && System.currentTimeMillis() < end) {
            wait(10);
        }
    }

    /** The durations of every task that succeeded so far, in milliseconds. */
    synchronized List<Long> durations() {
        return new ArrayList<>(durations);
    }

    /** Waits until {@code n} labelled tasks have launched. */
    synchronized void awaitLaunches(int n, long timeoutMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (launches.size() < n && System.currentTimeMillis() < end) {
            wait(10);
        }
    }

    /** Labels of the launched tasks, in launch order. */
    synchronized List<String> launchOrder() {
        List<Launch> l = new ArrayList<>(launches);
        l.sort(Comparator.comparingLong(Launch::time).thenComparingLong(Launch::taskId));
        List<String> out = new ArrayList<>();
        for (Launch x : l) {
            out.add(x.label());
        }
        return out;
    }

    synchronized long firstLaunch() {
        return launches.stream().mapToLong(Launch::time).min().orElse(0);
    }

    /** Labels in the order their jobs ended. */
    List<String> completionOrder() {
        List<Map.Entry<String, Long>> l = new ArrayList<>(ends.entrySet());
        l.sort(Map.Entry.comparingByValue());
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : l) {
            out.add(e.getKey());
        }
        return out;
    }

    long end(String label) {
        return ends.get(label);
    }
}

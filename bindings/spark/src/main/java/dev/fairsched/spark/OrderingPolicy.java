package dev.fairsched.spark;

import java.util.ArrayList;
import java.util.List;
import scala.collection.mutable.ArrayBuffer;

/**
 * What CFQ and PAF share: the jobs known to the core, in a dense list, and the per-round pass
 * that sums each job's pending and running tasks over its task sets. Every method runs under the
 * scheduler's lock.
 */
abstract class OrderingPolicy implements AutoCloseable {
    final ArrayList<JobState> jobs = new ArrayList<>();
    private final ArrayList<FairschedTaskSetManager> orphans = new ArrayList<>();
    long stamp;
    /** Native calls made by rounds, for the statistics. */
    long nativeCalls;

    /**
     * Admits a job at the submission of its first task set. Validates everything first, then
     * changes the core; on any exception nothing is changed.
     */
    abstract JobState admit(int jobId, JobProperties props, int weight, int tasks, double now);

    /** The job left (finished, failed or cancelled). */
    abstract void depart(JobState job, boolean succeeded, double now);

    /**
     * A task ended successfully after {@code seconds}; {@code job} is the admitted job it belongs
     * to, or null. Nothing by default (CFQ's profiler observes it).
     */
    void taskEnded(JobState job, double seconds, double now) {}

    /** Orders {@code roundSets} of the jobs into {@code out} and sets each job's quota. */
    abstract void order(int freeSlots, ArrayBuffer<org.apache.spark.scheduler.TaskSetManager> out);

    /** The jobs' pending and running tasks from the task sets of this round. */
    final void gather(List<FairschedTaskSetManager> sets) {
        stamp++;
        for (int i = 0, n = jobs.size(); i < n; i++) {
            JobState j = jobs.get(i);
            j.pending = 0;
            j.running = 0;
            j.roundSets.clear();
        }
        orphans.clear();
        for (int i = 0, n = sets.size(); i < n; i++) {
            FairschedTaskSetManager t = sets.get(i);
            JobState j = t.job;
            if (j == null || j.index < 0) {
                if (t.isSchedulable()) {
                    orphans.add(t);
                }
                continue;
            }
            j.running += t.runningTasks();
            if (t.isSchedulable()) {
                j.pending += t.waitingTasks();
                j.roundSets.add(t);
            }
        }
    }

    /** Task sets no admitted job owns (submitted before a failure, or of a departed job). */
    final void appendOrphans(ArrayBuffer<org.apache.spark.scheduler.TaskSetManager> out) {
        for (int i = 0, n = orphans.size(); i < n; i++) {
            out.addOne(orphans.get(i));
        }
    }

    static void append(JobState j, ArrayBuffer<org.apache.spark.scheduler.TaskSetManager> out) {
        for (int k = 0, m = j.roundSets.size(); k < m; k++) {
            out.addOne(j.roundSets.get(k));
        }
    }

    final void removeFromList(JobState job) {
        int i = job.index;
        int last = jobs.size() - 1;
        JobState moved = jobs.get(last);
        jobs.set(i, moved);
        moved.index = i;
        jobs.remove(last);
        job.index = -1;
        job.quota = Integer.MAX_VALUE;
    }

    @Override
    public abstract void close();
}

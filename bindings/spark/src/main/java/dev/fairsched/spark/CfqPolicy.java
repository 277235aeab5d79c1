package dev.fairsched.spark;

import dev.fairsched.Cfq;
import dev.fairsched.CfqProfiler;
import dev.fairsched.FairschedException;
import dev.fairsched.JobInfo;
import dev.fairsched.Status;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.spark.scheduler.TaskSetManager;
import scala.collection.mutable.ArrayBuffer;

/**
 * CFQ over Spark jobs. A job arrives in the core when its first task set is submitted, with the
 * slot-time of its {@code fairsched.slotTime} property or, without one, the naive profiler's
 * estimate (CFQ §V-B): its task count (of that first task set) times the mean duration of every
 * task the driver has seen finish, or times {@code spark.fairsched.cfq.taskSeconds} before any
 * has. Durations are buffered here and handed to the {@link CfqProfiler} in one batch call just
 * before an estimate (or when the buffer is full), never in a round. A profiled job is
 * re-profiled once, when its first task ends: its task count times the mean of its own finished
 * tasks, that one task ({@link Cfq#reprofile}). A job with the property never is.
 *
 * <p>Its pending tasks are the sum over its schedulable task sets. A round is one native call,
 * {@link Cfq#offer(long[], int[], long[], int)}: every job's pending count, then the offer of
 * the free cores. The order returned to Spark is the jobs in the order of the offer (smallest
 * virtual finish first), each with its task sets, then the backlogged jobs the offer did not
 * reach (they take cores only if CFQ's choices cannot use them): Spark fills task sets greedily
 * in that order, which is CFQ's.
 */
final class CfqPolicy extends OrderingPolicy {
    /** Spark times tasks in whole milliseconds: one of 0 ms ran for less than this. */
    private static final double RESOLUTION = 0.001;
    /** Durations buffered at most before a batch goes to the profiler unasked. */
    private static final int MAX_BUFFERED = 4096;

    private final Cfq cfq;
    private final CfqProfiler profiler = new CfqProfiler();
    private final double taskSeconds;
    private final long[] given;
    // Resized on arrival and departure only, never in a round.
    private long[] ids = new long[0];
    private int[] pend = new int[0];
    // The jobs sorted by id, to map the core's answer back to jobs without a scan.
    private long[] sortedIds = new long[0];
    private JobState[] byId = new JobState[0];
    /** Durations of finished tasks, in seconds, not yet handed to the profiler. */
    private double[] observed = new double[64];
    private int observedCount;

    CfqPolicy(long capacity, int slots, double taskSeconds) {
        this.cfq = new Cfq(capacity, slots, 0.0);
        this.given = new long[slots];
        this.taskSeconds = taskSeconds;
    }

    @Override
    JobState admit(int jobId, JobProperties props, int weight, int tasks, double now) {
        boolean profiled = props.slotTime() == null;
        double slotTime = profiled ? estimate(Math.max(1, tasks)) : props.slotTime();
        cfq.advance(now); // reclaims the rows of jobs GPS has completed
        cfq.arrive(now, jobId, slotTime, weight);
        JobState j = new JobState(jobId, weight, null, tasks);
        j.profiledTasks = profiled ? Math.max(1, tasks) : 0;
        j.index = jobs.size();
        jobs.add(j);
        resize();
        return j;
    }

    /** The naive profiler's slot-time of a job of {@code tasks} tasks. */
    private double estimate(int tasks) {
        flush();
        if (profiler.count() == 0) {
            return tasks * taskSeconds;
        }
        try {
            return profiler.estimate(tasks);
        } catch (FairschedException e) {
            if (e.status() != Status.NOT_POSITIVE) {
                throw e;
            }
            return tasks * RESOLUTION; // every task seen took under a millisecond
        }
    }

    private void flush() {
        if (observedCount > 0) {
            double[] batch = Arrays.copyOf(observed, observedCount);
            observedCount = 0;
            profiler.observe(batch);
        }
    }

    /**
     * Buffers the duration; if {@code job} awaits its correction, re-profiles it.
     *
     * @throws FairschedException if the core refuses the correction (nothing changed: the job
     *     keeps its order)
     */
    @Override
    void taskEnded(JobState job, double seconds, double now) {
        if (observedCount == observed.length) {
            if (observed.length < MAX_BUFFERED) {
                observed = Arrays.copyOf(observed, observed.length * 2);
            } else {
                flush();
            }
        }
        observed[observedCount++] = seconds;
        if (job != null && job.index >= 0 && job.profiledTasks > 0) {
            // The mean of its own finished tasks so far is this first one's duration.
            double slotTime = job.profiledTasks * Math.max(seconds, RESOLUTION);
            job.profiledTasks = 0;
            cfq.reprofile(now, job.id, slotTime);
        }
    }

    /** What the core knows of job {@code id}, while it is in the core. */
    JobInfo job(long id) {
        return cfq.job(id);
    }

    @Override
    void depart(JobState job, boolean succeeded, double now) {
        try {
            if (succeeded) {
                cfq.complete(now, job.id);
            }
        } finally {
            cfq.remove(now, job.id);
            removeFromList(job);
            resize();
        }
    }

    private void resize() {
        int n = jobs.size();
        ids = new long[n];
        pend = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = jobs.get(i).id;
        }
        byId = jobs.toArray(new JobState[0]);
        Arrays.sort(byId, Comparator.comparingLong(j -> j.id));
        sortedIds = new long[n];
        for (int i = 0; i < n; i++) {
            sortedIds[i] = byId[i].id;
        }
    }

    /** The job with {@code id}: a binary search, no scan and no allocation in a round. */
    private JobState find(long id) {
        int at = Arrays.binarySearch(sortedIds, id);
        return at >= 0 ? byId[at] : null;
    }

    @Override
    void order(int freeSlots, ArrayBuffer<TaskSetManager> out) {
        int n = jobs.size();
        for (int i = 0; i < n; i++) {
            JobState j = jobs.get(i);
            j.quota = Integer.MAX_VALUE;
            pend[i] = j.pending;
        }
        nativeCalls++;
        int g = cfq.offer(ids, pend, given, Math.min(freeSlots, given.length));
        long stamp = this.stamp;
        JobState current = null;
        for (int s = 0; s < g; s++) {
            if (current == null || current.id != given[s]) {
                current = find(given[s]);
                if (current != null && current.stamp != stamp) {
                    current.stamp = stamp;
                    append(current, out);
                }
                // current == null cannot happen: every id the core knows is in the list
            }
        }
        for (int i = 0; i < n; i++) {
            JobState j = jobs.get(i);
            if (j.stamp != stamp && !j.roundSets.isEmpty()) {
                append(j, out);
            }
        }
        appendOrphans(out);
    }

    @Override
    public void close() {
        cfq.close();
    }
}

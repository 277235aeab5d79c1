package dev.fairsched.spark;

import dev.fairsched.FairschedException;
import dev.fairsched.JobInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Optional;
import java.util.Properties;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkException;
import org.apache.spark.scheduler.JobSucceeded$;
import org.apache.spark.scheduler.Pool;
import org.apache.spark.scheduler.Schedulable;
import org.apache.spark.scheduler.SchedulingMode;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.TaskDescription;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskSchedulerImpl;
import org.apache.spark.scheduler.TaskSet;
import org.apache.spark.scheduler.TaskSetManager;
import org.apache.spark.scheduler.WorkerOffer;
import org.apache.spark.util.SystemClock;
import scala.Option;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.collection.mutable.ArrayBuffer;

/**
 * Spark's TaskSchedulerImpl with the task-set order of each resourceOffers round taken from
 * fairsched's CFQ or PAF core. Overrides, all public in Spark's bytecode:
 *
 * <ul>
 *   <li>{@code rootPool()}: a {@link FairschedPool}, whose {@code getSortedTaskSetQueue} is the
 *       ordering hook (every use of the root pool inside TaskSchedulerImpl goes through this
 *       accessor);
 *   <li>{@code resourceOffers}: counts the round's free cores, then runs Spark's own;
 *   <li>{@code submitTasks}: admits a job into the core at its first task set (validating its
 *       properties first; a bad one fails the job, not the application);
 *   <li>{@code createTaskSetManager}: a {@link FairschedTaskSetManager}, which knows its job;
 *   <li>{@code stop}: frees the native state.
 * </ul>
 * Job ends and task ends (for CFQ's profiler) reach the policy through a SparkListener, under
 * the scheduler's lock.
 */
public final class FairschedTaskScheduler extends TaskSchedulerImpl {
    private final FairschedConfig config;
    private final int slots;
    private final long startNanos = System.nanoTime();
    private final FairschedPool pool;
    private final OrderingPolicy policy; // null: Spark's own order
    private final HashMap<Integer, JobState> byJob = new HashMap<>();
    /** The admitted job of each stage submitted, for task ends (which name only the stage). */
    private final HashMap<Integer, JobState> byStage = new HashMap<>();
    private final ArrayList<FairschedTaskSetManager> sets = new ArrayList<>();
    private final ArrayBuffer<TaskSetManager> out = new ArrayBuffer<>();
    private boolean inRound;
    private int roundFree;
    private long rounds;
    private long policyRounds;
    private long hookNanos;
    private long maxHookNanos;
    private boolean closed;

    FairschedTaskScheduler(SparkContext sc, int maxTaskFailures, FairschedConfig config,
            int threads) throws SparkException {
        super(sc, maxTaskFailures, true, new SystemClock());
        this.config = config;
        int cpus = CPUS_PER_TASK();
        this.slots = threads / cpus;
        if (slots < 1) {
            throw new SparkException("fairsched: " + threads + " cores cannot run a task of "
                    + cpus + " cpus (spark.task.cpus)");
        }
        this.pool = new FairschedPool(this, schedulingMode());
        this.policy = switch (config.policy()) {
            case CFQ -> new CfqPolicy(config.capacity(), slots, config.taskSeconds());
            case PAF -> new PafPolicy(config.capacity(), slots, config.alpha());
            case SPARK -> null;
        };
    }

    /** The configuration in force. */
    public FairschedConfig config() {
        return config;
    }

    @Override
    public Pool rootPool() {
        return pool;
    }

    @Override
    public void start() {
        super.start();
        sc().addSparkListener(new SparkListener() {
            @Override
            public void onJobEnd(SparkListenerJobEnd end) {
                jobEnded(end.jobId(), end.jobResult() == JobSucceeded$.MODULE$);
            }

            @Override
            public void onTaskEnd(SparkListenerTaskEnd end) {
                TaskInfo info = end.taskInfo();
                if (policy != null && info != null && info.successful()) {
                    taskEnded(end.stageId(), info.duration());
                }
            }
        });
    }

    private double now() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public void submitTasks(TaskSet taskSet) {
        if (policy != null) {
            synchronized (this) {
                int jobId = taskSet.priority();
                JobState j = byJob.get(jobId);
                if (j == null) {
                    try {
                        if (closed) {
                            throw new IllegalStateException("fairsched: the scheduler is stopped");
                        }
                        JobProperties props = JobProperties.parse(jobId, taskSet.properties());
                        int weight = props.weight() != null
                                ? props.weight() : poolWeight(taskSet.properties());
                        j = policy.admit(jobId, props, weight, taskSet.tasks().length, now());
                        byJob.put(jobId, j);
                    } catch (RuntimeException e) {
                        String message = e.getMessage() != null && e.getMessage().startsWith(
                                "fairsched") ? e.getMessage()
                                : "fairsched (" + config.policy().name().toLowerCase()
                                        + "): job " + jobId + " rejected by the core: " + e;
                        logWarning(() -> message);
                        dagScheduler().taskSetFailed(taskSet, message, Option.apply(e));
                        return;
                    }
                }
                byStage.put(taskSet.stageId(), j);
            }
        }
        super.submitTasks(taskSet);
    }

    private int poolWeight(Properties p) {
        if (p == null || !SchedulingMode.FAIR().equals(schedulingMode())) {
            return 1;
        }
        Schedulable s = pool.getSchedulableByName(p.getProperty("spark.scheduler.pool",
                "default"));
        return s instanceof Pool ? Math.max(1, s.weight()) : 1;
    }

    @Override
    public TaskSetManager createTaskSetManager(TaskSet taskSet, int maxTaskFailures) {
        FairschedTaskSetManager t = new FairschedTaskSetManager(this, taskSet, maxTaskFailures);
        synchronized (this) {
            t.job = byJob.get(taskSet.priority());
        }
        return t;
    }

    private synchronized void jobEnded(int jobId, boolean succeeded) {
        JobState j = byJob.remove(jobId);
        if (j == null) {
            return;
        }
        byStage.values().removeIf(s -> s == j);
        if (j.index < 0 || closed) {
            return;
        }
        try {
            policy.depart(j, succeeded, now());
        } catch (RuntimeException e) {
            logWarning(() -> "fairsched: job " + jobId + " could not leave the core: " + e);
        }
    }

    /** A task of stage {@code stageId} succeeded after {@code millis}: to the policy. */
    private synchronized void taskEnded(int stageId, long millis) {
        if (closed) {
            return;
        }
        JobState j = byStage.get(stageId);
        try {
            policy.taskEnded(j, millis / 1000.0, now());
        } catch (FairschedException e) {
            // CFQ's correction of a job's slot-time refused (a refused call changes nothing: the
            // job keeps its order).
            String message = "fairsched (cfq): "
                    + (j == null ? "stage " + stageId : "job " + j.id) + " not re-profiled: " + e;
            logWarning(() -> message);
        }
    }

    @Override
    public synchronized Seq<Seq<TaskDescription>> resourceOffers(IndexedSeq<WorkerOffer> offers,
            boolean isAllFreeResources) {
        int free = 0;
        int cpus = CPUS_PER_TASK();
        for (int i = 0, n = offers.length(); i < n; i++) {
            free += offers.apply(i).cores() / cpus;
        }
        roundFree = free;
        inRound = true;
        try {
            return super.resourceOffers(offers, isAllFreeResources);
        } finally {
            inRound = false;
        }
    }

    /** The ordering hook, called by {@link FairschedPool} (under the lock in a round). */
    ArrayBuffer<TaskSetManager> orderRound() {
        if (!inRound) {
            return pool.sparkOrder();
        }
        long t0 = System.nanoTime();
        try {
            if (policy == null) {
                return pool.sparkOrder();
            }
            out.clear();
            sets.clear();
            collect(pool);
            if (roundFree == 0 || closed) {
                for (int i = 0, n = sets.size(); i < n; i++) {
                    if (sets.get(i).isSchedulable()) {
                        out.addOne(sets.get(i));
                    }
                }
                return out;
            }
            policyRounds++;
            policy.gather(sets);
            try {
                policy.order(roundFree, out);
            } catch (RuntimeException e) {
                // The core refused or failed: nothing it holds changed (a failed call changes
                // nothing), but its order cannot be trusted for this round. Fail the task sets
                // of the round clearly rather than run them in some other order.
                String message = "fairsched (" + config.policy().name().toLowerCase()
                        + "): the native scheduler failed in resourceOffers: " + e;
                logError(() -> message);
                for (int i = 0, n = sets.size(); i < n; i++) {
                    FairschedTaskSetManager t = sets.get(i);
                    if (!t.isZombie()) {
                        t.abort(message, Option.apply(e));
                    }
                }
                out.clear();
            }
            return out;
        } finally {
            long dt = System.nanoTime() - t0;
            rounds++;
            hookNanos += dt;
            maxHookNanos = Math.max(maxHookNanos, dt);
        }
    }

    private void collect(Schedulable s) {
        for (Schedulable c : s.schedulableQueue()) {
            if (c instanceof FairschedTaskSetManager t) {
                sets.add(t);
            } else if (c instanceof Pool) {
                collect(c);
            }
        }
    }

    /**
     * What the ordering hook cost so far: {@code rounds} of resourceOffers, {@code policyRounds}
     * of them with a free core, which the policy ordered (the others skip it), and the native
     * calls those made.
     */
    public record Stats(String policy, long rounds, long policyRounds, long hookNanos,
            long maxHookNanos, long nativeCalls) {
        public double meanMicros() {
            return rounds == 0 ? 0 : hookNanos / 1e3 / rounds;
        }
    }

    public synchronized Stats stats() {
        return new Stats(config.policy().name().toLowerCase(), rounds, policyRounds, hookNanos,
                maxHookNanos, policy == null ? 0 : policy.nativeCalls);
    }

    /**
     * What the CFQ core knows of Spark job {@code jobId} (its slot-time, virtual finish, ...)
     * while it is in the core: empty before its admission, after its end, or under another
     * policy. For tests.
     */
    public synchronized Optional<JobInfo> cfqJob(int jobId) {
        return policy instanceof CfqPolicy c && byJob.containsKey(jobId) && !closed
                ? Optional.of(c.job(jobId)) : Optional.empty();
    }

    /** PAF's current targets by job id (empty under another policy): for tests. */
    public synchronized java.util.Map<Integer, Integer> pafTargets() {
        java.util.Map<Integer, Integer> m = new java.util.TreeMap<>();
        if (policy instanceof PafPolicy p) {
            for (JobState j : p.jobs) {
                m.put(j.id, j.target);
            }
        }
        return m;
    }

    @Override
    public void stop(int exitCode) {
        super.stop(exitCode);
        synchronized (this) {
            if (!closed && policy != null) {
                policy.close();
            }
            closed = true;
        }
    }
}

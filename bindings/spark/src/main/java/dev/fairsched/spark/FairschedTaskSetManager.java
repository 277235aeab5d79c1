package dev.fairsched.spark;

import org.apache.spark.TaskNotSerializableException;
import org.apache.spark.scheduler.TaskDescription;
import org.apache.spark.scheduler.TaskSet;
import org.apache.spark.scheduler.TaskSetManager;
import scala.Enumeration;
import scala.Option;
import scala.Tuple3;
import scala.collection.immutable.Map;

/**
 * Spark's TaskSetManager, plus a per-round quota: Spark fills each task set greedily in the
 * order the pool returns, which is CFQ's order (CFQ sets no quota), but PAF's enforcement gives
 * each job a number of the round's free cores, which the quota holds it to.
 */
final class FairschedTaskSetManager extends TaskSetManager {
    private static final Tuple3<Option<TaskDescription>, Object, Object> NOTHING =
            new Tuple3<>(Option.empty(), Boolean.FALSE, Integer.valueOf(-1));

    /** The job this task set belongs to, or null when no policy admitted it. */
    volatile JobState job;

    FairschedTaskSetManager(FairschedTaskScheduler sched, TaskSet taskSet, int maxTaskFailures) {
        super(sched, taskSet, maxTaskFailures, sched.healthTrackerOpt(),
                sched.org$apache$spark$scheduler$TaskSchedulerImpl$$clock);
    }

    @Override
    public Tuple3<Option<TaskDescription>, Object, Object> resourceOffer(String execId,
            String host, Enumeration.Value maxLocality, int taskCpus,
            Map<String, Map<String, Object>> taskResourceAssignments)
            throws TaskNotSerializableException {
        JobState j = job;
        if (j != null && j.quota <= 0) {
            return NOTHING;
        }
        Tuple3<Option<TaskDescription>, Object, Object> r =
                super.resourceOffer(execId, host, maxLocality, taskCpus, taskResourceAssignments);
        if (j != null && r._1().isDefined() && j.quota != Integer.MAX_VALUE) {
            j.quota--;
        }
        return r;
    }

    /** Tasks of this set waiting for a slot. */
    int waitingTasks() {
        return Math.max(0, numTasks() - tasksSuccessful() - runningTasks());
    }
}

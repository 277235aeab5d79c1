package dev.fairsched.spark;

import org.apache.spark.scheduler.Pool;
import org.apache.spark.scheduler.TaskSetManager;
import scala.Enumeration;
import scala.collection.mutable.ArrayBuffer;

/**
 * The root pool the {@link FairschedTaskScheduler} installs: Spark's {@code resourceOffers}
 * asks it for the task-set order once per round ({@code getSortedTaskSetQueue}), and it hands
 * the question to the scheduler's policy. Spark's own builders (FIFO, or FAIR with child pools)
 * still add and remove task sets and pools under it as usual.
 */
final class FairschedPool extends Pool {
    private final FairschedTaskScheduler scheduler;

    FairschedPool(FairschedTaskScheduler scheduler, Enumeration.Value mode) {
        super("", mode, 0, 0);
        this.scheduler = scheduler;
    }

    @Override
    public ArrayBuffer<TaskSetManager> getSortedTaskSetQueue() {
        return scheduler.orderRound();
    }

    /** Spark's own order (FIFO or FAIR). */
    ArrayBuffer<TaskSetManager> sparkOrder() {
        return super.getSortedTaskSetQueue();
    }
}

package dev.fairsched.spark;

import java.util.ArrayList;

/** One Spark job as the policy knows it; every field is touched under the scheduler's lock. */
final class JobState {
    final int id;
    final int weight;
    /** PAF: the tabulated progress curve {@code p(0..=demand)}, or null (no curve given). */
    final double[] curve;
    final int demand;
    /** Position in the policy's job list; -1 once the job has left. */
    int index;
    /** PAF: the target from the last {@code Paf.allocate}. */
    int target;
    /**
     * CFQ: the task count of a job whose slot-time came from the profiler, until its first task
     * ends and re-profiles it; 0 otherwise.
     */
    int profiledTasks;

    // Per resourceOffers round.
    int pending;
    int running;
    /** Tasks this job may still launch in this round (Integer.MAX_VALUE: no limit). */
    int quota = Integer.MAX_VALUE;
    long stamp;
    final ArrayList<FairschedTaskSetManager> roundSets = new ArrayList<>(2);

    JobState(int id, int weight, double[] curve, int demand) {
        this.id = id;
        this.weight = weight;
        this.curve = curve;
        this.demand = demand;
    }
}

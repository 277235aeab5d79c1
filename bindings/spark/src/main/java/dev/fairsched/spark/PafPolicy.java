package dev.fairsched.spark;

import dev.fairsched.Paf;
import dev.fairsched.PafAllocation;
import java.util.ArrayList;
import org.apache.spark.scheduler.TaskSetManager;
import scala.collection.mutable.ArrayBuffer;

/**
 * PAF over Spark jobs. A job's curve is Ernest's model from {@code fairsched.ernest} (or fitted
 * from {@code fairsched.ernestSamples} with {@code Paf.ernestFit}), tabulated over its demand:
 * the task count of its first task set, at most the cluster's slots. Targets are recomputed
 * with {@code Paf.allocate} on every arrival and departure. A job without a curve keeps its fair
 * share and takes no part in transfers (PAF §IV-A): it is passed as {@code Paf.noCurve(demand)},
 * which the library allocates exactly its fair share, at any alpha.
 *
 * <p>A round is one native call, {@code Paf.enforce}: each free core goes to a job below its
 * target, the one holding the fewest cores per unit of weight first, where a job's target is
 * capped at what it can use this round (running + pending). The cores given become per-job quotas that {@link FairschedTaskSetManager}
 * holds Spark to. Cores left once every job reaches its capped target go to jobs that still have
 * pending tasks, in the enforcement order then the list order (work-conserving, as Spark's FAIR).
 */
final class PafPolicy extends OrderingPolicy {
    private final Paf paf;
    private final int slots;
    private final double alpha;
    // Resized on arrival and departure only.
    private int[] weights = new int[0];
    private int[] targets = new int[0];
    private int[] running = new int[0];
    /** outs[k]: the enforce output for k free cores, allocated once per size. */
    private final int[][] outs;
    private final ArrayList<JobState> chosen = new ArrayList<>();

    PafPolicy(long capacity, int slots, double alpha) {
        this.paf = new Paf(capacity);
        this.slots = slots;
        this.alpha = alpha;
        this.outs = new int[slots + 1][];
    }

    @Override
    JobState admit(int jobId, JobProperties props, int weight, int tasks, double now) {
        int demand = Math.max(1, Math.min(tasks, slots));
        double[] curve = null;
        if (props.hasCurve()) {
            double[] coefficients = props.ernest() != null
                    ? props.ernest()
                    : Paf.ernestFit(props.sampleSlots(), props.sampleRuntimes());
            curve = new double[demand + 1];
            Paf.ernestTabulate(coefficients, curve);
        }
        JobState j = new JobState(jobId, weight, curve, demand);
        ArrayList<JobState> next = new ArrayList<>(jobs);
        next.add(j);
        int[] t = allocate(next); // throws before anything changes
        j.index = jobs.size();
        jobs.add(j);
        commit(t);
        return j;
    }

    @Override
    void depart(JobState job, boolean succeeded, double now) {
        removeFromList(job);
        int[] t = jobs.isEmpty() ? new int[0] : allocate(jobs);
        commit(t);
    }

    /** Targets of the last allocate, by job index: for tests and the benchmark. */
    int[] targets() {
        return targets.clone();
    }

    private void commit(int[] t) {
        int n = jobs.size();
        for (int i = 0; i < n; i++) {
            jobs.get(i).target = t[i];
        }
        weights = new int[n];
        for (int i = 0; i < n; i++) {
            weights[i] = jobs.get(i).weight;
        }
        targets = new int[n];
        running = new int[n];
    }

    private int[] allocate(ArrayList<JobState> list) {
        int n = list.size();
        int[] weights = new int[n];
        double[][] curves = new double[n][];
        for (int i = 0; i < n; i++) {
            JobState j = list.get(i);
            weights[i] = j.weight;
            curves[i] = j.curve != null ? j.curve : Paf.noCurve(j.demand);
        }
        return paf.allocate(weights, curves, slots, alpha, Paf.FAST).paf();
    }

    @Override
    void order(int freeSlots, ArrayBuffer<TaskSetManager> out) {
        int n = jobs.size();
        for (int i = 0; i < n; i++) {
            JobState j = jobs.get(i);
            targets[i] = Math.min(j.target, j.running + j.pending);
            running[i] = j.running;
            j.quota = 0;
        }
        int free = Math.min(freeSlots, slots);
        int[] o = outs[free];
        if (o == null) {
            o = outs[free] = new int[free];
        }
        nativeCalls++;
        int given = paf.enforce(weights, targets, running, o);
        long stamp = this.stamp;
        chosen.clear();
        for (int s = 0; s < given; s++) {
            JobState j = jobs.get(o[s]);
            if (j.stamp != stamp) {
                j.stamp = stamp;
                chosen.add(j);
            }
            j.quota++;
        }
        int left = free - given;
        if (left > 0) {
            for (int i = 0; i < n && left > 0; i++) {
                JobState j = jobs.get(i);
                if (j.stamp != stamp && j.pending > 0) {
                    j.stamp = stamp;
                    chosen.add(j);
                }
            }
            for (int c = 0, m = chosen.size(); c < m && left > 0; c++) {
                JobState j = chosen.get(c);
                int extra = Math.min(left, j.pending - j.quota);
                if (extra > 0) {
                    j.quota += extra;
                    left -= extra;
                }
            }
        }
        for (int c = 0, m = chosen.size(); c < m; c++) {
            append(chosen.get(c), out);
        }
        appendOrphans(out);
    }

    @Override
    public void close() {
        paf.close();
    }
}

package dev.fairsched.spark;

import dev.fairsched.Cfq;
import java.util.Arrays;
import org.apache.spark.scheduler.TaskSetManager;
import scala.collection.mutable.ArrayBuffer;

/**
 * CFQ over Spark jobs. A job arrives in the core when its first task set is submitted, with the
 * slot-time of its {@code fairsched.slotTime} property; its pending tasks are the sum over its
 * schedulable task sets. A round is one native {@code offer} of the free cores, preceded by one
 * {@code setPendingBatch} only when the pending counts differ from what the core holds (the
 * core's offer consumes one pending task per slot given; the mirror {@code corePending} follows
 * it, so a round in which Spark launched exactly what CFQ offered needs no resync). The order
 * returned to Spark is the jobs in the order of the offer (smallest virtual finish first), each
 * with its task sets, then the backlogged jobs the offer did not reach (they take cores only if
 * CFQ's choices cannot use them): Spark fills task sets greedily in that order, which is CFQ's.
 */
final class CfqPolicy extends OrderingPolicy {
    private final Cfq cfq;
    private final long[] given;
    // Resized on arrival and departure only, never in a round.
    private long[] ids = new long[0];
    private int[] pend = new int[0];
    private int[] corePending = new int[0];

    CfqPolicy(long capacity, int slots) {
        this.cfq = new Cfq(capacity, slots, 0.0);
        this.given = new long[slots];
    }

    @Override
    JobState admit(int jobId, JobProperties props, int weight, int tasks, double now) {
        if (props.slotTime() == null) {
            throw new IllegalArgumentException("fairsched (cfq): job " + jobId + " has no "
                    + JobProperties.SLOT_TIME + " property: set sc.setLocalProperty(\""
                    + JobProperties.SLOT_TIME + "\", seconds of one-slot work) before its action");
        }
        cfq.advance(now); // reclaims the rows of jobs GPS has completed
        cfq.arrive(now, jobId, props.slotTime(), weight);
        JobState j = new JobState(jobId, weight, null, tasks);
        j.index = jobs.size();
        jobs.add(j);
        resize();
        return j;
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
        corePending = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = jobs.get(i).id;
        }
        Arrays.fill(corePending, -1); // unknown: the next round sends every count
    }

    @Override
    void order(int freeSlots, ArrayBuffer<TaskSetManager> out) {
        int n = jobs.size();
        boolean dirty = false;
        for (int i = 0; i < n; i++) {
            JobState j = jobs.get(i);
            j.quota = Integer.MAX_VALUE;
            pend[i] = j.pending;
            dirty |= pend[i] != corePending[i];
        }
        if (dirty) {
            try {
                nativeCalls++;
                cfq.setPendingBatch(ids, pend);
            } catch (RuntimeException e) {
                Arrays.fill(corePending, -1);
                throw e;
            }
            System.arraycopy(pend, 0, corePending, 0, n);
        }
        int k = Math.min(freeSlots, given.length);
        int g;
        try {
            nativeCalls++;
            g = cfq.offer(given, k);
        } catch (RuntimeException e) {
            Arrays.fill(corePending, -1);
            throw e;
        }
        long stamp = this.stamp;
        JobState current = null;
        for (int s = 0; s < g; s++) {
            if (current == null || current.id != given[s]) {
                current = find(given[s]);
                if (current == null) {
                    continue; // cannot happen: every id the core knows is in the list
                }
                if (current.stamp != stamp) {
                    current.stamp = stamp;
                    append(current, out);
                }
            }
            corePending[current.index]--;
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

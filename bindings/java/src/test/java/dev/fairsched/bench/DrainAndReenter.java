package dev.fairsched.bench;

import dev.fairsched.Cfq;
import java.util.Arrays;

/**
 * The cost of one CFQ decision through JNI: the "drain and re-enter" workload of the Rust
 * benchmark (bench/src/cfq.rs, group cfq_batch_10k), through the public API only.
 *
 * <p>10,000 jobs arrive at t = 0 with slot-times {@code 1 + (i * 7919 % 10007)} (id {@code i},
 * weight 1, 1000 slots). Jobs 0..4999 have one pending task each; the others wait, idle, in a
 * FIFO. One step makes k decisions in two native calls: {@code offer} gives k slots, draining k
 * jobs, then {@code setPendingBatch} puts the first k idle jobs back in the backlog, and the
 * drained jobs join the back of the FIFO. Every step costs the same. The figure reported is the
 * elapsed time per decision, {@code elapsed / (steps * k)}, after a warm-up. The checksum folds
 * in the ids given by the first 1,000 steps.
 *
 * <p>Run from bindings/java, with every other workload: {@code mvn -q test-compile
 * exec:exec@bench} ({@link JniBench}); this class's {@code main} runs the CFQ batches alone.
 */
final class DrainAndReenter extends Workload {
    private static final int JOBS = 10_000;
    private static final int BACKLOGGED = JOBS / 2;
    private static final int SLOTS = 1000;
    /** The batch sizes of the Rust group. */
    static final int[] BATCH_SIZES = {1, 16, 256};

    private final Cfq cfq = new Cfq(JOBS, SLOTS, 0);
    private final int k;
    private final long[] given;
    private final long[] reentering;
    private final int[] ones;
    /**
     * The idle FIFO as a full ring starting at {@code head}: the k slots a step pops from the
     * front are exactly those that then hold the back, so the drained jobs go there.
     */
    private final long[] idle = new long[JOBS - BACKLOGGED];
    private int head;

    DrainAndReenter(int k) {
        super("cfq_batch_10k/" + k, k, "decision");
        this.k = k;
        given = new long[k];
        reentering = new long[k];
        ones = new int[k];
        Arrays.fill(ones, 1);
        for (int i = 0; i < JOBS; i++) {
            cfq.arrive(0, i, 1 + (i * 7919 % 10007), 1);
        }
        for (int i = 0; i < BACKLOGGED; i++) {
            cfq.setPending(i, 1);
        }
        for (int i = 0; i < idle.length; i++) {
            idle[i] = BACKLOGGED + i;
        }
    }

    @Override
    long checksum() {
        Checksum sum = new Checksum();
        for (int s = 0; s < 1_000; s++) {
            step();
            for (long id : given) {
                sum.word(id);
            }
        }
        return sum.value();
    }

    /** k decisions: one offer, one batch update. */
    @Override
    void step() {
        if (cfq.offer(given, k) != k) {
            throw new IllegalStateException("the backlog ran dry");
        }
        for (int j = 0; j < k; j++) {
            int slot = (head + j) % idle.length;
            reentering[j] = idle[slot];
            idle[slot] = given[j];
        }
        head = (head + k) % idle.length;
        cfq.setPendingBatch(reentering, ones);
    }

    @Override
    public void close() {
        cfq.close();
    }

    /** The CFQ batches alone, as {@link JniBench} runs them. */
    public static void main(String[] args) {
        Harness harness = new Harness();
        for (int k : BATCH_SIZES) {
            harness.run("cfq_batch_10k/" + k, () -> new DrainAndReenter(k));
        }
        harness.report();
    }
}

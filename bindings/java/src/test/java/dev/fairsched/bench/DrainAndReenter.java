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
 * elapsed time per decision, {@code elapsed / (steps * k)}, after a warm-up.
 *
 * <p>Run from bindings/java: {@code mvn -q test-compile exec:exec@bench}.
 */
public final class DrainAndReenter implements AutoCloseable {
    private static final int JOBS = 10_000;
    private static final int BACKLOGGED = JOBS / 2;
    private static final int SLOTS = 1000;
    private static final int[] BATCH_SIZES = {1, 16, 256};
    private static final long WARM_UP_NANOS = 2_000_000_000L;
    private static final long ROUND_NANOS = 500_000_000L;
    private static final int ROUNDS = 7;
    /** Steps between two looks at the clock. */
    private static final int STEPS_PER_CHECK = 256;

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

    private DrainAndReenter(int k) {
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

    /** k decisions: one offer, one batch update. */
    private void step() {
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

    /** Steps for at least {@code nanos}; returns the nanoseconds per decision. */
    private double run(long nanos) {
        long steps = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            for (int i = 0; i < STEPS_PER_CHECK; i++) {
                step();
            }
            steps += STEPS_PER_CHECK;
            elapsed = System.nanoTime() - start;
        } while (elapsed < nanos);
        return (double) elapsed / (steps * k);
    }

    @Override
    public void close() {
        cfq.close();
    }

    /** Prints the median and best of several rounds, per batch size. */
    public static void main(String[] args) {
        System.out.printf("CFQ through JNI, drain and re-enter: %,d jobs, %,d backlogged%n",
                JOBS, BACKLOGGED);
        System.out.printf("%5s  %18s  %16s%n", "k", "ns/decision median", "best of " + ROUNDS);
        for (int k : BATCH_SIZES) {
            try (DrainAndReenter bench = new DrainAndReenter(k)) {
                bench.run(WARM_UP_NANOS);
                double[] rounds = new double[ROUNDS];
                for (int r = 0; r < ROUNDS; r++) {
                    rounds[r] = bench.run(ROUND_NANOS);
                }
                Arrays.sort(rounds);
                System.out.printf("%5d  %18.1f  %16.1f%n", k, rounds[ROUNDS / 2], rounds[0]);
            }
        }
    }
}

package dev.fairsched.bench;

import dev.fairsched.Hai;

/**
 * hai_allocate/heaps/n=50,C=200: bench/src/hai.rs' batch, one {@code Hai.allocate} (one call).
 * Job {@code j}'s optimum is {@code A = 10 + (j * 7919 mod 51)} cores, its work {@code A²}, its
 * JCT {@code A² / a + a} on {@code a} cores (infinite on none), tabulated for {@code 0..=2A}
 * cores; θ = 1. The checksum folds in every job's cores, then the transfers and the total JCT.
 */
final class HaiAllocate extends Workload {
    private static final int JOBS = 50;
    private static final int CORES = 200;

    private final Hai hai = new Hai(1_000);
    private final Hai.Batch batch;
    private final int[] cores = new int[JOBS];
    private final double[] jct = new double[JOBS];

    HaiAllocate() {
        super("hai_allocate/heaps/n=" + JOBS + ",C=" + CORES, 1, "call");
        int[] caps = new int[JOBS];
        int points = 0;
        for (int j = 0; j < JOBS; j++) {
            caps[j] = 2 * (10 + (j * 7919) % 51);
            points += caps[j] + 1;
        }
        double[] tables = new double[points];
        int at = 0;
        for (int j = 0; j < JOBS; j++) {
            int optimum = caps[j] / 2;
            double work = optimum * optimum;
            for (int a = 0; a <= caps[j]; a++) {
                tables[at++] = a == 0 ? Double.POSITIVE_INFINITY : work / a + a;
            }
        }
        batch = new Hai.Batch(CORES, 1, caps, tables);
    }

    @Override
    long checksum() {
        Hai.Summary summary = hai.allocate(batch, cores, jct);
        Checksum sum = new Checksum();
        for (int c : cores) {
            sum.count(c);
        }
        return sum.word(summary.transfers()).real(summary.jctSum()).value();
    }

    @Override
    void step() {
        hai.allocate(batch, cores, jct);
    }

    @Override
    public void close() {
        hai.close();
    }
}

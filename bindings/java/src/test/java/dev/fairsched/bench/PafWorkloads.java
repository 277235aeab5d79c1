package dev.fairsched.bench;

import dev.fairsched.Paf;
import dev.fairsched.PafAllocation;
import dev.fairsched.PafJobs;

/**
 * The PAF workloads of bench/src/paf.rs: the paper's large cluster (200 jobs, 8,000 slots, α =
 * 0.9), each job's curve an Ernest model with coefficients drawn from SplitMix64 seeded 2017,
 * tabulated by the library; and the Ernest fit of ten samples.
 */
final class PafWorkloads {
    private static final int JOBS = 200;
    private static final int SLOTS = 8_000;
    private static final double ALPHA = 0.9;

    private PafWorkloads() {}

    /** The tests' SplitMix64 (tests/kit/src/rng.rs). */
    private static final class SplitMix {
        private long state;

        SplitMix(long seed) {
            state = seed;
        }

        long next() {
            state += 0x9E37_79B9_7F4A_7C15L;
            long z = state;
            z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
            return z ^ (z >>> 31);
        }

        /** {@code next() % n}, unsigned. */
        long below(long n) {
            return Long.remainderUnsigned(next(), n);
        }

        /** Uniform in [0, 1): {@code below(2^53) / 2^53}. */
        double unit() {
            return below(1L << 53) / (double) (1L << 53);
        }
    }

    /**
     * paf_allocate_200_jobs_8000_slots/fast: one {@code Paf.allocate} of every job, fast
     * method, over jobs laid out once ({@code PafJobs}, as the Rust benchmark checks its curves
     * once). The checksum folds in the totals: slots, moved, fair progress, PAF progress,
     * largest loss.
     */
    static final class Allocate extends Workload {
        private final PafJobs jobs;
        private final Paf paf = new Paf(JOBS);

        Allocate() {
            super("paf_allocate_200_jobs_8000_slots/fast", 1, "call");
            int[] weights = new int[JOBS];
            double[][] curves = new double[JOBS][];
            SplitMix rng = new SplitMix(2017);
            for (int j = 0; j < JOBS; j++) {
                int demand = 1 + (int) rng.below(200);
                weights[j] = 1 + (int) rng.below(20);
                double a1 = j % 2 == 0 ? 0 : 1e-4 * rng.unit();
                double a0 = 0.05 + 0.3 * rng.unit();
                double a2 = 0.5 + 5.0 * rng.unit();
                curves[j] = new double[demand + 1];
                Paf.ernestTabulate(new double[] {a0, a1, a2, 0}, curves[j]);
            }
            jobs = new PafJobs(weights, curves);
        }

        private PafAllocation allocate() {
            return paf.allocate(jobs, SLOTS, ALPHA, Paf.FAST);
        }

        @Override
        long checksum() {
            PafAllocation a = allocate();
            return new Checksum().word(a.slots()).word(a.moved()).real(a.totalFairProgress())
                    .real(a.totalPafProgress()).real(a.largestLoss()).value();
        }

        @Override
        void step() {
            allocate();
        }

        @Override
        public void close() {
            paf.close();
        }
    }

    /**
     * ernest_fit/10_samples: {@code Paf.ernestFit} of bench/src/paf.rs' ten samples (one call).
     * The checksum folds in the four coefficients.
     */
    static final class Fit extends Workload {
        private static final int[] SAMPLE_SLOTS = {1, 2, 4, 6, 8, 12, 16, 24, 32, 48};
        /**
         * {@code ernest_samples()}' run times, {@code (0.2 + 0.001 x + 3 / x + 0.05 ln x)(1 +
         * e)}, as Rust computes them (written out, so that no {@code ln} of another library can
         * change a last bit).
         */
        private static final double[] RUNTIMES = {
            3.23301, 1.7019242118474374, 1.0386644388268342, 0.7955879734614028,
            0.6801023563131519, 0.597970239139188, 0.5339974945703092, 0.5104422049749843,
            0.4965416111642864, 0.5091006510508486,
        };

        Fit() {
            super("ernest_fit/10_samples", 1, "call");
        }

        @Override
        long checksum() {
            Checksum sum = new Checksum();
            for (double a : Paf.ernestFit(SAMPLE_SLOTS, RUNTIMES)) {
                sum.real(a);
            }
            return sum.value();
        }

        @Override
        void step() {
            Paf.ernestFit(SAMPLE_SLOTS, RUNTIMES);
        }

        @Override
        public void close() {}
    }
}

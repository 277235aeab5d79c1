package dev.fairsched.bench;

import dev.fairsched.Drr;
import dev.fairsched.DrrExecutors;
import dev.fairsched.DrrTimeline;
import java.util.Arrays;

/**
 * The MinFrag workloads of bench/src/drr.rs and bench/benches/drr.rs: a machine of 4 kinds
 * (16 cores, 64 GB, 10 Gbps, 500 MB/s) over a 64-step horizon, its available series from a
 * 64-bit LCG seeded 1, against 100 pending executors from the LCG seeded 2, {@code t_run} 40.
 */
final class DrrWorkloads {
    private static final double[] CAPACITY = {16, 64, 10, 500};
    private static final int HORIZON = 64;
    private static final int T_RUN = 40;
    private static final int PENDING = 100;

    private DrrWorkloads() {}

    /** bench/src/drr.rs' LCG: numbers in [0, 1). */
    private static final class Lcg {
        private long state;

        Lcg(long seed) {
            state = seed;
        }

        double next() {
            state = state * 6364136223846793005L + 1442695040888963407L;
            return (state >>> 11) / (double) (1L << 53);
        }
    }

    /** {@code machine(seed)}: between 40% and 100% of each capacity at every step. */
    private static double[] machine(long seed) {
        Lcg rng = new Lcg(seed);
        double[] available = new double[HORIZON * CAPACITY.length];
        for (int i = 0; i < available.length; i++) {
            available[i] = CAPACITY[i % CAPACITY.length] * (0.4 + 0.6 * rng.next());
        }
        return available;
    }

    /** {@code executors(n, seed)}: series back to back, and their steps. */
    private record Executors(double[] demands, int[] steps) {
        static Executors of(int n, long seed) {
            Lcg rng = new Lcg(seed);
            int[] steps = new int[n];
            int total = 0;
            for (int i = 0; i < n; i++) {
                steps[i] = 16 + (int) (rng.next() * 49.0);
                total += steps[i];
            }
            double[] demands = new double[total * CAPACITY.length];
            for (int i = 0; i < demands.length; i++) {
                demands[i] = CAPACITY[i % CAPACITY.length] * (0.02 + 0.15 * rng.next());
            }
            return new Executors(demands, steps);
        }

        /** The executors laid out once, as Rust checks its {@code Executors} once. */
        DrrExecutors laidOut() {
            return new DrrExecutors(demands, steps, CAPACITY.length);
        }
    }

    /**
     * drr_heartbeat/min_frag/Drr: the available series copied back (timed, as in Rust), then one
     * {@code Drr.minFrag} over executors laid out once ({@link DrrExecutors}) under the DRR
     * metric (one call). The checksum folds in the count
     * placed, the placements, then {@code t_run} and θ after.
     */
    static final class Heartbeat extends Workload {
        private final double[] given = machine(1);
        private final double[] available = new double[given.length];
        private final DrrExecutors pending = Executors.of(PENDING, 2).laidOut();
        private final int[] placements = new int[PENDING];

        Heartbeat() {
            super("drr_heartbeat/min_frag/Drr", 1, "call");
        }

        private Drr.Heartbeat beat() {
            System.arraycopy(given, 0, available, 0, given.length);
            return Drr.minFrag(CAPACITY, available, T_RUN, pending, Drr.Metric.DRR, placements);
        }

        @Override
        long checksum() {
            Drr.Heartbeat beat = beat();
            Checksum sum = new Checksum().count(beat.placed());
            for (int i = 0; i < beat.placed(); i++) {
                sum.count(placements[i]);
            }
            return sum.word(beat.tRun()).real(beat.drr()).value();
        }

        @Override
        void step() {
            beat();
        }

        @Override
        public void close() {
            pending.close();
        }
    }

    /**
     * drr_timeline/heartbeat: one {@code DrrTimeline.heartbeat} over the same executors laid out
     * once under the DRR metric (one call)
     * on a fresh timeline of the machine, room for 64 executors, one running until {@code
     * t_run} that leaves {@code machine(1)} available before it ends; the timelines are built
     * before the timed steps (untimed, as Rust's {@code iter_batched}), {@link #FRESH} at a time
     * as Rust's {@code FRESH} (bench/benches/drr.rs): few enough to stay in cache (each holds
     * 133 KB), as a scheduler's one live timeline of a machine does. The checksum folds in the
     * count placed, the placements, the first id, {@code t_run} and θ.
     */
    static final class Timeline extends Workload {
        /** Timelines built before each run of that many timed heartbeats. */
        private static final int FRESH = 4;

        private final double[] running;
        private final DrrExecutors pending = Executors.of(PENDING, 2).laidOut();
        private final int[] counts = new int[PENDING];
        private final int[] placements = new int[PENDING];
        private DrrTimeline[] fresh = new DrrTimeline[0];
        private int next;

        Timeline() {
            super("drr_timeline/heartbeat", 1, "call");
            Arrays.fill(counts, 1);
            double[] given = machine(1);
            running = new double[T_RUN * CAPACITY.length];
            for (int i = 0; i < running.length; i++) {
                running[i] = Math.max(CAPACITY[i % CAPACITY.length] - given[i], 0.0);
            }
        }

        private DrrTimeline busy() {
            DrrTimeline t = new DrrTimeline(64, CAPACITY, HORIZON);
            t.place(running);
            return t;
        }

        private void closeAll() {
            for (DrrTimeline t : fresh) {
                t.close();
            }
        }

        @Override
        void prepare(int steps) {
            closeAll();
            fresh = new DrrTimeline[steps];
            for (int i = 0; i < steps; i++) {
                fresh[i] = busy();
            }
            next = 0;
        }

        private DrrTimeline.Heartbeat beat(DrrTimeline t) {
            return t.heartbeat(pending, counts, Drr.Metric.DRR, placements);
        }

        @Override
        long checksum() {
            DrrTimeline.Heartbeat beat;
            try (DrrTimeline t = busy()) {
                beat = beat(t);
            }
            Checksum sum = new Checksum().count(beat.placed());
            for (int i = 0; i < beat.placed(); i++) {
                sum.count(placements[i]);
            }
            return sum.word(beat.firstId()).word(beat.tRun()).real(beat.drr()).value();
        }

        @Override
        int mostStepsPerPrepare() {
            return FRESH;
        }

        @Override
        void step() {
            beat(fresh[next++]);
        }

        @Override
        public void close() {
            closeAll();
            pending.close();
        }
    }
}

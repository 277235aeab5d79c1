package dev.fairsched.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Times {@link Workload}s the way the first JNI benchmark did: a warm-up, then several rounds of
 * at least a fixed time each, the median round reported (and the best). Each workload's {@link
 * Workload#checksum} is checked against the Rust workload's first ({@link Checksum#PINNED}): a
 * workload that computes something else fails the run instead of giving a figure.
 *
 * <p>Prints a human table as it goes, then one line per workload for scripts, exactly {@code
 * fairsched-bench jni/<Rust criterion id> <nanoseconds per operation, median>}, an operation
 * being a decision for the CFQ batches and one call otherwise.
 *
 * <p>Environment: {@code FAIRSCHED_BENCH_FILTER}, a regular expression, runs only the workloads
 * whose id it matches (anywhere, as criterion's filter and the Go harness's);
 * {@code FAIRSCHED_BENCH_QUICK=1} shortens warm-up and rounds (a correctness check, figures
 * noisy).
 */
final class Harness {
    private static final boolean QUICK = "1".equals(System.getenv("FAIRSCHED_BENCH_QUICK"));
    private static final long WARM_UP_NANOS = QUICK ? 100_000_000L : 1_000_000_000L;
    private static final long ROUND_NANOS = QUICK ? 50_000_000L : 500_000_000L;
    private static final int ROUNDS = QUICK ? 3 : 7;
    /** The most steps between two looks at the clock. */
    private static final int MAX_STEPS_PER_CHECK = 256;
    /** About how long a run of steps between two looks at the clock lasts. */
    private static final long NANOS_PER_CHECK = 1_000_000L;

    private final Pattern filter =
            Pattern.compile(Objects.requireNonNullElse(System.getenv("FAIRSCHED_BENCH_FILTER"), ""));
    private final List<String> lines = new ArrayList<>();

    Harness() {
        System.out.printf(Locale.ROOT, "fairsched through JNI: median and best of %d rounds of"
                + " %d ms after %d ms of warm-up%n", ROUNDS, ROUND_NANOS / 1_000_000,
                WARM_UP_NANOS / 1_000_000);
        System.out.printf(Locale.ROOT, "%-40s  %12s  %12s  %-12s  %s%n", "Rust twin (criterion id)",
                "ns median", "ns best", "per", "checksum (= Rust's)");
    }

    /** Builds, checks, times and closes the workload {@code make} gives, unless filtered out. */
    void run(String id, Supplier<? extends Workload> make) {
        if (!filter.matcher(id).find()) {
            return;
        }
        try (Workload w = make.get()) {
            if (!w.id.equals(id)) {
                throw new IllegalStateException(w.id + " run as " + id);
            }
            long sum = w.checksum();
            Long pinned = Checksum.PINNED.get(id);
            if (pinned == null || pinned != sum) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "%s: checksum %016x, Rust's %s", id, sum,
                        pinned == null ? "unknown" : String.format("%016x", pinned)));
            }
            int batch = Math.min(stepsPerCheck(w), w.mostStepsPerPrepare());
            time(w, WARM_UP_NANOS, batch);
            double[] rounds = new double[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                rounds[r] = time(w, ROUND_NANOS, batch);
            }
            Arrays.sort(rounds);
            double median = rounds[ROUNDS / 2];
            System.out.printf(Locale.ROOT, "%-40s  %12.1f  %12.1f  %-12s  %016x%n", id, median,
                    rounds[0], w.operation, sum);
            lines.add(String.format(Locale.ROOT, "fairsched-bench jni/%s %.1f", id, median));
        }
    }

    /** The lines for scripts, one per workload run. */
    void report() {
        for (String line : lines) {
            System.out.println(line);
        }
    }

    /** Steps between two looks at the clock: about {@link #NANOS_PER_CHECK} of them. */
    private static int stepsPerCheck(Workload w) {
        int steps = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            w.prepare(1);
            w.step();
            steps++;
            elapsed = System.nanoTime() - start;
        } while (elapsed < NANOS_PER_CHECK && steps < MAX_STEPS_PER_CHECK);
        return (int) Math.max(1, Math.min(MAX_STEPS_PER_CHECK, NANOS_PER_CHECK * steps / elapsed));
    }

    /**
     * Runs of {@code batch} steps, each after its untimed {@link Workload#prepare}, until the
     * timed steps add up to {@code nanos}; returns the nanoseconds per operation.
     */
    private static double time(Workload w, long nanos, int batch) {
        long steps = 0;
        long elapsed = 0;
        do {
            w.prepare(batch);
            long start = System.nanoTime();
            for (int i = 0; i < batch; i++) {
                w.step();
            }
            elapsed += System.nanoTime() - start;
            steps += batch;
        } while (elapsed < nanos);
        return (double) elapsed / (steps * w.operationsPerStep);
    }
}

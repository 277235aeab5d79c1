package dev.fairsched.bench;

/**
 * Every algorithm through JNI, on exactly the workloads of the Rust criterion benchmarks (same
 * inputs, same order), so that each figure divided by its Rust twin's is the binding's cost.
 *
 * <p>Run from bindings/java (about 70 seconds):
 *
 * <pre>
 * mvn -q test-compile exec:exec@bench
 * </pre>
 *
 * <p>With {@code FAIRSCHED_BENCH_QUICK=1} in the environment the rounds are short (a check that
 * every workload runs and agrees with Rust, figures noisy); {@code FAIRSCHED_BENCH_FILTER=drf}
 * runs only the workloads whose id contains {@code drf} (a regular expression, as criterion's
 * filter: {@code '^cfq_batch_10k/1$'} runs that one alone). The Rust twins: {@code cargo bench -p
 * fairsched-bench --bench <cfq|drf|paf|hai|drr>}.
 *
 * <p>Every workload's answers are first checked against the Rust workload's, a {@link Checksum}
 * pinned in bench/tests/bindings.rs ({@code cargo test -p fairsched-bench --test bindings}); a
 * mismatch ends the run with an exception. The output is a human table, then one line per
 * workload, exactly {@code fairsched-bench jni/<Rust criterion id> <ns>}: the median over the
 * rounds of nanoseconds per operation, an operation being one decision for the CFQ batches
 * ({@code cfq_batch_10k/k}, k decisions a step, as Rust's throughput) and one call of the
 * binding's method otherwise:
 *
 * <ul>
 *   <li>{@code cfq_batch_10k/1, /16, /256}: {@code Cfq.offer} of k slots then {@code
 *       setPendingBatch} of k jobs ({@link DrainAndReenter});
 *   <li>{@code drf_next_user/queue/10000}: {@code DrfQueue.startNext};
 *   <li>{@code drf_round/queue/10000}: {@code DrfQueue.allocateRound} starting 256 tasks;
 *   <li>{@code qknobler_allocate/m4/10, /1000}: {@code QKnobler.allocate} at ρ = 0.5;
 *   <li>{@code paf_allocate_200_jobs_8000_slots/fast}: {@code Paf.allocate};
 *   <li>{@code ernest_fit/10_samples}: {@code Paf.ernestFit};
 *   <li>{@code hai_allocate/heaps/n=50,C=200}: {@code Hai.allocate};
 *   <li>{@code drr_heartbeat/min_frag/Drr}: {@code Drr.minFrag} over executors laid out once
 *       ({@code DrrExecutors}), with the copy of the available series, as Rust;
 *   <li>{@code drr_timeline/heartbeat}: {@code DrrTimeline.heartbeat} over the same executors
 *       on a fresh timeline.
 * </ul>
 */
public final class JniBench {
    private JniBench() {}

    public static void main(String[] args) {
        Harness harness = new Harness();
        for (int k : DrainAndReenter.BATCH_SIZES) {
            harness.run("cfq_batch_10k/" + k, () -> new DrainAndReenter(k));
        }
        harness.run("drf_next_user/queue/10000", DrfWorkloads.NextUser::new);
        harness.run("drf_round/queue/10000", DrfWorkloads.Round::new);
        for (int n : new int[] {10, 1_000}) {
            harness.run("qknobler_allocate/m4/" + n, () -> new DrfWorkloads.Knobbed(n));
        }
        harness.run("paf_allocate_200_jobs_8000_slots/fast", PafWorkloads.Allocate::new);
        harness.run("ernest_fit/10_samples", PafWorkloads.Fit::new);
        harness.run("hai_allocate/heaps/n=50,C=200", HaiAllocate::new);
        harness.run("drr_heartbeat/min_frag/Drr", DrrWorkloads.Heartbeat::new);
        harness.run("drr_timeline/heartbeat", DrrWorkloads.Timeline::new);
        harness.report();
    }
}

package dev.fairsched.bench;

/**
 * One benchmark workload, the twin of one Rust criterion benchmark: built in its constructor
 * (untimed), checked once by {@link #checksum}, then timed step by step by {@link Harness}.
 */
abstract class Workload implements AutoCloseable {
    /** The Rust criterion id this workload's figure is compared with. */
    final String id;
    /** Operations one {@link #step} counts: decisions for the CFQ batches, otherwise 1 call. */
    final int operationsPerStep;
    /** What one operation is, for the human table. */
    final String operation;

    Workload(String id, int operationsPerStep, String operation) {
        this.id = id;
        this.operationsPerStep = operationsPerStep;
        this.operation = operation;
    }

    /**
     * The answers of the workload's first steps (or of its one call) folded into a {@link
     * Checksum}, which must equal what the Rust workload gives (bench/tests/bindings.rs). Called
     * once, before any step is timed; the steps it takes count as warm-up.
     */
    abstract long checksum();

    /** One timed step. */
    abstract void step();

    /** Untimed work before each run of {@code steps} timed steps; nothing by default. */
    void prepare(int steps) {}

    /** The longest run of timed steps one {@link #prepare} may serve; unlimited by default. */
    int mostStepsPerPrepare() {
        return Integer.MAX_VALUE;
    }

    /** Frees the workload's native objects. */
    @Override
    public abstract void close();
}

package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;
import static dev.fairsched.Arguments.requireU32;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Executors' demand series predicted from their application's past runs, as Elasecutor's
 * prediction module makes them for recurring applications (Liu, Xu: <i>Elasecutor: Elastic
 * Executor Scheduling in Data Analytics Systems</i>, IEEE/ACM Transactions on Networking, 2021,
 * §IV-C): the mean of an application's last {@code window} runs (the paper averages the latest
 * 3), and the peak the application asks for until that many runs are recorded. Series of
 * different lengths are averaged step by step over the runs that lasted that long: the
 * prediction runs as long as the longest, and each step is the mean of the runs that reached it.
 *
 * <p><b>Series.</b> Time-major and flat as in {@link Drr}: the amount of kind {@code r} at step
 * {@code t} is {@code series[t * kinds + r]}, over the predictor's kinds (1 to 8), each run 1 to
 * {@code steps} steps (at most 256).
 *
 * <p><b>Numbers.</b> Applications are the caller's ids, C {@code uint64_t}s carried bit for bit
 * by {@code long}. Capacity, window and steps are C {@code uint32_t}s taken as {@code long}s: a
 * value outside {@code [0, 2^32)} is rejected with {@link IllegalArgumentException}, as is a
 * negative {@code kinds}.
 *
 * <p><b>Errors, memory, threads.</b> As for {@link Cfq}: a rejected call throws {@link
 * FairschedException} (each method lists its statuses) and changes nothing; {@link #close()}
 * frees the native memory (a {@link Cleaner} is the backstop); not thread-safe.
 */
public final class DrrPredictor extends NativeObject {
    /**
     * What {@link #predict} wrote.
     *
     * @param steps the steps of the series written
     * @param runs the runs averaged: the window, or 0 when the series is the peak
     */
    public record Prediction(int steps, int runs) {}

    /**
     * A predictor with no application, for up to {@code capacity} applications, each keeping its
     * last {@code window} runs (1 to 16) of up to {@code steps} steps (1 to 256) over {@code
     * kinds} kinds (1 to 8).
     *
     * @throws IllegalArgumentException if {@code capacity}, {@code window} or {@code steps} is
     *     not a {@code uint32_t}, or {@code kinds} is negative
     * @throws FairschedException {@link Status#NOT_POSITIVE} for a capacity or window of 0;
     *     {@link Status#CAPACITY_TOO_LARGE} for a capacity of {@code 2^32 - 1}; {@link
     *     Status#EMPTY} for no kind or step; {@link Status#CAPACITY_FULL} for more than 8 kinds
     *     or 256 steps; {@link Status#OUT_OF_RANGE} for a window above 16
     * @throws OutOfMemoryError if the native storage cannot be allocated
     */
    public DrrPredictor(long capacity, int kinds, long window, long steps) {
        super(NativeDrrPredictor.PREDICTION_SIZE, out -> NativeDrrPredictor.open(
                requireU32(capacity, "capacity"), requireNonNegative(kinds, "kinds"),
                requireU32(window, "window"), requireU32(steps, "steps"), out));
    }

    /**
     * Records a finished run of application {@code id}: {@code run} is the demand series one of
     * its executors used. The first run of an id adds the application; once its window is full,
     * each run replaces the oldest.
     *
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} for a run not of whole steps;
     *     {@link Status#EMPTY} for no step; {@link Status#CAPACITY_FULL} for more steps than the
     *     predictor keeps, or a new application when it holds its capacity of them; {@link
     *     Status#NOT_FINITE} or {@link Status#NEGATIVE} for an amount
     */
    public void record(long id, double[] run) {
        Objects.requireNonNull(run, "run");
        check(NativeDrrPredictor.record(handle(), id, run));
    }

    /**
     * Forgets application {@code id} and its runs: its next run is a first one.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID} for an id not held
     */
    public void forget(long id) {
        check(NativeDrrPredictor.forget(handle(), id));
    }

    /** The runs of application {@code id} kept, 0 to the window (0 for an id not held). */
    public int runs(long id) {
        return count(NativeDrrPredictor.runs(handle(), id));
    }

    /**
     * Writes the predicted demand series of one executor of application {@code id} to the front
     * of {@code series}: with the window's runs recorded, their mean; otherwise {@code peak} (one
     * amount per kind, finite and not negative) for {@code steps} steps (1 to the predictor's).
     * Room for the predictor's steps always suffices. One native call, no allocation but the
     * result.
     *
     * @throws IllegalArgumentException if {@code steps} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} for a peak not of the
     *     predictor's kinds, or {@code series} shorter than the prediction; {@link
     *     Status#NOT_FINITE} or {@link Status#NEGATIVE} for an amount of the peak; {@link
     *     Status#EMPTY} for 0 steps; {@link Status#CAPACITY_FULL} for more steps than the
     *     predictor keeps
     */
    public Prediction predict(long id, double[] peak, long steps, double[] series) {
        Objects.requireNonNull(peak, "peak");
        Objects.requireNonNull(series, "series");
        requireU32(steps, "steps");
        // The library writes the series while it reads the peak.
        double[] readPeak = peak == series ? peak.clone() : peak;
        ByteBuffer prediction = struct();
        check(NativeDrrPredictor.predict(handle(), id, readPeak, steps, series, prediction));
        return new Prediction(prediction.getInt(NativeDrrPredictor.PREDICTION_STEPS),
                prediction.getInt(NativeDrrPredictor.PREDICTION_RUNS));
    }
}

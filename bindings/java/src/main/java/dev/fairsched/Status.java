package dev.fairsched;

/**
 * The outcome of a fairsched call: the C enum {@code fairsched_status}, with the same names and
 * codes ({@code FAIRSCHED_STATUS_NOT_FINITE} is {@link #NOT_FINITE}, code 2). This enum is the one
 * table between native codes and Java: every status but {@link #OK} is thrown as a
 * {@link FairschedException} carrying it.
 *
 * <p>Codes are stable and new ones are only appended, so a code is its constant's ordinal.
 */
public enum Status {
    /** Success; never thrown. */
    OK,
    /**
     * A required pointer was NULL. The binding never passes NULL, so this is a bug in the binding.
     */
    NULL_POINTER,
    /** A number was NaN or infinite. */
    NOT_FINITE,
    /**
     * A number that must be positive was zero or negative (slot-time, weight, slots, capacity,
     * an amount of a capacity), or a demand was all zero.
     */
    NOT_POSITIVE,
    /** No entry (a CFQ job, a DRF user) with that id. */
    UNKNOWN_ID,
    /** An entry (a CFQ job, a DRF user) with that id is already present. */
    DUPLICATE_ID,
    /** The time given is earlier than the time of the last accepted call. */
    TIME_WENT_BACKWARDS,
    /**
     * A fixed capacity is full: no room for another job or user (see {@link Cfq#arrive}, {@link
     * DrfQueue#addUser}), a resource vector of more than 8 kinds, a DRR series of more than 256
     * steps or more than 4096 pending executors ({@link Drr}).
     */
    CAPACITY_FULL,
    /** The capacity asked for is too large to address. */
    CAPACITY_TOO_LARGE,
    /**
     * A number is finite but outside the supported range: times and slot-times beyond 2^60, a
     * knob outside {@code [0, 1]}, more idle or available than a machine has, a count beyond
     * {@code 2^64 - 1}, an unknown method or metric, a DRR {@code t_run} or executor beyond the
     * horizon, a reprovisioned amount that would overflow.
     */
    OUT_OF_RANGE,
    /** The job has already completed. */
    JOB_COMPLETED,
    /** Two parallel arrays have different lengths. */
    LENGTH_MISMATCH,
    /** The memory given to an object is smaller than its storage size; the binding sizes it. */
    BUFFER_TOO_SMALL,
    /**
     * A panic was caught at the native boundary: a bug in fairsched. The {@link Cfq}, {@link
     * DrfQueue}, {@link Hai}, {@link Paf}, {@link DrrTimeline} or {@link DrrPredictor} involved
     * is closed, since it must not be used again.
     */
    PANIC,
    /** A number that must not be negative was negative (an amount, a demand, a coefficient). */
    NEGATIVE,
    /** A list that must hold at least one element was empty. */
    EMPTY,
    /** A sequence that must not decrease (a progress curve) decreased. */
    NOT_MONOTONE,
    /** The samples given cannot determine the model to fit. */
    UNDERDETERMINED,
    /**
     * A demand does not fit what a machine has available at some step: placing (or
     * reprovisioning) it on a {@link DrrTimeline} would commit more of a resource than the
     * machine has.
     */
    DOES_NOT_FIT;

    private static final Status[] BY_CODE = values();

    /** The native code, as in {@code fairsched.h}. */
    public int code() {
        return ordinal();
    }

    /**
     * What the status means, in the library's words ({@code fairsched_status_message}); a
     * {@link FairschedException}'s message carries it.
     *
     * @throws UnsatisfiedLinkError if the native library cannot be loaded
     */
    public String message() {
        NativeLibrary.load();
        return NativeLibrary.statusMessage(code());
    }

    /**
     * The status with native code {@code code}.
     *
     * @throws IllegalArgumentException if no status has that code (a library newer than this
     *     binding)
     */
    public static Status of(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("unknown fairsched status code " + code);
        }
        return BY_CODE[code];
    }
}

package dev.fairsched;

/**
 * A fairsched call failed with {@link #status()}. The call changed nothing: the scheduler or
 * queue is exactly as it was before it (except after {@link Status#PANIC}, which closes it).
 *
 * <p>Unchecked, as the failures are the caller's programming errors (an unknown id, time going
 * backwards) or states it can test first (capacity, completion).
 */
public final class FairschedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Status status;

    private FairschedException(Status status) {
        super(status + ": " + Native.statusMessage(status.code()));
        this.status = status;
    }

    /** Why the call failed; never {@link Status#OK}. */
    public Status status() {
        return status;
    }

    /**
     * Returns normally when {@code code} is {@link Status#OK}'s; throws the status otherwise.
     *
     * @throws FairschedException carrying the status of {@code code}
     */
    static void check(int code) {
        if (code != Status.OK.code()) {
            throw new FairschedException(Status.of(code));
        }
    }
}

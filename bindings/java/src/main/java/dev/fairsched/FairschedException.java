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
        super(status + ": " + status.message());
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

    /**
     * Decodes the result of a native method that returns a count (or an index), or its status
     * negated on failure.
     *
     * @throws FairschedException carrying the status, if negated
     */
    static int count(int countOrStatus) {
        check(countOrStatus < 0 ? -countOrStatus : Status.OK.code());
        return countOrStatus;
    }
}

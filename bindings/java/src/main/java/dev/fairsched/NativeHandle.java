package dev.fairsched;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.function.ToIntFunction;

/**
 * The native object behind a {@link Cfq}, a {@link DrfQueue} or a {@link Paf}: its handle, and
 * the storage it lives in, which the JNI glue allocated when it built the object and which is
 * freed once, whether {@link #close()} or the {@link Cleaner} asks first.
 *
 * <p>Every native call on the handle is followed by {@link #check} or {@link #count}, whose fence
 * keeps this object reachable until the call is over: otherwise the {@link Cleaner} could free
 * the storage under a call made by the last use of an unclosed object. The object owning this
 * one holds it in a field and nowhere else, so it becomes unreachable with its owner.
 *
 * <p>Not thread-safe, as its owners are not.
 */
final class NativeHandle implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    /** The owner's class name, for the message of a use after close. */
    private final String owner;

    /** The native handle; 0 once closed. */
    private long handle;

    /** Frees the storage. */
    private final Cleaner.Cleanable storage;

    private NativeHandle(String owner, long[] opened) {
        this.owner = owner;
        this.handle = opened[Native.OPEN_HANDLE];
        this.storage = CLEANER.register(this, new Free(opened[Native.OPEN_MEMORY]));
    }

    /**
     * Builds a native object with {@code open}, a native method that allocates its storage and
     * writes the layout {@code Native.OPEN_*} into the array it is given (or frees the storage
     * and fails), and takes ownership of it for {@code owner}.
     *
     * @throws FairschedException the status {@code open} returns
     */
    static NativeHandle open(Class<?> owner, ToIntFunction<long[]> open) {
        long[] opened = new long[Native.OPEN_LENGTH];
        FairschedException.check(open.applyAsInt(opened));
        return new NativeHandle(owner.getSimpleName(), opened);
    }

    /**
     * The native handle.
     *
     * @throws IllegalStateException once closed
     */
    long get() {
        if (handle == 0) {
            throw new IllegalStateException("the " + owner + " is closed");
        }
        return handle;
    }

    /**
     * Throws the status {@code code} unless it is {@link Status#OK}; after {@link Status#PANIC},
     * closes this object first, as the native one must not be used again.
     *
     * @throws FairschedException the status of {@code code}
     */
    void check(int code) {
        try {
            if (code == Status.PANIC.code()) {
                close();
            }
            FairschedException.check(code);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Decodes the result of a native method that returns a count or a negated status.
     *
     * @throws FairschedException the status, if negated
     */
    int count(int countOrStatus) {
        check(countOrStatus < 0 ? -countOrStatus : Status.OK.code());
        return countOrStatus;
    }

    /** Frees the native storage. Does nothing if already closed. */
    @Override
    public void close() {
        if (handle != 0) {
            handle = 0;
            storage.clean();
        }
    }

    /**
     * The {@link Cleaner}'s action. It holds the address only: a reference to the handle would
     * keep it reachable, so it would never be cleaned.
     */
    private record Free(long memory) implements Runnable {
        @Override
        public void run() {
            Native.free(memory);
        }
    }
}

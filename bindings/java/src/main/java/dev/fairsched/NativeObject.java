package dev.fairsched;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;

/**
 * A native object living in memory the binding allocated: its handle, the memory, and the one
 * way to free it. {@link #close()} frees the memory once; a {@link Cleaner} frees it if the
 * object becomes unreachable unclosed. Every native call on the handle goes through {@link
 * #handle()} and {@link #check(int)}, whose fence keeps the object reachable until the call is
 * over (otherwise the Cleaner could free the memory under a call made by its last use).
 */
abstract class NativeObject implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private final String name;
    /** The native handle; 0 once closed. */
    private long handle;
    /** Frees the memory, once, whether {@link #close()} or the {@link Cleaner} asks first. */
    private final Cleaner.Cleanable memory;

    /** Owns {@code handle}, which points into the block {@code memory} from {@code malloc}. */
    NativeObject(String name, long handle, long memory) {
        this.name = name;
        this.handle = handle;
        this.memory = CLEANER.register(this, new Free(memory));
    }

    /** Frees the native memory. Does nothing if already closed. */
    @Override
    public void close() {
        if (handle != 0) {
            handle = 0;
            memory.clean();
        }
    }

    /** The native handle, checked open. */
    final long handle() {
        if (handle == 0) {
            throw new IllegalStateException("the " + name + " is closed");
        }
        return handle;
    }

    /**
     * Throws the status {@code code} unless it is {@link Status#OK}; after {@link Status#PANIC},
     * closes this object first, as the native one must not be used again.
     */
    final void check(int code) {
        try {
            if (code == Status.PANIC.code()) {
                close();
            }
            FairschedException.check(code);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Decodes the result of a native method that returns a count or a negated status. */
    final int count(int countOrStatus) {
        check(countOrStatus < 0 ? -countOrStatus : Status.OK.code());
        return countOrStatus;
    }

    /** Rejects a {@code value} C cannot take as a {@code uint32_t}. */
    static void requireU32(long value, String name) {
        if (value < 0 || value > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(name + " must be in [0, 2^32), got " + value);
        }
    }

    /**
     * The {@link Cleaner}'s action. It holds the address only: a reference to the object would
     * keep it reachable, so it would never be cleaned.
     */
    private record Free(long memory) implements Runnable {
        @Override
        public void run() {
            Native.free(memory);
        }
    }
}

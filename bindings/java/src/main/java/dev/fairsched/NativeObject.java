package dev.fairsched;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.ToIntFunction;

/**
 * What every fairsched object ({@link Cfq}, {@link DrfQueue}, {@link Hai}, {@link Paf}, {@link
 * DrrTimeline}, {@link DrrPredictor}) is built on: the native handle, the storage it lives in,
 * and the buffer its calls write C structures into. The lifecycle is written here once; a subclass's constructor names its
 * {@code open} native and its methods pass {@link #handle()} to their natives and their
 * results to {@link #check} or {@link #count}.
 *
 * <p><b>Storage.</b> An {@code open} native (in C: glue.h's {@code storage_for} and {@code
 * opened}) asks the library for the storage size, allocates it with {@code malloc}, has the
 * library build the object in it and writes {@code OPEN_*} below, or frees the block again and
 * returns the status. The block is freed once, whether {@link #close()} or the {@link Cleaner}
 * asks first: the Cleaner's action holds only the address, and {@link #close()} goes through
 * the same {@link Cleaner.Cleanable}.
 *
 * <p><b>Reachability.</b> Every native call on the handle is followed by {@link #check} or
 * {@link #count}, whose fence keeps this object reachable until the call is over: otherwise
 * the Cleaner could free the storage under a call made by the last use of an unclosed object.
 *
 * <p><b>Structures.</b> A call that produces a C structure ({@code fairsched_cfq_job_info},
 * {@code fairsched_paf_totals}, ...) has the library write it into {@link #struct()}, a direct
 * buffer in native byte order, from which the subclass reads the fields at the byte offsets its
 * {@code Native*} class declares (checked against the header by the glue): the header's layout
 * is the only encoding on the way, and nothing is copied but the fields read.
 *
 * <p>Not thread-safe, as its subclasses are not.
 */
abstract class NativeObject implements AutoCloseable {
    /** An {@code open} native's output: the block to free, then the handle inside it. */
    static final int OPEN_MEMORY = 0;
    static final int OPEN_HANDLE = 1;
    static final int OPEN_LENGTH = 2;

    private static final Cleaner CLEANER = Cleaner.create();

    static {
        NativeLibrary.load();
    }

    /** The native handle; 0 once closed. */
    private long handle;

    /** Frees the storage. */
    private final Cleaner.Cleanable storage;

    /** Where the calls write their C structures; see the class documentation. */
    private final ByteBuffer struct;

    /**
     * Builds the native object with {@code open}, a native method that writes {@code OPEN_*}
     * into the array it is given (see the class documentation), and takes ownership of it.
     *
     * @param structSize the largest C structure the subclass's calls write, in bytes
     * @throws FairschedException the status {@code open} returns
     * @throws OutOfMemoryError if the native storage cannot be allocated
     */
    NativeObject(int structSize, ToIntFunction<long[]> open) {
        // Allocated before the open, so that once the native block exists, the Cleaner takes
        // it without another allocation that could fail first. 8-byte aligned, as the
        // structures' u64 and double fields want.
        struct = ByteBuffer.allocateDirect(structSize + Long.BYTES - 1)
                .alignedSlice(Long.BYTES)
                .order(ByteOrder.nativeOrder());
        long[] opened = new long[OPEN_LENGTH];
        FairschedException.check(open.applyAsInt(opened));
        handle = opened[OPEN_HANDLE];
        storage = CLEANER.register(this, new Free(opened[OPEN_MEMORY]));
    }

    /**
     * The native handle.
     *
     * @throws IllegalStateException once closed
     */
    final long handle() {
        if (handle == 0) {
            throw new IllegalStateException("the " + getClass().getSimpleName() + " is closed");
        }
        return handle;
    }

    /**
     * The buffer the calls write their C structures into, to read once a call has succeeded.
     * The same buffer every time: read it before the next call.
     */
    final ByteBuffer struct() {
        return struct;
    }

    /**
     * Throws the status {@code code} unless it is {@link Status#OK}; after {@link Status#PANIC},
     * closes this object first, as the native one must not be used again.
     *
     * @throws FairschedException the status of {@code code}
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

    /**
     * Decodes the result of a native method that returns a count or a negated status.
     *
     * @throws FairschedException the status, if negated
     */
    final int count(int countOrStatus) {
        check(countOrStatus < 0 ? -countOrStatus : Status.OK.code());
        return countOrStatus;
    }

    /** Frees the native storage. Does nothing if already closed. */
    @Override
    public final void close() {
        if (handle != 0) {
            handle = 0;
            storage.clean();
        }
    }

    /** Frees a block an {@code open} native allocated. */
    private static native void free(long memory);

    /**
     * The {@link Cleaner}'s action. It holds the address only: a reference to the object would
     * keep it reachable, so it would never be cleaned.
     */
    private record Free(long memory) implements Runnable {
        @Override
        public void run() {
            free(memory);
        }
    }
}

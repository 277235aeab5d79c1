package dev.fairsched;

import static dev.fairsched.Arguments.requireNonNegative;
import static dev.fairsched.Arguments.requireU32;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A CFQ (Cluster Fair Queueing) scheduler: free slots go to the backlogged job with the smallest
 * virtual finish time, so that jobs finish close to when an ideal fair scheduler (the cluster
 * GPS, which shares the slots among active jobs by weight) would finish them.
 *
 * <p>A job {@linkplain #arrive arrives} with its slot-time (its tasks' run times summed) and a
 * weight, which fixes its virtual finish time; the caller then says how many of its tasks wait
 * for a slot ({@link #setPending}) and asks who gets free slots ({@link #offer}), any number of
 * times; finally the job {@linkplain #complete completes} and is {@linkplain #remove removed}.
 * Times are in any unit, the same for times and slot-times, and never go backwards.
 *
 * <p><b>Numbers.</b> Job ids are C {@code uint64_t}s carried bit for bit by {@code long}: ids
 * above {@link Long#MAX_VALUE} appear negative (see {@link Long#toUnsignedString(long)}).
 * Capacity, slots, weights and pending tasks are C {@code uint32_t}s, taken and returned as
 * {@code long}s so that their whole range is expressible (an {@code int} argument widens as
 * usual); a value outside {@code [0, 2^32)} is rejected with {@link IllegalArgumentException}
 * before any native call, never truncated. The batch form, {@link #setPendingBatch}, takes its
 * counts as an {@code int[]} for speed: there, counts are limited to {@link Integer#MAX_VALUE}.
 *
 * <p><b>Errors.</b> A call the library rejects throws {@link FairschedException} carrying the
 * {@link Status}, and changes nothing.
 *
 * <p><b>Memory.</b> The constructor allocates the scheduler's native storage, sized once for
 * {@code capacity} jobs, and {@link #close()} frees it. Closing
 * twice is harmless; any other call on a closed scheduler throws {@link IllegalStateException}.
 * A scheduler that becomes unreachable unclosed is freed by a {@link Cleaner}, but only
 * eventually: use try-with-resources.
 *
 * <p><b>Threads.</b> Not thread-safe: use a scheduler from one thread at a time, {@link
 * #close()} included.
 */
public final class Cfq extends NativeObject {
    /**
     * A scheduler for up to {@code capacity} jobs sharing {@code slots} slots, its clock at
     * {@code startTime}.
     *
     * @throws IllegalArgumentException if {@code capacity} or {@code slots} is not a {@code
     *     uint32_t}
     * @throws FairschedException {@link Status#NOT_POSITIVE} if either is zero; {@link
     *     Status#CAPACITY_TOO_LARGE} for a capacity of {@code 2^32 - 1}; {@link
     *     Status#NOT_FINITE} or {@link Status#OUT_OF_RANGE} for {@code startTime}
     * @throws OutOfMemoryError if the native storage cannot be allocated
     */
    public Cfq(long capacity, long slots, double startTime) {
        super(NativeCfq.STRUCT_SIZE, out -> NativeCfq.open(
                requireU32(capacity, "capacity"), requireU32(slots, "slots"), startTime, out));
    }

    /**
     * Moves the clock to {@code now}, processing the GPS departures up to it (which frees the
     * rows of removed jobs GPS completes).
     *
     * @throws FairschedException {@link Status#NOT_FINITE}, {@link Status#OUT_OF_RANGE} or
     *     {@link Status#TIME_WENT_BACKWARDS} for {@code now}
     */
    public void advance(double now) {
        check(NativeCfq.advance(handle(), now));
    }

    /**
     * From {@code now} on, GPS shares {@code slots} slots (machines joined or left).
     *
     * @throws IllegalArgumentException if {@code slots} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#NOT_POSITIVE} if {@code slots} is zero; as
     *     {@link #advance} for {@code now}
     */
    public void setSlots(double now, long slots) {
        requireU32(slots, "slots");
        check(NativeCfq.setSlots(handle(), now, slots));
    }

    /**
     * Job {@code jobId} arrives at {@code now} with {@code slotTime} of work and {@code weight},
     * and no pending task. Its virtual finish time is fixed here.
     *
     * <p>{@link Status#CAPACITY_FULL} is judged at the time of the previous call: the rows of
     * removed jobs are freed as GPS completes them, so {@link #advance} first to reclaim them.
     *
     * @throws IllegalArgumentException if {@code weight} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#NOT_POSITIVE} for a weight of zero or a slot-time
     *     not above zero; {@link Status#NOT_FINITE} or {@link Status#OUT_OF_RANGE} for the
     *     slot-time or {@code now}; {@link Status#TIME_WENT_BACKWARDS}; {@link
     *     Status#DUPLICATE_ID}; {@link Status#CAPACITY_FULL}
     */
    public void arrive(double now, long jobId, double slotTime, long weight) {
        requireU32(weight, "weight");
        check(NativeCfq.arrive(handle(), now, jobId, slotTime, weight));
    }

    /**
     * Corrects job {@code jobId}'s slot-time to {@code slotTime} at {@code now}, while it runs,
     * as if it had been known at arrival: the clock advances to {@code now}, then the job's
     * virtual finish becomes {@code V(arrival) + slotTime / weight}, bit for bit what an arrival
     * with {@code slotTime} would have given. If that is not above the virtual time at {@code
     * now}, GPS completes the job at {@code now}. The job keeps its place in the backlog order
     * accordingly; {@link JobInfo#slotTime()} is {@code slotTime} from now on. {@link
     * CfqProfiler} gives such estimates.
     *
     * <p>A job GPS had completed by the previous call keeps its GPS completion (the reference's
     * past does not change); only its place in the backlog moves, to {@code F + (slotTime -
     * old slot-time) / weight}.
     *
     * @throws FairschedException as {@link #arrive} for {@code now} and {@code slotTime}; then
     *     {@link Status#UNKNOWN_ID}; {@link Status#JOB_COMPLETED} for a job completed in the real
     *     system
     */
    public void reprofile(double now, long jobId, double slotTime) {
        check(NativeCfq.reprofile(handle(), now, jobId, slotTime));
    }

    /**
     * Sets how many tasks of job {@code jobId} wait for a slot: above zero the job is
     * backlogged, zero takes it out of the backlog.
     *
     * @throws IllegalArgumentException if {@code pendingTasks} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#UNKNOWN_ID}; {@link Status#JOB_COMPLETED}
     */
    public void setPending(long jobId, long pendingTasks) {
        requireU32(pendingTasks, "pendingTasks");
        check(NativeCfq.setPending(handle(), jobId, pendingTasks));
    }

    /**
     * {@link #setPending} for job {@code jobIds[i]} and count {@code pendingTasks[i]}, for every
     * {@code i}, in one native call and all or nothing. A repeated id takes its last count.
     *
     * @throws IllegalArgumentException if a count is negative
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if the arrays differ in length;
     *     otherwise as {@link #setPending}, for the first failing id
     */
    public void setPendingBatch(long[] jobIds, int[] pendingTasks) {
        checkBatch(jobIds, pendingTasks);
        check(NativeCfq.setPendingBatch(handle(), jobIds, pendingTasks));
    }

    /**
     * Hands out up to {@code freeSlots} free slots, each to the backlogged job with the smallest
     * (virtual finish, arrival, id) and each consuming one of its pending tasks. Writes one job
     * id per slot into {@code out[0..n)} (a job given several slots appears several times in a
     * row) and returns {@code n}, below {@code freeSlots} when the backlog runs dry. One native
     * call, no allocation: the form for the hot path.
     *
     * @throws IllegalArgumentException if {@code freeSlots} is negative
     * @throws IndexOutOfBoundsException if {@code out} is shorter than {@code freeSlots}
     */
    public int offer(long[] out, int freeSlots) {
        checkOffer(out, freeSlots);
        return count(NativeCfq.offer(handle(), out, freeSlots));
    }

    /**
     * Sets the pending counts of these jobs, then offers {@code freeSlots} slots: {@link
     * #setPendingBatch setPendingBatch(jobIds, pendingTasks)} then {@link #offer(long[], int)
     * offer(out, freeSlots)} in one native call, for a caller that knows every job's count at
     * each round (a Spark driver's resourceOffers): one JNI crossing a round instead of two, no
     * allocation, both arrays read in place.
     *
     * <p>Every argument is checked before the native call. If the library refuses the counts,
     * nothing has changed ({@code out} included) and their status is thrown. Once the counts are
     * set, the offer cannot fail: the library refuses an offer only for a NULL argument, which
     * the binding never passes (or with {@link Status#PANIC}, a bug, after which this scheduler
     * is closed, as after any call).
     *
     * @return the number of ids written into {@code out[0..n)}, as {@link #offer(long[], int)}
     * @throws IllegalArgumentException if a count or {@code freeSlots} is negative
     * @throws IndexOutOfBoundsException if {@code out} is shorter than {@code freeSlots}
     * @throws FairschedException as {@link #setPendingBatch}: {@link Status#LENGTH_MISMATCH},
     *     {@link Status#UNKNOWN_ID}, {@link Status#JOB_COMPLETED}
     */
    public int offer(long[] jobIds, int[] pendingTasks, long[] out, int freeSlots) {
        checkBatch(jobIds, pendingTasks);
        checkOffer(out, freeSlots);
        return count(NativeCfq.setPendingAndOffer(handle(), jobIds, pendingTasks, out,
                freeSlots));
    }

    /** What {@link #setPendingBatch} checks before its native call. */
    private static void checkBatch(long[] jobIds, int[] pendingTasks) {
        Objects.requireNonNull(jobIds, "jobIds");
        Objects.requireNonNull(pendingTasks, "pendingTasks");
        requireNonNegative(pendingTasks, "pendingTasks");
    }

    /** What {@link #offer(long[], int)} checks before its native call. */
    private static void checkOffer(long[] out, int freeSlots) {
        requireNonNegative(freeSlots, "freeSlots");
        Objects.checkFromIndexSize(0, freeSlots, out.length);
    }

    /**
     * {@link #offer(long[], int)} into a new array of the ids written.
     *
     * @throws IllegalArgumentException if {@code freeSlots} is negative
     */
    public long[] offer(int freeSlots) {
        long[] out = new long[requireNonNegative(freeSlots, "freeSlots")];
        return Arrays.copyOf(out, offer(out, freeSlots));
    }

    /** The job the next free slot would go to, without giving it; empty if none is backlogged. */
    public OptionalLong peek() {
        long[] out = new long[1];
        boolean found = count(NativeCfq.peek(handle(), out)) == 1;
        return found ? OptionalLong.of(out[0]) : OptionalLong.empty();
    }

    /**
     * Job {@code jobId} finished in the real system at {@code now}: it leaves the backlog for
     * good and stays queryable until {@link #remove}. Its place in GPS is unchanged.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}; {@link Status#JOB_COMPLETED}; as
     *     {@link #advance} for {@code now}
     */
    public void complete(double now, long jobId) {
        check(NativeCfq.complete(handle(), now, jobId));
    }

    /**
     * Forgets job {@code jobId} at {@code now}, completing it first if needed (a cancelled job).
     * The id can be reused at once; a job still active in GPS keeps its place there, and its
     * row, until GPS completes it.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}; as {@link #advance} for {@code now}
     */
    public void remove(double now, long jobId) {
        check(NativeCfq.remove(handle(), now, jobId));
    }

    /**
     * What the scheduler knows about job {@code jobId}.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}
     */
    public JobInfo job(long jobId) {
        ByteBuffer info = struct();
        check(NativeCfq.job(handle(), jobId, info));
        return new JobInfo(
                info.getLong(NativeCfq.JOB_ID),
                info.getDouble(NativeCfq.JOB_ARRIVAL),
                info.getDouble(NativeCfq.JOB_SLOT_TIME),
                info.getDouble(NativeCfq.JOB_VIRTUAL_FINISH),
                optional(info.getDouble(NativeCfq.JOB_GPS_COMPLETION),
                        info.get(NativeCfq.JOB_GPS_ACTIVE) == 0),
                optional(info.getDouble(NativeCfq.JOB_COMPLETION),
                        info.get(NativeCfq.JOB_COMPLETED) != 0),
                Integer.toUnsignedLong(info.getInt(NativeCfq.JOB_WEIGHT)),
                Integer.toUnsignedLong(info.getInt(NativeCfq.JOB_PENDING_TASKS)),
                info.get(NativeCfq.JOB_BACKLOGGED) != 0);
    }

    /**
     * Job {@code jobId}'s GPS completion time: exact once GPS has completed it; before that, the
     * time GPS will complete it if no further job arrives and the slot count stays. O(jobs).
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}
     */
    public double gpsCompletionEstimate(long jobId) {
        double[] time = new double[1];
        check(NativeCfq.gpsCompletionEstimate(handle(), jobId, time));
        return time[0];
    }

    /**
     * Theorem 1 of the CFQ paper (§IV-B): CFQ completes every job at most {@code 2 * longestTask
     * + largestSlotTime / slots} after GPS does ({@code fairsched_cfq_delay_bound}; it holds
     * with weights too). {@code longestTask} is the longest run time of any task,
     * {@code largestSlotTime} the largest slot-time of any job.
     *
     * @throws IllegalArgumentException if {@code slots} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#NOT_FINITE}, {@link Status#NOT_POSITIVE} or
     *     {@link Status#OUT_OF_RANGE} for a time outside {@code (0, 2^60]} or a task longer than
     *     the largest slot-time; {@link Status#NOT_POSITIVE} for no slot
     */
    public static double delayBound(double longestTask, double largestSlotTime, long slots) {
        requireU32(slots, "slots");
        double[] bound = new double[1];
        FairschedException.check(NativeCfq.delayBound(longestTask, largestSlotTime, slots, bound));
        return bound[0];
    }

    /** The scheduler as a whole. */
    public Stats stats() {
        ByteBuffer stats = struct();
        check(NativeCfq.stats(handle(), stats));
        return new Stats(
                stats.getDouble(NativeCfq.STATS_NOW),
                stats.getDouble(NativeCfq.STATS_VIRTUAL_TIME),
                Integer.toUnsignedLong(stats.getInt(NativeCfq.STATS_SLOTS)),
                Integer.toUnsignedLong(stats.getInt(NativeCfq.STATS_CAPACITY)),
                Integer.toUnsignedLong(stats.getInt(NativeCfq.STATS_JOBS)),
                Integer.toUnsignedLong(stats.getInt(NativeCfq.STATS_BACKLOGGED)),
                Integer.toUnsignedLong(stats.getInt(NativeCfq.STATS_GPS_ACTIVE)),
                Integer.toUnsignedLong(stats.getInt(NativeCfq.STATS_ROWS_IN_USE)));
    }

    /** {@code value} if {@code present}: C flags a field that Java models as optional. */
    private static OptionalDouble optional(double value, boolean present) {
        return present ? OptionalDouble.of(value) : OptionalDouble.empty();
    }
}

package dev.fairsched;

import static dev.fairsched.Arguments.requireU32;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Incremental weighted DRF for allocators: users ordered by weighted dominant share as their
 * tasks start and finish, so that "which user is next" costs O(1) and every change O(log n),
 * instead of a sort of all users per decision. See {@link Drf} for DRF itself.
 *
 * <p>A user is {@linkplain #addUser added} with a weight and the demand vector of each of its
 * tasks; the caller says how many of its tasks wait ({@link #setPending}: above zero the user is
 * <i>active</i>) and either lets the queue decide a whole round on the free resources ({@link
 * #allocateRound}: discrete DRF; {@link #qknoblerRound}: QKnobler's Algorithm 1 on one machine)
 * or places tasks itself ({@link #startNext}, or {@link #next} then {@link #tasksStarted}); it
 * reports the tasks that finish ({@link #tasksFinished}). Ties between equal weighted shares go
 * to the lower id.
 *
 * <p><b>Numbers.</b> Ids and task counts are C {@code uint64_t}s carried bit for bit by {@code
 * long}: values above {@link Long#MAX_VALUE} appear negative (see {@link
 * Long#toUnsignedString(long)}). Resource vectors hold one amount per kind of the queue's
 * capacity, 1 to 8 kinds, in any unit; they are read in place, never copied.
 *
 * <p><b>Errors.</b> A call the library rejects throws {@link FairschedException} carrying the
 * {@link Status}, and changes nothing.
 *
 * <p><b>Memory.</b> The constructor allocates the queue's native storage, sized once for its
 * users, and {@link #close()} frees it. Closing twice is harmless; any other call on a closed
 * queue throws {@link IllegalStateException}. A queue that becomes unreachable unclosed is
 * freed by a {@link Cleaner}, but only eventually: use try-with-resources.
 *
 * <p><b>Threads.</b> Not thread-safe: use a queue from one thread at a time, {@link #close()}
 * included.
 */
public final class DrfQueue extends NativeObject {
    /**
     * What the queue knows about one user (C: {@code fairsched_drf_user_info}). Two snapshots are
     * equal exactly when every field is, doubles compared bit for bit.
     *
     * @param id the caller's id
     * @param running the running tasks
     * @param pending the pending tasks; the user is active while this is not zero
     * @param weight the weight given when the user was added
     * @param dominantShare the user's dominant share of the capacity, {@code running · δ}
     * @param weightedShare the dominant share divided by the weight: the queue's order
     * @param taskShare {@code δ}: the dominant share of one of the user's tasks
     */
    public record UserInfo(
            long id,
            long running,
            long pending,
            double weight,
            double dominantShare,
            double weightedShare,
            double taskShare) {}

    /**
     * The queue as a whole (C: {@code fairsched_drf_queue_stats}).
     *
     * @param capacity the users the storage holds
     * @param users the users present
     * @param active the users with pending tasks
     * @param kinds the resource kinds of the capacity
     */
    public record Stats(long capacity, long users, long active, long kinds) {}

    /**
     * A queue for up to {@code users} users sharing {@code capacity} (1 to 8 kinds, each finite
     * and positive).
     *
     * @throws IllegalArgumentException if {@code users} is not a {@code uint32_t}
     * @throws FairschedException {@link Status#NOT_POSITIVE} for no users or an amount not above
     *     zero; {@link Status#CAPACITY_TOO_LARGE} for {@code 2^32 - 1} users; {@link
     *     Status#EMPTY} or {@link Status#CAPACITY_FULL} for no kind or more than 8; {@link
     *     Status#NOT_FINITE} for an amount
     * @throws OutOfMemoryError if the native storage cannot be allocated
     */
    public DrfQueue(long users, double[] capacity) {
        super(NativeDrf.STRUCT_SIZE, out -> NativeDrf.open(requireU32(users, "users"),
                Objects.requireNonNull(capacity, "capacity"), out));
    }

    /**
     * Adds user {@code id} with {@code weight} (finite, positive) and the {@code demand} of each
     * of its tasks (one amount per kind, each finite and not negative, not all zero; both within
     * the range {@link Drf} gives), with no task running or pending.
     *
     * @throws FairschedException {@link Status#DUPLICATE_ID}; {@link Status#CAPACITY_FULL} when
     *     the queue holds as many users as it can (or for a demand of more than 8 kinds); {@link
     *     Status#LENGTH_MISMATCH} for a demand of another number of kinds than the capacity;
     *     {@link Status#NOT_FINITE}, {@link Status#NOT_POSITIVE}, {@link Status#NEGATIVE} or
     *     {@link Status#EMPTY} for the weight or the demand
     */
    public void addUser(long id, double weight, double[] demand) {
        Objects.requireNonNull(demand, "demand");
        check(NativeDrf.addUser(handle(), id, weight, demand));
    }

    /**
     * Removes user {@code id}, whatever it has running or pending; its row is free at once.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}
     */
    public void removeUser(long id) {
        check(NativeDrf.removeUser(handle(), id));
    }

    /**
     * Sets how many tasks of user {@code id} wait: above zero the user is active.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}
     */
    public void setPending(long id, long pending) {
        check(NativeDrf.setPending(handle(), id, pending));
    }

    /**
     * {@code count} tasks of user {@code id} started outside a round: they run, and as many
     * pending tasks (at most all of them) no longer wait.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}; {@link Status#OUT_OF_RANGE} if the
     *     running tasks would exceed {@code 2^64 - 1}
     */
    public void tasksStarted(long id, long count) {
        check(NativeDrf.tasksStarted(handle(), id, count));
    }

    /**
     * {@code count} running tasks of user {@code id} finished.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}; {@link Status#NEGATIVE} if fewer run
     */
    public void tasksFinished(long id, long count) {
        check(NativeDrf.tasksFinished(handle(), id, count));
    }

    /** The active user with the lowest weighted dominant share; empty if no user is active. */
    public OptionalLong next() {
        long[] out = new long[1];
        boolean found = count(NativeDrf.next(handle(), out)) == 1;
        return found ? OptionalLong.of(out[0]) : OptionalLong.empty();
    }

    /**
     * Starts one task of the active user with the lowest weighted dominant share (the user
     * {@link #next} returns): one of its pending tasks runs. Nothing is checked against free
     * resources: the caller places the task. One native call.
     *
     * @return the id of the user whose task started; empty, with nothing changed, if no user is
     *     active
     */
    public OptionalLong startNext() {
        long[] out = new long[1];
        boolean found = count(NativeDrf.startNext(handle(), out)) == 1;
        return found ? OptionalLong.of(out[0]) : OptionalLong.empty();
    }

    /**
     * What the queue knows about user {@code id}.
     *
     * @throws FairschedException {@link Status#UNKNOWN_ID}
     */
    public UserInfo user(long id) {
        ByteBuffer info = struct();
        check(NativeDrf.user(handle(), id, info));
        return new UserInfo(
                info.getLong(NativeDrf.USER_ID),
                info.getLong(NativeDrf.USER_RUNNING),
                info.getLong(NativeDrf.USER_PENDING),
                info.getDouble(NativeDrf.USER_WEIGHT),
                info.getDouble(NativeDrf.USER_DOMINANT_SHARE),
                info.getDouble(NativeDrf.USER_WEIGHTED_SHARE),
                info.getDouble(NativeDrf.USER_TASK_SHARE));
    }

    /** The queue as a whole. */
    public Stats stats() {
        ByteBuffer stats = struct();
        check(NativeDrf.stats(handle(), stats));
        return new Stats(
                Integer.toUnsignedLong(stats.getInt(NativeDrf.STATS_CAPACITY)),
                Integer.toUnsignedLong(stats.getInt(NativeDrf.STATS_USERS)),
                Integer.toUnsignedLong(stats.getInt(NativeDrf.STATS_ACTIVE)),
                Integer.toUnsignedLong(stats.getInt(NativeDrf.STATS_KINDS)));
    }

    /**
     * Discrete DRF on the {@code free} resources (one amount per kind, each finite and not
     * negative): starts tasks one at a time, each of the active user with the lowest weighted
     * dominant share whose task fits what is still free, writing its id into {@code out}, until
     * no task fits or {@code out} is full. Returns how many started ({@code out[0..n)}). One
     * native call, no allocation: the form for the hot path.
     *
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} for another number of kinds
     *     than the capacity; {@link Status#NOT_FINITE}, {@link Status#NEGATIVE}, {@link
     *     Status#EMPTY} or {@link Status#CAPACITY_FULL} for {@code free}
     */
    public int allocateRound(double[] free, long[] out) {
        Objects.requireNonNull(free, "free");
        Objects.requireNonNull(out, "out");
        return count(NativeDrf.allocateRound(handle(), free, out));
    }

    /**
     * QKnobler's Algorithm 1 on one machine of capacity {@code machine} with {@code idle}
     * resources (each one amount per kind of the queue's capacity; idle at most the machine's),
     * at knob {@code rho} (finite, in {@code [0, 1]}): while the active user with the lowest
     * weighted dominant share is owed fairness ({@code s_i < ρ s_i^max}) and its task fits, it
     * gets it; otherwise the fitting task with the highest affinity to what is idle does.
     * {@code s_i^max} is computed over the users with pending tasks, again whenever one runs
     * out. At {@code rho = 1} a round is exactly {@link #allocateRound}.
     * Writes the id of each task started into {@code out}, until no task fits or {@code out} is
     * full. One native call.
     *
     * @throws FairschedException {@link Status#NOT_FINITE} or {@link Status#OUT_OF_RANGE} for
     *     {@code rho}; {@link Status#OUT_OF_RANGE} if more is idle than the machine has; {@link
     *     Status#LENGTH_MISMATCH} if {@code machine} or {@code idle} has another number of kinds
     *     than the capacity (checked by the library after each vector's amounts); as {@link
     *     #DrfQueue(long, double[])} for {@code machine} and {@link #allocateRound} for {@code
     *     idle}
     */
    public QKnobler.Round qknoblerRound(double rho, double[] machine, double[] idle, long[] out) {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(out, "out");
        ByteBuffer round = struct();
        check(NativeDrf.qknoblerRound(handle(), rho, machine, idle, out, round));
        return new QKnobler.Round((int) round.getLong(NativeDrf.ROUND_STARTED),
                (int) round.getLong(NativeDrf.ROUND_FAIRNESS));
    }
}

package dev.fairsched;

import java.util.OptionalDouble;

/**
 * What a {@link Cfq} knows about one job (C: {@code fairsched_cfq_job_info}).
 *
 * @param id the caller's id (a u64: ids above {@link Long#MAX_VALUE} appear negative)
 * @param arrival the arrival time
 * @param slotTime the slot-time given at arrival
 * @param virtualFinish the virtual finish time {@code F = V(arrival) + slotTime / weight}
 * @param gpsCompletion the real time at which the GPS reference completed the job; empty while
 *     the job is active in GPS (see {@link Cfq#gpsCompletionEstimate})
 * @param completion the time given to {@link Cfq#complete} or {@link Cfq#remove}; empty while
 *     the job runs
 * @param weight the weight given at arrival
 * @param pendingTasks the tasks waiting for a slot
 * @param backlogged whether the job waits for slots
 */
public record JobInfo(
        long id,
        double arrival,
        double slotTime,
        double virtualFinish,
        OptionalDouble gpsCompletion,
        OptionalDouble completion,
        long weight,
        long pendingTasks,
        boolean backlogged) {}

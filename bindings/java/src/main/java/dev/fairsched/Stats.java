package dev.fairsched;

/**
 * A {@link Cfq} as a whole (C: {@code fairsched_cfq_stats}). Two snapshots are equal exactly
 * when every field is, doubles compared bit for bit.
 *
 * @param now the time of the last accepted call
 * @param virtualTime the GPS virtual time at {@code now}
 * @param slots the slots shared
 * @param capacity the jobs the storage holds
 * @param jobs the jobs reachable by id
 * @param backlogged the jobs with pending tasks
 * @param gpsActive the jobs active in GPS, removed ones included
 * @param rowsInUse the rows in use: jobs reachable by id plus removed jobs still active in GPS
 */
public record Stats(
        double now,
        double virtualTime,
        long slots,
        long capacity,
        long jobs,
        long backlogged,
        long gpsActive,
        long rowsInUse) {}

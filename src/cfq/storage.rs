//! Where a CFQ scheduler keeps its jobs: a [`crate::table`] of [`JobRow`]s with two heaps,
//!
//! - `gps`: the GPS reference's active jobs, by virtual finish time;
//! - `backlog`: the jobs with waiting tasks, by virtual finish time;
//!
//! both keyed by virtual finish time, breaking ties by arrival time, then id ([`ArrivalThenId`]).

use crate::heap::Ties;
use crate::id_index::{self, Links};
use crate::num::order_bits;
use crate::table::{self, Vacant};

/// The number of heaps of a CFQ scheduler.
pub const HEAPS: usize = 2;
/// Which heap is the GPS reference's.
pub const GPS: usize = 0;
/// Which heap is the backlog's.
pub const BACKLOG: usize = 1;

/// Arrays for `N` jobs, owned by the scheduler: `N * 100` bytes (a 64-byte row, a 4-byte
/// bucket head, two 16-byte heap slots), so box it or place it in a `static` when `N` is large.
pub type Inline<const N: usize> = table::Inline<JobRow, N, HEAPS>;

/// Slices the caller owns: rows, numbers (the id table's buckets) and the two heaps, of equal
/// length.
pub type Borrowed<'a> = table::Borrowed<'a, JobRow, HEAPS>;

/// Everything the scheduler knows about one job. Opaque: read it through
/// [`crate::cfq::JobInfo`].
///
/// 64 bytes, aligned to 64: each row is exactly one cache line, so a decision that finds a
/// job by id and then reads its state misses the cache once for the row, not twice (rows at
/// 8-byte alignment straddled two lines; at 100K jobs, 4.1 -> 3.1 D1 misses a decision under
/// cachegrind, `DrainAndReenter::decide_one`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(64))]
pub struct JobRow {
    pub(super) id: u64,
    pub(super) arrival: f64,
    pub(super) slot_time: f64,
    pub(super) finish: f64,
    /// While `gps_active`: the job's GPS start tag `V(arrival)`, which
    /// [`crate::cfq::Cfq::reprofile`] needs to recompute `finish` exactly. Once GPS has
    /// completed the job: the real time it did (its `gps_completion`). One field for both, as
    /// no job needs both at once: the row stays 64 bytes, one cache line.
    pub(super) gps_tag: f64,
    pub(super) completion: f64,
    pub(super) weight: u32,
    pub(super) pending: u32,
    pub(super) gps_active: bool,
    pub(super) completed: bool,
    /// No longer reachable by id; the row is released when the job leaves GPS.
    pub(super) forgotten: bool,
    links: Links,
}

impl Vacant for JobRow {
    /// Virtual finish time: equal ones are rare, and the tie-break (arrival, then id) reads
    /// the rows.
    type Key = u64;
    const VACANT: JobRow = JobRow {
        id: 0,
        arrival: 0.0,
        slot_time: 0.0,
        finish: 0.0,
        gps_tag: 0.0,
        completion: 0.0,
        weight: 0,
        pending: 0,
        gps_active: false,
        completed: false,
        forgotten: false,
        links: Links::NONE,
    };
}

/// The tie-break of both heaps: earlier arrival first, then lower id. Unique per job, so with
/// the virtual finish time it makes the order total.
pub struct ArrivalThenId<'a>(pub &'a [JobRow]);

impl Ties for ArrivalThenId<'_> {
    fn before(&self, a: u32, b: u32) -> bool {
        let key = |row: u32| {
            self.0
                .get(row as usize)
                .map(|r| (order_bits(r.arrival), r.id))
        };
        key(a) < key(b)
    }
}

id_index::impl_row!(JobRow);

#[cfg(test)]
mod tests {
    /// The row size the benchmarks and the documented bytes a job assume.
    #[test]
    fn a_row_is_64_bytes() {
        assert_eq!(core::mem::size_of::<super::JobRow>(), 64);
    }
}

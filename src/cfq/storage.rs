//! Where a CFQ scheduler keeps its jobs: four parallel parts of one capacity.
//!
//! - `rows`: one [`JobRow`] per job (also the id table's chains and the free stack);
//! - `buckets`: the heads of the id table's hash chains;
//! - `gps`: the GPS reference's active jobs, a heap by virtual finish time;
//! - `backlog`: the jobs with waiting tasks, a heap by virtual finish time.
//!
//! Both heaps break ties by arrival time, then id ([`ArrivalThenId`]).
//!
//! [`Inline`] holds them in arrays sized by a const generic, for Rust callers;
//! [`Borrowed`] holds slices the caller provides (the C ABI carves them out of one buffer).

use crate::heap::{HeapSlot, Ties};
use crate::id_index::{Links, Row};
use crate::num::order_bits;
use crate::{Error, Result};

/// One heap slot of a CFQ scheduler.
pub type QueueSlot = HeapSlot;

/// The empty value of a [`QueueSlot`], to fill storage with.
pub const VACANT_SLOT: QueueSlot = HeapSlot::VACANT;

/// Everything the scheduler knows about one job. Opaque: read it through
/// [`crate::cfq::JobInfo`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JobRow {
    pub(super) id: u64,
    pub(super) arrival: f64,
    pub(super) slot_time: f64,
    pub(super) finish: f64,
    pub(super) gps_completion: f64,
    pub(super) completion: f64,
    pub(super) weight: u32,
    pub(super) pending: u32,
    pub(super) gps_active: bool,
    pub(super) completed: bool,
    /// No longer reachable by id; the row is released when the job leaves GPS.
    pub(super) forgotten: bool,
    links: Links,
}

/// The empty value of a [`JobRow`], to fill storage with.
pub const VACANT_ROW: JobRow = JobRow {
    id: 0,
    arrival: 0.0,
    slot_time: 0.0,
    finish: 0.0,
    gps_completion: 0.0,
    completion: 0.0,
    weight: 0,
    pending: 0,
    gps_active: false,
    completed: false,
    forgotten: false,
    links: Links::NONE,
};

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

impl Row for JobRow {
    fn id(&self) -> u64 {
        self.id
    }
    fn links(&self) -> &Links {
        &self.links
    }
    fn links_mut(&mut self) -> &mut Links {
        &mut self.links
    }
}

/// Shared views of the four parts.
pub struct Parts<'a> {
    pub(super) rows: &'a [JobRow],
    pub(super) buckets: &'a [u32],
    pub(super) gps: &'a [QueueSlot],
    pub(super) backlog: &'a [QueueSlot],
}

/// Mutable views of the four parts.
pub struct PartsMut<'a> {
    pub(super) rows: &'a mut [JobRow],
    pub(super) buckets: &'a mut [u32],
    pub(super) gps: &'a mut [QueueSlot],
    pub(super) backlog: &'a mut [QueueSlot],
}

/// Storage for a CFQ scheduler: four parts of equal length (the capacity).
pub trait Storage {
    /// Shared views of the parts.
    fn parts(&self) -> Parts<'_>;
    /// Mutable views of the parts.
    fn parts_mut(&mut self) -> PartsMut<'_>;
}

/// Arrays for `N` jobs, owned by the scheduler. About `N * 116` bytes: box or place it in a
/// `static` when `N` is large.
pub struct Inline<const N: usize> {
    rows: [JobRow; N],
    buckets: [u32; N],
    gps: [QueueSlot; N],
    backlog: [QueueSlot; N],
}

impl<const N: usize> Inline<N> {
    /// Empty arrays.
    pub const fn new() -> Self {
        Inline {
            rows: [VACANT_ROW; N],
            buckets: [0; N],
            gps: [VACANT_SLOT; N],
            backlog: [VACANT_SLOT; N],
        }
    }
}

impl<const N: usize> Default for Inline<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Storage for Inline<N> {
    fn parts(&self) -> Parts<'_> {
        Parts {
            rows: &self.rows,
            buckets: &self.buckets,
            gps: &self.gps,
            backlog: &self.backlog,
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_> {
        PartsMut {
            rows: &mut self.rows,
            buckets: &mut self.buckets,
            gps: &mut self.gps,
            backlog: &mut self.backlog,
        }
    }
}

/// Slices the caller owns. Their contents are overwritten when a scheduler is built on them.
pub struct Borrowed<'a> {
    rows: &'a mut [JobRow],
    buckets: &'a mut [u32],
    gps: &'a mut [QueueSlot],
    backlog: &'a mut [QueueSlot],
}

impl<'a> Borrowed<'a> {
    /// Storage over four slices of equal length; [`Error::LengthMismatch`] otherwise.
    pub fn new(
        rows: &'a mut [JobRow],
        buckets: &'a mut [u32],
        gps: &'a mut [QueueSlot],
        backlog: &'a mut [QueueSlot],
    ) -> Result<Self> {
        let n = rows.len();
        if buckets.len() != n || gps.len() != n || backlog.len() != n {
            return Err(Error::LengthMismatch);
        }
        Ok(Borrowed {
            rows,
            buckets,
            gps,
            backlog,
        })
    }
}

impl Storage for Borrowed<'_> {
    fn parts(&self) -> Parts<'_> {
        Parts {
            rows: self.rows,
            buckets: self.buckets,
            gps: self.gps,
            backlog: self.backlog,
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_> {
        PartsMut {
            rows: self.rows,
            buckets: self.buckets,
            gps: self.gps,
            backlog: self.backlog,
        }
    }
}

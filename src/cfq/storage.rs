//! Where a CFQ scheduler keeps its jobs: three parallel parts of one capacity.
//!
//! - `rows`: one [`JobRow`] per job (also the id table and the free stack);
//! - `gps`: the GPS reference's active jobs, a heap by virtual finish time;
//! - `backlog`: the jobs with waiting tasks, a heap by (virtual finish, arrival, id).
//!
//! [`Inline`] holds them in arrays sized by a const generic, for Rust callers;
//! [`Borrowed`] holds slices the caller provides (the C ABI carves them out of one buffer).

use crate::heap::HeapSlot;
use crate::id_index::{Links, Row};
use crate::{Error, Result};

/// The order of both heaps: virtual finish time, then arrival time, then id, each as a total
/// order on validated numbers. Unique per job, so the order is total and deterministic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub(super) finish: u64,
    pub(super) arrival: u64,
    pub(super) id: u64,
}

impl Key {
    const PLACEHOLDER: Key = Key {
        finish: 0,
        arrival: 0,
        id: 0,
    };
}

/// One heap slot of a CFQ scheduler.
pub type QueueSlot = HeapSlot<Key>;

/// The empty value of a [`QueueSlot`], to fill storage with.
pub const VACANT_SLOT: QueueSlot = HeapSlot::vacant(Key::PLACEHOLDER);

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

/// Shared views of the three parts.
pub struct Parts<'a> {
    pub(super) rows: &'a [JobRow],
    pub(super) gps: &'a [QueueSlot],
    pub(super) backlog: &'a [QueueSlot],
}

/// Mutable views of the three parts.
pub struct PartsMut<'a> {
    pub(super) rows: &'a mut [JobRow],
    pub(super) gps: &'a mut [QueueSlot],
    pub(super) backlog: &'a mut [QueueSlot],
}

/// Storage for a CFQ scheduler: three parts of equal length (the capacity).
pub trait Storage {
    /// Shared views of the parts.
    fn parts(&self) -> Parts<'_>;
    /// Mutable views of the parts.
    fn parts_mut(&mut self) -> PartsMut<'_>;
}

/// Arrays for `N` jobs, owned by the scheduler. About `N * 136` bytes: box or place it in a
/// `static` when `N` is large.
pub struct Inline<const N: usize> {
    rows: [JobRow; N],
    gps: [QueueSlot; N],
    backlog: [QueueSlot; N],
}

impl<const N: usize> Inline<N> {
    /// Empty arrays.
    pub const fn new() -> Self {
        Inline {
            rows: [VACANT_ROW; N],
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
            gps: &self.gps,
            backlog: &self.backlog,
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_> {
        PartsMut {
            rows: &mut self.rows,
            gps: &mut self.gps,
            backlog: &mut self.backlog,
        }
    }
}

/// Slices the caller owns. Their contents are overwritten when a scheduler is built on them.
pub struct Borrowed<'a> {
    rows: &'a mut [JobRow],
    gps: &'a mut [QueueSlot],
    backlog: &'a mut [QueueSlot],
}

impl<'a> Borrowed<'a> {
    /// Storage over three slices of equal length; [`Error::LengthMismatch`] otherwise.
    pub fn new(
        rows: &'a mut [JobRow],
        gps: &'a mut [QueueSlot],
        backlog: &'a mut [QueueSlot],
    ) -> Result<Self> {
        if rows.len() != gps.len() || rows.len() != backlog.len() {
            return Err(Error::LengthMismatch);
        }
        Ok(Borrowed { rows, gps, backlog })
    }
}

impl Storage for Borrowed<'_> {
    fn parts(&self) -> Parts<'_> {
        Parts {
            rows: self.rows,
            gps: self.gps,
            backlog: self.backlog,
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_> {
        PartsMut {
            rows: self.rows,
            gps: self.gps,
            backlog: self.backlog,
        }
    }
}

//! Where HAI works: a [`crate::table`] of one [`JobRow`] per job, with two heaps' slots: the
//! first orders the shortest-job-optimal start as a heap, then both hold the transfers' two
//! loser trees ([`super::tree`]); its `numbers` column is unused. Scratch that every call
//! overwrites.

use super::table::{JobRow, VACANT_ROW};
use crate::heap::HeapSlot;
use crate::table::{self, Vacant};

/// The number of heaps of an HAI workspace.
pub const HEAPS: usize = 2;

/// A slot of HAI's heaps and trees. One-word keys (a JCT, a rise or a fall as ordered bits)
/// suffice: equal keys go to the lower index, which is compared without looking anything up.
pub type Slot = HeapSlot<u64>;

/// Arrays for `N` jobs, owned: 60 bytes a job (box it when `N` is large).
pub type Inline<const N: usize> = table::Inline<JobRow, N, HEAPS>;

/// Slices the caller owns: a row, a number and a slot in each heap per job.
pub type Borrowed<'a> = table::Borrowed<'a, JobRow, HEAPS>;

impl Vacant for JobRow {
    type Key = u64;
    const VACANT: JobRow = VACANT_ROW;
}

//! Where HAI works: one row and two heap slots per job (56 bytes), scratch that every call
//! overwrites. [`Inline`] holds them in arrays sized by a const generic, for Rust callers;
//! [`Borrowed`] holds slices the caller provides (the C ABI carves them out of one block).

use super::table::{JobRow, VACANT_ROW};
use crate::heap::HeapSlot;
use crate::{Error, Result};

/// A slot of HAI's heaps. One-word keys (a JCT, a rise or a fall as ordered bits) suffice:
/// equal keys go to the lower index, which the heap compares without looking anything up.
pub type Slot = HeapSlot<u64>;

/// Scratch for HAI: a [`Borrowed`] view of it.
pub trait Storage {
    /// The number of jobs it holds.
    fn capacity(&self) -> usize;
    /// The storage as three slices of equal length.
    fn borrow(&mut self) -> Borrowed<'_>;
}

/// Arrays for `N` jobs, owned: 56 bytes a job (box it when `N` is large).
pub struct Inline<const N: usize> {
    rows: [JobRow; N],
    donors: [Slot; N],
    acceptors: [Slot; N],
}

impl<const N: usize> Inline<N> {
    /// Arrays for `N` jobs.
    pub const fn new() -> Self {
        Inline {
            rows: [VACANT_ROW; N],
            donors: [Slot::VACANT; N],
            acceptors: [Slot::VACANT; N],
        }
    }
}

impl<const N: usize> Default for Inline<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Storage for Inline<N> {
    fn capacity(&self) -> usize {
        N
    }
    fn borrow(&mut self) -> Borrowed<'_> {
        Borrowed {
            rows: &mut self.rows,
            donors: &mut self.donors,
            acceptors: &mut self.acceptors,
        }
    }
}

/// Slices the caller owns: a row per job, and a slot per job for each of the two heaps (the
/// donors, which first order the shortest-job-optimal start, and the acceptors).
pub struct Borrowed<'a> {
    pub(super) rows: &'a mut [JobRow],
    pub(super) donors: &'a mut [Slot],
    pub(super) acceptors: &'a mut [Slot],
}

impl<'a> Borrowed<'a> {
    /// Storage over three slices of equal length, whose contents do not matter;
    /// [`Error::LengthMismatch`] otherwise.
    pub fn new(
        rows: &'a mut [JobRow],
        donors: &'a mut [Slot],
        acceptors: &'a mut [Slot],
    ) -> Result<Self> {
        if donors.len() != rows.len() || acceptors.len() != rows.len() {
            return Err(Error::LengthMismatch);
        }
        Ok(Borrowed {
            rows,
            donors,
            acceptors,
        })
    }
}

impl Storage for Borrowed<'_> {
    fn capacity(&self) -> usize {
        self.rows.len()
    }
    fn borrow(&mut self) -> Borrowed<'_> {
        Borrowed {
            rows: self.rows,
            donors: self.donors,
            acceptors: self.acceptors,
        }
    }
}

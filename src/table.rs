//! Storage for a fixed-capacity table of rows with `H` heaps over them: the one shape every
//! stateful algorithm of the crate keeps its state (or its scratch) in.
//!
//! Parts, all of one length (the capacity):
//! - `rows`: one row per entity (a job, a user), whatever the algorithm keeps about it;
//! - `numbers`: a column of row numbers, whose meaning the algorithm gives: the heads of the id
//!   table's hash chains for CFQ and DRF (see [`crate::id_index`]), the jobs in fair-share
//!   order for PAF; HAI leaves it unused;
//! - `heaps`: `H` indexed heaps over row numbers (see [`crate::heap`]).
//!
//! [`Inline`] holds them in arrays sized by a const generic, for Rust callers; [`Borrowed`]
//! holds slices the caller provides (the C ABI carves them out of one buffer, with one layout
//! for every object). Algorithms are written once against [`Storage`], and every one checks
//! its capacity with [`check_capacity`].

use crate::heap::{self, HeapKey, HeapSlot};
use crate::id_index::{self, Row, TableHead};
use crate::{Error, Result};

/// Checks a table's capacity, the same way for every algorithm: [`Error::NotPositive`] for 0,
/// [`Error::CapacityTooLarge`] from `u32::MAX` up (heaps number rows `0..u32::MAX`, with
/// [`heap::NONE`] kept for "no row").
pub fn check_capacity(capacity: usize) -> Result<()> {
    if capacity == 0 {
        return Err(Error::NotPositive);
    }
    if capacity >= heap::NONE as usize {
        return Err(Error::CapacityTooLarge);
    }
    Ok(())
}

/// A row type: its empty value, to fill storage with, and the key of the heaps over it.
pub trait Vacant: Copy {
    /// The empty row.
    const VACANT: Self;
    /// The key the table's heaps order these rows by.
    type Key: HeapKey;
}

/// A heap slot of a table of rows `R`.
pub type Slot<R> = HeapSlot<<R as Vacant>::Key>;

/// Shared views of the parts.
pub struct Parts<'a, R: Vacant, const H: usize> {
    /// One row per entity.
    pub rows: &'a [R],
    /// The column of row numbers.
    pub numbers: &'a [u32],
    /// The heaps.
    pub heaps: [&'a [Slot<R>]; H],
}

/// Mutable views of the parts.
pub struct PartsMut<'a, R: Vacant, const H: usize> {
    /// One row per entity.
    pub rows: &'a mut [R],
    /// The column of row numbers.
    pub numbers: &'a mut [u32],
    /// The heaps.
    pub heaps: [&'a mut [Slot<R>]; H],
}

/// Storage for a table of rows `R` with `H` heaps, all parts of equal length.
pub trait Storage<R: Vacant, const H: usize> {
    /// Shared views of the parts.
    fn parts(&self) -> Parts<'_, R, H>;
    /// Mutable views of the parts.
    fn parts_mut(&mut self) -> PartsMut<'_, R, H>;
    /// The number of rows: the capacity.
    fn capacity(&self) -> usize {
        self.parts().rows.len()
    }
}

/// Arrays for `N` rows, owned by the structure that uses them. Large: box it or place it in a
/// `static` when `N` is large.
///
/// Laid out in declaration order (rows, heaps, then the column of numbers), as the separate
/// arrays of each algorithm were before they shared this type: with the compiler's own order
/// the column fell between the rows and the heaps and HAI's rebalance ran 13-16% slower on
/// the same instructions (`cargo bench -p fairsched-bench --bench hai -- hai_arrival`).
#[repr(C)]
pub struct Inline<R: Vacant, const N: usize, const H: usize> {
    rows: [R; N],
    heaps: [[Slot<R>; N]; H],
    numbers: [u32; N],
}

impl<R: Vacant, const N: usize, const H: usize> Inline<R, N, H> {
    /// Empty arrays.
    pub const fn new() -> Self {
        Inline {
            rows: [R::VACANT; N],
            numbers: [0; N],
            heaps: [[HeapSlot::VACANT; N]; H],
        }
    }
}

impl<R: Vacant, const N: usize, const H: usize> Default for Inline<R, N, H> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Vacant, const N: usize, const H: usize> Storage<R, H> for Inline<R, N, H> {
    fn parts(&self) -> Parts<'_, R, H> {
        Parts {
            rows: &self.rows,
            numbers: &self.numbers,
            heaps: self.heaps.each_ref().map(|heap| heap.as_slice()),
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            rows: &mut self.rows,
            numbers: &mut self.numbers,
            heaps: self.heaps.each_mut().map(|heap| heap.as_mut_slice()),
        }
    }
}

/// Slices the caller owns. Their contents are overwritten when a structure is built on them.
pub struct Borrowed<'a, R: Vacant, const H: usize> {
    rows: &'a mut [R],
    numbers: &'a mut [u32],
    heaps: [&'a mut [Slot<R>]; H],
}

impl<'a, R: Vacant, const H: usize> Borrowed<'a, R, H> {
    /// Storage over slices of equal length; [`Error::LengthMismatch`] otherwise.
    pub fn new(
        rows: &'a mut [R],
        numbers: &'a mut [u32],
        heaps: [&'a mut [Slot<R>]; H],
    ) -> Result<Self> {
        let n = rows.len();
        if numbers.len() != n || heaps.iter().any(|heap| heap.len() != n) {
            return Err(Error::LengthMismatch);
        }
        Ok(Borrowed {
            rows,
            numbers,
            heaps,
        })
    }
}

impl<R: Vacant, const H: usize> Storage<R, H> for Borrowed<'_, R, H> {
    fn parts(&self) -> Parts<'_, R, H> {
        Parts {
            rows: self.rows,
            numbers: self.numbers,
            heaps: self.heaps.each_ref().map(|heap| &**heap),
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            rows: self.rows,
            numbers: self.numbers,
            heaps: self.heaps.each_mut().map(|heap| &mut **heap),
        }
    }
}

/// Empties every part of a table whose `numbers` are the id table's buckets, and returns the
/// id table's head: all rows free, all heaps empty.
pub fn reset<R: Row + Vacant, const H: usize>(parts: PartsMut<'_, R, H>) -> TableHead {
    parts.rows.fill(R::VACANT);
    for heap in parts.heaps {
        heap.fill(HeapSlot::VACANT);
    }
    id_index::reset(parts.numbers, parts.rows)
}

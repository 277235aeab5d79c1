//! Storage for a fixed-capacity table of rows addressed by the caller's ids, with `H` heaps
//! over the rows: the shape every stateful algorithm of the crate keeps its state in.
//!
//! Parts, all of one length (the capacity):
//! - `rows`: one row per entity (job, user, ...), also carrying the id table's chains and the
//!   free stack (see [`crate::id_index`]);
//! - `buckets`: the heads of the id table's hash chains;
//! - `heaps`: `H` indexed heaps over row numbers (see [`crate::heap`]).
//!
//! [`Inline`] holds them in arrays sized by a const generic, for Rust callers; [`Borrowed`]
//! holds slices the caller provides (the C ABI carves them out of one buffer). Algorithms are
//! written once against [`Storage`].

use crate::heap::{HeapKey, HeapSlot};
use crate::id_index::{self, Row, TableHead};
use crate::{Error, Result};

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
    /// Heads of the id table's chains.
    pub buckets: &'a [u32],
    /// The heaps.
    pub heaps: [&'a [Slot<R>]; H],
}

/// Mutable views of the parts.
pub struct PartsMut<'a, R: Vacant, const H: usize> {
    /// One row per entity.
    pub rows: &'a mut [R],
    /// Heads of the id table's chains.
    pub buckets: &'a mut [u32],
    /// The heaps.
    pub heaps: [&'a mut [Slot<R>]; H],
}

/// Storage for a table of rows `R` with `H` heaps, all parts of equal length.
pub trait Storage<R: Vacant, const H: usize> {
    /// Shared views of the parts.
    fn parts(&self) -> Parts<'_, R, H>;
    /// Mutable views of the parts.
    fn parts_mut(&mut self) -> PartsMut<'_, R, H>;
}

/// Arrays for `N` rows, owned by the structure that uses them. Large: box it or place it in a
/// `static` when `N` is large.
pub struct Inline<R: Vacant, const N: usize, const H: usize> {
    rows: [R; N],
    buckets: [u32; N],
    heaps: [[Slot<R>; N]; H],
}

impl<R: Vacant, const N: usize, const H: usize> Inline<R, N, H> {
    /// Empty arrays.
    pub const fn new() -> Self {
        Inline {
            rows: [R::VACANT; N],
            buckets: [0; N],
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
            buckets: &self.buckets,
            heaps: self.heaps.each_ref().map(|heap| heap.as_slice()),
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            rows: &mut self.rows,
            buckets: &mut self.buckets,
            heaps: self.heaps.each_mut().map(|heap| heap.as_mut_slice()),
        }
    }
}

/// Slices the caller owns. Their contents are overwritten when a structure is built on them.
pub struct Borrowed<'a, R: Vacant, const H: usize> {
    rows: &'a mut [R],
    buckets: &'a mut [u32],
    heaps: [&'a mut [Slot<R>]; H],
}

impl<'a, R: Vacant, const H: usize> Borrowed<'a, R, H> {
    /// Storage over slices of equal length; [`Error::LengthMismatch`] otherwise.
    pub fn new(
        rows: &'a mut [R],
        buckets: &'a mut [u32],
        heaps: [&'a mut [Slot<R>]; H],
    ) -> Result<Self> {
        let n = rows.len();
        if buckets.len() != n || heaps.iter().any(|heap| heap.len() != n) {
            return Err(Error::LengthMismatch);
        }
        Ok(Borrowed {
            rows,
            buckets,
            heaps,
        })
    }
}

impl<R: Vacant, const H: usize> Storage<R, H> for Borrowed<'_, R, H> {
    fn parts(&self) -> Parts<'_, R, H> {
        Parts {
            rows: self.rows,
            buckets: self.buckets,
            heaps: self.heaps.each_ref().map(|heap| &**heap),
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            rows: self.rows,
            buckets: self.buckets,
            heaps: self.heaps.each_mut().map(|heap| &mut **heap),
        }
    }
}

/// Empties every part and returns the id table's head: all rows free, all heaps empty.
pub fn reset<R: Row + Vacant, const H: usize>(parts: PartsMut<'_, R, H>) -> TableHead {
    parts.rows.fill(R::VACANT);
    for heap in parts.heaps {
        heap.fill(HeapSlot::VACANT);
    }
    id_index::reset(parts.buckets, parts.rows)
}

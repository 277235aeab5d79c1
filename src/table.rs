//! Storage for a fixed-capacity table of rows with `H` heaps over them: the one shape every
//! stateful algorithm of the crate keeps its state (or its scratch) in.
//!
//! Parts, all of one length (the capacity):
//! - `rows`: one row per entity (a job, a user), whatever the algorithm keeps about it;
//! - `numbers`: a column of row numbers, whose meaning the algorithm gives: the heads of the id
//!   table's hash chains for CFQ, DRF and DRR's predictor (see [`crate::id_index`]), the jobs
//!   in fair-share order for PAF, the running executors in placement order for DRR's
//!   timeline; HAI leaves it unused;
//! - `heaps`: `H` indexed heaps over row numbers (see [`crate::heap`]).
//!
//! and one part of its own length:
//! - `amounts`: a column of `f64` for what does not fit a row of fixed size, or is read too
//!   rarely to belong in it, whose length and meaning the algorithm gives: DRR's time series
//!   (a timeline's available series and its executors' demand series, a predictor's past
//!   runs), DRF's per-user demands (kept out of the rows that every decision reads). The
//!   others leave it empty.
//!
//! [`Inline`] holds them in arrays sized by a const generic, for Rust callers; [`Borrowed`]
//! (and [`BorrowedWithAmounts`], with the amounts) holds slices the caller provides (the C ABI
//! carves them out of one buffer, with one layout for every object). Algorithms are written once against [`Storage`], and every one checks
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
    /// The column of amounts (empty for most algorithms).
    pub amounts: &'a [f64],
}

/// Mutable views of the parts.
pub struct PartsMut<'a, R: Vacant, const H: usize> {
    /// One row per entity.
    pub rows: &'a mut [R],
    /// The column of row numbers.
    pub numbers: &'a mut [u32],
    /// The heaps.
    pub heaps: [&'a mut [Slot<R>]; H],
    /// The column of amounts (empty for most algorithms).
    pub amounts: &'a mut [f64],
}

/// Storage for a table of rows `R` with `H` heaps, all parts of equal length but the amounts.
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

/// Arrays for `N` rows and `A · W` amounts (`A` groups of `W`), owned by the structure that
/// uses them. Large: box it or place it in a `static` when `N` (or `A`) is large.
///
/// The amounts come in groups so that a column sized by the capacity (DRF's demands: `N`
/// groups of [`crate::resources::MAX_KINDS`]) can be written as a type, where `N · 8` cannot
/// be on stable Rust; DRR's columns, sized by their configuration, are groups of one.
///
/// Laid out in declaration order (rows, heaps, then the column of numbers), as the separate
/// arrays of each algorithm were before they shared this type: with the compiler's own order
/// the column fell between the rows and the heaps and HAI's rebalance ran 13-16% slower on
/// the same instructions (`cargo bench -p fairsched-bench --bench hai -- hai_arrival`). The
/// amounts come last: with `A = 0`, the default, they take no room.
#[repr(C)]
pub struct Inline<R: Vacant, const N: usize, const H: usize, const A: usize = 0, const W: usize = 1>
{
    rows: [R; N],
    heaps: [[Slot<R>; N]; H],
    numbers: [u32; N],
    amounts: [[f64; W]; A],
}

impl<R: Vacant, const N: usize, const H: usize, const A: usize, const W: usize>
    Inline<R, N, H, A, W>
{
    /// Empty arrays.
    pub const fn new() -> Self {
        Inline {
            rows: [R::VACANT; N],
            numbers: [0; N],
            heaps: [[HeapSlot::VACANT; N]; H],
            amounts: [[0.0; W]; A],
        }
    }
}

impl<R: Vacant, const N: usize, const H: usize, const A: usize, const W: usize> Default
    for Inline<R, N, H, A, W>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Vacant, const N: usize, const H: usize, const A: usize, const W: usize> Storage<R, H>
    for Inline<R, N, H, A, W>
{
    fn parts(&self) -> Parts<'_, R, H> {
        Parts {
            rows: &self.rows,
            numbers: &self.numbers,
            heaps: self.heaps.each_ref().map(|heap| heap.as_slice()),
            amounts: self.amounts.as_flattened(),
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            rows: &mut self.rows,
            numbers: &mut self.numbers,
            heaps: self.heaps.each_mut().map(|heap| heap.as_mut_slice()),
            amounts: self.amounts.as_flattened_mut(),
        }
    }
}

/// Slices the caller owns. Their contents are overwritten when a structure is built on them.
/// No amounts: see [`BorrowedWithAmounts`] for the algorithms that keep some.
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
            amounts: &[],
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            rows: self.rows,
            numbers: self.numbers,
            heaps: self.heaps.each_mut().map(|heap| &mut **heap),
            amounts: &mut [],
        }
    }
}

/// [`Borrowed`] slices and a column of amounts the caller owns too, for the algorithms that
/// keep amounts (a separate type, so that the others' storage stays as small as it was).
pub struct BorrowedWithAmounts<'a, R: Vacant, const H: usize> {
    table: Borrowed<'a, R, H>,
    amounts: &'a mut [f64],
}

impl<'a, R: Vacant, const H: usize> BorrowedWithAmounts<'a, R, H> {
    /// Storage over slices of equal length ([`Error::LengthMismatch`] otherwise) and a column
    /// of amounts of any length (the algorithm checks it against its configuration).
    pub fn new(
        rows: &'a mut [R],
        numbers: &'a mut [u32],
        heaps: [&'a mut [Slot<R>]; H],
        amounts: &'a mut [f64],
    ) -> Result<Self> {
        let table = Borrowed::new(rows, numbers, heaps)?;
        Ok(BorrowedWithAmounts { table, amounts })
    }
}

impl<R: Vacant, const H: usize> Storage<R, H> for BorrowedWithAmounts<'_, R, H> {
    fn parts(&self) -> Parts<'_, R, H> {
        Parts {
            amounts: self.amounts,
            ..self.table.parts()
        }
    }
    fn parts_mut(&mut self) -> PartsMut<'_, R, H> {
        PartsMut {
            amounts: self.amounts,
            ..self.table.parts_mut()
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

//! Carving a [`crate::table`] and the handle that owns it out of one block of caller memory:
//! the layout every table-backed export (`fairsched_<object>_storage_size` / `_init`) shares.
//!
//! The block holds, in order and each aligned for the strictest of them: the handle `T`, then
//! the rows, the buckets and the `H` heaps of the table, each `capacity` long (see
//! [`super::Carving`] for placing the block inside memory of any alignment).

use super::{fill, Carving, Status};
use crate::heap::HeapSlot;
use crate::table::{Borrowed, Slot, Vacant};
use core::mem::{align_of, size_of};

/// Byte offsets of the parts inside the block.
struct Layout<const H: usize> {
    rows: usize,
    buckets: usize,
    heaps: [usize; H],
    carving: Carving,
}

fn layout<T, R: Vacant, const H: usize>(capacity: usize) -> Status<Layout<H>> {
    let align = align_of::<T>()
        .max(align_of::<R>())
        .max(align_of::<Slot<R>>())
        .max(align_of::<u32>());
    let mut carving = Carving::new(size_of::<T>(), align);
    let rows = carving.part(size_of::<R>(), capacity)?;
    let buckets = carving.part(size_of::<u32>(), capacity)?;
    let mut heaps = [0; H];
    for heap in &mut heaps {
        *heap = carving.part(size_of::<Slot<R>>(), capacity)?;
    }
    Ok(Layout {
        rows,
        buckets,
        heaps,
        carving,
    })
}

/// The bytes a block for handle `T` and a table of `capacity` rows `R` with `H` heaps needs,
/// alignment slack included.
pub(crate) fn storage_size<T, R: Vacant, const H: usize>(capacity: usize) -> Status<usize> {
    layout::<T, R, H>(capacity)?.carving.bytes()
}

/// Lays out a block in `memory` (`memory_len` bytes) and returns where the handle `T` goes
/// (not yet written) and the table's empty storage. `BufferTooSmall` when it does not fit.
///
/// # Safety
/// `memory` must be non-NULL, valid for writes of `memory_len` bytes, and left alone by the
/// caller for as long as the handle is used.
pub(crate) unsafe fn carve<T, R: Vacant, const H: usize>(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    capacity: usize,
) -> Status<(*mut T, Borrowed<'static, R, H>)> {
    let layout = layout::<T, R, H>(capacity)?;
    let block = layout.carving.place(memory, memory_len)?;
    // SAFETY: every part lies inside the block `place` checked against the caller's memory,
    // each aligned for its type.
    unsafe {
        let rows = fill(block.add(layout.rows), capacity, R::VACANT);
        let buckets = fill(block.add(layout.buckets), capacity, 0u32);
        let heaps = layout
            .heaps
            .map(|at| fill(block.add(at), capacity, HeapSlot::VACANT));
        Ok((block.cast::<T>(), Borrowed::new(rows, buckets, heaps)?))
    }
}

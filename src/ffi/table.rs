//! Carving a [`crate::table`] and the handle that owns it out of one block of caller memory:
//! the layout every stateful export (`fairsched_<object>_storage_size` / `_init`) shares.
//!
//! The block holds, in order and each aligned for its type: the handle `T`, then the rows, the
//! buckets and the `H` heaps of the table, each `capacity` long. The caller's memory may have
//! any alignment: the block starts at the first suitably aligned address inside it, and the
//! size asked for includes the slack that needs.

use super::{FairschedStatus, Status};
use crate::heap::HeapSlot;
use crate::table::Slot;
use crate::table::{Borrowed, Vacant};
use core::mem::{align_of, size_of};

/// Byte offsets of the parts inside the aligned block, its length, and the bytes to ask for.
struct Layout<const H: usize> {
    rows: usize,
    buckets: usize,
    heaps: [usize; H],
    end: usize,
    bytes: usize,
}

const fn align<T, R: Vacant>() -> usize {
    let mut a = align_of::<T>();
    if align_of::<R>() > a {
        a = align_of::<R>();
    }
    if align_of::<Slot<R>>() > a {
        a = align_of::<Slot<R>>();
    }
    if align_of::<u32>() > a {
        a = align_of::<u32>();
    }
    a
}

fn layout<T, R: Vacant, const H: usize>(capacity: usize) -> Status<Layout<H>> {
    let too_large = FairschedStatus::CapacityTooLarge;
    let align = align::<T, R>();
    let part = |start: usize, size: usize| -> Status<(usize, usize)> {
        let at = start.checked_next_multiple_of(align).ok_or(too_large)?;
        let end = size
            .checked_mul(capacity)
            .and_then(|bytes| at.checked_add(bytes))
            .ok_or(too_large)?;
        Ok((at, end))
    };
    let (rows, mut end) = part(size_of::<T>(), size_of::<R>())?;
    let (buckets, after_buckets) = part(end, size_of::<u32>())?;
    end = after_buckets;
    let mut heaps = [0; H];
    for heap in &mut heaps {
        let (at, after) = part(end, size_of::<Slot<R>>())?;
        *heap = at;
        end = after;
    }
    let bytes = end.checked_add(align.saturating_sub(1)).ok_or(too_large)?;
    if isize::try_from(bytes).is_err() {
        return Err(too_large);
    }
    Ok(Layout {
        rows,
        buckets,
        heaps,
        end,
        bytes,
    })
}

/// The bytes a block for handle `T` and a table of `capacity` rows `R` with `H` heaps needs,
/// alignment slack included.
pub(crate) fn storage_size<T, R: Vacant, const H: usize>(capacity: usize) -> Status<usize> {
    Ok(layout::<T, R, H>(capacity)?.bytes)
}

/// Fills `len` elements at `at` with `value` and returns them as a slice.
///
/// # Safety
/// `at` must be aligned for `E` and valid for writes of `len` elements for as long as the
/// caller of the `_init` export promised.
unsafe fn fill<E: Copy>(at: *mut u8, len: usize, value: E) -> &'static mut [E] {
    let first = at.cast::<E>();
    for i in 0..len {
        unsafe { first.add(i).write(value) };
    }
    unsafe { core::slice::from_raw_parts_mut(first, len) }
}

/// Lays out a block in `memory` (`memory_len` bytes) and returns where the handle `T` goes
/// (not yet written) and the table's empty storage.
/// [`FairschedStatus::BufferTooSmall`] when the block does not fit.
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
    let base = memory.cast::<u8>();
    let skip = base.align_offset(align::<T, R>());
    if skip
        .checked_add(layout.end)
        .is_none_or(|needed| needed > memory_len)
    {
        return Err(FairschedStatus::BufferTooSmall);
    }
    // SAFETY: every part lies inside [base + skip, base + skip + layout.end), which the check
    // above keeps inside the caller's memory, each aligned for its type.
    unsafe {
        let block = base.add(skip);
        let rows = fill(block.add(layout.rows), capacity, R::VACANT);
        let buckets = fill(block.add(layout.buckets), capacity, 0u32);
        let heaps = layout
            .heaps
            .map(|at| fill(block.add(at), capacity, HeapSlot::VACANT));
        Ok((block.cast::<T>(), Borrowed::new(rows, buckets, heaps)?))
    }
}

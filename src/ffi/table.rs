//! The one setup path of every stateful object of the C ABI (`fairsched_<object>_storage_size`
//! and `fairsched_<object>_init`): a [`crate::table`] and the handle that owns it, carved out of
//! one block of caller memory.
//!
//! The block holds, in order and each aligned for the strictest of them: the handle `T`, then
//! the rows, the `numbers` column and the `H` heaps of the table, each `capacity` long (see
//! [`super::Carving`] for placing the block inside memory of any alignment). Every object's
//! capacity is checked once, by [`table::check_capacity`].

use super::{fill, write, Carving, FairschedStatus, Status};
use crate::heap::HeapSlot;
use crate::table::{self, Borrowed, Slot, Vacant};
use core::ffi::c_void;
use core::mem::{align_of, size_of};

/// Byte offsets of the parts inside the block.
struct Layout<const H: usize> {
    rows: usize,
    numbers: usize,
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
    let numbers = carving.part(size_of::<u32>(), capacity)?;
    let mut heaps = [0; H];
    for heap in &mut heaps {
        *heap = carving.part(size_of::<Slot<R>>(), capacity)?;
    }
    Ok(Layout {
        rows,
        numbers,
        heaps,
        carving,
    })
}

/// The body of `fairsched_<object>_storage_size`: writes into `*out_size` the bytes a block
/// for handle `T` and a table of `capacity` rows `R` with `H` heaps needs, alignment slack
/// included.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
pub(crate) unsafe fn storage_size<T, R: Vacant, const H: usize>(
    capacity: u32,
    out_size: *mut usize,
) -> Status {
    let out = unsafe { write(out_size) }?;
    table::check_capacity(capacity as usize)?;
    *out = layout::<T, R, H>(capacity as usize)?.carving.bytes()?;
    Ok(())
}

/// The body of `fairsched_<object>_init`. Checks, in this order: `out` and `memory` for NULL,
/// the capacity, `check` (the object's configuration, read and validated; nothing is written
/// before it passes), then that the block fits in `memory_len` bytes; then builds the handle
/// with `build` from the table's storage and what `check` returned, writes it at the start of
/// the block and `*out` to it.
///
/// # Safety
/// `memory` must be NULL or valid for writes of `memory_len` bytes, and left alone by the
/// caller for as long as the handle is used; `out` must be NULL or valid for a write.
pub(crate) unsafe fn init<T, R, C, const H: usize>(
    memory: *mut c_void,
    memory_len: usize,
    capacity: u32,
    out: *mut *mut T,
    check: impl FnOnce() -> Status<C>,
    build: impl FnOnce(Borrowed<'static, R, H>, C) -> crate::Result<T>,
) -> Status
where
    R: Vacant + 'static,
    R::Key: 'static,
{
    let out = unsafe { write(out) }?;
    if memory.is_null() {
        return Err(FairschedStatus::NullPointer);
    }
    table::check_capacity(capacity as usize)?;
    let config = check()?;
    let capacity = capacity as usize;
    let layout = layout::<T, R, H>(capacity)?;
    let block = layout.carving.place(memory, memory_len)?;
    // SAFETY: every part lies inside the block `place` checked against the caller's memory,
    // each aligned for its type; the caller promised the memory is ours while the handle lives.
    let (handle, storage) = unsafe {
        let rows = fill(block.add(layout.rows), capacity, R::VACANT);
        let numbers = fill(block.add(layout.numbers), capacity, 0u32);
        let heaps = layout
            .heaps
            .map(|at| fill(block.add(at), capacity, HeapSlot::VACANT));
        (block.cast::<T>(), Borrowed::new(rows, numbers, heaps)?)
    };
    let object = build(storage, config)?;
    unsafe { handle.write(object) };
    *out = handle;
    Ok(())
}

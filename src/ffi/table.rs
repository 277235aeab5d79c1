//! The one setup path of every stateful object of the C ABI (`fairsched_<object>_storage_size`
//! and `fairsched_<object>_init`): a [`crate::table`] and the handle that owns it, carved out of
//! one block of caller memory.
//!
//! The block holds, in order and each aligned for the strictest of them: the handle `T`, then
//! the rows, the `numbers` column and the `H` heaps of the table, each `capacity` long, then
//! the column of amounts, as long as the object's configuration asks (none for most; see
//! [`super::Carving`] for placing the block inside memory of any alignment). Every object's
//! capacity is checked once, by [`table::check_capacity`].

use super::{fill, write, Carving, FairschedStatus, Status};
use crate::heap::HeapSlot;
use crate::table::{self, Borrowed, BorrowedWithAmounts, Slot, Vacant};
use core::ffi::c_void;
use core::mem::{align_of, size_of};

/// Byte offsets of the parts inside the block.
struct Layout<const H: usize> {
    rows: usize,
    numbers: usize,
    heaps: [usize; H],
    amounts: usize,
    carving: Carving,
}

fn layout<T, R: Vacant, const H: usize>(capacity: usize, amounts: usize) -> Status<Layout<H>> {
    let align = align_of::<T>()
        .max(align_of::<R>())
        .max(align_of::<Slot<R>>())
        .max(align_of::<u32>())
        .max(align_of::<f64>());
    let mut carving = Carving::new(size_of::<T>(), align);
    let rows = carving.part(size_of::<R>(), capacity)?;
    let numbers = carving.part(size_of::<u32>(), capacity)?;
    let mut heaps = [0; H];
    for heap in &mut heaps {
        *heap = carving.part(size_of::<Slot<R>>(), capacity)?;
    }
    // No column, no part: the blocks of the objects without amounts keep their size.
    let amounts = match amounts {
        0 => 0,
        n => carving.part(size_of::<f64>(), n)?,
    };
    Ok(Layout {
        rows,
        numbers,
        heaps,
        amounts,
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
    unsafe { storage_size_with_amounts::<T, R, H>(capacity, out_size, |_| Ok(0)) }
}

/// [`storage_size`] for an object whose configuration asks for a column of amounts: after
/// `out_size` and the capacity, `amounts` checks the configuration and says how many amounts
/// a table of that capacity needs.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
pub(crate) unsafe fn storage_size_with_amounts<T, R: Vacant, const H: usize>(
    capacity: u32,
    out_size: *mut usize,
    amounts: impl FnOnce(usize) -> Status<usize>,
) -> Status {
    let out = unsafe { write(out_size) }?;
    table::check_capacity(capacity as usize)?;
    let amounts = amounts(capacity as usize)?;
    *out = layout::<T, R, H>(capacity as usize, amounts)?
        .carving
        .bytes()?;
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
    let check = || Ok((check()?, 0));
    let store = |rows, numbers, heaps, _| Borrowed::new(rows, numbers, heaps);
    unsafe { init_storage(memory, memory_len, capacity, out, check, store, build) }
}

/// [`init`] for an object whose configuration asks for a column of amounts: `check` returns
/// the configuration and the number of amounts, as [`storage_size_with_amounts`] counted them;
/// the amounts are zeros when `build` gets them.
///
/// # Safety
/// As for [`init`].
pub(crate) unsafe fn init_with_amounts<T, R, C, const H: usize>(
    memory: *mut c_void,
    memory_len: usize,
    capacity: u32,
    out: *mut *mut T,
    check: impl FnOnce() -> Status<(C, usize)>,
    build: impl FnOnce(BorrowedWithAmounts<'static, R, H>, C) -> crate::Result<T>,
) -> Status
where
    R: Vacant + 'static,
    R::Key: 'static,
{
    let store = BorrowedWithAmounts::new;
    unsafe { init_storage(memory, memory_len, capacity, out, check, store, build) }
}

/// The body of both: the checks in their order, then the parts carved and filled, `store`
/// making them the object's storage `S`, and the handle built and written.
///
/// # Safety
/// As for [`init`].
unsafe fn init_storage<T, R, C, S, const H: usize>(
    memory: *mut c_void,
    memory_len: usize,
    capacity: u32,
    out: *mut *mut T,
    check: impl FnOnce() -> Status<(C, usize)>,
    store: impl FnOnce(
        &'static mut [R],
        &'static mut [u32],
        [&'static mut [Slot<R>]; H],
        &'static mut [f64],
    ) -> crate::Result<S>,
    build: impl FnOnce(S, C) -> crate::Result<T>,
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
    let (config, amounts) = check()?;
    let capacity = capacity as usize;
    let layout = layout::<T, R, H>(capacity, amounts)?;
    let block = layout.carving.place(memory, memory_len)?;
    // SAFETY: every part lies inside the block `place` checked against the caller's memory,
    // each aligned for its type; the caller promised the memory is ours while the handle lives.
    let (handle, storage) = unsafe {
        let rows = fill(block.add(layout.rows), capacity, R::VACANT);
        let numbers = fill(block.add(layout.numbers), capacity, 0u32);
        let heaps = layout
            .heaps
            .map(|at| fill(block.add(at), capacity, HeapSlot::VACANT));
        let column = fill(block.add(layout.amounts), amounts, 0.0f64);
        (block.cast::<T>(), store(rows, numbers, heaps, column)?)
    };
    let object = build(storage, config)?;
    unsafe { handle.write(object) };
    *out = handle;
    Ok(())
}

//! The C ABI (feature `ffi`): thin `extern "C"` wrappers over the core, one file per algorithm.
//! Not a Rust API: Rust callers use the core modules directly.
//!
//! Conventions, for every export:
//! - it returns a [`FairschedStatus`] (or, for infallible lookups, a plain value);
//! - its body runs inside `boundary` (or `guard`), which turns a panic into [`FairschedStatus::Panic`]
//!   instead of unwinding into C, the JVM or Go (a test checks every export uses it);
//! - pointers are checked for NULL; a buffer pointer is followed by its length;
//! - out-parameters are written only on success, and a failed call changes nothing.

pub mod cfq;
pub mod drf;
pub mod drr;
pub mod drr_predictor;
pub mod drr_timeline;
pub mod hai;
pub mod paf;
pub mod qknobler;
mod table;

use crate::Error;
use core::mem::{align_of, size_of};
use core::panic::AssertUnwindSafe;
use std::panic::catch_unwind;

/// The outcome of every fallible export. Numbers are stable: new codes are only appended.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FairschedStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullPointer = 1,
    /// A number was NaN or infinite.
    NotFinite = 2,
    /// A number that must be positive was zero or negative, or a demand vector was all zeros.
    NotPositive = 3,
    /// No entry (job, user) with that id.
    UnknownId = 4,
    /// An entry (job, user) with that id is already present.
    DuplicateId = 5,
    /// The time given is earlier than the time of the last accepted call.
    TimeWentBackwards = 6,
    /// A fixed capacity is full: no room for another job, user or executor, or more resource
    /// kinds or time steps than a vector holds.
    CapacityFull = 7,
    /// The capacity asked for is too large to address.
    CapacityTooLarge = 8,
    /// A number is finite but outside the supported range.
    OutOfRange = 9,
    /// The job has already completed.
    JobCompleted = 10,
    /// Two parallel arrays have different lengths.
    LengthMismatch = 11,
    /// The memory given to an `_init` call is smaller than its storage size.
    BufferTooSmall = 12,
    /// A panic was caught at the boundary: a bug in fairsched. The object involved must not
    /// be used again.
    Panic = 13,
    /// A number that must not be negative was negative.
    Negative = 14,
    /// A list that must hold at least one element was empty.
    Empty = 15,
    /// A sequence that must not decrease (a progress curve) decreased.
    NotMonotone = 16,
    /// The samples given cannot determine the model to fit.
    Underdetermined = 17,
    /// A demand does not fit what a machine has available at some step: placing (or
    /// reprovisioning) it would commit more of a resource than the machine has.
    DoesNotFit = 18,
}

/// The number of status codes: every code is below it (bindings size their tables with it).
pub const FAIRSCHED_STATUS_COUNT: u32 = 19;

impl From<Error> for FairschedStatus {
    fn from(error: Error) -> Self {
        match error {
            Error::NotFinite => FairschedStatus::NotFinite,
            Error::NotPositive => FairschedStatus::NotPositive,
            Error::UnknownId => FairschedStatus::UnknownId,
            Error::DuplicateId => FairschedStatus::DuplicateId,
            Error::TimeWentBackwards => FairschedStatus::TimeWentBackwards,
            Error::CapacityFull => FairschedStatus::CapacityFull,
            Error::CapacityTooLarge => FairschedStatus::CapacityTooLarge,
            Error::OutOfRange => FairschedStatus::OutOfRange,
            Error::JobCompleted => FairschedStatus::JobCompleted,
            Error::LengthMismatch => FairschedStatus::LengthMismatch,
            Error::Negative => FairschedStatus::Negative,
            Error::Empty => FairschedStatus::Empty,
            Error::NotMonotone => FairschedStatus::NotMonotone,
            Error::Underdetermined => FairschedStatus::Underdetermined,
            Error::DoesNotFit => FairschedStatus::DoesNotFit,
        }
    }
}

/// The result type of export bodies.
pub(crate) type Status<T = ()> = Result<T, FairschedStatus>;

/// Runs an export's body, returning `on_panic` if it panics: the one panic boundary. Exports
/// that return a status use [`boundary`]; the few that return a plain value call this.
pub(crate) fn guard<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
}

/// Runs an export's body, mapping its error to a status and a panic to
/// [`FairschedStatus::Panic`].
pub(crate) fn boundary(body: impl FnOnce() -> Status) -> FairschedStatus {
    guard(Err(FairschedStatus::Panic), body)
        .err()
        .unwrap_or(FairschedStatus::Ok)
}

/// The one place the ABI turns a `u32` code (a metric, a method) into the core's value: its
/// entry in `codes`, the export's table of `(code, value)` pairs, or
/// [`FairschedStatus::OutOfRange`] for a code the table lacks.
pub(crate) fn decode<T: Copy>(code: u32, codes: &[(u32, T)]) -> Status<T> {
    codes
        .iter()
        .find(|&&(known, _)| known == code)
        .map(|&(_, value)| value)
        .ok_or(FairschedStatus::OutOfRange)
}

/// `pointer` as a shared reference, or [`FairschedStatus::NullPointer`].
///
/// # Safety
/// A non-NULL `pointer` must be valid for reads of `T` for `'a`.
pub(crate) unsafe fn read<'a, T>(pointer: *const T) -> Status<&'a T> {
    unsafe { pointer.as_ref() }.ok_or(FairschedStatus::NullPointer)
}

/// `pointer` as a mutable reference, or [`FairschedStatus::NullPointer`].
///
/// # Safety
/// A non-NULL `pointer` must be valid for reads and writes of `T` for `'a`, and unaliased.
pub(crate) unsafe fn write<'a, T>(pointer: *mut T) -> Status<&'a mut T> {
    unsafe { pointer.as_mut() }.ok_or(FairschedStatus::NullPointer)
}

/// An out-parameter that may stay unwritten, with a flag telling whether it was written.
pub(crate) struct MaybeOut<'a, T> {
    value: &'a mut T,
    found: &'a mut bool,
}

impl<T> MaybeOut<'_, T> {
    /// Writes `*found = value.is_some()`, and the value only when there is one.
    pub(crate) fn set(self, value: Option<T>) {
        *self.found = value.is_some();
        if let Some(value) = value {
            *self.value = value;
        }
    }
}

/// `value` and `found` as a [`MaybeOut`], or [`FairschedStatus::NullPointer`]. Checked before
/// the call computes anything, so that a NULL changes nothing.
///
/// # Safety
/// Non-NULL pointers must be valid for writes of their types for `'a`, and unaliased.
pub(crate) unsafe fn write_maybe<'a, T>(
    value: *mut T,
    found: *mut bool,
) -> Status<MaybeOut<'a, T>> {
    Ok(MaybeOut {
        value: unsafe { write(value) }?,
        found: unsafe { write(found) }?,
    })
}

/// `len` elements at `pointer`; NULL is accepted only when `len` is 0.
///
/// # Safety
/// A non-NULL `pointer` must be valid for reads of `len` elements for `'a`.
pub(crate) unsafe fn read_slice<'a, T>(pointer: *const T, len: usize) -> Status<&'a [T]> {
    match (pointer.is_null(), len) {
        (_, 0) => Ok(&[]),
        (true, _) => Err(FairschedStatus::NullPointer),
        (false, _) => Ok(unsafe { core::slice::from_raw_parts(pointer, len) }),
    }
}

/// `len` writable elements at `pointer`; NULL is accepted only when `len` is 0.
///
/// # Safety
/// A non-NULL `pointer` must be valid for writes of `len` elements for `'a`, and unaliased.
pub(crate) unsafe fn write_slice<'a, T>(pointer: *mut T, len: usize) -> Status<&'a mut [T]> {
    match (pointer.is_null(), len) {
        (_, 0) => Ok(&mut []),
        (true, _) => Err(FairschedStatus::NullPointer),
        (false, _) => Ok(unsafe { core::slice::from_raw_parts_mut(pointer, len) }),
    }
}

/// Where the parts of an object live inside caller-provided memory: byte offsets of
/// consecutive parts, each aligned to `align`, after a header of `start` bytes.
pub(crate) struct Carving {
    end: usize,
    align: usize,
}

impl Carving {
    /// An empty carving after a header of `header` bytes.
    pub(crate) fn new(header: usize, align: usize) -> Self {
        Carving { end: header, align }
    }

    /// The offset of the next part, `count` elements of `size` bytes.
    pub(crate) fn part(&mut self, size: usize, count: usize) -> Status<usize> {
        let too_large = FairschedStatus::CapacityTooLarge;
        let at = self
            .end
            .checked_next_multiple_of(self.align)
            .ok_or(too_large)?;
        self.end = size
            .checked_mul(count)
            .and_then(|bytes| at.checked_add(bytes))
            .ok_or(too_large)?;
        Ok(at)
    }

    /// Bytes to ask the caller for: the parts plus slack to align the caller's block.
    pub(crate) fn bytes(&self) -> Status<usize> {
        let bytes = self
            .end
            .checked_add(self.align.saturating_sub(1))
            .filter(|&b| isize::try_from(b).is_ok())
            .ok_or(FairschedStatus::CapacityTooLarge)?;
        Ok(bytes)
    }

    /// The aligned start of the parts inside `memory` (`memory_len` bytes), or
    /// [`FairschedStatus::BufferTooSmall`].
    pub(crate) fn place(
        &self,
        memory: *mut core::ffi::c_void,
        memory_len: usize,
    ) -> Status<*mut u8> {
        let base = memory.cast::<u8>();
        let skip = base.align_offset(self.align);
        if skip
            .checked_add(self.end)
            .is_none_or(|needed| needed > memory_len)
        {
            return Err(FairschedStatus::BufferTooSmall);
        }
        // In bounds: checked just above.
        Ok(base.wrapping_add(skip))
    }
}

/// Fills `len` elements at `at` with `value` and returns them as a slice.
///
/// # Safety
/// `at` must be aligned for `T` and valid for writes of `len` elements, for `'static` as far as
/// the caller of the `_init` export promised.
pub(crate) unsafe fn fill<T: Copy>(at: *mut u8, len: usize, value: T) -> &'static mut [T] {
    let first = at.cast::<T>();
    for i in 0..len {
        unsafe { first.add(i).write(value) };
    }
    unsafe { core::slice::from_raw_parts_mut(first, len) }
}

/// Where the parts of an input laid out once in caller memory (PAF's jobs, DRR's executors)
/// lie: the handle `H`, then `first` elements of `A`, then `second` of `B`; the offsets of the
/// two arrays.
pub(crate) fn laid_out<H, A, B>(first: usize, second: usize) -> Status<(Carving, usize, usize)> {
    let align = align_of::<H>().max(align_of::<A>()).max(align_of::<B>());
    let mut carving = Carving::new(size_of::<H>(), align);
    let at_first = carving.part(size_of::<A>(), first)?;
    let at_second = carving.part(size_of::<B>(), second)?;
    Ok((carving, at_first, at_second))
}

/// Places [`laid_out`]'s parts inside `memory` (`memory_len` bytes, any alignment;
/// [`FairschedStatus::BufferTooSmall`] when they do not fit): the handle's place, not yet
/// written, and the two arrays, filled with `a` and `b`.
///
/// # Safety
/// `memory` must be valid for writes of `memory_len` bytes, for `'static` as far as the caller
/// of the `_init` export promised.
pub(crate) unsafe fn lay_out<H, A: Copy, B: Copy>(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    (first, a): (usize, A),
    (second, b): (usize, B),
) -> Status<(*mut H, &'static mut [A], &'static mut [B])> {
    let (carving, at_first, at_second) = laid_out::<H, A, B>(first, second)?;
    let block = carving.place(memory, memory_len)?;
    // SAFETY: both parts lie inside the block `place` checked against the caller's memory,
    // each aligned for its type (the carving's alignment is the largest of the three).
    unsafe {
        Ok((
            block.cast::<H>(),
            fill(block.add(at_first), first, a),
            fill(block.add(at_second), second, b),
        ))
    }
}

/// The version of this C ABI: it changes whenever an export, a struct or a status code changes
/// incompatibly. Compare `fairsched_abi_version()` with it to detect a header and a library from
/// different builds.
pub const FAIRSCHED_ABI_VERSION: u32 = 3;

/// The ABI version the library was built with (see `FAIRSCHED_ABI_VERSION`).
#[no_mangle]
pub extern "C" fn fairsched_abi_version() -> u32 {
    guard(0, || FAIRSCHED_ABI_VERSION)
}

/// A static, NUL-terminated description of the status code `status` (any number: codes this
/// library does not know get "unknown status"); never NULL. Takes a plain integer rather than
/// the enum so that no value a caller passes can be undefined behaviour.
#[no_mangle]
pub extern "C" fn fairsched_status_message(status: u32) -> *const core::ffi::c_char {
    guard(c"internal panic".as_ptr(), || message(status).as_ptr())
}

fn message(status: u32) -> &'static core::ffi::CStr {
    const OK: u32 = FairschedStatus::Ok as u32;
    const NULL_POINTER: u32 = FairschedStatus::NullPointer as u32;
    const BUFFER_TOO_SMALL: u32 = FairschedStatus::BufferTooSmall as u32;
    const PANIC: u32 = FairschedStatus::Panic as u32;
    match status {
        OK => c"ok",
        NULL_POINTER => c"a required pointer was NULL",
        BUFFER_TOO_SMALL => c"the memory given is smaller than the storage size asked for",
        PANIC => c"internal panic caught at the boundary (a bug in fairsched)",
        other => Error::ALL
            .into_iter()
            .find(|&error| FairschedStatus::from(error) as u32 == other)
            .map_or(c"unknown status", Error::message),
    }
}

/// Panics inside the boundary and so returns FAIRSCHED_STATUS_PANIC: lets the bindings' tests
/// check their panic mapping. Only in builds with the `ffi-testing` feature.
#[cfg(feature = "ffi-testing")]
#[allow(clippy::panic)]
#[no_mangle]
pub extern "C" fn fairsched_testing_panic() -> FairschedStatus {
    boundary(|| panic!("fairsched_testing_panic was called"))
}

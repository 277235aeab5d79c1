//! The no-harm contract of every export: it never panics, and when it fails it leaves every
//! byte it could have written as it was.

use super::input::Input;
use fairsched::ffi::{fairsched_status_message, FairschedStatus};
use std::ffi::{c_void, CStr};
use std::mem::{size_of_val, MaybeUninit};
use std::ptr;

/// Copies of the bytes a call may write, taken before the call.
#[derive(Default)]
pub struct Watch {
    regions: Vec<(*const u8, Vec<u8>)>,
}

impl Watch {
    /// Nothing watched yet.
    pub fn new() -> Self {
        Watch::default()
    }

    /// Also watches the elements of `values` (an output or in-out array of the call).
    pub fn slice<T: Copy>(self, values: &[T]) -> Self {
        self.bytes(values.as_ptr().cast(), size_of_val(values))
    }

    /// Also watches `*value` (an out-parameter).
    pub fn value<T: Copy>(self, value: &T) -> Self {
        self.slice(core::slice::from_ref(value))
    }

    /// Also watches the out-parameter struct `out`.
    pub fn out<T>(self, out: &Out<T>) -> Self {
        self.bytes(out.0.as_ptr().cast(), size_of::<T>())
    }

    /// Also watches `len` bytes at `start`, memory the caller owns and has initialized.
    fn bytes(mut self, start: *const u8, len: usize) -> Self {
        // SAFETY: callers pass memory they own, valid for `len` bytes.
        let copy = unsafe { core::slice::from_raw_parts(start, len) }.to_vec();
        self.regions.push((start, copy));
        self
    }

    /// Checks `status`, the outcome of the call made since: never a panic, a status with a
    /// message, and on failure every watched byte unchanged. Returns whether the call
    /// succeeded.
    pub fn check(self, export: &str, status: FairschedStatus) -> bool {
        assert_ne!(status, FairschedStatus::Panic, "{export} panicked");
        // SAFETY: the message is a static NUL-terminated string, never NULL.
        let message = unsafe { CStr::from_ptr(fairsched_status_message(status as u32)) };
        assert_ne!(message, c"unknown status", "{export} returned {status:?}");
        let ok = status == FairschedStatus::Ok;
        assert!(
            ok || self.intact(),
            "{export} failed with {status:?} but changed what it was given"
        );
        ok
    }

    /// Asserts that every watched byte is unchanged, whatever the call returned: the object's
    /// memory around a read-only export.
    pub fn unchanged(self, export: &str) {
        assert!(self.intact(), "{export} changed the object it only reads");
    }

    /// Whether every watched byte is as it was.
    fn intact(&self) -> bool {
        self.regions.iter().all(|(start, before)| {
            // SAFETY: as in `bytes`, still owned by the caller.
            let after = unsafe { core::slice::from_raw_parts(*start, before.len()) };
            after == before.as_slice()
        })
    }
}

/// Room for an out-parameter struct, every byte zero, padding included: so that watching it
/// reads only initialized bytes.
pub struct Out<T>(MaybeUninit<T>);

impl<T> Out<T> {
    pub fn new() -> Self {
        Out(MaybeUninit::zeroed())
    }

    /// Where the export writes the struct.
    pub fn ptr(&mut self) -> *mut T {
        self.0.as_mut_ptr()
    }

    /// The struct. All zeros, unless an export wrote it: a valid value of every C struct of the
    /// ABI (numbers and booleans).
    pub fn into_inner(self) -> T {
        // SAFETY: zeroed or written by an export, as said above.
        unsafe { self.0.assume_init() }
    }
}

/// Asserts that no number in `values` is NaN (`what` names them in the message).
pub fn no_nan(what: &str, values: &[f64]) {
    assert!(
        !values.iter().any(|x| x.is_nan()),
        "{what}: NaN in {values:?}"
    );
}

/// Caller memory for an `_init` export: `len` bytes starting `misalign` bytes after an
/// 8-aligned address, so that objects are built at any alignment.
pub struct Block {
    // Owns the memory; only reached through `start` once created.
    _storage: Vec<u64>,
    start: *mut u8,
    len: usize,
}

impl Block {
    /// Builds an object as every `<object>_storage_size` / `<object>_init` pair does: asks
    /// `storage_size` for the bytes, then has `init` build the object in a block of that size
    /// (one byte short once in 16) at a random alignment; either out-parameter is NULL once
    /// in a while, and both calls are checked against the contract. The block and the handle,
    /// when both succeed.
    pub fn build<T>(
        input: &mut Input,
        object: &str,
        storage_size: impl FnOnce(*mut usize) -> FairschedStatus,
        init: impl FnOnce(*mut c_void, usize, *mut *mut T) -> FairschedStatus,
    ) -> Option<(Block, *mut T)> {
        let mut size = 0;
        let watch = Watch::new().value(&size);
        let status = storage_size(input.or_null(&mut size));
        if !watch.check(&format!("{object}_storage_size"), status) {
            return None;
        }
        let block = Block::new(size - usize::from(input.one_in(16)), input.below(8));
        let mut handle = ptr::null_mut();
        let watch = block.watched(Watch::new().value(&handle));
        let status = init(block.start.cast(), block.len, input.or_null(&mut handle));
        watch
            .check(&format!("{object}_init"), status)
            .then_some((block, handle))
    }

    fn new(len: usize, misalign: usize) -> Self {
        let mut storage = vec![0u64; (len + misalign).div_ceil(8)];
        let start = storage.as_mut_ptr().cast::<u8>().wrapping_add(misalign);
        Block {
            _storage: storage,
            start,
            len,
        }
    }

    /// `watch` watching the whole block too: the object's state, byte for byte.
    pub fn watched(&self, watch: Watch) -> Watch {
        watch.bytes(self.start, self.len)
    }
}

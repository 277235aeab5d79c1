//! Where a PAF workspace keeps its scratch: three parallel parts of one capacity (the most
//! jobs one call can take).
//!
//! - `order`: job indices, sorted by the fair share;
//! - `brackets`: the per-job count brackets of the selection;
//! - `heaps`: two heaps (givers and takers of Algorithm 1; enforcement uses the first), each
//!   `capacity` slots, one after the other.
//!
//! [`Inline`] holds them in arrays sized by a const generic, for Rust callers; [`Borrowed`]
//! holds slices the caller provides (the C ABI carves them out of one buffer).

use super::transfer::Bracket;
use crate::heap::HeapSlot;
use crate::{Error, Result};

/// Mutable views of the parts.
pub struct Parts<'a> {
    pub(super) order: &'a mut [u32],
    pub(super) brackets: &'a mut [Bracket],
    pub(super) heaps: &'a mut [HeapSlot<u64>],
}

/// Storage for a PAF workspace.
pub trait Storage {
    /// Mutable views of the parts.
    fn parts(&mut self) -> Parts<'_>;
}

/// Scratch for `N` jobs, owned by the workspace (about `N * 44` bytes).
pub struct Inline<const N: usize> {
    order: [u32; N],
    brackets: [Bracket; N],
    heaps: [[HeapSlot<u64>; N]; 2],
}

impl<const N: usize> Inline<N> {
    /// Empty arrays.
    pub const fn new() -> Self {
        Inline {
            order: [0; N],
            brackets: [Bracket::EMPTY; N],
            heaps: [[HeapSlot::<u64>::VACANT; N]; 2],
        }
    }
}

impl<const N: usize> Default for Inline<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Storage for Inline<N> {
    fn parts(&mut self) -> Parts<'_> {
        Parts {
            order: &mut self.order,
            brackets: &mut self.brackets,
            heaps: self.heaps.as_flattened_mut(),
        }
    }
}

/// Slices the caller owns: `order` and `brackets` of the capacity, `heaps` of twice it.
pub struct Borrowed<'a> {
    order: &'a mut [u32],
    brackets: &'a mut [Bracket],
    heaps: &'a mut [HeapSlot<u64>],
}

impl<'a> Borrowed<'a> {
    /// Storage over the three slices; [`Error::LengthMismatch`] unless `brackets` is as long as
    /// `order` and `heaps` twice as long.
    pub fn new(
        order: &'a mut [u32],
        brackets: &'a mut [Bracket],
        heaps: &'a mut [HeapSlot<u64>],
    ) -> Result<Self> {
        if brackets.len() != order.len() || Some(heaps.len()) != order.len().checked_mul(2) {
            return Err(Error::LengthMismatch);
        }
        Ok(Borrowed {
            order,
            brackets,
            heaps,
        })
    }
}

impl Storage for Borrowed<'_> {
    fn parts(&mut self) -> Parts<'_> {
        Parts {
            order: self.order,
            brackets: self.brackets,
            heaps: self.heaps,
        }
    }
}

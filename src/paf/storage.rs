//! Where a PAF workspace keeps its scratch: a [`crate::table`] whose
//!
//! - rows are the per-job count brackets of the threshold selection ([`Bracket`]);
//! - `numbers` are the jobs in fair-share order (the water-filling's sort);
//! - two heaps are Algorithm 1's givers and takers, in that order; enforcement uses the first.
//!
//! Nothing survives from one call to the next.

use super::transfer::Bracket;
use crate::table::{self, Vacant};

/// The number of heaps of a PAF workspace.
pub const HEAPS: usize = 2;

/// Scratch for `N` jobs, owned by the workspace (about `N * 84` bytes).
pub type Inline<const N: usize> = table::Inline<Bracket, N, HEAPS>;

/// Slices the caller owns: brackets, order and the two heaps, of equal length.
pub type Borrowed<'a> = table::Borrowed<'a, Bracket, HEAPS>;

impl Vacant for Bracket {
    /// One-word keys (a value or a fraction as ordered bits): equal keys go to the lower job
    /// index, which the heaps compare without looking anything up.
    type Key = u64;
    const VACANT: Bracket = Bracket::EMPTY;
}

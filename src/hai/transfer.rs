//! HAI's core transfer (ReB Algorithm 2, §4.3): θ cores at a time go from the donor whose JCT
//! rises least to the acceptor whose JCT falls most, while the fall exceeds the rise.
//!
//! The split is made once, before the first transfer (Algorithm 2, lines 3-7): J1, the
//! donors, are the jobs at their optimum, and J2, the acceptors, the others; on a rebalance,
//! a job that held cores when the call began is a donor too (see
//! [`super::Hai::rebalance`]). A donor must keep at least `θ`; an acceptor stays within
//! its cap. A fall from `+∞` (a job waiting for cores) to a finite JCT beats any finite rise.
//!
//! Each side is a loser tree ([`super::tree`]) keyed by the rise, or the fall, at the job's
//! current allocation, ties to the lower index: a transfer changes one donor and one acceptor,
//! so it costs O(log n) where the paper's loop rescans every job (O(n) a transfer, §4.4).
//!
//! Why it ends (Theorem 1, §4.4, for any number of jobs): donors only give and acceptors only
//! take, and each donor can give all of its steps but one, so there are at most
//! `Σ_{J1} A_j / θ` transfers. Each lowers `Σ JCT`, in exact arithmetic too: rounding is
//! monotone, so a rounded fall above a rounded rise means an exact one above an exact one.

use super::storage::Slot;
use super::table::{JobRow, Tables};
use super::tree::{plant, Tree, ABSENT};
use crate::num::{from_order_bits, order_bits};
use crate::tree;

/// Runs the transfers from the allocation in `rows`, with `donors` and `acceptors` (one slot
/// per row each) as the trees' scratch. Returns how many transfers it made.
///
/// With `k` donors, the donors' leaves take `donors[..k]` and their internal nodes
/// `acceptors[n - k..]`; the acceptors' leaves `acceptors[..n - k]` and their nodes
/// `donors[k..]`: one pass over the rows plants every leaf, whatever `k` turns out to be.
pub(super) fn transfer(
    tables: Tables,
    rows: &mut [JobRow],
    donors: &mut [Slot],
    acceptors: &mut [Slot],
) -> u32 {
    let (mut gives, mut takes) = (0, 0);
    for (j, row) in rows.iter().enumerate() {
        let (side, at, key) = if row.held || row.steps >= row.opt {
            (&mut *donors, &mut gives, donor_key(tables, row))
        } else {
            (&mut *acceptors, &mut takes, acceptor_key(tables, row))
        };
        if let Some(slot) = side.get_mut(*at) {
            plant(slot, j as u32, key);
        }
        *at = at.saturating_add(1);
    }
    let (donor_leaves, acceptor_nodes) = donors.split_at_mut(gives.min(donors.len()));
    let (acceptor_leaves, donor_nodes) = acceptors.split_at_mut(takes.min(acceptors.len()));
    let donors = (donor_leaves, donor_nodes);
    let acceptors = (acceptor_leaves, acceptor_nodes);
    // Each side has at most `rows.len()` jobs. The loop is compiled once for each way of
    // replaying, so that each copy holds only its own.
    if rows.len() <= tree::PREDICTED_LEAVES {
        transfer_between::<true>(tables, rows, donors, acceptors)
    } else {
        transfer_between::<false>(tables, rows, donors, acceptors)
    }
}

/// The transfers between the sides whose leaves and node slots are `donors` and `acceptors`,
/// each replayed as `PREDICTED` says (see [`Tree`]). Returns how many transfers it made.
fn transfer_between<const PREDICTED: bool>(
    tables: Tables,
    rows: &mut [JobRow],
    (donor_leaves, donor_nodes): (&mut [Slot], &mut [Slot]),
    (acceptor_leaves, acceptor_nodes): (&mut [Slot], &mut [Slot]),
) -> u32 {
    let mut donors = Tree::<PREDICTED>::new(donor_leaves, donor_nodes);
    let mut acceptors = Tree::<PREDICTED>::new(acceptor_leaves, acceptor_nodes);

    let mut transfers = 0u32;
    while let (Some((d, rise, giver)), Some((a, fall, taker))) = (donors.top(), acceptors.top()) {
        // The keys are the current rise and fall, which their bits give back exactly.
        if from_order_bits(!fall) <= from_order_bits(rise) {
            break;
        }
        if let Some(donor) = rows.get_mut(d as usize) {
            donor.steps = donor.steps.saturating_sub(1);
            donors.set(giver, donor_key(tables, donor));
        }
        if let Some(acceptor) = rows.get_mut(a as usize) {
            acceptor.steps = acceptor.steps.saturating_add(1);
            acceptors.set(taker, acceptor_key(tables, acceptor));
        }
        transfers = transfers.saturating_add(1);
    }
    transfers
}

/// A donor's key, smallest rise first; [`ABSENT`] once it cannot give `θ` and keep `θ`. A
/// rise is then finite, and only a NaN's bits are all ones.
fn donor_key(tables: Tables, row: &JobRow) -> u64 {
    if row.steps >= 2 {
        order_bits(tables.rise(row))
    } else {
        ABSENT
    }
}

/// An acceptor's key, largest fall first; [`ABSENT`] once at its cap. The key reverses
/// [`order_bits`], which, like IEEE 754's totalOrder, puts `+∞` above every finite value, so a
/// waiting job comes first. A fall is then `+∞` or finite, and only a NaN's bits reverse to
/// all ones.
fn acceptor_key(tables: Tables, row: &JobRow) -> u64 {
    if row.steps < row.cap {
        !order_bits(tables.fall(row))
    } else {
        ABSENT
    }
}

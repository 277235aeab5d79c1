//! HAI's core transfer (ReB Algorithm 2, §4.3): θ cores at a time go from the donor whose JCT
//! rises least to the acceptor whose JCT falls most, while the fall exceeds the rise.
//!
//! The split is made once, before the first transfer (Algorithm 2, lines 3-7): J1, the
//! donors, are the jobs at their optimum, and J2, the acceptors, the others; on a rebalance,
//! a job that held cores when the call began is a donor too (see
//! [`super::Hai::rebalance`]). A donor must keep at least `θ`; an acceptor stays within
//! its cap. A fall from `+∞` (a job waiting for cores) to a finite JCT beats any finite rise.
//!
//! Each side is a heap ([`crate::heap`]) keyed by the rise, or the fall, at the job's current
//! allocation, ties to the lower index: a transfer changes one donor and one acceptor, so it
//! costs O(log n) where the paper's loop rescans every job (O(n) a transfer, §4.4).
//!
//! Why it ends (Theorem 1, §4.4, for any number of jobs): donors only give and acceptors only
//! take, and each donor can give all of its steps but one, so there are at most
//! `Σ_{J1} A_j / θ` transfers. Each lowers `Σ JCT`, in exact arithmetic too: rounding is
//! monotone, so a rounded fall above a rounded rise means an exact one above an exact one.

use super::storage::Slot;
use super::table::{JobRow, Tables};
use crate::heap::Heap;
use crate::heap::LowerIndex;
use crate::num::order_bits;

/// Runs the transfers from the allocation in `rows`, with `donors` and `acceptors` (one slot
/// per row each) as the heaps' scratch. Returns how many transfers it made.
pub(super) fn transfer(
    tables: Tables,
    rows: &mut [JobRow],
    donors: &mut [Slot],
    acceptors: &mut [Slot],
) -> u32 {
    donors.fill(Slot::VACANT);
    acceptors.fill(Slot::VACANT);
    let (mut donors_len, mut acceptors_len) = (0, 0);
    let mut donors = Heap::new(donors, &mut donors_len, LowerIndex);
    let mut acceptors = Heap::new(acceptors, &mut acceptors_len, LowerIndex);
    for (j, row) in rows.iter().enumerate() {
        let (queue, key) = if row.held || row.steps >= row.opt {
            (&mut donors, donor_key(tables, row))
        } else {
            (&mut acceptors, acceptor_key(tables, row))
        };
        if let Some(key) = key {
            queue.push(j as u32, key);
        }
    }

    let mut transfers = 0u32;
    while let (Some((_, d)), Some((_, a))) = (donors.peek(), acceptors.peek()) {
        let (Some(donor), Some(acceptor)) = (rows.get(d as usize), rows.get(a as usize)) else {
            break;
        };
        if tables.fall(acceptor) <= tables.rise(donor) {
            break;
        }
        if let Some(donor) = rows.get_mut(d as usize) {
            donor.steps = donor.steps.saturating_sub(1);
            requeue(&mut donors, d, donor_key(tables, donor));
        }
        if let Some(acceptor) = rows.get_mut(a as usize) {
            acceptor.steps = acceptor.steps.saturating_add(1);
            requeue(&mut acceptors, a, acceptor_key(tables, acceptor));
        }
        transfers = transfers.saturating_add(1);
    }
    transfers
}

/// A donor's key, smallest rise first; `None` once it cannot give `θ` and keep `θ`.
fn donor_key(tables: Tables, row: &JobRow) -> Option<u64> {
    (row.steps >= 2).then(|| order_bits(tables.rise(row)))
}

/// An acceptor's key, largest fall first; `None` once at its cap. The key reverses
/// [`order_bits`], which, like IEEE 754's totalOrder, puts `+∞` above every finite value, so a
/// waiting job comes first.
fn acceptor_key(tables: Tables, row: &JobRow) -> Option<u64> {
    (row.steps < row.cap).then(|| !order_bits(tables.fall(row)))
}

/// After a transfer changed job `j`, at the top of `queue`: its new key (one descent, which
/// usually ends at once), or out of the queue.
fn requeue(queue: &mut Heap<'_, u64, LowerIndex>, j: u32, key: Option<u64>) {
    match key {
        Some(key) => queue.update(j, key),
        None => queue.remove(j).is_some(),
    };
}

//! One side of HAI's transfers (the donors or the acceptors) as a winner tree: a complete
//! binary tree whose leaves are the side's jobs, each internal node holding the least key below
//! it and the leaf it comes from.
//!
//! A transfer changes the key of the side's top job, and the new key is usually past nearly
//! every other: the donor that gave θ now loses more by giving again, the acceptor that got θ
//! gains less from the next (the paper's greedy evens out these marginal changes, §4.3). In a
//! heap that entry sinks from the root to a leaf, each level's step depending on the
//! comparison before it. Here the same update replays the leaf's own path to the root against
//! the sibling of each node on it: the nodes are known before any comparison, so their loads
//! overlap, and each level costs one comparison. The split is made once and jobs only leave a
//! side, so the leaves are laid out once per call, in job order, and a job that leaves its side
//! keeps its leaf with the key [`ABSENT`].
//!
//! A tree of `m` leaves uses `2m` slots: nodes are numbered as in a binary heap (children `2i`
//! and `2i + 1`), internal nodes `1..m` in one slice (slot 0 unused), leaves `m..2m` in another
//! (leaf `l` is node `m + l`). Every `m` gives a complete tree. A leaf's slot holds its key
//! and job, an internal node's its winner's key and leaf. Ties go to the lower leaf, which is
//! the lower job: the leaves are in job order.

use super::storage::Slot;

/// The key of a job that has left its side: above every key in use, which [`super::transfer`]
/// derives from a finite rise or fall and never makes all ones.
pub(super) const ABSENT: u64 = u64::MAX;

/// A winner tree over the leaves in `leaves` (see the module documentation), with its internal
/// nodes in `nodes`, a slice as long.
pub(super) struct Tree<'a> {
    leaves: &'a mut [Slot],
    nodes: &'a mut [Slot],
}

/// Writes into `slot` a leaf for job `job` with key `key` ([`ABSENT`] if it is not on the side).
pub(super) fn plant(slot: &mut Slot, job: u32, key: u64) {
    slot.set_key(key);
    slot.set_position(job);
}

impl<'a> Tree<'a> {
    /// The tree over `leaves`, planted in job order, with `nodes` (as many slots) for its
    /// internal nodes, which it builds bottom up: `m - 1` comparisons.
    pub(super) fn new(leaves: &'a mut [Slot], nodes: &'a mut [Slot]) -> Self {
        let mut tree = Tree { leaves, nodes };
        for node in (1..tree.leaves.len()).rev() {
            // No overflow: `node < m`, a number of jobs, far below `usize::MAX / 2`.
            let left = tree.entry(node.wrapping_mul(2));
            let right = tree.entry(node.wrapping_mul(2).wrapping_add(1));
            tree.hold(node, least(left, right));
        }
        tree
    }

    /// The winner of node `node`: its key and leaf. Outside the tree, an absent entry.
    fn entry(&self, node: usize) -> (u64, u32) {
        let m = self.leaves.len();
        match node.checked_sub(m) {
            Some(leaf) => self
                .leaves
                .get(leaf)
                .map_or((ABSENT, 0), |slot| (slot.key(), leaf as u32)),
            None => self
                .nodes
                .get(node)
                .map_or((ABSENT, 0), |slot| (slot.key(), slot.position())),
        }
    }

    /// Writes into internal node `node` its winner.
    fn hold(&mut self, node: usize, (key, leaf): (u64, u32)) {
        if let Some(slot) = self.nodes.get_mut(node) {
            slot.set_key(key);
            slot.set_position(leaf);
        }
    }

    /// The job of least key, ties to the lower job, and its key and leaf; `None` when every
    /// job has left (or there are none).
    pub(super) fn top(&self) -> Option<(u32, u64, u32)> {
        if self.leaves.is_empty() {
            return None;
        }
        let (key, leaf) = self.entry(1);
        if key == ABSENT {
            return None;
        }
        let job = self.leaves.get(leaf as usize)?.position();
        Some((job, key, leaf))
    }

    /// Gives leaf `leaf` the key `key` ([`ABSENT`]: the job leaves the side) and replays its
    /// path to the root: at each level the lesser of the entry carried up and the sibling's
    /// wins the parent.
    pub(super) fn set(&mut self, leaf: u32, key: u64) {
        let Some(slot) = self.leaves.get_mut(leaf as usize) else {
            return;
        };
        slot.set_key(key);
        // No overflow: `leaf < m`.
        let mut node = self.leaves.len().wrapping_add(leaf as usize);
        let mut best = (key, leaf);
        while node > 1 {
            best = least(best, self.entry(node ^ 1));
            node >>= 1;
            self.hold(node, best);
        }
    }
}

/// The lesser of two entries: by key, then (keys are rarely equal) by leaf. LLVM compiles the
/// choice to a branch; measured on the benchmark's batch, that beat conditional moves and a
/// mask. Written out rather than as a tuple comparison, which took more instructions.
fn least(a: (u64, u32), b: (u64, u32)) -> (u64, u32) {
    if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use quickcheck::quickcheck;
    use std::vec::Vec;

    /// Random key changes (leaving included) on trees of every small size agree with a scan
    /// for the least key, ties to the lower leaf.
    fn agrees_with_scan(size: u8, ops: Vec<(u8, u8)>) -> bool {
        let m = usize::from(size % 40);
        let mut leaves = std::vec![Slot::VACANT; m];
        let mut nodes = std::vec![Slot::VACANT; m];
        // Few distinct keys, so that ties are common; the job is the leaf number times 3.
        let mut keys: Vec<u64> = (0..m as u64).map(|leaf| leaf % 3).collect();
        for (leaf, slot) in leaves.iter_mut().enumerate() {
            plant(slot, leaf as u32 * 3, keys[leaf]);
        }
        let mut tree = Tree::new(&mut leaves, &mut nodes);
        for (leaf, key) in ops {
            if m > 0 {
                let leaf = usize::from(leaf) % m;
                keys[leaf] = if key % 5 == 0 {
                    ABSENT
                } else {
                    u64::from(key % 4)
                };
                tree.set(leaf as u32, keys[leaf]);
            }
            let least = (0..m)
                .filter(|&leaf| keys[leaf] != ABSENT)
                .min_by_key(|&leaf| (keys[leaf], leaf));
            let expected = least.map(|leaf| (leaf as u32 * 3, keys[leaf], leaf as u32));
            if tree.top() != expected {
                return false;
            }
        }
        true
    }

    quickcheck! {
        fn tree_matches_scan(size: u8, ops: Vec<(u8, u8)>) -> bool {
            agrees_with_scan(size, ops)
        }
    }
}

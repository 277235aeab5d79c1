//! A winner tree (a tournament) over caller-provided heap slots: the priority queue of DRF's
//! active users and of HAI's donors and acceptors.
//!
//! Both update the key of their top entry and see it rise past nearly every other: DRF's
//! started user (all users sit at about the same weighted share) and HAI's donor that gave θ
//! or acceptor that got it (the greedy evens the marginal changes out, ReB §4.3). In a heap
//! that entry sinks from the root to a leaf, each level's step waiting on the comparison
//! before it. A winner tree replays the leaf's own path to the root instead, against the
//! sibling of each node on it: those nodes are known before any comparison, so their loads
//! overlap, and each level costs one comparison. Every update costs about `log2(m)` levels
//! for `m` leaves, however few are in play.
//!
//! The leaves live wherever their owner keeps them ([`Leaves`]: DRF's rows, HAI's own slots);
//! the internal nodes in heap slots. Nodes are numbered as in a binary heap (children `2i`
//! and `2i + 1`, the root node 1), leaves from `M`, the number of leaves `m` rounded up to
//! even (leaf `l` is node `M + l`; an odd `m` leaves place `m` empty), so every `m` gives a
//! complete tree in which a leaf's sibling is a leaf and an internal node's sibling is
//! internal: a replay decides once, not at every level, where the sibling's entry lives. Slot
//! `i - 1` holds the key and the leaf winning internal node `i`, for `1 <= i < M`: at most `m`
//! slots. Ties go to the lower leaf ([`Contest::lesser`]).

use crate::heap::{HeapKey, HeapSlot, Key};

/// The keys a winner tree compares.
pub(crate) trait Contest: HeapKey {
    /// The key of a leaf not in play: it never wins against a key in play.
    fn absent(self) -> bool;

    /// The key of a node beyond the tree: as [`Contest::absent`] says.
    const NOBODY: Self;

    /// The lesser of the entries (key, leaf) `a` and `b`, ties to the lower leaf. Each key
    /// type chooses how, by measurement: a branch, or a mask where LLVM's branch mispredicts.
    fn lesser(a: (Self, u32), b: (Self, u32)) -> (Self, u32);
}

/// One word (HAI's rise and fall as `num::order_bits`): `u64::MAX`, which no finite value
/// gives, is out of play.
impl Contest for u64 {
    fn absent(self) -> bool {
        self == u64::MAX
    }

    const NOBODY: u64 = u64::MAX;

    /// By key, then (keys are rarely equal) by leaf. LLVM compiles the choice to a branch;
    /// measured on HAI's benchmark batch, that beat conditional moves and a mask. Written out
    /// rather than as a tuple comparison, which took more instructions.
    #[inline(always)]
    fn lesser(a: (u64, u32), b: (u64, u32)) -> (u64, u32) {
        if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) {
            b
        } else {
            a
        }
    }
}

/// Two words compared as one non-negative number: the first word's top bit is clear in every
/// key (DRF's leaves give a share's `num::order_bits`, whose top bit is set, with that bit
/// cleared, which keeps their order), then the user's id. A first word of `u64::MAX >> 1` is
/// out of play. Keys in play are unique (the id), so equal keys are out of play, where the
/// winner does not matter.
impl Contest for Key {
    fn absent(self) -> bool {
        self.primary == u64::MAX >> 1
    }

    const NOBODY: Key = Key::new(u64::MAX >> 1, 0);

    /// By the keys as one number, a selection LLVM compiles to conditional moves in
    /// [`replay`] (checked in the disassembly, Rust 1.95): the outcome is random to the
    /// predictor. With the mask it replaced (the sign of the keys' difference selecting each
    /// word), which an earlier form of the replay needed because LLVM turned its selection into
    /// a mispredicted branch, DRF's decision took 542 instructions instead of 451 at 10K users.
    #[inline(always)]
    fn lesser(a: (Key, u32), b: (Key, u32)) -> (Key, u32) {
        if wide(b.0) < wide(a.0) {
            b
        } else {
            a
        }
    }
}

/// A key as one number: non-negative while the first word's top bit is clear.
fn wide(key: Key) -> i128 {
    ((key.primary as i128) << 64) | i128::from(key.secondary)
}

/// Where a winner tree reads its leaves' keys.
pub(crate) trait Leaves<K> {
    /// The number of leaves, `m`.
    fn count(&self) -> usize;

    /// The key of leaf `leaf`: [`Contest::NOBODY`] from [`Leaves::count`] on (the place
    /// past an odd count's last leaf).
    fn key(&self, leaf: usize) -> K;
}

/// Leaves kept in heap slots of their own (HAI's sides), each holding its key.
impl<K: Contest> Leaves<K> for [HeapSlot<K>] {
    fn count(&self) -> usize {
        self.len()
    }

    #[inline(always)]
    fn key(&self, leaf: usize) -> K {
        self.get(leaf).map_or(K::NOBODY, |slot| slot.key())
    }
}

/// The number of leaf places: `m` rounded up to even, so that every leaf's sibling is a leaf
/// and every internal node's sibling an internal node; the place `m` of an odd `m` holds no
/// leaf ([`Contest::NOBODY`]).
fn places(m: usize) -> usize {
    // No overflow: `m` is a table's capacity, below `u32::MAX`.
    m.wrapping_add(m & 1)
}

/// The slot of internal node `node` (`1 <= node < places`): `node - 1`, so that the
/// `places - 1 <= m` internal nodes fit in the `m` slots.
fn slot(node: usize) -> usize {
    node.wrapping_sub(1)
}

/// The winner of node `node` of the tree over `leaves` with internal nodes `nodes`: its key and
/// leaf; a leaf's own at a leaf; [`Contest::NOBODY`] beyond the tree.
fn entry<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &[HeapSlot<K>],
    leaves: &L,
    node: usize,
) -> (K, u32) {
    match node.checked_sub(places(leaves.count())) {
        // A leaf place: below `m + 1`, which fits a u32 as every table's capacity does.
        Some(leaf) => (leaves.key(leaf), leaf as u32),
        None => nodes
            .get(slot(node))
            .map_or((K::NOBODY, 0), |slot| (slot.key(), slot.position())),
    }
}

/// Writes `(key, leaf)` into `slot`.
fn hold<K: Contest>(slot: &mut HeapSlot<K>, (key, leaf): (K, u32)) {
    slot.set_key(key);
    slot.set_position(leaf);
}

/// Builds every internal node from the leaves' keys as they are, bottom up: `m - 1`
/// comparisons (one more for an odd `m`). `nodes` holds at least as many slots as there are
/// leaves.
pub(crate) fn build<K: Contest, L: Leaves<K> + ?Sized>(nodes: &mut [HeapSlot<K>], leaves: &L) {
    for node in (1..places(leaves.count())).rev() {
        // No overflow: `node < m + 1`, a table's capacity, far below `usize::MAX / 2`.
        let left = entry(nodes, leaves, node.wrapping_mul(2));
        let right = entry(nodes, leaves, node.wrapping_mul(2).wrapping_add(1));
        if let Some(slot) = nodes.get_mut(slot(node)) {
            hold(slot, K::lesser(left, right));
        }
    }
}

/// The leaf of least key in play and its key, if any leaf is in play.
pub(crate) fn top<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &[HeapSlot<K>],
    leaves: &L,
) -> Option<(K, u32)> {
    if leaves.count() == 0 {
        return None;
    }
    let (key, leaf) = entry(nodes, leaves, 1);
    (!key.absent()).then_some((key, leaf))
}

/// Replays the path of leaf `leaf`, whose key has changed (into or out of play too), to the
/// root: at each level, the lesser of the entry carried up and the sibling's wins the parent.
/// A leaf beyond the tree is ignored.
pub(crate) fn replay<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &mut [HeapSlot<K>],
    leaves: &L,
    leaf: u32,
) {
    let m = leaves.count();
    if leaf as usize >= m {
        return;
    }
    // The leaf's sibling is a leaf (or the place past an odd `m`'s last leaf).
    let sibling = leaf ^ 1;
    let mut best = K::lesser(
        (leaves.key(leaf as usize), leaf),
        (leaves.key(sibling as usize), sibling),
    );
    // No overflow: `leaf < m`.
    let mut node = places(m).wrapping_add(leaf as usize) >> 1;
    // Above the leaves, every sibling is an internal node.
    while node > 1 {
        let Some(other) = nodes.get(slot(node ^ 1)) else {
            return;
        };
        let other = (other.key(), other.position());
        let Some(here) = nodes.get_mut(slot(node)) else {
            return;
        };
        hold(here, best);
        best = K::lesser(best, other);
        node >>= 1;
    }
    if let Some(root) = nodes.first_mut() {
        hold(root, best);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use quickcheck::quickcheck;
    use std::vec::Vec;

    impl Leaves<u64> for Vec<u64> {
        fn count(&self) -> usize {
            self.len()
        }
        fn key(&self, leaf: usize) -> u64 {
            self.get(leaf).copied().unwrap_or(u64::NOBODY)
        }
    }

    /// Random key changes (out of play included) on trees of every small size agree with a
    /// scan for the least key, ties to the lower leaf.
    fn agrees_with_scan(size: u8, ops: Vec<(u8, u8)>) -> bool {
        let m = usize::from(size % 40);
        let mut nodes = std::vec![HeapSlot::<u64>::VACANT; m];
        // Few distinct keys, so that ties are common.
        let mut keys: Vec<u64> = (0..m as u64).map(|leaf| leaf % 3).collect();
        build(&mut nodes, &keys);
        for (leaf, key) in ops {
            if m > 0 {
                let leaf = usize::from(leaf) % m;
                keys[leaf] = if key % 5 == 0 {
                    u64::MAX
                } else {
                    u64::from(key % 4)
                };
                replay(&mut nodes, &keys, leaf as u32);
            }
            let least = (0..m)
                .filter(|&leaf| keys[leaf] != u64::MAX)
                .min_by_key(|&leaf| (keys[leaf], leaf));
            if top(&nodes, &keys) != least.map(|leaf| (keys[leaf], leaf as u32)) {
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

//! The active users of a DRF queue as a winner tree (a tournament): a complete binary tree
//! whose leaves are the rows, each internal node holding the least key below it and its row.
//!
//! DRF's hot decision starts a task of the user of least key, whose key then rises past
//! nearly every other (in the steady state all users sit at about the same weighted share).
//! In a heap that entry sinks from the root to a leaf, and each level's step depends on the
//! comparison before it: a chain of dependent loads. Here the same update replays the row's
//! own path, leaf to root, against the sibling of each node on it: those nodes are known
//! before any comparison, so their loads overlap, and the comparisons form a chain of
//! compare-and-select only. Every operation costs about `log2(capacity)` levels, whatever the
//! number of active users.
//!
//! The leaves are the rows themselves (their keys, [`Leaf`]); the internal nodes live in the
//! table's heap slots, one per row, without extra storage: for `1 <= i < capacity`, slot `i`
//! holds the key (as [`signed`] gives it) and the row winning node `i`. Nodes are numbered as
//! in a binary heap (children `2i` and `2i + 1`), leaves from `capacity` (row `r` is node
//! `capacity + r`), so the root is node 1 and every capacity gives a complete tree. The
//! sibling of a leaf is the next or previous row, so a replay reads the row beside its own.

use crate::heap::{HeapSlot, Key};

/// The first word of the key of a row not in the tree: above every user's, which is
/// `num::order_bits` of a share and never `u64::MAX`.
pub(crate) const ABSENT: u64 = u64::MAX;

/// A row as a leaf of the tree.
pub(crate) trait Leaf {
    /// The row's key, whose first word is [`ABSENT`] while the row is not in the tree.
    fn leaf(&self) -> Key;
}

/// The key (as [`signed`] gives it) and the row winning node `node` of the tree over `slots`
/// and `rows`: the row's own at a leaf.
fn entry<R: Leaf>(slots: &[HeapSlot<Key>], rows: &[R], node: usize) -> (i128, u32) {
    let capacity = slots.len();
    if node >= capacity {
        // No overflow: `node >= capacity`; a row number, below `u32::MAX`.
        let row = node.wrapping_sub(capacity);
        let key = rows.get(row).map_or(NOBODY, |row| signed(row.leaf()));
        (key, row as u32)
    } else {
        slots.get(node).map_or((NOBODY, 0), |slot| {
            let key = slot.key();
            (join(key.primary, key.secondary), slot.position())
        })
    }
}

/// Builds every node from `rows` (their keys as they are), bottom up. O(capacity).
pub(crate) fn reset<R: Leaf>(slots: &mut [HeapSlot<Key>], rows: &[R]) {
    for node in (1..slots.len()).rev() {
        // No overflow: `node < capacity < u32::MAX`.
        let left = entry(slots, rows, node.wrapping_mul(2));
        let right = entry(slots, rows, node.wrapping_mul(2).wrapping_add(1));
        let (key, row) = if right.0 < left.0 { right } else { left };
        hold(slots, node, key, row);
    }
}

/// The row in the tree of least key, if any.
pub(crate) fn top<R: Leaf>(slots: &[HeapSlot<Key>], rows: &[R]) -> Option<u32> {
    if slots.is_empty() {
        return None;
    }
    let (key, row) = entry(slots, rows, 1);
    (key >> 64 != NOBODY >> 64).then_some(row)
}

/// Replays the path of row `row`, whose key has changed (into or out of the tree too), to the
/// root: at each level, the lesser of the entry carried up and the sibling's wins the parent.
/// Keys in the tree are unique (the user's id is their second word), so the lesser is the same
/// whatever the order of play. A row beyond the tree is ignored.
pub(crate) fn replay<R: Leaf>(slots: &mut [HeapSlot<Key>], rows: &[R], row: u32) {
    let capacity = slots.len();
    let Some(leaf) = rows.get(row as usize) else {
        return;
    };
    // No overflow: `row < capacity < u32::MAX`.
    let mut node = capacity.wrapping_add(row as usize);
    let (mut best, mut least) = (row, signed(leaf.leaf()));
    while node > 1 {
        let (rival_key, rival) = entry(slots, rows, node ^ 1);
        let take = below(rival_key, least);
        best ^= (best ^ rival) & take as u32;
        least ^= (least ^ rival_key) & i128::from(take as i64);
        node >>= 1;
        hold(slots, node, least, best);
    }
}

/// Writes into node `node` its winner: key (as [`signed`] gives it) and row.
fn hold(slots: &mut [HeapSlot<Key>], node: usize, key: i128, row: u32) {
    if let Some(slot) = slots.get_mut(node) {
        slot.set_key(Key::new((key >> 64) as u64, key as u64));
        slot.set_position(row);
    }
}

/// A key as a non-negative number in the key's order: the first word of a user's key is
/// `num::order_bits` of a share, which is never negative, so its top bit is set; clearing it
/// leaves the order and makes any difference of two keys fit an `i128`.
fn signed(key: Key) -> i128 {
    join(key.primary ^ (1 << 63), key.secondary)
}

/// The number whose high word is `high` and low word `low`.
fn join(high: u64, low: u64) -> i128 {
    ((high as i128) << 64) | i128::from(low)
}

/// The [`signed`] key of a row not in the tree (the least such: any will do).
const NOBODY: i128 = ((ABSENT ^ (1 << 63)) as i128) << 64;

/// All ones when `a < b`, else zero: the sign of the difference, which cannot overflow (both
/// are [`signed`]). A mask, not a flag: selections by it are arithmetic. The outcome is random
/// to the predictor, and LLVM turns a selection by a flag in this loop into a branch (its x86
/// cmov conversion), which mispredicted about 4 times a decision.
fn below(a: i128, b: i128) -> u64 {
    (a.wrapping_sub(b) >> 127) as u64
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::num::order_bits;
    use quickcheck::quickcheck;
    use std::vec::Vec;

    impl Leaf for Key {
        fn leaf(&self) -> Key {
            *self
        }
    }

    /// Random settings and removals on trees of every small capacity agree with a scan for the
    /// least key.
    fn agrees_with_scan(capacity: u8, ops: Vec<(u8, u8, bool)>) -> bool {
        let capacity = usize::from(capacity % 40) + 1;
        let mut slots = std::vec![HeapSlot::<Key>::VACANT; capacity];
        // The id is the row.
        let mut rows: Vec<Key> = (0..capacity as u64).map(|r| Key::new(ABSENT, r)).collect();
        reset(&mut slots, &rows);
        for (row, share, present) in ops {
            let row = usize::from(row) % capacity;
            // Few distinct shares, so equal shares are common.
            rows[row].primary = if present {
                order_bits(f64::from(share % 4))
            } else {
                ABSENT
            };
            replay(&mut slots, &rows, row as u32);
            let least = (0..capacity)
                .filter(|&r| rows[r].primary != ABSENT)
                .min_by_key(|&r| rows[r]);
            if top(&slots, &rows) != least.map(|r| r as u32) {
                return false;
            }
        }
        true
    }

    quickcheck! {
        fn tree_matches_scan(capacity: u8, ops: Vec<(u8, u8, bool)>) -> bool {
            agrees_with_scan(capacity, ops)
        }
    }
}

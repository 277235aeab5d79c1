//! The active users of a DRF queue as a winner tree (a tournament): a complete binary tree
//! whose leaves are the rows, each internal node naming the row of least key below it.
//!
//! DRF's hot decision starts a task of the user of least key, whose key then rises past
//! nearly every other (in the steady state all users sit at about the same weighted share).
//! In a heap that entry sinks from the root to a leaf, and each level's step depends on the
//! comparison before it: a chain of dependent loads. Here the same update replays the row's
//! own path, leaf to root: the nodes visited are known before any comparison, so their loads
//! overlap, and the comparisons form a chain of compare-and-select only. Every operation costs
//! about `log2(capacity)` levels, whatever the number of active users.
//!
//! The tree lives in the table's heap slots, one per row, without extra storage: slot `r`
//! holds row `r`'s key (its leaf, [`ABSENT`] while the user is not active), and for
//! `1 <= i < capacity` the row winning internal node `i`. Nodes are numbered as in a binary
//! heap (children `2i` and `2i + 1`), leaves from `capacity` (row `r` is node
//! `capacity + r`), so the root is node 1 and every capacity gives a complete tree.

use crate::heap::{HeapSlot, Key};

/// The key of a row whose user is not in the tree: above every user's key, whose first word
/// (`num::order_bits` of a share) is never `u64::MAX`.
pub(crate) const ABSENT: Key = Key::new(u64::MAX, u64::MAX);

/// The row winning node `node` of the tree over `slots`: the row itself at a leaf.
fn winner(slots: &[HeapSlot<Key>], node: usize) -> u32 {
    let capacity = slots.len();
    if node >= capacity {
        // No overflow: `node >= capacity`; a row number, below `u32::MAX`.
        node.wrapping_sub(capacity) as u32
    } else {
        slots.get(node).map_or(0, HeapSlot::position)
    }
}

/// The key of row `row`.
fn key_of(slots: &[HeapSlot<Key>], row: u32) -> Key {
    slots.get(row as usize).map_or(ABSENT, HeapSlot::key)
}

/// Empties the tree: every row absent, every node won by a row below it.
pub(crate) fn reset(slots: &mut [HeapSlot<Key>]) {
    for slot in slots.iter_mut() {
        slot.set_key(ABSENT);
    }
    for node in (1..slots.len()).rev() {
        // No overflow: `node < capacity < u32::MAX`.
        let first = winner(slots, node.wrapping_mul(2));
        if let Some(slot) = slots.get_mut(node) {
            slot.set_position(first);
        }
    }
}

/// The active row of least key, if any.
pub(crate) fn top(slots: &[HeapSlot<Key>]) -> Option<u32> {
    if slots.is_empty() {
        return None;
    }
    let row = winner(slots, 1);
    (key_of(slots, row) != ABSENT).then_some(row)
}

/// Whether row `row` is in the tree.
pub(crate) fn contains(slots: &[HeapSlot<Key>], row: u32) -> bool {
    key_of(slots, row) != ABSENT
}

/// Gives row `row` the key `key` ([`ABSENT`] takes it out of the tree) and replays its path to
/// the root: at each level, the lesser of the row carried up and the sibling's winner wins the
/// parent. Keys are unique (the user's id is their second word), so the lesser is the same
/// whatever the order of play. A row beyond the tree is ignored.
pub(crate) fn set(slots: &mut [HeapSlot<Key>], row: u32, key: Key) {
    let capacity = slots.len();
    let Some(leaf) = slots.get_mut(row as usize) else {
        return;
    };
    leaf.set_key(key);
    // No overflow: `row < capacity < u32::MAX`.
    let mut node = capacity.wrapping_add(row as usize);
    let (mut best, mut least) = (row, signed(key));
    while node > 1 {
        let rival = winner(slots, node ^ 1);
        let Some(rival_key) = slots.get(rival as usize).map(|slot| signed(slot.key())) else {
            return;
        };
        // All ones when the rival wins: the sign of the difference, which cannot overflow.
        // Arithmetic, not a flag: the outcome is random to the predictor, and LLVM turns a
        // selection by a flag in this loop into a branch (its x86 cmov conversion), which
        // mispredicted about 4 times a decision.
        let take = (rival_key.wrapping_sub(least) >> 127) as u64;
        best ^= (best ^ rival) & take as u32;
        least ^= (least ^ rival_key) & i128::from(take as i64);
        node >>= 1;
        if let Some(parent) = slots.get_mut(node) {
            parent.set_position(best);
        }
    }
}

/// A key as a non-negative number in the key's order: the first word of a user's key is
/// `num::order_bits` of a share, which is never negative, so its top bit is set; clearing it
/// leaves both words' order and makes any difference of two keys fit an `i128`.
fn signed(key: Key) -> i128 {
    let high = (key.primary ^ (1 << 63)) as i128;
    (high << 64) | i128::from(key.secondary)
}

/// The rows in the tree, in row order. O(capacity).
pub(crate) fn rows(slots: &[HeapSlot<Key>]) -> impl Iterator<Item = u32> + '_ {
    (0..slots.len() as u32).filter(|&row| contains(slots, row))
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::num::order_bits;
    use quickcheck::quickcheck;
    use std::vec::Vec;

    /// Random settings and removals on trees of every small capacity agree with a scan for the
    /// least key.
    fn agrees_with_scan(capacity: u8, ops: Vec<(u8, u8, bool)>) -> bool {
        let capacity = usize::from(capacity % 40) + 1;
        let mut slots = std::vec![HeapSlot::<Key>::VACANT; capacity];
        reset(&mut slots);
        let mut reference = std::vec![ABSENT; capacity];
        for (row, share, present) in ops {
            let row = usize::from(row) % capacity;
            // Few distinct shares, so equal shares are common; the id is the row.
            let key = if present {
                Key::new(order_bits(f64::from(share % 4)), row as u64)
            } else {
                ABSENT
            };
            set(&mut slots, row as u32, key);
            reference[row] = key;
            let least = (0..capacity)
                .filter(|&r| reference[r] != ABSENT)
                .min_by_key(|&r| reference[r]);
            if top(&slots) != least.map(|r| r as u32) {
                return false;
            }
            let members: Vec<u32> = rows(&slots).collect();
            let expected: Vec<u32> = (0..capacity as u32)
                .filter(|&r| reference[r as usize] != ABSENT)
                .collect();
            if members != expected {
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

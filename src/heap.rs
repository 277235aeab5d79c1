//! An indexed 4-ary min-heap over caller-provided slots: the one priority queue of the crate.
//!
//! Items are small integers (row numbers, `0..capacity`). Each item is ordered by a key (a
//! [`HeapKey`]: a validated float through `num::order_bits`, or a [`Key`] of two such
//! words) and, only between equal keys, by a tie-break the caller supplies ([`Ties`]), which may
//! look the items up elsewhere. Each user picks the narrowest key that keeps ties rare: one word
//! when equal keys are unusual (16-byte slots, four children to a cache line), two when they
//! are common, so the hot comparisons never leave the heap's own memory.
//!
//! Each slot holds two things that share its index: the heap entry at that *position* (key and
//! item), and the current position of the *item* with that number. Keeping both in one array
//! keeps the storage to one slice per heap. Positions are kept in sync on every move, so any
//! item can be removed in O(log n); that is what "indexed" means here.
//!
//! Removing the top uses Floyd's bottom-up strategy: the hole left at the root sinks to a leaf
//! along the smallest children (three comparisons a level), and the last entry rises from
//! there, which is usually at once.

/// Marks "no position" / "no item".
pub const NONE: u32 = u32::MAX;

const ARITY: usize = 4;

/// The key of a heap entry: a total order, with a placeholder for empty slots.
pub trait HeapKey: Copy + Ord {
    /// The key of empty slots.
    const ZERO: Self;
}

impl HeapKey for u64 {
    const ZERO: u64 = 0;
}

impl HeapKey for Key {
    const ZERO: Key = Key::new(0, 0);
}

/// A key of two words: `primary`, then `secondary`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Key {
    /// Compared first.
    pub primary: u64,
    /// Compared when the primaries are equal.
    pub secondary: u64,
}

impl Key {
    /// A key of two words.
    pub const fn new(primary: u64, secondary: u64) -> Self {
        Key { primary, secondary }
    }

    /// Both words as one number, whose order is the key's: compared without branches.
    const fn wide(self) -> u128 {
        ((self.primary as u128) << 64) | self.secondary as u128
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.wide().cmp(&other.wide())
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The order between two items whose keys are equal.
pub trait Ties {
    /// Whether item `a` goes before item `b` (their keys being equal). Must be a strict total
    /// order on the items present.
    fn before(&self, a: u32, b: u32) -> bool;
}

/// The tie-break for heaps whose items are indices into the caller's list (jobs of a batch):
/// the lower index first, which makes the order total.
pub struct LowerIndex;

impl Ties for LowerIndex {
    fn before(&self, a: u32, b: u32) -> bool {
        a < b
    }
}

/// One slot of a heap. See the module documentation for its two roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapSlot<K> {
    key: K,
    item: u32,
    position: u32,
}

impl<K: HeapKey> HeapSlot<K> {
    /// A slot that holds no entry and whose item is not in the heap.
    pub const VACANT: HeapSlot<K> = HeapSlot {
        key: K::ZERO,
        item: NONE,
        position: NONE,
    };

    /// The item whose entry sits in this slot (meaningful for the first `len` slots).
    pub fn item(&self) -> u32 {
        self.item
    }
}

/// The smallest entry (key, item) of a heap whose first `len` slots are in use.
pub fn peek<K: HeapKey>(slots: &[HeapSlot<K>], len: usize) -> Option<(K, u32)> {
    if len == 0 {
        return None;
    }
    slots.first().map(|top| (top.key, top.item))
}

/// Whether `item` is in the heap.
pub fn contains<K>(slots: &[HeapSlot<K>], item: u32) -> bool {
    slots
        .get(item as usize)
        .is_some_and(|slot| slot.position != NONE)
}

/// A mutable view of a heap: its slots, the number in use, and its tie-break.
pub struct Heap<'a, K, T> {
    slots: &'a mut [HeapSlot<K>],
    len: &'a mut usize,
    ties: T,
}

impl<'a, K: HeapKey, T: Ties> Heap<'a, K, T> {
    /// A view over `slots`, of which the first `*len` hold the heap.
    pub fn new(slots: &'a mut [HeapSlot<K>], len: &'a mut usize, ties: T) -> Self {
        Heap { slots, len, ties }
    }

    /// The slots, to query with [`contains`].
    pub fn slots(&self) -> &[HeapSlot<K>] {
        self.slots
    }

    /// The smallest entry, without removing it.
    pub fn peek(&self) -> Option<(K, u32)> {
        peek(self.slots, *self.len)
    }

    /// Adds `item` with `key`. The caller guarantees `item < capacity` and that it is absent;
    /// a violation is ignored (returns false) rather than corrupting the heap.
    pub fn push(&mut self, item: u32, key: K) -> bool {
        let at = *self.len;
        if at >= self.slots.len() || item as usize >= self.slots.len() || contains(self.slots, item)
        {
            return false;
        }
        *self.len = at.saturating_add(1);
        self.sift_up(at, key, item);
        true
    }

    /// Removes and returns the smallest entry.
    pub fn pop(&mut self) -> Option<(K, u32)> {
        let top = self.peek()?;
        let last = self.len.checked_sub(1)?;
        *self.len = last;
        self.set_position(top.1, NONE);
        if last > 0 {
            let moved = *self.slots.get(last)?;
            let hole = self.sink_hole_to_leaf(0);
            self.sift_up(hole, moved.key, moved.item);
        }
        Some(top)
    }

    /// Removes `item` if it is in the heap, returning its key.
    pub fn remove(&mut self, item: u32) -> Option<K> {
        let at = self.slots.get(item as usize)?.position as usize;
        let removed = *self.slots.get(at)?;
        let last = self.len.checked_sub(1)?;
        *self.len = last;
        self.set_position(item, NONE);
        if at != last {
            let moved = *self.slots.get(last)?;
            // The moved entry may belong above or below the hole.
            if self.less(moved.key, moved.item, removed.key, removed.item) {
                self.sift_up(at, moved.key, moved.item);
            } else {
                let hole = self.sink_hole_to_leaf(at);
                self.sift_up(hole, moved.key, moved.item);
            }
        }
        Some(removed.key)
    }

    /// Gives `item`, which must be in the heap, the key `key` and moves it where it belongs.
    /// Returns false (changing nothing) when `item` is absent.
    pub fn update(&mut self, item: u32, key: K) -> bool {
        let Some(at) = self
            .slots
            .get(item as usize)
            .map(|slot| slot.position as usize)
        else {
            return false;
        };
        let Some(old) = self.slots.get(at).copied() else {
            return false;
        };
        if self.less(key, item, old.key, old.item) {
            self.sift_up(at, key, item);
        } else {
            // Sink the hole to a leaf, then let the entry rise from there: Floyd's way.
            let hole = self.sink_hole_to_leaf(at);
            self.sift_up(hole, key, item);
        }
        true
    }

    fn less(&self, key_a: K, item_a: u32, key_b: K, item_b: u32) -> bool {
        key_a < key_b || (key_a == key_b && self.ties.before(item_a, item_b))
    }

    fn place(&mut self, at: usize, key: K, item: u32) {
        if let Some(slot) = self.slots.get_mut(at) {
            slot.key = key;
            slot.item = item;
        }
        self.set_position(item, at as u32);
    }

    fn set_position(&mut self, item: u32, position: u32) {
        if let Some(slot) = self.slots.get_mut(item as usize) {
            slot.position = position;
        }
    }

    /// Moves the entry at `at` up while it is smaller than its parent, then writes it.
    fn sift_up(&mut self, mut at: usize, key: K, item: u32) {
        while at > 0 {
            let parent = at.saturating_sub(1) / ARITY;
            let Some(&above) = self.slots.get(parent) else {
                break;
            };
            if !self.less(key, item, above.key, above.item) {
                break;
            }
            self.place(at, above.key, above.item);
            at = parent;
        }
        self.place(at, key, item);
    }

    /// Treats `at` as a hole and fills it from its smallest child, level by level, until the
    /// hole is a leaf; returns the leaf.
    fn sink_hole_to_leaf(&mut self, mut at: usize) -> usize {
        let len = *self.len;
        loop {
            let first = at.saturating_mul(ARITY).saturating_add(1);
            let end = first.saturating_add(ARITY).min(len);
            let Some((best_at, best)) = self.smallest(first, end) else {
                return at;
            };
            self.place(at, best.key, best.item);
            at = best_at;
        }
    }

    /// The smallest slot among positions `first..end`, with its position. A full family of
    /// four is compared as a tournament (two independent comparisons, then one), which keeps
    /// the dependency chain short.
    fn smallest(&self, first: usize, end: usize) -> Option<(usize, HeapSlot<K>)> {
        let children = self.slots.get(first..end)?;
        let pick = |a: (usize, HeapSlot<K>), b: (usize, HeapSlot<K>)| {
            if self.less(b.1.key, b.1.item, a.1.key, a.1.item) {
                b
            } else {
                a
            }
        };
        let mut family = children
            .iter()
            .enumerate()
            .map(|(offset, &slot)| (offset, slot));
        let best = if let [a, b, c, d] = *children {
            pick(pick((0, a), (1, b)), pick((2, c), (3, d)))
        } else {
            let head = family.next()?;
            family.fold(head, pick)
        };
        Some((first.saturating_add(best.0), best.1))
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use quickcheck::quickcheck;
    use std::vec::Vec;

    /// Ties broken by the larger item first, to exercise the tie path.
    struct LargerFirst;

    impl Ties for LargerFirst {
        fn before(&self, a: u32, b: u32) -> bool {
            a > b
        }
    }

    /// Random pushes, pops and removals agree with a sorted vector.
    fn agrees_with_sorted_reference(ops: Vec<(u8, u16)>) -> bool {
        const CAP: usize = 40;
        let mut slots = [HeapSlot::<Key>::VACANT; CAP];
        let mut len = 0;
        // Reference entries sort as (key, larger item first).
        let mut reference: Vec<(Key, core::cmp::Reverse<u32>)> = Vec::new();
        for (op, value) in ops {
            let item = u32::from(value) % CAP as u32;
            let mut heap = Heap::new(&mut slots, &mut len, LargerFirst);
            match op % 4 {
                3 => {
                    let key = Key::new(u64::from(value / 11 % 5), u64::from(value % 2));
                    let at = reference.iter().position(|&(_, i)| i.0 == item);
                    if heap.update(item, key) != at.is_some() {
                        return false;
                    }
                    if let Some(at) = at {
                        reference[at].0 = key;
                    }
                }
                0 => {
                    let key = Key::new(u64::from(value / 7 % 5), u64::from(value % 3 / 2));
                    let present = reference.iter().any(|&(_, i)| i.0 == item);
                    if heap.push(item, key) == present {
                        return false;
                    }
                    if !present {
                        reference.push((key, core::cmp::Reverse(item)));
                    }
                }
                1 => {
                    reference.sort();
                    let expected = (!reference.is_empty()).then(|| reference.remove(0));
                    if heap.pop() != expected.map(|(k, i)| (k, i.0)) {
                        return false;
                    }
                }
                _ => {
                    let expected = reference
                        .iter()
                        .position(|&(_, i)| i.0 == item)
                        .map(|p| reference.remove(p).0);
                    if heap.remove(item) != expected {
                        return false;
                    }
                }
            }
            if len != reference.len() {
                return false;
            }
            for &(_, i) in &reference {
                let at = slots[i.0 as usize].position as usize;
                if at >= len || slots[at].item != i.0 {
                    return false;
                }
            }
        }
        true
    }

    quickcheck! {
        fn heap_matches_reference(ops: Vec<(u8, u16)>) -> bool {
            agrees_with_sorted_reference(ops)
        }
    }
}

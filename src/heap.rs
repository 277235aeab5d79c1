//! An indexed 4-ary min-heap over caller-provided slots: the one priority queue of the crate.
//!
//! Items are small integers (row numbers, `0..capacity`), keys are any total order. Each slot
//! holds two things that share its index: the heap entry at that *position* (key and item), and
//! the current position of the *item* with that number. Keeping both in one array keeps the
//! storage to one slice per heap (so C callers carve fewer parts) and an entry to 32 bytes for
//! the crate's three-word keys. Four children per node halve the depth of a binary heap, which
//! is what matters once the heap outgrows the L1 cache.
//!
//! Every operation is O(log n). Positions are kept in sync on every move, so any item can be
//! removed or looked up in O(1) + O(log n), which is what "indexed" means here.

/// Marks "no position" / "no item".
pub const NONE: u32 = u32::MAX;

const ARITY: usize = 4;

/// One slot of a heap. See the module documentation for its two roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapSlot<K> {
    key: K,
    item: u32,
    position: u32,
}

impl<K: Copy> HeapSlot<K> {
    /// The item whose entry sits in this slot (meaningful for the first `len` slots).
    pub fn item(&self) -> u32 {
        self.item
    }

    /// A slot that holds no entry and whose item is not in the heap; `key` is a placeholder.
    pub const fn vacant(key: K) -> Self {
        HeapSlot {
            key,
            item: NONE,
            position: NONE,
        }
    }
}

/// The smallest entry of a heap whose first `len` slots are in use, without changing it.
pub fn peek<K: Copy>(slots: &[HeapSlot<K>], len: usize) -> Option<(K, u32)> {
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

/// A mutable view of a heap: its slots and the number of them in use.
pub struct Heap<'a, K> {
    slots: &'a mut [HeapSlot<K>],
    len: &'a mut usize,
}

impl<'a, K: Copy + Ord> Heap<'a, K> {
    /// A view over `slots`, of which the first `*len` hold the heap.
    pub fn new(slots: &'a mut [HeapSlot<K>], len: &'a mut usize) -> Self {
        Heap { slots, len }
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
        if at >= self.slots.len() || contains(self.slots, item) || item as usize >= self.slots.len()
        {
            return false;
        }
        *self.len = at.saturating_add(1);
        self.sift_up(at, key, item);
        true
    }

    /// Removes and returns the smallest entry.
    pub fn pop(&mut self) -> Option<(K, u32)> {
        let top = peek(self.slots, *self.len)?;
        self.remove(top.1);
        Some(top)
    }

    /// Removes `item` if it is in the heap, returning its key.
    pub fn remove(&mut self, item: u32) -> Option<K> {
        let at = self.slots.get(item as usize)?.position;
        let removed = self.slots.get(at as usize)?.key;
        self.set_position(item, NONE);
        let last = self.len.checked_sub(1)?;
        *self.len = last;
        if at as usize != last {
            let moved = *self.slots.get(last)?;
            // The moved entry may belong above or below the hole; one of these is a no-op.
            if moved.key < removed {
                self.sift_up(at as usize, moved.key, moved.item);
            } else {
                self.sift_down(at as usize, moved.key, moved.item);
            }
        }
        Some(removed)
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

    fn sift_up(&mut self, mut at: usize, key: K, item: u32) {
        while at > 0 {
            let parent = (at.saturating_sub(1)) / ARITY;
            let Some(&above) = self.slots.get(parent) else {
                break;
            };
            if above.key <= key {
                break;
            }
            self.place(at, above.key, above.item);
            at = parent;
        }
        self.place(at, key, item);
    }

    fn sift_down(&mut self, mut at: usize, key: K, item: u32) {
        let len = *self.len;
        loop {
            let first = at.saturating_mul(ARITY).saturating_add(1);
            let end = first.saturating_add(ARITY).min(len);
            let Some(children) = self.slots.get(first..end) else {
                break;
            };
            let Some((offset, smallest)) = children
                .iter()
                .enumerate()
                .min_by_key(|(_, child)| child.key)
            else {
                break;
            };
            if smallest.key >= key {
                break;
            }
            let (child_key, child_item) = (smallest.key, smallest.item);
            self.place(at, child_key, child_item);
            at = first.saturating_add(offset);
        }
        self.place(at, key, item);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use quickcheck::quickcheck;
    use std::vec::Vec;

    /// Random pushes, pops and removals agree with a sorted vector.
    fn agrees_with_sorted_reference(ops: Vec<(u8, u16)>) -> bool {
        const CAP: usize = 40;
        let mut slots = [HeapSlot::vacant((0u16, 0u32)); CAP];
        let mut len = 0;
        let mut reference: Vec<((u16, u32), u32)> = Vec::new();
        for (op, value) in ops {
            let item = u32::from(value) % CAP as u32;
            let mut heap = Heap::new(&mut slots, &mut len);
            match op % 3 {
                0 => {
                    let key = (value / 7, item);
                    let present = reference.iter().any(|&(_, i)| i == item);
                    if heap.push(item, key) == present {
                        return false;
                    }
                    if !present {
                        reference.push((key, item));
                    }
                }
                1 => {
                    reference.sort();
                    let expected = (!reference.is_empty()).then(|| reference.remove(0));
                    if heap.pop() != expected {
                        return false;
                    }
                }
                _ => {
                    let expected = reference
                        .iter()
                        .position(|&(_, i)| i == item)
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
                let at = slots[i as usize].position as usize;
                if at >= len || slots[at].item != i {
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

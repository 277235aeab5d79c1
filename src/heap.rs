//! An indexed 4-ary min-heap over caller-provided slots: the priority queue of CFQ (and of
//! HAI's shortest-job-optimal start). DRF's active users and HAI's donors and acceptors live in
//! a loser tree in slots of the same type instead, because the key they update rises past
//! nearly every other, which a heap sinks root to leaf one dependent step at a time: see
//! `crate::tree`.
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
//!
//! A scheduler often removes the top and then adds another entry (a job drains its tasks, the
//! next stage arrives): [`Heap::pop_leaving_hole`] removes the top but leaves the root empty,
//! marked by an item of [`NONE`], and the next [`Heap::push`] fills it and sinks from there, in
//! one pass that stops where the new entry belongs (Python's `heapreplace`, spread over two
//! calls). Any other operation first fills the hole the ordinary way. While the root is a
//! hole, `len` counts it: [`count`] gives the number of entries, [`peek`] looks below it.

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

    /// The item whose entry sits in this slot (meaningful for the first `len` slots; [`NONE`]
    /// at a root that [`Heap::pop_leaving_hole`] left a hole).
    pub fn item(&self) -> u32 {
        self.item
    }

    /// The slot's key. This and the three below let another structure keep its state in a
    /// table's heap slots (the loser tree of `crate::tree`: a key and a leaf per node).
    pub(crate) fn key(&self) -> K {
        self.key
    }

    /// Sets the slot's key.
    pub(crate) fn set_key(&mut self, key: K) {
        self.key = key;
    }

    /// The slot's position word.
    pub(crate) fn position(&self) -> u32 {
        self.position
    }

    /// Sets the slot's position word.
    pub(crate) fn set_position(&mut self, position: u32) {
        self.position = position;
    }
}

/// Whether the root of a heap whose first `len` slots are in use is a hole left by
/// [`Heap::pop_leaving_hole`].
fn root_is_hole<K>(slots: &[HeapSlot<K>], len: usize) -> bool {
    len > 0 && slots.first().is_some_and(|root| root.item == NONE)
}

/// The number of entries in a heap whose first `len` slots are in use.
pub fn count<K>(slots: &[HeapSlot<K>], len: usize) -> usize {
    len.saturating_sub(usize::from(root_is_hole(slots, len)))
}

/// The smallest entry (key, item) of a heap whose first `len` slots are in use and whose
/// tie-break is `ties`: the root, or the smallest of its children while it is a hole.
pub fn peek<K: HeapKey, T: Ties>(slots: &[HeapSlot<K>], len: usize, ties: &T) -> Option<(K, u32)> {
    if len == 0 {
        return None;
    }
    let top = slots.first()?;
    if top.item != NONE {
        return Some((top.key, top.item));
    }
    let children = slots.get(1..len.min(ARITY.saturating_add(1)))?;
    let (first, rest) = children.split_first()?;
    let best = rest.iter().fold(first, |best, slot| {
        if less(ties, slot.key, slot.item, best.key, best.item) {
            slot
        } else {
            best
        }
    });
    Some((best.key, best.item))
}

/// Whether entry a goes before entry b. Equal keys are rare (the module documentation), so
/// the branch on equality predicts well and the order itself is a flag, not a branch: the
/// descent picks among children without mispredictions. The tie-break is kept out of line,
/// so that the loops around the comparison stay small.
fn less<K: HeapKey, T: Ties>(ties: &T, key_a: K, item_a: u32, key_b: K, item_b: u32) -> bool {
    if key_a != key_b {
        key_a < key_b
    } else {
        tie(ties, item_a, item_b)
    }
}

#[cold]
#[inline(never)]
fn tie<T: Ties>(ties: &T, a: u32, b: u32) -> bool {
    ties.before(a, b)
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
        peek(self.slots, *self.len, &self.ties)
    }

    /// Adds `item` with `key`. The caller guarantees `item < capacity` and that it is absent;
    /// a violation is ignored (returns false) rather than corrupting the heap. A hole at the
    /// root is filled with the new entry, which then sinks only as far as it belongs.
    #[inline]
    pub fn push(&mut self, item: u32, key: K) -> bool {
        if item as usize >= self.slots.len() || contains(self.slots, item) {
            return false;
        }
        if root_is_hole(self.slots, *self.len) {
            self.sift_down(0, key, item);
            return true;
        }
        let at = *self.len;
        if at >= self.slots.len() {
            return false;
        }
        *self.len = at.saturating_add(1);
        self.sift_up(at, key, item);
        true
    }

    /// The smallest entry, at the root once a hole there is filled (the ordinary way): a
    /// caller that goes on to remove it finds no hole for [`Heap::pop_leaving_hole`] to fill,
    /// and reads the root alone, not a hole's children.
    pub fn top(&mut self) -> Option<(K, u32)> {
        self.fill_hole();
        if *self.len == 0 {
            return None;
        }
        self.slots.first().map(|root| (root.key, root.item))
    }

    /// Removes and returns the smallest entry.
    pub fn pop(&mut self) -> Option<(K, u32)> {
        let top = self.pop_leaving_hole()?;
        self.fill_hole();
        Some(top)
    }

    /// Removes and returns the smallest entry, leaving the root a hole for the next
    /// [`Heap::push`] to fill (see the module documentation).
    pub fn pop_leaving_hole(&mut self) -> Option<(K, u32)> {
        self.fill_hole();
        if *self.len == 0 {
            return None;
        }
        let root = self.slots.first_mut()?;
        let top = (root.key, root.item);
        root.item = NONE;
        self.set_position(top.1, NONE);
        Some(top)
    }

    /// Fills a hole at the root the ordinary way, if there is one.
    fn fill_hole(&mut self) {
        if root_is_hole(self.slots, *self.len) {
            self.fill_hole_from_last();
        }
    }

    /// Fills the hole at the root with the last entry, by Floyd's strategy.
    #[inline(never)]
    fn fill_hole_from_last(&mut self) {
        let last = self.len.saturating_sub(1);
        *self.len = last;
        if last > 0 {
            if let Some(&moved) = self.slots.get(last) {
                let hole = self.sink_hole_to_leaf(0);
                self.sift_up(hole, moved.key, moved.item);
            }
        }
    }

    /// Removes `item` if it is in the heap, returning its key.
    pub fn remove(&mut self, item: u32) -> Option<K> {
        if !contains(self.slots, item) {
            return None;
        }
        self.fill_hole();
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
        if !contains(self.slots, item) {
            return false;
        }
        self.fill_hole();
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
        less(&self.ties, key_a, item_a, key_b, item_b)
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
            // No overflow: `at > 0`.
            let parent = at.wrapping_sub(1) / ARITY;
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

    /// Writes the entry (key, item) at `at`, or below it as far as it belongs: each level, the
    /// smallest child moves up while it goes before the entry.
    fn sift_down(&mut self, mut at: usize, key: K, item: u32) {
        let len = (*self.len).min(self.slots.len());
        // Positions below this one have a full family of four children in the heap.
        let full = len.saturating_sub(1) / ARITY;
        while at < full {
            // No overflow: `at < len / 4`.
            let first = at.wrapping_mul(ARITY).wrapping_add(1);
            let Some(family) = self.family(first) else {
                break;
            };
            let best = self.smallest_of_four(family);
            let Some(&child) = family.get(best) else {
                break;
            };
            if !self.less(child.key, child.item, key, item) {
                break;
            }
            self.place(at, child.key, child.item);
            at = first.wrapping_add(best);
        }
        if at >= full {
            let first = at.saturating_mul(ARITY).saturating_add(1);
            if let Some(best) = self.smallest(first, len) {
                if let Some(&child) = self.slots.get(best) {
                    if self.less(child.key, child.item, key, item) {
                        self.place(at, child.key, child.item);
                        at = best;
                    }
                }
            }
        }
        self.place(at, key, item);
    }

    /// Treats `at` as a hole and fills it from its smallest child, level by level, until the
    /// hole is a leaf; returns the leaf.
    fn sink_hole_to_leaf(&mut self, mut at: usize) -> usize {
        let len = (*self.len).min(self.slots.len());
        // Positions below this one have a full family of four children in the heap.
        let full = len.saturating_sub(1) / ARITY;
        while at < full {
            // No overflow: `at < len / 4`.
            let first = at.wrapping_mul(ARITY).wrapping_add(1);
            let Some(family) = self.family(first) else {
                return at;
            };
            let best = self.smallest_of_four(family);
            let Some(&entry) = family.get(best) else {
                return at;
            };
            self.place(at, entry.key, entry.item);
            at = first.wrapping_add(best);
        }
        // At most one partial family, at the heap's end.
        let first = at.saturating_mul(ARITY).saturating_add(1);
        let Some(best) = self.smallest(first, len) else {
            return at;
        };
        let Some(&entry) = self.slots.get(best) else {
            return at;
        };
        self.place(at, entry.key, entry.item);
        best
    }

    /// The four slots from `first`.
    fn family(&self, first: usize) -> Option<&[HeapSlot<K>; ARITY]> {
        let family = self.slots.get(first..first.saturating_add(ARITY))?;
        <&[HeapSlot<K>; ARITY]>::try_from(family).ok()
    }

    /// The offset of the smallest of a full family, as a tournament (two independent
    /// comparisons, then one) on the keys alone, whose outcomes are flags turned into offsets
    /// and the lesser keys: no branch on the keys, which are random to the predictor, and a
    /// short dependency chain. A tournament that meets equal keys is played again with the
    /// tie-break, out of line (equal keys are rare: the module documentation).
    // Always inlined: called once a level, it is the loop's body.
    #[inline(always)]
    fn smallest_of_four(&self, family: &[HeapSlot<K>; ARITY]) -> usize {
        let [a, b, c, d] = family.map(|slot| slot.key);
        let left = usize::from(b < a);
        let right = 2 | usize::from(d < c);
        let (l, r) = (a.min(b), c.min(d));
        if a == b || c == d || l == r {
            return self.smallest_of_four_tied(family);
        }
        if r < l {
            right
        } else {
            left
        }
    }

    /// [`Heap::smallest_of_four`] with the tie-break.
    #[cold]
    #[inline(never)]
    fn smallest_of_four_tied(&self, [a, b, c, d]: &[HeapSlot<K>; ARITY]) -> usize {
        let left = usize::from(self.less(b.key, b.item, a.key, a.item));
        let right = 2 | usize::from(self.less(d.key, d.item, c.key, c.item));
        let (l, r) = (
            if left == 0 { a } else { b },
            if right == 2 { c } else { d },
        );
        if self.less(r.key, r.item, l.key, l.item) {
            right
        } else {
            left
        }
    }

    /// The position of the smallest slot among `first..len` (a partial family: fewer than
    /// four children, at the heap's end).
    fn smallest(&self, first: usize, len: usize) -> Option<usize> {
        let end = first.saturating_add(ARITY).min(len);
        let children = self.slots.get(first..end)?;
        let (mut best, mut smallest) = (0, *children.first()?);
        for (offset, &slot) in children.iter().enumerate().skip(1) {
            if self.less(slot.key, slot.item, smallest.key, smallest.item) {
                (best, smallest) = (offset, slot);
            }
        }
        Some(first.saturating_add(best))
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

    /// Random pushes, pops (leaving a hole or not), updates and removals agree with a sorted
    /// vector.
    fn agrees_with_sorted_reference(ops: Vec<(u8, u16)>) -> bool {
        const CAP: usize = 40;
        let mut slots = [HeapSlot::<Key>::VACANT; CAP];
        let mut len = 0;
        // Reference entries sort as (key, larger item first).
        let mut reference: Vec<(Key, core::cmp::Reverse<u32>)> = Vec::new();
        for (op, value) in ops {
            let item = u32::from(value) % CAP as u32;
            let mut heap = Heap::new(&mut slots, &mut len, LargerFirst);
            match op % 5 {
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
                1 | 4 => {
                    reference.sort();
                    let expected = (!reference.is_empty()).then(|| reference.remove(0));
                    let popped = if op % 5 == 1 {
                        heap.pop()
                    } else {
                        heap.pop_leaving_hole()
                    };
                    if popped != expected.map(|(k, i)| (k, i.0)) {
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
            if count(&slots, len) != reference.len() {
                return false;
            }
            reference.sort();
            let smallest = reference.first().map(|&(k, i)| (k, i.0));
            if peek(&slots, len, &LargerFirst) != smallest {
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

    /// Every heap size up to a few levels, filled in a scattered order and emptied by pops:
    /// the keys come out sorted. In the second pass each pop leaves a hole that a push fills
    /// with the same item, its key raised past every other (so it sinks from the root to the
    /// bottom), then plain pops take those. Covers the boundary between full and partial
    /// families at every size.
    #[test]
    fn every_size_pops_in_order() {
        const CAP: usize = 90;
        let key = |i: usize| ((i * 37 + 11) % CAP) as u64;
        for n in 1..=CAP {
            let mut slots = [HeapSlot::<u64>::VACANT; CAP];
            let mut len = 0;
            let mut heap = Heap::new(&mut slots, &mut len, LowerIndex);
            for i in 0..n {
                assert!(heap.push(i as u32, key(i)));
            }
            let mut expected: Vec<(u64, u32)> = (0..n).map(|i| (key(i), i as u32)).collect();
            expected.sort();
            let raised: Vec<(u64, u32)> = expected.iter().map(|&(k, i)| (k + 1000, i)).collect();
            let mut popped = Vec::new();
            for _ in 0..n {
                let (k, i) = heap.pop_leaving_hole().expect("n entries");
                assert!(heap.push(i, k + 1000));
                popped.push((k, i));
            }
            assert_eq!(popped, expected, "{n} entries, holes refilled");
            popped.clear();
            while let Some(top) = heap.pop() {
                popped.push(top);
            }
            assert_eq!(popped, raised, "{n} entries");
        }
    }

    quickcheck! {
        fn heap_matches_reference(ops: Vec<(u8, u16)>) -> bool {
            agrees_with_sorted_reference(ops)
        }
    }
}

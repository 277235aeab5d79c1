//! A loser tree (a tournament) over caller-provided heap slots: the priority queue of DRF's
//! active users and of HAI's donors and acceptors.
//!
//! Both update the key of their top entry and see it rise past nearly every other: DRF's
//! started user (all users sit at about the same weighted share) and HAI's donor that gave θ
//! or acceptor that got it (the greedy evens the marginal changes out, ReB §4.3). In a heap
//! that entry sinks from the root to a leaf, each level's step waiting on the comparison
//! before it. A tournament replays the leaf's own path to the root instead: its nodes are
//! known before any comparison, so their loads overlap, and each level costs one comparison.
//! Every update costs about `log2(m)` levels for `m` leaves, however few are in play.
//!
//! Each internal node keeps the *loser* of the match played there, and slot 0 the overall
//! winner (Knuth, *The Art of Computer Programming*, vol. 3, §5.4.1, "tree of losers"). When
//! the winner's key changes, the match at each node on its path is between the entry carried
//! up and the loser kept there: the winner goes on, the loser stays. A replay reads and writes
//! only the nodes on its path, where a tree of winners also reads each node's sibling (and at
//! the bottom the sibling leaf's key, where the leaves live: for DRF a user's row, a cache
//! miss of its own). Any other leaf first has each node on its path set to the entrant from
//! off the path, found from the root down ([`open_path`]), and then replays the same way.
//!
//! The leaves live wherever their owner keeps them ([`Leaves`]: DRF's rows, HAI's own slots);
//! the nodes in heap slots. Nodes are numbered as in a binary heap (children `2i` and
//! `2i + 1`, the root node 1), leaves from `m` (leaf `l` is node `m + l`), so the `m - 1`
//! internal nodes and the winner fill exactly `m` slots: internal node `i` in slot `i`, the
//! winner in slot 0, each as a key and a leaf.

use crate::heap::{HeapKey, HeapSlot, Key};

/// An entry of the tournament: a key and its leaf.
type Entry<K> = (K, u32);

/// The keys a loser tree compares.
pub(crate) trait Contest: HeapKey {
    /// The key of a leaf not in play: it never wins against a key in play.
    fn absent(self) -> bool;

    /// A key out of play, for a leaf beyond the tree.
    const NOBODY: Self;

    /// Whether entry `a` beats entry `b`: its key is the lesser.
    fn beats(a: Entry<Self>, b: Entry<Self>) -> bool;

    /// A match by conditional moves (checked in the disassembly, Rust 1.95): the entry
    /// `carried` up plays the loser kept at internal node `node`, the loser stays and the
    /// winner is returned (`None` for a node beyond `nodes`). Which way of writing the
    /// selections keeps them conditional moves, and which is faster, differs by key type, each
    /// checked in the disassembly and timed: LLVM turns conditional moves in a loop into a
    /// branch when it judges the branch faster, and its judgement turns on the instructions'
    /// order.
    fn play(nodes: &mut [HeapSlot<Self>], node: usize, carried: Entry<Self>)
        -> Option<Entry<Self>>;
}

/// One word (HAI's rise and fall as `num::order_bits`): `u64::MAX`, which no finite value
/// gives, is out of play.
impl Contest for u64 {
    fn absent(self) -> bool {
        self == u64::MAX
    }

    const NOBODY: u64 = u64::MAX;

    /// By key, then (equal keys happen: jobs of equal tables give equal rises) by leaf, the
    /// lower winning: a total order, since leaves differ. As one number, key above leaf, so
    /// that the comparison is two instructions on the words as they are (`cmp`, `sbb`), which
    /// lets [`Contest::play`] keep its conditional moves; with the leaf shifted in below the
    /// key, it took five more, and LLVM turned the moves into a branch.
    #[inline(always)]
    fn beats(a: Entry<u64>, b: Entry<u64>) -> bool {
        (u128::from(a.0) << 64 | u128::from(a.1)) < (u128::from(b.0) << 64 | u128::from(b.1))
    }

    /// The carried entry is written where the outcome says: into the node if it lost, else
    /// into the root's slot, which the replay overwrites at its end; the winner's key and leaf
    /// selected apart. Selecting them as one entry, or the winner and the loser both by `if`s,
    /// LLVM compiled the match into a branch.
    #[inline(always)]
    fn play(nodes: &mut [HeapSlot<u64>], node: usize, carried: Entry<u64>) -> Option<Entry<u64>> {
        let kept = entry(nodes.get(node)?);
        let upset = Self::beats(kept, carried);
        let key = if upset { kept.0 } else { carried.0 };
        let at = if upset { node } else { 0 };
        let leaf = if upset { kept.1 } else { carried.1 };
        if let Some(slot) = nodes.get_mut(at) {
            hold(slot, carried);
        }
        Some((key, leaf))
    }
}

/// Two words compared as one non-negative number: the first word's top bit is clear in every
/// key (DRF's leaves give a share's bits, and shares are never negative), then the user's id.
/// A first word of `u64::MAX >> 1` is out of play. Keys in play are unique (the id), so equal
/// keys are out of play, where the winner does not matter.
impl Contest for Key {
    fn absent(self) -> bool {
        self.primary == u64::MAX >> 1
    }

    const NOBODY: Key = Key::new(u64::MAX >> 1, 0);

    /// By the keys as one number.
    #[inline(always)]
    fn beats(a: Entry<Key>, b: Entry<Key>) -> bool {
        wide(a.0) < wide(b.0)
    }

    /// Unlike `u64`'s play, the node is written whatever the outcome, with the loser: every
    /// store of a replay then has an address known before any match is played, where a store
    /// whose address waits on the match (the node or the root's slot) held up the loads of the
    /// matches above it. Both selections by [`core::hint::select_unpredictable`], which keeps
    /// them conditional moves: as `if`s, or as bit masks, LLVM compiled them into branches
    /// (DRF's decision among 1,000 users of scattered shares took 48 to 57 ns instead of 21).
    /// Against the write placed by the outcome, on DRF's benchmark (criterion, alternated
    /// runs): 1,000 and 10,000 users of scattered shares 23.7-25.0 -> 21.0-21.9 ns and
    /// 33.0-40.2 -> 31.6-32.4 ns, patterned ones 18.1-19.8 -> 17.3-17.6 ns and 22.6-24.2 ->
    /// 21.5-22.0 ns. (HAI's one-word play, written this way, was about 2% slower on its
    /// batch of 1,000 jobs.)
    #[inline(always)]
    fn play(nodes: &mut [HeapSlot<Key>], node: usize, carried: Entry<Key>) -> Option<Entry<Key>> {
        let slot = nodes.get_mut(node)?;
        let kept = entry(slot);
        let upset = Self::beats(kept, carried);
        hold(slot, core::hint::select_unpredictable(upset, carried, kept));
        Some(core::hint::select_unpredictable(upset, kept, carried))
    }
}

/// A key as one number: non-negative while the first word's top bit is clear.
fn wide(key: Key) -> i128 {
    ((key.primary as i128) << 64) | i128::from(key.secondary)
}

/// Where a loser tree reads its leaves' keys.
pub(crate) trait Leaves<K> {
    /// The number of leaves, `m`.
    fn count(&self) -> usize;

    /// The key of leaf `leaf`: [`Contest::NOBODY`] from [`Leaves::count`] on.
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

/// The entry `slot` holds.
fn entry<K: Contest>(slot: &HeapSlot<K>) -> Entry<K> {
    (slot.key(), slot.position())
}

/// Writes `(key, leaf)` into `slot`.
fn hold<K: Contest>(slot: &mut HeapSlot<K>, (key, leaf): Entry<K>) {
    slot.set_key(key);
    slot.set_position(leaf);
}

/// The most leaves of a tree that its owner should replay with [`replay_predicted`] rather
/// than [`replay`]. A replay of a small tree plays at most 6 matches, whose outcomes a
/// predictor that keeps a history learns; in a larger tree they are random to it. Measured
/// on HAI's benchmark batches (throwaway driver, medians of alternated runs): n = 50 jobs,
/// branch 4.63 us against conditional moves 5.05 us; n = 1,000 jobs, branch 551 us against
/// conditional moves 262 us.
pub(crate) const PREDICTED_LEAVES: usize = 64;

/// The match [`Contest::play`] plays, by a branch: the node is written only when the carried
/// entry loses, and the entries are compared by [`precedes`].
#[inline(always)]
fn play_by_branch<K: Contest>(
    nodes: &mut [HeapSlot<K>],
    node: usize,
    carried: Entry<K>,
) -> Option<Entry<K>> {
    let slot = nodes.get_mut(node)?;
    let kept = entry(slot);
    Some(if precedes(kept, carried) {
        hold(slot, carried);
        kept
    } else {
        carried
    })
}

/// Whether entry `a` beats entry `b`, by key, then by leaf, a branch on each: the order of
/// [`Contest::beats`] for one-word keys, and for [`Key`] wherever one of the two is in play
/// (keys in play are unique).
#[inline(always)]
fn precedes<K: Contest>(a: Entry<K>, b: Entry<K>) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// Carries `carried` up from internal node `node` to the root and returns the overall winner
/// (`None` for a node beyond `nodes`). In two stretches. First the updated leaf's own entry
/// climbs while it wins, by a branch whose outcome changes once a replay (few mispredictions)
/// and that, predicted, lets the processor go on before the entry's key is known: a DRF start
/// reads that key from the started user's row, a cache miss at 100K users. From the node
/// where it loses (and stays), the matches are between entries already in the tree, by
/// [`Contest::play`].
#[inline(always)]
fn climb<K: Contest>(
    nodes: &mut [HeapSlot<K>],
    mut node: usize,
    carried: Entry<K>,
) -> Option<Entry<K>> {
    while node > 0 {
        let slot = nodes.get_mut(node)?;
        let kept = entry(slot);
        node >>= 1;
        if K::beats(kept, carried) {
            hold(slot, carried);
            return climb_by(nodes, node, kept, K::play);
        }
    }
    Some(carried)
}

/// Carries `carried` up from internal node `node` to the root, every match played by `play`
/// ([`Contest::play`] or [`play_by_branch`]), and returns the overall winner (`None` for a
/// node beyond `nodes`).
#[inline(always)]
fn climb_by<K: Contest>(
    nodes: &mut [HeapSlot<K>],
    mut node: usize,
    mut carried: Entry<K>,
    play: impl Fn(&mut [HeapSlot<K>], usize, Entry<K>) -> Option<Entry<K>>,
) -> Option<Entry<K>> {
    while node > 0 {
        carried = play(nodes, node, carried)?;
        node >>= 1;
    }
    Some(carried)
}

/// The depth of node `node` (the root's is 0).
fn depth(node: usize) -> u32 {
    node.checked_ilog2().unwrap_or(0)
}

/// Whether node `node` lies in the subtree of node `top`.
fn beneath(node: usize, top: usize) -> bool {
    depth(node)
        .checked_sub(depth(top))
        .and_then(|below| node.checked_shr(below))
        == Some(top)
}

/// During [`build`], the winner of node `node`: a leaf's own entry at a leaf, else what its
/// slot holds so far (the winner, until the second pass turns it into the loser).
fn winner<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &[HeapSlot<K>],
    leaves: &L,
    node: usize,
) -> Entry<K> {
    match node.checked_sub(leaves.count()) {
        // A leaf: below `m`, which fits a u32 as every table's capacity does.
        Some(leaf) => (leaves.key(leaf), leaf as u32),
        None => nodes.get(node).map_or((K::NOBODY, 0), entry),
    }
}

/// The match at internal node `node` during [`build`], between its children's winners:
/// `[winner, loser]`.
fn match_at<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &[HeapSlot<K>],
    leaves: &L,
    node: usize,
) -> [Entry<K>; 2] {
    // No overflow: `node < m`, a table's capacity, far below `usize::MAX / 2`.
    let left = winner(nodes, leaves, node.wrapping_mul(2));
    let right = winner(nodes, leaves, node.wrapping_mul(2).wrapping_add(1));
    if K::beats(right, left) {
        [right, left]
    } else {
        [left, right]
    }
}

/// Builds the tree from the leaves' keys as they are: the matches bottom up, each node
/// holding its winner (`m - 1` comparisons), the overall winner into slot 0, then top down
/// each node's winner replaced by its loser, while its children still hold their winners.
/// `nodes` holds at least as many slots as there are leaves.
pub(crate) fn build<K: Contest, L: Leaves<K> + ?Sized>(nodes: &mut [HeapSlot<K>], leaves: &L) {
    let m = leaves.count();
    for node in (1..m).rev() {
        let [won, _] = match_at(nodes, leaves, node);
        if let Some(slot) = nodes.get_mut(node) {
            hold(slot, won);
        }
    }
    if m == 0 {
        return;
    }
    let champion = winner(nodes, leaves, 1);
    if let Some(root) = nodes.first_mut() {
        hold(root, champion);
    }
    for node in 1..m {
        let [_, lost] = match_at(nodes, leaves, node);
        if let Some(slot) = nodes.get_mut(node) {
            hold(slot, lost);
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
    let (key, leaf) = entry(nodes.first()?);
    (!key.absent()).then_some((key, leaf))
}

/// Replays the path of leaf `leaf`, whose key has changed to `key` (into or out of play too),
/// to the root: at each node, the entry carried up plays the loser kept there, and the winner
/// goes on. A leaf beyond the tree is ignored. In two stretches ([`climb`]), the matches
/// between entries already in the tree by conditional moves ([`Contest::play`]), as their
/// outcomes are random to the predictor (but see [`replay_predicted`]).
#[inline(always)]
pub(crate) fn replay<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &mut [HeapSlot<K>],
    leaves: &L,
    leaf: u32,
    key: K,
) {
    replay_by(nodes, leaves, leaf, key, climb);
}

/// [`replay`], every match by a branch ([`play_by_branch`]), in one stretch: for trees of at
/// most [`PREDICTED_LEAVES`] leaves. On HAI's batch of 50 jobs, 4.58 us where two stretches
/// and [`Contest::beats`]' one 128-bit comparison took 4.64 (medians of alternated runs).
#[inline(always)]
pub(crate) fn replay_predicted<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &mut [HeapSlot<K>],
    leaves: &L,
    leaf: u32,
    key: K,
) {
    replay_by(nodes, leaves, leaf, key, |nodes, node, carried| {
        climb_by(nodes, node, carried, play_by_branch)
    });
}

/// [`replay`], the leaf's entry carried up from its parent by `climb`. Inlined: as a call it
/// cost HAI's short trees about 10% more instructions a batch.
#[inline(always)]
fn replay_by<K: Contest, L: Leaves<K> + ?Sized>(
    nodes: &mut [HeapSlot<K>],
    leaves: &L,
    leaf: u32,
    key: K,
    climb: impl Fn(&mut [HeapSlot<K>], usize, Entry<K>) -> Option<Entry<K>>,
) {
    let m = leaves.count();
    if leaf as usize >= m {
        return;
    }
    // No overflow: `leaf < m`, a table's capacity.
    let node = m.wrapping_add(leaf as usize);
    if nodes.first().map(HeapSlot::position) != Some(leaf) {
        open_path(nodes, m, node);
    }
    let Some(winner) = climb(nodes, node >> 1, (key, leaf)) else {
        return;
    };
    if let Some(root) = nodes.first_mut() {
        hold(root, winner);
    }
}

/// Sets each internal node above leaf node `leaf` (of `m` leaves) to the entrant of its match
/// from off the path, as the nodes are when the leaf is the overall winner, so that [`replay`]
/// can carry the leaf's new entry up. From the root down, the winner of a node came either
/// from the child on the path (then the node's loser is the entrant from off it, as wanted)
/// or from the other child (then the two swap: the winner is that entrant, and the loser the
/// on-path child's winner). Kept out of line: the replays that count (DRF's started user,
/// HAI's transfers) are the winner's own.
#[inline(never)]
fn open_path<K: Contest>(nodes: &mut [HeapSlot<K>], m: usize, leaf: usize) {
    let Some(root) = nodes.first() else {
        return;
    };
    let mut from_above = entry(root);
    for level in (1..=depth(leaf)).rev() {
        let (Some(node), Some(child)) = (
            leaf.checked_shr(level),
            leaf.checked_shr(level.wrapping_sub(1)),
        ) else {
            return;
        };
        let Some(slot) = nodes.get_mut(node) else {
            return;
        };
        // No overflow: a leaf is below `m`, a table's capacity.
        if !beneath(m.wrapping_add(from_above.1 as usize), child) {
            let off_path = from_above;
            from_above = entry(slot);
            hold(slot, off_path);
        }
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

    /// Random key changes (out of play included) on trees of every small size, replayed by
    /// [`replay_predicted`] or [`replay`], agree with a scan for the least key, ties to the
    /// lower leaf.
    fn agrees_with_scan(predicted: bool, size: u8, ops: Vec<(u8, u8)>) -> bool {
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
                if predicted {
                    replay_predicted(&mut nodes, &keys, leaf as u32, keys[leaf]);
                } else {
                    replay(&mut nodes, &keys, leaf as u32, keys[leaf]);
                }
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
        fn tree_matches_scan(predicted: bool, size: u8, ops: Vec<(u8, u8)>) -> bool {
            agrees_with_scan(predicted, size, ops)
        }
    }
}

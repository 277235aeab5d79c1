//! One side of HAI's transfers (the donors or the acceptors) as a loser tree
//! ([`crate::tree`]).
//!
//! A transfer changes the key of the side's top job, and the new key is usually past nearly
//! every other: the donor that gave θ now loses more by giving again, the acceptor that got θ
//! gains less from the next (the paper's greedy evens out these marginal changes, §4.3), which
//! a heap would sink from the root to a leaf one dependent step at a time. The split is made
//! once and jobs only leave a side, so the leaves are laid out once per call, in job order,
//! each slot holding its job's key and the job; a job that leaves its side keeps its leaf with
//! the key [`ABSENT`]. Ties go to the lower leaf, which is the lower job.

use super::storage::Slot;
use crate::tree;

/// The key of a job that has left its side: above every key in use, which [`super::transfer`]
/// derives from a finite rise or fall and never makes all ones.
pub(super) const ABSENT: u64 = u64::MAX;

/// A side: its leaves, planted in job order, and as many slots for its internal nodes;
/// replayed by [`tree::replay_predicted`] if `PREDICTED` (for sides of at most
/// [`tree::PREDICTED_LEAVES`] jobs), else by [`tree::replay`].
pub(super) struct Tree<'a, const PREDICTED: bool> {
    leaves: &'a mut [Slot],
    nodes: &'a mut [Slot],
}

/// Writes into `slot` a leaf for job `job` with key `key` ([`ABSENT`] if it is not on the side).
pub(super) fn plant(slot: &mut Slot, job: u32, key: u64) {
    slot.set_key(key);
    slot.set_position(job);
}

impl<'a, const PREDICTED: bool> Tree<'a, PREDICTED> {
    /// The tree over `leaves`, with `nodes` (as many slots) for its internal nodes, which it
    /// builds bottom up.
    pub(super) fn new(leaves: &'a mut [Slot], nodes: &'a mut [Slot]) -> Self {
        tree::build(nodes, &*leaves);
        Tree { leaves, nodes }
    }

    /// The job of least key, ties to the lower job, and its key and leaf; `None` when every
    /// job has left (or there are none).
    pub(super) fn top(&self) -> Option<(u32, u64, u32)> {
        let (key, leaf) = tree::top(self.nodes, &*self.leaves)?;
        let job = self.leaves.get(leaf as usize)?.position();
        Some((job, key, leaf))
    }

    /// Gives leaf `leaf` the key `key` ([`ABSENT`]: the job leaves the side) and replays its
    /// path to the root. Inlined, as the replays are: as a call, the batch of 50 jobs took
    /// 5.3 us where inlined it takes 4.6.
    #[inline(always)]
    pub(super) fn set(&mut self, leaf: u32, key: u64) {
        if let Some(slot) = self.leaves.get_mut(leaf as usize) {
            slot.set_key(key);
            if PREDICTED {
                tree::replay_predicted(self.nodes, &*self.leaves, leaf, key);
            } else {
                tree::replay(self.nodes, &*self.leaves, leaf, key);
            }
        }
    }
}

//! QKnobler online: the paper's Algorithm 1 (Tang, Yu, Li: *Fairness-Efficiency Scheduling for
//! Cloud Computing with Soft Fairness Guarantees*, IEEE Transactions on Cloud Computing, 2020;
//! §6) on a [`DrfQueue`], one machine at a time.
//!
//! When a machine has idle resources, only the tasks that fit them are considered (§6.1 C3: "we
//! first filter out a set of pending tasks that can be accommodated by that server"). Take the
//! active user with the lowest weighted dominant share among those (the queue's order, users
//! whose task does not fit set aside for the round, as discrete DRF does). While its dominant
//! share `s_i` is below `ρ s_i^max`, it is owed fairness: it gets the task (the
//! fairness-oriented branch, which is then DRF's progressive filling). Otherwise, among the
//! active users whose task fits, the task with the highest *affinity* to the idle vector gets
//! it (the efficiency-oriented branch, §6.1 C3's server-level heuristic, as the project's
//! specification prescribes): `Σ_k (d_jk / C_k)(idle_k / C_k)`, the dot product of demand and
//! idle resources, each normalized by the machine's capacity `C` so that no unit dominates (the
//! paper leaves the normalization open; ties go to the lower id).
//!
//! §6.2 reads Algorithm 1's efficiency branch as solving the linear program of eq. 15-17 again
//! online. Following that program's per-user targets (`N̄_i + N'_i` of [`super::allocate`] over
//! the active users, affinity only when no user below its target fits) was measured and made
//! packing worse: `fairsched-sim packing` at seed 1 gave ρ = 0 a makespan of 703.8 s, 1.2%
//! above DRF's 695.6 s, where affinity gives 654.4 s (Tetris's); at seed 2, 711.3 s against
//! affinity's 661.3 s. No linear program is solved online.
//!
//! Users with a finite number of tasks (§6.1 C1): a user is active while it has pending tasks,
//! so a user with `k` pending tasks gets at most `k`; when one runs out, the paper "starts a new
//! allocation round" over the users still active, so `φ` and `s_i^max = w_i / φ` (eq. 11) are
//! computed again over them. `φ` is computed over the users with pending tasks (set aside or
//! not) against the queue's whole capacity, as the paper's MDRS updater does (§6.2), visiting
//! every row of the queue's storage in row order (O(capacity · m) a pass).
//!
//! `ρ = 1` is DRF (§5.2.1: the fairness stage leaves nothing for the efficiency stage, `s'_i =
//! 0`): every task goes to the fairness branch, and a round is exactly
//! [`DrfQueue::allocate_round`] on the machine's idle resources.

use super::knob;
use crate::drf::{Divisible, DrfQueue, Pending, UserRow, HEAPS};
use crate::heap;
use crate::resources::Resources;
use crate::table::Storage;
use crate::{Error, Result};

/// How a round went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// Tasks started (ids written).
    pub started: usize,
    /// How many of them the fairness-oriented branch chose; the rest came from efficiency.
    pub fairness: usize,
}

impl<S: Storage<UserRow, HEAPS>> DrfQueue<S> {
    /// Algorithm 1 on one machine of capacity `machine` with `idle` resources (each as many
    /// kinds as the queue's capacity; idle finite, not negative, at most the machine's): starts
    /// tasks one at a time, writing each user's id into `out`, until no active user's task fits
    /// or `out` is full. `rho` is the knob, finite in [0, 1]. Nothing changes on error.
    pub fn qknobler_round(
        &mut self,
        rho: f64,
        machine: &[f64],
        idle: &[f64],
        out: &mut [u64],
    ) -> Result<Round> {
        let rho = knob(rho)?;
        let machine = Resources::capacity(machine)?;
        let mut idle = Resources::amounts(idle)?;
        self.cluster.same_kinds(&machine)?;
        self.cluster.same_kinds(&idle)?;
        if !idle.fits_in(&machine) {
            return Err(Error::OutOfRange);
        }
        let mut phi = Divisible::of_population(&Pending(self)).phi;
        let mut round = Round {
            started: 0,
            fairness: 0,
        };
        let mut set_aside = heap::NONE;
        while let (Some(slot), Some(lowest)) = (out.get_mut(round.started), self.top()) {
            let user = self.row(lowest);
            if !self.demand(lowest).fits_in(&idle) {
                self.set_aside(lowest, &mut set_aside);
                continue;
            }
            let share = (user.running as f64) * user.dominant;
            let chosen = if owed(rho, share, user.weight / phi) {
                round.fairness = round.fairness.saturating_add(1);
                lowest
            } else {
                // The lowest fits, so there is a best.
                self.best_affinity(&machine, &idle).unwrap_or(lowest)
            };
            let user = self.row(chosen);
            idle.take(&self.demand(chosen));
            *slot = user.id;
            round.started = round.started.saturating_add(1);
            self.start_one(chosen);
            if self.row(chosen).pending == 0 {
                // C1: a new allocation round over the users still active.
                phi = Divisible::of_population(&Pending(self)).phi;
            }
        }
        self.restore_set_aside(set_aside);
        Ok(round)
    }

    /// The active user whose task fits `idle` with the highest affinity (ties: lower id).
    fn best_affinity(&self, machine: &Resources, idle: &Resources) -> Option<u32> {
        let mut best = Best::NONE;
        for row in self.active_rows() {
            let demand = self.demand(row);
            if demand.fits_in(idle) {
                best.offer(affinity(machine, idle, &demand), self.row(row).id, row);
            }
        }
        best.item()
    }
}

/// Algorithm 1's test (line 9): a user whose dominant share `share` is below `ρ` times its
/// `s_i^max` (`max_share`) is owed fairness. `ρ = 1` is DRF: always owed, whatever the
/// rounding of `share` against `max_share`. Shared with [`super::heterogeneous::choose`].
pub(crate) fn owed(rho: f64, share: f64, max_share: f64) -> bool {
    rho >= 1.0 || share < rho * max_share
}

/// §6.1 C3's affinity of a task of `demand` to the machine's `idle` resources, each normalized
/// by the machine's capacity: `Σ_k (d_k / C_k)(idle_k / C_k)`.
pub(crate) fn affinity(machine: &Resources, idle: &Resources, demand: &Resources) -> f64 {
    demand
        .shares(machine)
        .zip(idle.shares(machine))
        .map(|(d, i)| d * i)
        .sum()
}

/// The efficiency branch's pick: the item offered with the highest affinity, ties to the lower
/// key (a user's id in the queue, its index in [`super::heterogeneous::choose`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Best<K, T> {
    top: Option<(f64, K, T)>,
}

impl<K: Ord + Copy, T: Copy> Best<K, T> {
    /// Nothing offered yet.
    pub(crate) const NONE: Self = Best { top: None };

    /// Offers `item`, of affinity `value` and tie-breaking `key`.
    pub(crate) fn offer(&mut self, value: f64, key: K, item: T) {
        let better = self
            .top
            .is_none_or(|(top, k, _)| value > top || (value == top && key < k));
        if better {
            self.top = Some((value, key, item));
        }
    }

    /// The best item offered, if any.
    pub(crate) fn item(&self) -> Option<T> {
        self.top.map(|(_, _, item)| item)
    }
}

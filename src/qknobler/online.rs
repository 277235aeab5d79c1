//! QKnobler online: the paper's Algorithm 1 (§6) on a [`DrfQueue`], one machine at a time.
//!
//! When a machine has idle resources, only the tasks that fit them are considered (§6.1: "we
//! first filter out a set of pending tasks that can be accommodated by that server"). Take the
//! active user with the lowest weighted dominant share among those (the queue's order, users
//! whose task does not fit set aside for the round, as discrete DRF does). While its dominant
//! share `s_i` is below `ρ s_i^max`, it is owed fairness: it gets the task (the
//! fairness-oriented branch, which is then DRF's progressive filling). Otherwise, among the
//! active users whose task fits, the task with the highest *affinity* to the idle vector gets
//! it (the efficiency-oriented branch, §6.1 C3): `Σ_k (d_jk / C_k)(idle_k / C_k)`, the dot
//! product of demand and idle resources, each normalized by the machine's capacity `C` so that
//! no unit dominates (the paper leaves the normalization open; ties go to the lower id).
//! While every user is owed (ρ = 1 and the shares below DRF's), a round is exactly
//! [`DrfQueue::allocate_round`], as the paper's reduction of ρ = 1 to DRF says.
//!
//! Choices where the paper is silent, made as a scheduler author would expect:
//! - `s_i^max = w_i / φ` (eq. 11) is computed over the users active when the round starts, as
//!   the paper's MDRS updater does periodically (§6.2), in O(n m).
//!
//! Each decision costs O(n m) (the efficiency branch scans the active users), as in the paper.

use crate::drf::{DrfQueue, UserRow, HEAPS};
use crate::heap;
use crate::resources::{Resources, MAX_KINDS};
use crate::table::Storage;
use crate::{num, Error, Result};

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
    /// or `out` is full. `rho` is the knob, finite in [0, 1].
    pub fn qknobler_round(
        &mut self,
        rho: f64,
        machine: &[f64],
        idle: &[f64],
        out: &mut [u64],
    ) -> Result<Round> {
        let rho = num::finite(rho)?;
        if !(0.0..=1.0).contains(&rho) {
            return Err(Error::OutOfRange);
        }
        let machine = Resources::capacity(machine)?;
        let mut idle = Resources::amounts(idle)?;
        self.cluster.same_kinds(&machine)?;
        self.cluster.same_kinds(&idle)?;
        if !idle.fits_in(&machine) {
            return Err(Error::OutOfRange);
        }
        let phi = self.active_phi();
        let mut round = Round {
            started: 0,
            fairness: 0,
        };
        let mut set_aside = heap::NONE;
        while let (Some(slot), Some(lowest)) = (out.get_mut(round.started), self.top()) {
            let user = self.row(lowest);
            if !user.demand.fits_in(&idle) {
                self.set_aside(lowest, &mut set_aside);
                continue;
            }
            let owed = user.running as f64 * user.dominant < rho * user.weight / phi;
            let chosen = if owed {
                round.fairness = round.fairness.saturating_add(1);
                lowest
            } else {
                // The lowest fits, so there is a best.
                self.best_affinity(&machine, &idle).unwrap_or(lowest)
            };
            let user = self.row(chosen);
            idle.take(&user.demand);
            *slot = user.id;
            round.started = round.started.saturating_add(1);
            self.start_one(chosen);
        }
        self.restore_set_aside(set_aside);
        Ok(round)
    }

    /// `φ` over the active users: `max_k (1/r_k) Σ_j w_j d_jk / δ_j` (eq. 11).
    fn active_phi(&self) -> f64 {
        let mut load = [0.0; MAX_KINDS];
        for row in self.active_rows() {
            let user = self.row(row);
            for (l, &d) in load.iter_mut().zip(user.demand.as_slice()) {
                *l += user.weight * d / user.dominant;
            }
        }
        load.iter()
            .zip(self.cluster.as_slice())
            .map(|(&l, &r)| l / r)
            .fold(0.0, f64::max)
    }

    /// The active user whose task fits `idle` with the highest affinity (ties: lower id).
    fn best_affinity(&self, machine: &Resources, idle: &Resources) -> Option<u32> {
        let mut best: Option<(f64, u64, u32)> = None;
        for row in self.active_rows() {
            let user = self.row(row);
            if !user.demand.fits_in(idle) {
                continue;
            }
            let affinity: f64 = user
                .demand
                .shares(machine)
                .zip(idle.shares(machine))
                .map(|(d, i)| d * i)
                .sum();
            let better =
                best.is_none_or(|(top, id, _)| affinity > top || (affinity == top && user.id < id));
            if better {
                best = Some((affinity, user.id, row));
            }
        }
        best.map(|(_, _, row)| row)
    }
}

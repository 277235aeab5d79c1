//! C ABI of [`crate::qknobler`]: the two-stage allocation over flat arrays (layout as in
//! `fairsched_drf_divisible`), and the online Algorithm 1 on a DRF queue.

use super::drf::{checked_users, FairschedDrfQueue, FAIRSCHED_MAX_RESOURCE_KINDS};
use super::{boundary, read_slice, write, write_slice, FairschedStatus};
use crate::qknobler::{self, Allocation};

/// What `fairsched_qknobler_allocate` decided besides the per-user tasks.
#[repr(C)]
pub struct FairschedQknoblerSummary {
    /// The knob.
    pub rho: f64,
    /// DRF's φ.
    pub phi: f64,
    /// Theorem 1's bound on |s_i/w_i - s_j/w_j|.
    pub theta: f64,
    /// Theorem 2: the smallest knob with sharing incentive, φ / Σw.
    pub sharing_incentive_rho: f64,
    /// ε(U), eq. 7.
    pub efficiency: f64,
    /// r': what the fairness stage leaves, one amount per kind (the first `kinds`).
    pub residual: [f64; FAIRSCHED_MAX_RESOURCE_KINDS],
    /// The number of kinds.
    pub kinds: u32,
}

/// How a `fairsched_qknobler_round` went.
#[repr(C)]
pub struct FairschedQknoblerRound {
    /// Tasks started (ids written).
    pub started: usize,
    /// How many the fairness-oriented branch chose; the rest came from efficiency.
    pub fairness: usize,
}

/// QKnobler at knob `rho` (in [0, 1]): writes every user's fairness-stage tasks, efficiency-stage
/// tasks and whole tasks (one slot per user in each output), and the summary. Wraps
/// `qknobler::allocate`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `out_summary` must
/// be valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_qknobler_allocate(
    cluster: *const f64,
    cluster_len: usize,
    weights: *const f64,
    weights_len: usize,
    demands: *const f64,
    demands_len: usize,
    rho: f64,
    out_fair: *mut f64,
    out_fair_len: usize,
    out_efficient: *mut f64,
    out_efficient_len: usize,
    out_whole: *mut u64,
    out_whole_len: usize,
    out_summary: *mut FairschedQknoblerSummary,
) -> FairschedStatus {
    boundary(|| {
        let users = unsafe {
            checked_users(
                cluster,
                cluster_len,
                weights,
                weights_len,
                demands,
                demands_len,
            )
        }?;
        let fair = unsafe { write_slice(out_fair, out_fair_len) }?;
        let efficient = unsafe { write_slice(out_efficient, out_efficient_len) }?;
        let whole = unsafe { write_slice(out_whole, out_whole_len) }?;
        let out = unsafe { write(out_summary) }?;
        let summary = qknobler::allocate(
            &users,
            rho,
            Allocation {
                fair,
                efficient,
                whole,
            },
        )?;
        let mut residual = [0.0; FAIRSCHED_MAX_RESOURCE_KINDS];
        for (slot, &r) in residual.iter_mut().zip(summary.residual.as_slice()) {
            *slot = r;
        }
        *out = FairschedQknoblerSummary {
            rho: summary.rho,
            phi: summary.phi,
            theta: summary.theta,
            sharing_incentive_rho: summary.sharing_incentive_rho,
            efficiency: summary.efficiency,
            residual,
            kinds: u32::try_from(summary.residual.kinds()).unwrap_or(u32::MAX),
        };
        Ok(())
    })
}

/// QKnobler's Algorithm 1 on one machine of capacity `machine` (`machine_len` amounts) with
/// `idle` resources (`idle_len` amounts; both as many as the queue's kinds), knob `rho`:
/// starts tasks on the queue, writing ids into `out_ids` (room for `out_ids_len`). Wraps
/// `DrfQueue::qknobler_round`.
///
/// # Safety
/// `queue` must be NULL or a live handle from `fairsched_drf_queue_init`; each array must hold
/// its length in elements (NULL allowed for 0); `out_round` must be valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_drf_queue_qknobler_round(
    queue: *mut FairschedDrfQueue,
    rho: f64,
    machine: *const f64,
    machine_len: usize,
    idle: *const f64,
    idle_len: usize,
    out_ids: *mut u64,
    out_ids_len: usize,
    out_round: *mut FairschedQknoblerRound,
) -> FairschedStatus {
    boundary(|| {
        let queue = unsafe { write(queue) }?;
        let machine = unsafe { read_slice(machine, machine_len) }?;
        let idle = unsafe { read_slice(idle, idle_len) }?;
        let ids = unsafe { write_slice(out_ids, out_ids_len) }?;
        let out = unsafe { write(out_round) }?;
        let round = queue.inner_mut().qknobler_round(rho, machine, idle, ids)?;
        *out = FairschedQknoblerRound {
            started: round.started,
            fairness: round.fairness,
        };
        Ok(())
    })
}

//! C ABI of [`crate::qknobler`]: the two-stage allocation over flat arrays (layout as in
//! `fairsched_drf_divisible`), the online Algorithm 1 on a DRF queue, and its pieces for
//! heterogeneous tasks (§6.1 C2) over state the caller keeps.

use super::drf::{checked_users, FairschedDrfQueue, FAIRSCHED_MAX_RESOURCE_KINDS};
use super::{boundary, read_slice, write, write_maybe, write_slice, FairschedStatus};
use crate::qknobler::heterogeneous::{self, ActiveUsers, Branch};
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

/// What `fairsched_qknobler_choose` decided: whose next task starts, and why.
#[repr(C)]
pub struct FairschedQknoblerChoice {
    /// The user's index in the arrays given.
    pub user: usize,
    /// True when the fairness-oriented branch chose it (the lowest-share user was owed
    /// fairness), false when the efficiency branch did (the highest affinity).
    pub fairness: bool,
}

/// §6.1 C2's fitness-based estimate of one user's current average task demand: the demands of
/// its running tasks summed (`running_sum`, one amount per kind of `idle`) and their number
/// (`running`), plus its pending tasks (`pending`, row-major in queue order, `pending_len` a
/// multiple of the kinds) counted First-Fit into the cluster's `idle` resources. Writes the
/// average into `out_average` (one slot per kind) and how many pending tasks were counted into
/// `*out_counted`. With nothing running and nothing fitting, the average is the first pending
/// task's demand (and 0 are counted); with no task at all, `FAIRSCHED_STATUS_EMPTY`. Wraps
/// `qknobler::heterogeneous::average_demand`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `out_counted` must
/// be valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_qknobler_average_demand(
    idle: *const f64,
    idle_len: usize,
    running_sum: *const f64,
    running_sum_len: usize,
    running: u64,
    pending: *const f64,
    pending_len: usize,
    out_average: *mut f64,
    out_average_len: usize,
    out_counted: *mut u64,
) -> FairschedStatus {
    boundary(|| {
        let idle = unsafe { read_slice(idle, idle_len) }?;
        let running_sum = unsafe { read_slice(running_sum, running_sum_len) }?;
        let pending = unsafe { read_slice(pending, pending_len) }?;
        let average = unsafe { write_slice(out_average, out_average_len) }?;
        let counted = unsafe { write(out_counted) }?;
        let estimate = heterogeneous::average_demand(idle, running_sum, running, pending, average)?;
        *counted = estimate.counted;
        Ok(())
    })
}

/// Algorithm 1's decision for one task on one machine with heterogeneous tasks (§6.1 C2, C3):
/// the active users, user `i` at index `i` of `weights`, `max_shares` (`s_i^max`, e.g. from
/// `fairsched_drf_divisible` over their average demands) and, row-major with one amount per kind
/// of `cluster`, `allocated` (`U_i`, its running tasks' resources) and `next_demands` (its next
/// pending task). Among the users whose next task fits `idle` (at most the `machine`'s
/// capacity), the lowest `s_i / w_i` with `s_i = max_k U_ik / r_k` (ties: lower index) is served
/// when `s_i < rho · s_i^max` (always at `rho = 1`); otherwise the fitting task with the highest
/// affinity to `idle` is. Writes the decision into `*out_choice` and `*out_found = true`, or
/// `*out_found = false` (and leaves `*out_choice`) when no task fits. Wraps
/// `qknobler::heterogeneous::choose`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `out_choice` and
/// `out_found` must be valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_qknobler_choose(
    rho: f64,
    cluster: *const f64,
    cluster_len: usize,
    machine: *const f64,
    machine_len: usize,
    idle: *const f64,
    idle_len: usize,
    weights: *const f64,
    weights_len: usize,
    allocated: *const f64,
    allocated_len: usize,
    max_shares: *const f64,
    max_shares_len: usize,
    next_demands: *const f64,
    next_demands_len: usize,
    out_choice: *mut FairschedQknoblerChoice,
    out_found: *mut bool,
) -> FairschedStatus {
    boundary(|| {
        let cluster = unsafe { read_slice(cluster, cluster_len) }?;
        let machine = unsafe { read_slice(machine, machine_len) }?;
        let idle = unsafe { read_slice(idle, idle_len) }?;
        let users = ActiveUsers {
            weights: unsafe { read_slice(weights, weights_len) }?,
            allocated: unsafe { read_slice(allocated, allocated_len) }?,
            max_shares: unsafe { read_slice(max_shares, max_shares_len) }?,
            next: unsafe { read_slice(next_demands, next_demands_len) }?,
        };
        let out = unsafe { write_maybe(out_choice, out_found) }?;
        let choice = heterogeneous::choose(rho, cluster, machine, idle, users)?;
        out.set(choice.map(|c| FairschedQknoblerChoice {
            user: c.user,
            fairness: c.branch == Branch::Fairness,
        }));
        Ok(())
    })
}

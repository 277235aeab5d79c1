//! QKnobler with heterogeneous tasks (Tang, Yu, Li: *Fairness-Efficiency Scheduling for Cloud
//! Computing with Soft Fairness Guarantees*, IEEE Transactions on Cloud Computing, 2020; §6.1
//! C2 and §6.2): a user's tasks need different demand vectors (a MapReduce job's map tasks and
//! its reduce tasks), so there is no one `D_i` from which `s_i^max` follows, and the user's
//! dominant share is no longer its running tasks times one task's share.
//!
//! The paper's answer, in three stateless pieces over state the caller keeps (as QKYARN's
//! QueueInfo Tracker keeps it for each queue):
//!
//! 1. [`average_demand`], the *fitness-based approximation*: a user's *current* average task
//!    demand, from its running tasks (their demands summed, and their count) and the pending
//!    tasks that would fill the cluster's idle resources, counted First-Fit in queue order.
//! 2. The MDRS updater: `s_i^max = w_i / φ` (eq. 10-11) with each user's average demand as its
//!    `D_i`. That is DRF's closed form, [`crate::drf::Divisible`] over [`crate::drf::Users`]
//!    (`fairsched_drf_divisible` in C): nothing new is needed.
//! 3. [`choose`], Algorithm 1's decision for one task on one machine: among the active users
//!    whose next task fits the machine's idle resources, the one with the lowest `s_i / w_i`
//!    (`s_i = max_k U_ik / r_k` from its allocated resources `U_i`) gets it when `s_i < ρ
//!    s_i^max` (fairness); otherwise the fitting task with the highest affinity does
//!    (efficiency). The owed test and the affinity are [`super::online`]'s, shared with
//!    [`crate::drf::DrfQueue::qknobler_round`].
//!
//! With homogeneous users (every task of a user one demand), `U_i = n_i D_i` and the average
//! demand is `D_i`, and repeated calls of [`choose`] make the decisions of
//! [`crate::drf::DrfQueue::qknobler_round`] (tests/qknobler_heterogeneous.rs checks it on
//! random instances). The queue computes `s_i` as `n_i δ_i` and this module as `max_k (n_i
//! d_ik) / r_k`: equal in exact arithmetic, and bit for bit wherever the products and quotients
//! are exact (whole-number demands over power-of-two capacities); elsewhere two users whose
//! shares tie exactly may be ordered differently by the last bit.

use super::knob;
use super::online::{affinity, owed, Best};
use crate::drf::checked_weight;
use crate::resources::Resources;
use crate::{num, Error, Result};

/// What [`average_demand`] counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Pending tasks counted First-Fit into the idle resources.
    pub counted: u64,
    /// The tasks averaged: running plus counted. 0 when none ran and none fitted, and the
    /// average is the first pending task's demand.
    pub averaged: u64,
}

/// §6.1 C2's fitness-based estimate of a user's current average task demand.
///
/// - `idle`: the cluster's remaining idle resources (1 to 8 kinds, each finite and not
///   negative).
/// - `running_sum`, `running`: the demands of the user's running tasks summed (as many kinds,
///   each finite and not negative), and how many there are. With no task running the sum must
///   be all zeros, and with some running it must not be ([`Error::OutOfRange`] otherwise: a sum
///   that cannot come from that many tasks).
/// - `pending`: the demands of the user's pending tasks in queue order, row-major (task `t`'s
///   demand at `t * kinds`; each a demand: finite, not negative, not all zero).
///
/// Pending tasks are counted First-Fit in queue order: a task that fits what is still idle is
/// counted and its demand taken from it; one that does not fit is skipped, and later ones may
/// still fit. The average, written into `out` (one slot per kind), is `(running_sum + Σ counted
/// demands) / (running + counted)`, summed in that order, kind by kind.
///
/// When nothing runs and nothing fits, the average is the first pending task's demand: the task
/// the user would run next, so that a user waiting for room still has a `D_i` (and an
/// `s_i^max`). A user with no task at all, running or pending, has no demand to average:
/// [`Error::Empty`].
///
/// Errors: [`Error::LengthMismatch`] (`running_sum`, `out` or the rows of `pending` not of
/// `idle`'s kinds); [`Error::OutOfRange`] when the average is not a demand (a sum overflowed, or
/// `running + counted` does); the errors of [`Resources`]' checks. Nothing is written on
/// error. O(pending tasks · kinds).
pub fn average_demand(
    idle: &[f64],
    running_sum: &[f64],
    running: u64,
    pending: &[f64],
    out: &mut [f64],
) -> Result<Estimate> {
    let mut free = Resources::amounts(idle)?;
    let kinds = free.kinds();
    let running_sum = Resources::amounts(running_sum)?;
    free.same_kinds(&running_sum)?;
    if out.len() != kinds || !pending.chunks_exact(kinds).remainder().is_empty() {
        return Err(Error::LengthMismatch);
    }
    let nothing_running = running_sum.as_slice().iter().all(|&a| a == 0.0);
    if nothing_running != (running == 0) {
        return Err(Error::OutOfRange);
    }
    let mut sum = [0.0; crate::resources::MAX_KINDS];
    for (s, &r) in sum.iter_mut().zip(running_sum.as_slice()) {
        *s = r;
    }
    let mut counted: u64 = 0;
    let mut first = None;
    for row in pending.chunks_exact(kinds) {
        let demand = Resources::demand(row)?;
        first = first.or(Some(demand));
        if demand.fits_in(&free) {
            free.take(&demand);
            counted = counted.saturating_add(1);
            for (s, &d) in sum.iter_mut().zip(demand.as_slice()) {
                *s += d;
            }
        }
    }
    let averaged = running.checked_add(counted).ok_or(Error::OutOfRange)?;
    let average = if averaged == 0 {
        first.ok_or(Error::Empty)?
    } else {
        let n = averaged as f64;
        let mut mean = [0.0; crate::resources::MAX_KINDS];
        for (m, &s) in mean.iter_mut().zip(&sum) {
            *m = s / n;
        }
        Resources::demand(mean.get(..kinds).unwrap_or_default()).map_err(|_| Error::OutOfRange)?
    };
    for (slot, &a) in out.iter_mut().zip(average.as_slice()) {
        *slot = a;
    }
    Ok(Estimate { counted, averaged })
}

/// Which branch of Algorithm 1 chose a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// The lowest-share user was owed fairness (`s_i < ρ s_i^max`) and got its task.
    Fairness,
    /// The fitting task with the highest affinity to the idle resources got it.
    Efficiency,
}

/// [`choose`]'s decision: the index of the user whose next task starts, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The user's index in [`ActiveUsers`].
    pub user: usize,
    /// The branch that chose it.
    pub branch: Branch,
}

/// The active users (those with pending tasks) as the caller tracks them, user `i` at index
/// `i` of each slice (`n` users; vectors row-major, user `i`'s at `i * kinds`).
#[derive(Clone, Copy, Debug)]
pub struct ActiveUsers<'a> {
    /// `w_i`: finite, positive, within [`crate::drf::SCALE`].
    pub weights: &'a [f64],
    /// `U_i`: the resources allocated to the user's running tasks (`n * kinds` amounts, each
    /// finite and not negative).
    pub allocated: &'a [f64],
    /// `s_i^max` (eq. 11; see [`crate::drf::Divisible::share`]): finite, not negative.
    pub max_shares: &'a [f64],
    /// The demand of the user's next pending task (`n * kinds` amounts; each row a demand).
    pub next: &'a [f64],
}

/// Algorithm 1's decision (§6.2, with §6.1 C2's heterogeneous tasks and C3's affinity) for one
/// task on one machine: among the `users` whose next task fits the machine's `idle` resources,
/// the one with the lowest `s_i / w_i` (ties: lower index), where `s_i = max_k U_ik / r_k` over
/// the `cluster` capacity. If `s_i < ρ s_i^max` it gets the task ([`Branch::Fairness`]);
/// otherwise the fitting task with the highest affinity to the idle resources,
/// `Σ_k (d_jk / C_k)(idle_k / C_k)` over the `machine`'s capacity `C` (ties: lower index),
/// does ([`Branch::Efficiency`]). `ρ = 1` always takes the fairness branch (DRF). `None` when
/// no user's next task fits (or there is no user).
///
/// `rho` is finite in [0, 1]; `cluster` and `machine` are capacities (1 to 8 kinds, each
/// finite and positive), `idle` amounts at most the machine's, all of the same kinds.
/// Errors: those of the checks above and of [`ActiveUsers`]' fields ([`Error::LengthMismatch`]
/// for a slice of the wrong length), and [`Error::OutOfRange`] when some `s_i / w_i` is not
/// finite. Every user is checked, whatever the decision. O(n · kinds).
pub fn choose(
    rho: f64,
    cluster: &[f64],
    machine: &[f64],
    idle: &[f64],
    users: ActiveUsers<'_>,
) -> Result<Option<Choice>> {
    let rho = knob(rho)?;
    let cluster = Resources::capacity(cluster)?;
    let machine = Resources::capacity(machine)?;
    let idle = Resources::amounts(idle)?;
    cluster.same_kinds(&machine)?;
    cluster.same_kinds(&idle)?;
    if !idle.fits_in(&machine) {
        return Err(Error::OutOfRange);
    }
    let kinds = cluster.kinds();
    let n = users.weights.len();
    let rows = n.checked_mul(kinds).ok_or(Error::LengthMismatch)?;
    if users.allocated.len() != rows || users.next.len() != rows || users.max_shares.len() != n {
        return Err(Error::LengthMismatch);
    }
    // The lowest weighted share among the fitting users: (s_i / w_i, i, s_i).
    let mut lowest: Option<(f64, usize, f64)> = None;
    let mut best = Best::NONE;
    let each = users
        .weights
        .iter()
        .zip(users.allocated.chunks_exact(kinds))
        .zip(users.next.chunks_exact(kinds))
        .enumerate();
    for (i, ((&weight, allocated), next)) in each {
        let weight = checked_weight(weight)?;
        let share = Resources::amounts(allocated)?.dominant_share(&cluster);
        let weighted = share / weight;
        if !weighted.is_finite() {
            return Err(Error::OutOfRange);
        }
        let demand = Resources::demand(next)?;
        if !demand.fits_in(&idle) {
            continue;
        }
        if lowest.is_none_or(|(top, _, _)| weighted < top) {
            lowest = Some((weighted, i, share));
        }
        best.offer(affinity(&machine, &idle, &demand), i, i);
    }
    for &max_share in users.max_shares {
        if num::finite(max_share)? < 0.0 {
            return Err(Error::Negative);
        }
    }
    let Some((_, i, share)) = lowest else {
        return Ok(None);
    };
    let max_share = users.max_shares.get(i).copied().unwrap_or(0.0);
    Ok(Some(if owed(rho, share, max_share) {
        Choice {
            user: i,
            branch: Branch::Fairness,
        }
    } else {
        Choice {
            // The lowest fits, so there is a best.
            user: best.item().unwrap_or(i),
            branch: Branch::Efficiency,
        }
    }))
}

//! QKnobler: fairness traded for efficiency with a knob ρ and a guaranteed soft-fairness bound
//! (Tang, Yu, Li: *Fairness-Efficiency Scheduling for Cloud Computing with Soft Fairness
//! Guarantees*, IEEE Transactions on Cloud Computing, 2020; §5.2 and §6).
//!
//! The allocation is built in two stages (§5.2.1):
//! - *fairness-oriented*: every user gets `ρ` of its DRF tasks, `N̄_i = ρ N_i^max`, leaving the
//!   residual `r'_k = r_k - ρ Σ_j N_j^max d_jk`;
//! - *efficiency-oriented*: the residual goes where it is worth most, the linear program of
//!   eq. 15-17: maximize `Σ_i N'_i Σ_k d_ik / r_k` subject to `Σ_i d_ik N'_i <= r'_k`, with users
//!   of the same normalized demand kept at equal `s'_i / w_i` (eq. 16). It is solved exactly by
//!   [`crate::lp`] over one column per user: users of one direction have proportional columns,
//!   so the optimum only fixes each direction's total dominant share, which is then shared
//!   among its users by weight. Two demands have the same direction when `d_i / δ_i` and
//!   `d_j / δ_j` are equal as computed in `f64`.
//!
//! Theorem 1 bounds the unfairness: `|s_i/w_i - s_j/w_j| <= θ` with `θ = 0` for `ρ = 1` and
//! otherwise `θ = max_i (δ_i / w_i) min_k (r'_k / d_ik)` (the paper's `N_k(U_k^max)` is a typo
//! for `N_j(U_j^max)`). Theorem 2: sharing incentive holds when `ρ >= φ / Σ_j w_j`.
//!
//! `ρ = 1` is DRF exactly (the efficiency stage is skipped, as the paper's reduction to DRF
//! says; a linear program on the rounding residue of the saturated resource would otherwise
//! hand crumbs to users that do not need it). `ρ = 0` is pure efficiency.
//!
//! [`online`] is the paper's Algorithm 1 (§6) on a [`crate::drf::DrfQueue`].

pub mod online;

use crate::drf::{Divisible, Users};
use crate::lp::{self, Program, MAX_ROWS};
use crate::resources::{Resources, MAX_KINDS};
use crate::{num, Error, Result};

/// Residual amounts below this share of the capacity are rounding residue of a saturated
/// resource, and count as zero.
const RESIDUE: f64 = 1e-12;

/// What QKnobler decided for some users at a knob setting, besides the per-user allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The knob.
    pub rho: f64,
    /// DRF's `φ` (see [`Divisible`]).
    pub phi: f64,
    /// Theorem 1's bound on `|s_i/w_i - s_j/w_j|`.
    pub theta: f64,
    /// Theorem 2: the smallest knob that guarantees sharing incentive, `φ / Σ_j w_j`.
    pub sharing_incentive_rho: f64,
    /// `ε(U)`, eq. 7: the tasks of every user times their normalized size, summed.
    pub efficiency: f64,
    /// `r'`: what the fairness stage leaves for the efficiency stage.
    pub residual: Resources,
}

/// Where [`allocate`] writes, one slot per user in each.
pub struct Allocation<'o> {
    /// `N̄_i = ρ N_i^max`: tasks from the fairness-oriented stage.
    pub fair: &'o mut [f64],
    /// `N'_i`: tasks from the efficiency-oriented stage.
    pub efficient: &'o mut [f64],
    /// Whole tasks: `N̄_i + N'_i` rounded down, never exceeding any capacity.
    pub whole: &'o mut [u64],
}

/// The smallest knob with sharing incentive (Theorem 2): `φ / Σ_j w_j`.
pub fn sharing_incentive_rho(users: &Users<'_>) -> f64 {
    Divisible::of(users).phi / users.total_weight()
}

/// QKnobler's allocation of `users` at knob `rho` (finite, in [0, 1]). Writes every user's
/// tasks into `out` (each slice as long as there are users; [`Error::LengthMismatch`]
/// otherwise) and returns the rest. Nothing is written on error.
pub fn allocate(users: &Users<'_>, rho: f64, out: Allocation<'_>) -> Result<Summary> {
    let rho = num::finite(rho)?;
    if !(0.0..=1.0).contains(&rho) {
        return Err(Error::OutOfRange);
    }
    let n = users.len();
    if out.fair.len() != n || out.efficient.len() != n || out.whole.len() != n {
        return Err(Error::LengthMismatch);
    }
    let drf = Divisible::of(users);
    let capacity = users.capacity();

    // Fairness-oriented stage: its residual first, so that nothing is written before the
    // linear program (the only step that could fail) has been solved.
    let mut used = [0.0; MAX_KINDS];
    for i in 0..n {
        let fair = rho * drf.tasks(users, i);
        for (u, &d) in used.iter_mut().zip(users.demand(i).as_slice()) {
            *u += fair * d;
        }
    }
    let mut residual = *capacity;
    residual.take(&Resources::validated(
        used.get(..capacity.kinds()).unwrap_or_default(),
    ));
    let residual = clear_residue(residual, capacity);
    let solution = if rho < 1.0 {
        Some(lp::maximize(&EfficiencyProgram {
            users,
            residual: &residual,
        })?)
    } else {
        None
    };

    for (i, fair) in out.fair.iter_mut().enumerate() {
        *fair = rho * drf.tasks(users, i);
    }
    // Efficiency-oriented stage.
    out.efficient.fill(0.0);
    for (basic, tasks) in solution.iter().flat_map(|s| s.positive_columns()) {
        share_by_weight(users, basic, tasks, out.efficient);
    }

    round_down(users, out.fair, out.efficient, out.whole);
    let efficiency = (0..n)
        .map(|i| {
            let tasks = out.fair.get(i).copied().unwrap_or(0.0)
                + out.efficient.get(i).copied().unwrap_or(0.0);
            tasks * users.demand(i).shares(capacity).sum::<f64>()
        })
        .sum();
    Ok(Summary {
        rho,
        phi: drf.phi,
        theta: theta(users, rho, &residual),
        sharing_incentive_rho: drf.phi / users.total_weight(),
        efficiency,
        residual,
    })
}

/// Theorem 1's `θ`: 0 for `ρ = 1`, else `max_i (δ_i / w_i) min_{k: d_ik > 0} (r'_k / d_ik)`.
fn theta(users: &Users<'_>, rho: f64, residual: &Resources) -> f64 {
    if rho >= 1.0 {
        return 0.0;
    }
    (0..users.len())
        .map(|i| {
            let alone = users
                .demand(i)
                .as_slice()
                .iter()
                .zip(residual.as_slice())
                .filter(|&(&d, _)| d > 0.0)
                .map(|(&d, &r)| r / d)
                .fold(f64::INFINITY, f64::min);
            users.dominant(i) / users.weight(i) * alone
        })
        .fold(0.0, f64::max)
}

fn clear_residue(mut residual: Resources, capacity: &Resources) -> Resources {
    let kept: [f64; MAX_KINDS] = core::array::from_fn(|k| {
        let r = residual.as_slice().get(k).copied().unwrap_or(0.0);
        let c = capacity.as_slice().get(k).copied().unwrap_or(0.0);
        if r <= c * RESIDUE {
            0.0
        } else {
            r
        }
    });
    residual = Resources::validated(kept.get(..capacity.kinds()).unwrap_or_default());
    residual
}

/// The efficiency-oriented stage as a linear program (eq. 15 and 17, one column per user),
/// normalized by the capacity so that every entry is a share: column `j` is `d_jk / r_k`, its
/// cost `Σ_k d_jk / r_k`, and the bounds are `r'_k / r_k`.
pub struct EfficiencyProgram<'u> {
    users: &'u Users<'u>,
    residual: &'u Resources,
}

impl<'u> EfficiencyProgram<'u> {
    /// The program for `users` over `residual` (as many kinds as their capacity, each at most
    /// its capacity; [`Error::LengthMismatch`] or [`Error::OutOfRange`] otherwise).
    pub fn new(users: &'u Users<'u>, residual: &'u Resources) -> Result<Self> {
        users.capacity().same_kinds(residual)?;
        if !residual.fits_in(users.capacity()) {
            return Err(Error::OutOfRange);
        }
        Ok(EfficiencyProgram { users, residual })
    }
}

impl Program for EfficiencyProgram<'_> {
    fn rows(&self) -> usize {
        self.users.capacity().kinds()
    }
    fn columns(&self) -> usize {
        self.users.len()
    }
    fn bound(&self, row: usize) -> f64 {
        let capacity = self.users.capacity().as_slice();
        let r = self.residual.as_slice().get(row).copied().unwrap_or(0.0);
        r / capacity.get(row).copied().unwrap_or(1.0)
    }
    fn column(&self, j: usize, out: &mut [f64; MAX_ROWS]) -> f64 {
        let demand = self.users.demand(j);
        let mut cost = 0.0;
        for (slot, share) in out.iter_mut().zip(demand.shares(self.users.capacity())) {
            *slot = share;
            cost += share;
        }
        cost
    }

    /// `c_j - y·A_j = Σ_k d_jk (1 - y_k) / r_k`: the duals and the capacity fold into one
    /// factor per kind, and each user costs one dot product over its own demand row.
    fn reduced_costs<F: FnMut(usize, f64)>(&self, duals: &[f64; MAX_ROWS], mut visit: F) {
        let mut factor = [0.0; MAX_ROWS];
        for ((f, y), r) in factor
            .iter_mut()
            .zip(duals)
            .zip(self.users.capacity().as_slice())
        {
            *f = (1.0 - y) / r;
        }
        for (j, demand) in self.users.demand_rows().enumerate() {
            visit(j, demand.iter().zip(&factor).map(|(d, f)| d * f).sum());
        }
    }
}

/// Whether users `i` and `j` demand resources in the same proportions: `d_i / δ_i == d_j / δ_j`.
fn same_direction(users: &Users<'_>, i: usize, j: usize) -> bool {
    let (di, dj) = (users.demand(i), users.demand(j));
    let (si, sj) = (users.dominant(i), users.dominant(j));
    di.as_slice()
        .iter()
        .zip(dj.as_slice())
        .all(|(&a, &b)| a / si == b / sj)
}

/// Eq. 16: the linear program gave `tasks` to user `basic`; every user of the same direction
/// shares that dominant share, `tasks · δ_basic`, in proportion to its weight.
fn share_by_weight(users: &Users<'_>, basic: usize, tasks: f64, efficient: &mut [f64]) {
    let total_share = tasks * users.dominant(basic);
    let group_weight: f64 = (0..users.len())
        .filter(|&i| same_direction(users, basic, i))
        .map(|i| users.weight(i))
        .sum();
    for (i, slot) in efficient.iter_mut().enumerate() {
        if same_direction(users, basic, i) {
            *slot += total_share * users.weight(i) / (group_weight * users.dominant(i));
        }
    }
}

/// Whole tasks: each user's total rounded down (forgiving a rounding error of 1e-9 task), then,
/// should the forgiveness overfill some resource, tasks taken back from the users most rounded
/// up (ties: lower index) until every resource fits.
fn round_down(users: &Users<'_>, fair: &[f64], efficient: &[f64], whole: &mut [u64]) {
    let total =
        |i: usize| fair.get(i).copied().unwrap_or(0.0) + efficient.get(i).copied().unwrap_or(0.0);
    for (i, w) in whole.iter_mut().enumerate() {
        *w = whole_count(total(i) + 1e-9);
    }
    let capacity = users.capacity();
    loop {
        let over = (0..capacity.kinds()).find(|&k| {
            let used: f64 = (0..users.len())
                .map(|i| whole.get(i).copied().unwrap_or(0) as f64 * kind(&users.demand(i), k))
                .sum();
            used > kind(capacity, k)
        });
        let Some(k) = over else {
            return;
        };
        let culprit = (0..users.len())
            .filter(|&i| whole.get(i).is_some_and(|&w| w > 0) && kind(&users.demand(i), k) > 0.0)
            .max_by(|&a, &b| {
                let excess = |i: usize| whole.get(i).copied().unwrap_or(0) as f64 - total(i);
                excess(a).total_cmp(&excess(b)).then(b.cmp(&a))
            });
        match culprit.and_then(|i| whole.get_mut(i)) {
            Some(w) => *w = w.saturating_sub(1),
            None => return,
        }
    }
}

fn kind(vector: &Resources, k: usize) -> f64 {
    vector.as_slice().get(k).copied().unwrap_or(0.0)
}

/// `floor(x)` as a count, for finite `x` (negative gives 0; the cast saturates).
fn whole_count(x: f64) -> u64 {
    if x <= 0.0 {
        0
    } else {
        x as u64
    }
}

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
//! [`online`] is the paper's Algorithm 1 (§6) on a [`crate::drf::DrfQueue`]; [`heterogeneous`]
//! its pieces for users whose tasks differ in demand (§6.1 C2), over state the caller keeps.

pub mod heterogeneous;
pub mod online;

use crate::drf::{Divisible, Member, Population, Users};
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
    let rho = knob(rho)?;
    let n = users.len();
    if out.fair.len() != n || out.efficient.len() != n || out.whole.len() != n {
        return Err(Error::LengthMismatch);
    }
    // Both stages are decided before anything is written: the linear program is the only step
    // that could fail.
    let plan = Plan::new(users, rho)?;
    for (i, (fair, efficient)) in out
        .fair
        .iter_mut()
        .zip(out.efficient.iter_mut())
        .enumerate()
    {
        let user = Population::member(users, i).unwrap_or(Member::NONE);
        *fair = plan.fair(&user);
        *efficient = plan.efficient(&user);
    }

    round_down(users, out.fair, out.efficient, out.whole);
    let capacity = users.capacity();
    let efficiency = (0..n)
        .map(|i| {
            let tasks = out.fair.get(i).copied().unwrap_or(0.0)
                + out.efficient.get(i).copied().unwrap_or(0.0);
            tasks * users.demand(i).shares(capacity).sum::<f64>()
        })
        .sum();
    Ok(Summary {
        rho,
        phi: plan.phi,
        theta: theta(users, rho, &plan.residual),
        sharing_incentive_rho: plan.phi / users.total_weight(),
        efficiency,
        residual: plan.residual,
    })
}

/// The knob: finite, in [0, 1].
pub(crate) fn knob(rho: f64) -> Result<f64> {
    let rho = num::finite(rho)?;
    if (0.0..=1.0).contains(&rho) {
        Ok(rho)
    } else {
        Err(Error::OutOfRange)
    }
}

/// Both stages for some users at a knob, from which each user's tasks follow (§5.2.1): DRF's
/// `φ` for the fairness-oriented stage, what it leaves, and the dominant share the linear
/// program gives each direction it serves (eq. 16: one group per direction). [`allocate`]
/// writes it out (the online Algorithm 1, [`online`], solves no linear program: its efficiency
/// branch is §6.1 C3's affinity).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    rho: f64,
    /// DRF's `φ` over the users.
    pub(crate) phi: f64,
    /// `r'`.
    pub(crate) residual: Resources,
    groups: [Group; MAX_ROWS],
    len: usize,
}

/// A direction the efficiency stage serves: one of its users, the dominant share the linear
/// program gives the direction, and the weight of all its users.
#[derive(Clone, Copy, Debug)]
struct Group {
    direction: Member,
    share: f64,
    weight: f64,
}

impl Plan {
    /// Solves both stages for `users` at knob `rho` (validated).
    pub(crate) fn new(users: &Users<'_>, rho: f64) -> Result<Self> {
        let phi = Divisible::of_population(users).phi;
        let mut plan = Plan {
            rho,
            phi,
            residual: Resources::NONE,
            groups: [Group {
                direction: Member::NONE,
                share: 0.0,
                weight: 0.0,
            }; MAX_ROWS],
            len: 0,
        };
        let capacity = users.capacity();
        let mut used = [0.0; MAX_KINDS];
        users.each(|_, user| {
            let fair = plan.fair(&user);
            for (u, &d) in used.iter_mut().zip(user.demand.as_slice()) {
                *u += fair * d;
            }
        });
        let mut residual = *capacity;
        residual.take(&Resources::validated(
            used.get(..capacity.kinds()).unwrap_or_default(),
        ));
        plan.residual = clear_residue(residual, capacity);
        if rho < 1.0 {
            let solution = lp::maximize(&EfficiencyProgram {
                users,
                residual: &plan.residual,
            })?;
            for (basic, tasks) in solution.positive_columns() {
                let Some(direction) = users.member(basic) else {
                    continue;
                };
                let mut weight = 0.0;
                users.each(|_, user| {
                    if same_direction(&direction, &user) {
                        weight += user.weight;
                    }
                });
                if let Some(group) = plan.groups.get_mut(plan.len) {
                    *group = Group {
                        direction,
                        share: tasks * direction.dominant,
                        weight,
                    };
                    plan.len = plan.len.saturating_add(1);
                }
            }
        }
        Ok(plan)
    }

    /// `N̄_i = ρ N_i^max`: the user's tasks from the fairness-oriented stage.
    pub(crate) fn fair(&self, user: &Member) -> f64 {
        self.rho * (user.weight / (self.phi * user.dominant))
    }

    /// `N'_i`: the user's tasks from the efficiency-oriented stage, its weight's part of its
    /// direction's dominant share (eq. 16).
    pub(crate) fn efficient(&self, user: &Member) -> f64 {
        let mut tasks = 0.0;
        for group in self.groups.get(..self.len).unwrap_or_default() {
            if same_direction(&group.direction, user) {
                tasks += group.share * user.weight / (group.weight * user.dominant);
            }
        }
        tasks
    }
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
    // Inline: the solver is instantiated in the crate that calls it (the benchmarks' for one),
    // which would otherwise call this once a pivot.
    #[inline]
    fn column(&self, j: usize, out: &mut [f64; MAX_ROWS]) -> f64 {
        let capacity = self.users.capacity().as_slice();
        let mut cost = 0.0;
        for ((slot, &d), &c) in out
            .iter_mut()
            .zip(self.users.demand_amounts(j))
            .zip(capacity)
        {
            let share = d / c;
            *slot = share;
            cost += share;
        }
        cost
    }

    /// [`EfficiencyProgram::column`] over `M` kinds: the shares are divided a vector at a
    /// time and summed in the same order. Inline, as [`EfficiencyProgram::column`].
    #[inline]
    fn sized_column<const M: usize>(&self, j: usize, out: &mut [f64; M]) -> f64 {
        if M != self.rows() {
            // Not this program's rows (the solver never asks for such): no column.
            return 0.0;
        }
        let demand: Option<&[f64; M]> = j
            .checked_mul(M)
            .and_then(|start| self.users.demands().get(start..start.saturating_add(M)))
            .and_then(|row| row.try_into().ok());
        let capacity: Option<&[f64; M]> = self
            .users
            .capacity()
            .as_slice()
            .get(..M)
            .and_then(|c| c.try_into().ok());
        let (Some(demand), Some(capacity)) = (demand, capacity) else {
            return 0.0;
        };
        for ((slot, &d), &c) in out.iter_mut().zip(demand).zip(capacity) {
            *slot = d / c;
        }
        out.iter().fold(0.0, |cost, &share| cost + share)
    }

    /// The reduced costs of the users `first..`, through [`EfficiencyProgram::reduced_costs_of`]
    /// over their demand rows.
    fn reduced_costs<const M: usize>(&self, duals: &[f64; M], first: usize, out: &mut [f64]) {
        let rows = self.users.demands().get(first.saturating_mul(M)..);
        self.reduced_costs_of(duals, rows.unwrap_or_default(), out);
    }

    /// The demand rows: users with the same row are the same column.
    fn patterns(&self) -> Option<&[f64]> {
        Some(self.users.demands())
    }

    /// `c_j - y·A_j = Σ_k d_jk (1 - y_k) / r_k`: the duals and the capacity fold into one
    /// factor per kind, and each user costs one dot product over its demand row. Demand rows
    /// are read as the caller laid them out, `M` amounts each, so the dot product has a length
    /// the compiler knows.
    fn reduced_costs_of<const M: usize>(&self, duals: &[f64; M], rows: &[f64], out: &mut [f64]) {
        if M != self.rows() {
            // Not this program's duals (the solver never passes such): nothing to price.
            return;
        }
        let mut factor = [0.0; M];
        for ((f, y), r) in factor
            .iter_mut()
            .zip(duals)
            .zip(self.users.capacity().as_slice())
        {
            *f = (1.0 - y) / r;
        }
        for (r, demand) in out.iter_mut().zip(rows.chunks_exact(M)) {
            *r = demand.iter().zip(&factor).map(|(d, f)| d * f).sum();
        }
    }
}

/// Whether two users demand resources in the same proportions: `d_i / δ_i == d_j / δ_j`.
fn same_direction(a: &Member, b: &Member) -> bool {
    a.demand
        .as_slice()
        .iter()
        .zip(b.demand.as_slice())
        .all(|(&x, &y)| x / a.dominant == y / b.dominant)
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

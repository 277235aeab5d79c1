//! A DRF instance: a capacity and users, each with a weight and a per-task demand, over flat
//! arrays the caller owns (user `i`'s demand is `demands[i * kinds .. (i + 1) * kinds]`), so
//! Rust and C callers pass the same thing and nothing is copied or allocated.

use crate::num;
use crate::resources::Resources;
use crate::{Error, Result};

/// The range of a weight and of a task's dominant share `δ`: `[1 / SCALE, SCALE]`, 2^60
/// ([`Error::OutOfRange`] outside). Within it every derived quantity (`w / δ`, `φ`, a user's
/// tasks and shares, the queue's weighted shares) is finite and positive, with room to spare
/// for sums over any number of users; outside it they overflow or underflow (a weight of
/// 1e-300 once made `φ` zero and a user's tasks infinite).
pub const SCALE: f64 = 1_152_921_504_606_846_976.0;

/// `x` if it lies within `[1 / SCALE, SCALE]`.
fn in_scale(x: f64) -> Result<f64> {
    if (1.0 / SCALE..=SCALE).contains(&x) {
        Ok(x)
    } else {
        Err(Error::OutOfRange)
    }
}

/// A user's weight: finite, positive, within [`SCALE`].
pub(crate) fn checked_weight(weight: f64) -> Result<f64> {
    in_scale(num::positive(weight)?)
}

/// `δ`, the dominant share of `capacity` one task of `demand` takes, within [`SCALE`].
pub(crate) fn task_share(demand: &Resources, capacity: &Resources) -> Result<f64> {
    in_scale(demand.dominant_share(capacity))
}

/// Validated users sharing a capacity (the QKnobler paper's notation: capacities `r_k`,
/// weights `w_i`, demands `d_ik`).
#[derive(Clone, Copy, Debug)]
pub struct Users<'a> {
    capacity: Resources,
    weights: &'a [f64],
    demands: &'a [f64],
}

impl<'a> Users<'a> {
    /// Users with `weights[i]` (finite, positive, within [`SCALE`]) and demands in row-major
    /// order (`weights.len() * capacity.len()` amounts, each finite and not negative, no row
    /// all zero, each row's dominant share within [`SCALE`]), sharing `capacity` (1 to 8
    /// kinds, each positive).
    pub fn new(capacity: &[f64], weights: &'a [f64], demands: &'a [f64]) -> Result<Self> {
        let capacity = Resources::capacity(capacity)?;
        if weights.is_empty() {
            return Err(Error::Empty);
        }
        if Some(demands.len()) != weights.len().checked_mul(capacity.kinds()) {
            return Err(Error::LengthMismatch);
        }
        for &w in weights {
            checked_weight(w)?;
        }
        for row in demands.chunks_exact(capacity.kinds()) {
            task_share(&Resources::demand(row)?, &capacity)?;
        }
        Ok(Users {
            capacity,
            weights,
            demands,
        })
    }

    /// The number of users.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Never true: a `Users` holds at least one user.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The shared capacity.
    pub fn capacity(&self) -> &Resources {
        &self.capacity
    }

    /// User `i`'s weight.
    pub fn weight(&self, i: usize) -> f64 {
        self.weights.get(i).copied().unwrap_or(0.0)
    }

    /// User `i`'s per-task demand.
    pub fn demand(&self, i: usize) -> Resources {
        Resources::validated(self.demand_amounts(i))
    }

    /// User `i`'s per-task demand as the caller's amounts, one per kind.
    pub fn demand_amounts(&self, i: usize) -> &'a [f64] {
        let kinds = self.capacity.kinds();
        i.checked_mul(kinds)
            .and_then(|start| self.demands.get(start..start.saturating_add(kinds)))
            .unwrap_or_default()
    }

    /// Every user's per-task demand, row after row, as the caller's amounts.
    pub(crate) fn demands(&self) -> &'a [f64] {
        self.demands
    }

    /// Every user's per-task demand, in order, as the caller's amounts.
    pub fn demand_rows(&self) -> core::slice::ChunksExact<'a, f64> {
        self.demands.chunks_exact(self.capacity.kinds())
    }

    /// User `i`'s dominant share of one task, `δ_i = max_k d_ik / r_k`.
    pub fn dominant(&self, i: usize) -> f64 {
        self.demand(i).dominant_share(&self.capacity)
    }

    /// The users' weights summed.
    pub fn total_weight(&self) -> f64 {
        self.weights.iter().sum()
    }

    /// User `i` as the shared computations see it.
    fn member_at(&self, i: usize) -> Member {
        Member {
            weight: self.weight(i),
            demand: self.demand(i),
            dominant: self.dominant(i),
        }
    }
}

/// One user as DRF's closed form and QKnobler's two stages see it: its weight, per-task demand
/// and `δ`, validated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Member {
    pub(crate) weight: f64,
    pub(crate) demand: Resources,
    pub(crate) dominant: f64,
}

impl Member {
    /// A placeholder that is no user's.
    pub(crate) const NONE: Member = Member {
        weight: 1.0,
        demand: Resources::NONE,
        dominant: 1.0,
    };
}

/// Users sharing a capacity, each at a number (some numbers may be unused): the offline
/// [`Users`], or the users of a [`super::DrfQueue`] with pending tasks at their row numbers.
/// Every computation visits them in number order, so that the same users at the same numbers
/// give the same results, bit for bit, however they are held.
pub(crate) trait Population {
    /// The shared capacity.
    fn capacity(&self) -> &Resources;
    /// The user at number `j`, if any.
    fn member(&self, j: usize) -> Option<Member>;
    /// Calls `visit(j, demand)` for every user, in number order.
    fn each_demand<F: FnMut(usize, &[f64])>(&self, visit: F);
    /// Calls `visit(j, member)` for every user, in number order.
    fn each<F: FnMut(usize, Member)>(&self, mut visit: F) {
        self.each_demand(|j, _| {
            if let Some(m) = self.member(j) {
                visit(j, m);
            }
        });
    }
}

impl Population for Users<'_> {
    fn capacity(&self) -> &Resources {
        &self.capacity
    }
    fn member(&self, j: usize) -> Option<Member> {
        (j < self.len()).then(|| self.member_at(j))
    }
    fn each_demand<F: FnMut(usize, &[f64])>(&self, mut visit: F) {
        for (j, demand) in self.demand_rows().enumerate() {
            visit(j, demand);
        }
    }
}

//! Divisible, weighted DRF in closed form (the QKnobler paper's §5.1, eq. 8-11).
//!
//! With divisible tasks and unlimited demand, DRF equalizes `s_i / w_i` and fills until a
//! resource runs out, so every user gets `N_i^max = w_i / (φ δ_i)` tasks and the dominant share
//! `s_i^max = w_i / φ`, where `φ = max_k (1/r_k) Σ_j w_j d_jk / δ_j` is the most loaded
//! resource's load per unit of weighted share.

use super::users::Users;
use crate::resources::MAX_KINDS;
use crate::{Error, Result};

/// The divisible DRF allocation of some [`Users`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Divisible {
    /// `φ`: one unit of weighted dominant share costs `φ` of the busiest resource.
    pub phi: f64,
}

impl Divisible {
    /// Computes `φ` for `users`.
    pub fn of(users: &Users<'_>) -> Self {
        let capacity = users.capacity();
        // load[k] = Σ_j w_j d_jk / δ_j, summed over users in index order.
        let mut load = [0.0; MAX_KINDS];
        for j in 0..users.len() {
            let per_share = users.weight(j) / users.dominant(j);
            for (l, &d) in load.iter_mut().zip(users.demand(j).as_slice()) {
                *l += per_share * d;
            }
        }
        let phi = load
            .iter()
            .zip(capacity.as_slice())
            .map(|(&l, &r)| l / r)
            .fold(0.0, f64::max);
        Divisible { phi }
    }

    /// `N_i^max`: user `i`'s tasks.
    pub fn tasks(&self, users: &Users<'_>, i: usize) -> f64 {
        users.weight(i) / (self.phi * users.dominant(i))
    }

    /// `s_i^max`: user `i`'s dominant share.
    pub fn share(&self, users: &Users<'_>, i: usize) -> f64 {
        users.weight(i) / self.phi
    }

    /// Writes `N_i^max` and `s_i^max` of every user into `tasks` and `shares` (one slot per
    /// user each; [`Error::LengthMismatch`] otherwise, with nothing written).
    pub fn write(&self, users: &Users<'_>, tasks: &mut [f64], shares: &mut [f64]) -> Result<()> {
        if tasks.len() != users.len() || shares.len() != users.len() {
            return Err(Error::LengthMismatch);
        }
        for (i, (task, share)) in tasks.iter_mut().zip(shares.iter_mut()).enumerate() {
            *task = self.tasks(users, i);
            *share = self.share(users, i);
        }
        Ok(())
    }
}

//! Divisible, weighted DRF in closed form (the QKnobler paper's §5.1, eq. 8-11).
//!
//! With divisible tasks and unlimited demand, DRF equalizes `s_i / w_i` and fills until a
//! resource runs out, so every user gets `N_i^max = w_i / (φ δ_i)` tasks and the dominant share
//! `s_i^max = w_i / φ`, where `φ = max_k (1/r_k) Σ_j w_j d_jk / δ_j` is the most loaded
//! resource's load per unit of weighted share.

use super::users::{Population, Users};
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
        Self::of_population(users)
    }

    /// Computes `φ` for any [`Population`], its users summed in number order.
    pub(crate) fn of_population<P: Population>(users: &P) -> Self {
        // load[k] = Σ_j w_j d_jk / δ_j.
        let mut load = [0.0; MAX_KINDS];
        users.each(|_, user| {
            let per_share = user.weight / user.dominant;
            for (l, &d) in load.iter_mut().zip(user.demand.as_slice()) {
                *l += per_share * d;
            }
        });
        let phi = load
            .iter()
            .zip(users.capacity().as_slice())
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

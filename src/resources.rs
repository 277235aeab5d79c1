//! Multi-resource vectors: capacities and per-task demands over up to [`MAX_KINDS`] kinds of
//! resource (CPU, memory, disk, network, GPU, ...), in whatever units the caller uses, the same
//! for a capacity and the demands measured against it.
//!
//! Fixed-size arrays keep every vector on the stack; the kinds actually used come first.

use crate::num;
use crate::{Error, Result};

/// The most resource kinds a vector holds.
pub const MAX_KINDS: usize = 8;

/// A vector of amounts, one per resource kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resources {
    amounts: [f64; MAX_KINDS],
    kinds: usize,
}

impl Resources {
    /// No kinds at all: the placeholder of empty storage.
    pub(crate) const NONE: Resources = Resources {
        amounts: [0.0; MAX_KINDS],
        kinds: 0,
    };

    /// A capacity: 1 to [`MAX_KINDS`] amounts, each finite and positive.
    pub fn capacity(amounts: &[f64]) -> Result<Self> {
        let vector = Self::checked(amounts)?;
        if vector.as_slice().iter().any(|&a| a <= 0.0) {
            return Err(Error::NotPositive);
        }
        Ok(vector)
    }

    /// A per-task demand: 1 to [`MAX_KINDS`] amounts, each finite and not negative, not all
    /// zero (a task that needs nothing would have no dominant share).
    pub fn demand(amounts: &[f64]) -> Result<Self> {
        let vector = Self::amounts(amounts)?;
        if vector.as_slice().iter().all(|&a| a == 0.0) {
            return Err(Error::NotPositive);
        }
        Ok(vector)
    }

    /// Free amounts (what is idle): 1 to [`MAX_KINDS`] amounts, each finite and not negative.
    pub fn amounts(amounts: &[f64]) -> Result<Self> {
        let vector = Self::checked(amounts)?;
        if vector.as_slice().iter().any(|&a| a < 0.0) {
            return Err(Error::Negative);
        }
        Ok(vector)
    }

    /// A vector of amounts already validated by one of the constructors above.
    pub(crate) fn validated(amounts: &[f64]) -> Self {
        let mut vector = Resources {
            amounts: [0.0; MAX_KINDS],
            kinds: amounts.len().min(MAX_KINDS),
        };
        for (slot, &a) in vector.amounts.iter_mut().zip(amounts) {
            *slot = a;
        }
        vector
    }

    fn checked(amounts: &[f64]) -> Result<Self> {
        if amounts.is_empty() {
            return Err(Error::Empty);
        }
        if amounts.len() > MAX_KINDS {
            return Err(Error::CapacityFull);
        }
        let mut vector = Resources {
            amounts: [0.0; MAX_KINDS],
            kinds: amounts.len(),
        };
        for (slot, &a) in vector.amounts.iter_mut().zip(amounts) {
            *slot = num::finite(a)?;
        }
        Ok(vector)
    }

    /// The number of kinds.
    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// The amounts, one per kind.
    pub fn as_slice(&self) -> &[f64] {
        self.amounts.get(..self.kinds).unwrap_or_default()
    }

    /// `Ok` when `other` has as many kinds as `self`.
    pub fn same_kinds(&self, other: &Resources) -> Result<()> {
        if self.kinds == other.kinds {
            Ok(())
        } else {
            Err(Error::LengthMismatch)
        }
    }

    /// The largest share of `capacity` this vector takes: `max_k self_k / capacity_k`. For a
    /// task's demand, DRF's dominant share of one task (δ_i).
    pub fn dominant_share(&self, capacity: &Resources) -> f64 {
        self.shares(capacity).fold(0.0, f64::max)
    }

    /// `self_k / capacity_k` for each kind.
    pub fn shares<'a>(&'a self, capacity: &'a Resources) -> impl Iterator<Item = f64> + 'a {
        self.as_slice()
            .iter()
            .zip(capacity.as_slice())
            .map(|(&a, &c)| a / c)
    }

    /// Whether every amount is at most the same kind's amount in `free`.
    pub fn fits_in(&self, free: &Resources) -> bool {
        self.as_slice()
            .iter()
            .zip(free.as_slice())
            .all(|(&need, &have)| need <= have)
    }

    /// Takes `demand` out of these amounts, kind by kind (never below zero).
    pub fn take(&mut self, demand: &Resources) {
        for (have, &need) in self.amounts.iter_mut().zip(demand.as_slice()) {
            *have = (*have - need).max(0.0);
        }
    }
}

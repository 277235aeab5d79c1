//! The one pass behind every score: an executor's series against a machine's available series,
//! step by step, finding whether it fits and what it would leave idle until `t*`.
//!
//! The fit test reads `AR[t]` beside `RD[t]` anyway, so the numerators of `θ(i, j)`,
//! `Σ_{t<t*} (AR[t][r] - RD[t][r])`, are summed in the same pass: one read of each series per
//! candidate, and nothing to rebuild when a placement changes `AR`. The denominators
//! `Σ_{t<t*} C[r]` are summed the same way, step by step, rather than multiplied out: rounded
//! addition is monotone, so with `AR[t][r] <= C[r]` at every step the ratio is at most 1
//! exactly, in floating point too.

use crate::resources::{Resources, MAX_KINDS};

/// What a machine leaves idle, kind by kind, over the steps before `t*`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Remaining {
    /// `Σ_{t<t*} (AR[t][r] - RD[t][r])`.
    idle: [f64; MAX_KINDS],
    /// `Σ_{t<t*} C[r]`.
    capacity: [f64; MAX_KINDS],
    kinds: usize,
}

impl Remaining {
    /// Over `rows` (a machine's available series, time-major) until `t_star`, with nothing
    /// placed: `θ(j)`'s sums.
    pub(crate) fn of(capacity: &Resources, available: &[f64], t_star: usize) -> Remaining {
        let mut remaining = Remaining::new(capacity.kinds());
        let none = [0.0; MAX_KINDS];
        for have in available.chunks_exact(capacity.kinds()).take(t_star) {
            remaining.add(capacity, have, &none);
        }
        remaining
    }

    /// Over `available` with `demand` placed (`θ(i, j)`'s sums until `t_star`), or `None` when
    /// `demand` does not fit: some step of it needs more of some kind than is available.
    pub(crate) fn after<'d>(
        capacity: &Resources,
        available: &[f64],
        demand: impl Iterator<Item = &'d [f64]>,
        t_star: usize,
    ) -> Option<Remaining> {
        let mut remaining = Remaining::new(capacity.kinds());
        let mut steps = demand.zip(available.chunks_exact(capacity.kinds()));
        for (need, have) in steps.by_ref().take(t_star) {
            if !fits(need, have) {
                return None;
            }
            remaining.add(capacity, have, need);
        }
        steps
            .all(|(need, have)| fits(need, have))
            .then_some(remaining)
    }

    fn new(kinds: usize) -> Remaining {
        Remaining {
            idle: [0.0; MAX_KINDS],
            capacity: [0.0; MAX_KINDS],
            kinds,
        }
    }

    fn add(&mut self, capacity: &Resources, have: &[f64], need: &[f64]) {
        let sums = self.idle.iter_mut().zip(&mut self.capacity);
        for (((idle, total), (&have, &need)), &c) in
            sums.zip(have.iter().zip(need)).zip(capacity.as_slice())
        {
            *idle += have - need;
            *total += c;
        }
    }

    /// `R(r) / C(r)` for each kind: the average share of it left idle (§III-B2).
    fn shares(&self) -> impl Iterator<Item = f64> + '_ {
        self.idle
            .iter()
            .zip(&self.capacity)
            .take(self.kinds)
            .map(|(&idle, &total)| idle / total)
    }

    /// DRR: the largest share.
    pub(crate) fn drr(&self) -> f64 {
        self.shares().fold(0.0, f64::max)
    }

    /// TRC: the shares summed.
    pub(crate) fn trc(&self) -> f64 {
        self.shares().sum()
    }
}

/// Whether `need <= have` kind by kind (SPEC.md: `RD <= AR`; the paper's `<` would refuse an
/// exact fit).
pub(crate) fn fits(need: &[f64], have: &[f64]) -> bool {
    need.iter().zip(have).all(|(need, have)| need <= have)
}

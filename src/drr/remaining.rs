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

    /// Over `available` with `demand` (time-major, as many kinds as the capacity) placed:
    /// `θ(i, j)`'s sums until `t_star`, or `None` when `demand` does not fit: some step of it
    /// needs more of some kind than is available.
    ///
    /// The hottest loop of MinFrag, so it is compiled once per number of kinds
    /// ([`per_kinds`]): with the kinds known, a step's comparisons and sums unroll into
    /// straight-line code.
    pub(crate) fn after(
        capacity: &Resources,
        available: &[f64],
        demand: &[f64],
        t_star: usize,
    ) -> Option<Remaining> {
        per_kinds(
            capacity.kinds(),
            After {
                capacity,
                available,
                demand,
                t_star,
            },
        )
    }
}

/// A computation over rows of `K` amounts, compiled for each number of kinds.
pub(crate) trait PerKinds {
    /// What it computes.
    type Output;
    /// The computation with `K` kinds.
    fn run<const K: usize>(self) -> Self::Output;
}

/// Runs `work` compiled for `kinds` kinds (1 to [`MAX_KINDS`]).
pub(crate) fn per_kinds<W: PerKinds>(kinds: usize, work: W) -> W::Output {
    match kinds {
        1 => work.run::<1>(),
        2 => work.run::<2>(),
        3 => work.run::<3>(),
        4 => work.run::<4>(),
        5 => work.run::<5>(),
        6 => work.run::<6>(),
        7 => work.run::<7>(),
        _ => work.run::<MAX_KINDS>(),
    }
}

/// [`Remaining::after`]'s arguments.
struct After<'a> {
    capacity: &'a Resources,
    available: &'a [f64],
    demand: &'a [f64],
    t_star: usize,
}

impl PerKinds for After<'_> {
    type Output = Option<Remaining>;

    fn run<const K: usize>(self) -> Option<Remaining> {
        let After {
            capacity,
            available,
            demand,
            t_star,
        } = self;
        let total: [f64; K] =
            core::array::from_fn(|r| capacity.as_slice().get(r).copied().unwrap_or(0.0));
        let mut idle = [0.0; K];
        let mut summed = [0.0; K];
        let split = t_star.saturating_mul(K).min(demand.len());
        let (until, after) = demand.split_at(split);
        let (have_until, have_after) = available.split_at(split.min(available.len()));
        for (need, have) in until.chunks_exact(K).zip(have_until.chunks_exact(K)) {
            let mut fits = true;
            for ((((i, s), &n), &h), &c) in idle
                .iter_mut()
                .zip(&mut summed)
                .zip(need)
                .zip(have)
                .zip(&total)
            {
                fits &= n <= h;
                *i += h - n;
                *s += c;
            }
            if !fits {
                return None;
            }
        }
        for (need, have) in after.chunks_exact(K).zip(have_after.chunks_exact(K)) {
            let fits = need
                .iter()
                .zip(have)
                .fold(true, |fits, (n, h)| fits & (n <= h));
            if !fits {
                return None;
            }
        }
        let mut remaining = Remaining::new(K);
        for ((slot, sum), (&i, &s)) in remaining
            .idle
            .iter_mut()
            .zip(remaining.capacity.iter_mut())
            .zip(idle.iter().zip(&summed))
        {
            *slot = i;
            *sum = s;
        }
        Some(remaining)
    }
}

impl Remaining {
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

/// Whether every row of `available` fits `capacity` kind by kind, branch-free and compiled per
/// number of kinds (it reads whole availability series, for many machines at a time).
pub(crate) fn within(capacity: &Resources, available: &[f64]) -> bool {
    per_kinds(
        capacity.kinds(),
        Within {
            capacity,
            available,
        },
    )
}

struct Within<'a> {
    capacity: &'a Resources,
    available: &'a [f64],
}

impl PerKinds for Within<'_> {
    type Output = bool;

    fn run<const K: usize>(self) -> bool {
        let capacity: [f64; K] =
            core::array::from_fn(|r| self.capacity.as_slice().get(r).copied().unwrap_or(0.0));
        self.available.chunks_exact(K).fold(true, |within, row| {
            row.iter()
                .zip(&capacity)
                .fold(within, |within, (have, c)| within & (have <= c))
        })
    }
}

//! The one pass behind every score: an executor's series against a machine's available series,
//! step by step, finding whether it fits and what it would leave idle until `t*`.
//!
//! The fit test reads `AR[t]` beside `RD[t]` anyway, so the numerators of `θ(i, j)`,
//! `Σ_{t<t*} (AR[t][r] - RD[t][r])`, are summed in the same pass: one read of each series per
//! candidate, and nothing to rebuild when a placement changes `AR`. The denominators
//! `Σ_{t<t*} C[r]` are the sums of `t*` rounded additions of `C[r]`, not products (see
//! [`summed`]): rounded addition is monotone, so with `AR[t][r] <= C[r]` at every step the
//! ratio is at most 1 exactly, in floating point too.
//!
//! Each kind's numerator is a chain of additions in step order, which fixes every bit of it.
//! What the pass can save is everything around that chain: the fit test is the sign of the
//! same difference the sum adds (no comparison and branch per step: the smallest difference is
//! kept and tested once every [`CHUNK`] steps), and the denominators are usually one
//! multiplication. Which candidates a MinFrag round gives this pass at all is
//! [`super::rounds`]' part.

use super::series::rows;
use super::Metric;
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

/// One executor against one machine: what [`Remaining::after`] reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Against<'a> {
    /// The machine's capacity.
    pub(crate) capacity: &'a Resources,
    /// The machine's available series, time-major, at least as long as `demand`.
    pub(crate) available: &'a [f64],
    /// The executor's series, time-major, as many kinds as the capacity.
    pub(crate) demand: &'a [f64],
    /// `t*`: the steps summed.
    pub(crate) t_star: usize,
    /// The score: the shares' maximum ([`Metric::Drr`]), their sum ([`Metric::Trc`]), or
    /// Tetris' alignment, which does not use them ([`Capacity::alignment`]).
    pub(crate) metric: Metric,
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

    /// The executor's score under [`Against::metric`] with the executor placed (`θ(i, j)`,
    /// TRC's sum, or Tetris' alignment), or `None` when it does not fit: some step of it needs
    /// more of some kind than is available.
    ///
    /// The hottest loop of MinFrag, so it is compiled once per number of kinds
    /// ([`per_kinds`]): with the kinds known, a step's comparisons and sums unroll into
    /// straight-line code.
    pub(crate) fn after(against: Against<'_>) -> Option<f64> {
        per_kinds(against.capacity.kinds(), One(against))
    }
}

/// Whether `demand` fits `available` (both time-major over the kinds of `capacity`): every
/// step of it needs at most what is available of every kind.
pub(crate) fn fits(capacity: &Resources, available: &[f64], demand: &[f64]) -> bool {
    per_kinds(capacity.kinds(), Fits { available, demand })
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

/// [`Remaining::after`]'s work.
struct One<'a>(Against<'a>);

impl PerKinds for One<'_> {
    type Output = Option<f64>;

    fn run<const K: usize>(self) -> Option<f64> {
        let Against {
            capacity,
            available,
            demand,
            t_star,
            metric,
        } = self.0;
        let capacity = Capacity::<K>::of(capacity);
        match metric {
            Metric::Drr | Metric::Trc => capacity.score(available, demand, t_star, metric),
            Metric::Tetris => Capacity::<K>::fits(available, demand)
                .then(|| capacity.alignment(&peak(demand), available)),
        }
    }
}

/// [`fits`]' work.
struct Fits<'a> {
    available: &'a [f64],
    demand: &'a [f64],
}

impl PerKinds for Fits<'_> {
    type Output = bool;

    fn run<const K: usize>(self) -> bool {
        Capacity::<K>::fits(self.available, self.demand)
    }
}

/// A machine's capacity compiled for `K` kinds, and for each kind whether `Σ_{t<t*} C[r]` is
/// one multiplication ([`summed`]).
pub(super) struct Capacity<const K: usize> {
    amounts: [f64; K],
    exact: [bool; K],
    /// Whether every kind's is.
    all_exact: bool,
}

impl<const K: usize> Capacity<K> {
    #[inline(always)]
    pub(super) fn of(capacity: &Resources) -> Self {
        let amounts: [f64; K] =
            core::array::from_fn(|r| capacity.as_slice().get(r).copied().unwrap_or(0.0));
        let exact = amounts.map(multiplies_exactly);
        Capacity {
            amounts,
            exact,
            all_exact: exact.iter().all(|&exact| exact),
        }
    }

    /// The score under [`Metric::Drr`] or [`Metric::Trc`] of `demand` placed on `available`
    /// (as [`Against`] describes them), or `None` when it does not fit. The sums stop at
    /// `t_star` or at the end of `demand`, whichever comes first: a round passes its `t_run`
    /// and this takes `t* = min(t_run, T_i)`, without working out `T_i`.
    ///
    /// The steps summed go [`CHUNK`] at a time with a fit test after each chunk, then one at a
    /// time; the steps after `t*`, only tested, go four at a time ([`test_rows`]).
    #[inline(always)]
    pub(super) fn score(
        &self,
        available: &[f64],
        demand: &[f64],
        t_star: usize,
        metric: Metric,
    ) -> Option<f64> {
        let split = t_star.saturating_mul(K).min(demand.len());
        let (until, after) = demand.split_at(split);
        let (have_until, rest) = available.split_at(split.min(available.len()));
        let (have_after, _) = rest.split_at(after.len().min(rest.len()));
        let mut idle = [0.0; K];
        let mut low = [0.0; K];
        let chunk = K.saturating_mul(CHUNK);
        let mut need = until.chunks_exact(chunk);
        let mut have = have_until.chunks_exact(chunk);
        for (need, have) in (&mut need).zip(&mut have) {
            sum_rows(&mut idle, &mut low, need, have);
            if negative(&low) {
                return None;
            }
        }
        let tail = need.remainder().chunks_exact(K);
        for (need, have) in tail.zip(have.remainder().chunks_exact(K)) {
            for (((idle, low), &n), &h) in idle.iter_mut().zip(low.iter_mut()).zip(need).zip(have) {
                let d = h - n;
                *idle += d;
                *low = lower(*low, d);
            }
        }
        test_rows(&mut low, after, have_after);
        if negative(&low) {
            return None;
        }
        let totals = self.summed(rows(until.len(), K));
        let mut shares = idle;
        for (share, &total) in shares.iter_mut().zip(&totals) {
            *share /= total;
        }
        Some(combine(shares, metric))
    }

    /// Whether `demand` fits `available` (time-major rows of `K`, at least as long), tested
    /// four steps at a time ([`test_rows`]).
    #[inline(always)]
    pub(super) fn fits(available: &[f64], demand: &[f64]) -> bool {
        let mut low = [0.0; K];
        let have = available.get(..demand.len()).unwrap_or(available);
        test_rows(&mut low, demand, have);
        !negative(&low)
    }

    /// Tetris' alignment of an executor whose peak demand is `peak` ([`peak`]) with what
    /// `available` has now (its first row): `Σ_r (peak[r] / C[r]) · (AR[0][r] / C[r])`.
    #[inline(always)]
    pub(super) fn alignment(&self, peak: &[f64; K], available: &[f64]) -> f64 {
        peak.iter()
            .zip(&self.amounts)
            .zip(available)
            .map(|((&peak, &c), &have)| peak / c * (have / c))
            .sum()
    }

    /// `Σ_{t<steps} C[r]` for every kind, as [`summed`] adds it: one multiplication each when
    /// every kind multiplies exactly (the usual case, and then a vector operation).
    #[inline(always)]
    pub(super) fn summed(&self, steps: usize) -> [f64; K] {
        if self.all_exact {
            let n = steps as f64;
            self.amounts.map(|c| n * c)
        } else {
            core::array::from_fn(|r| {
                let c = self.amounts.get(r).copied().unwrap_or(0.0);
                summed(c, self.exact.get(r).copied().unwrap_or(false), steps)
            })
        }
    }
}

/// Each kind's largest amount in `demand` (time-major rows of `K`), from 0: Tetris' peak
/// demand. Of equal amounts the later is kept, so that a kind whose amounts are all zeros
/// peaks at the last one's sign (`f64::max` leaves that choice to the compiler); amounts are
/// never NaN, so the comparison is one vector instruction.
#[inline(always)]
pub(super) fn peak<const K: usize>(demand: &[f64]) -> [f64; K] {
    let mut peak = [0.0; K];
    for row in demand.chunks_exact(K) {
        for (peak, &need) in peak.iter_mut().zip(row) {
            *peak = if *peak > need { *peak } else { need };
        }
    }
    peak
}

/// The shares combined under `metric`: their sum for [`Metric::Trc`], their largest otherwise.
///
/// A score's shares are numbers from +0 to 1 (a sum of non-negative differences from +0, over
/// a positive one): never NaN nor -0, so the plain larger-of is `f64::max` to the bit, without
/// its NaN handling. Both combinations are monotone in every share, which the bound of a
/// MinFrag round relies on ([`super::rounds`]).
#[inline(always)]
pub(super) fn combine<const K: usize>(shares: [f64; K], metric: Metric) -> f64 {
    match metric {
        Metric::Trc => shares.into_iter().sum(),
        Metric::Drr | Metric::Tetris => {
            shares
                .into_iter()
                .fold(0.0, |most, share| if share > most { share } else { most })
        }
    }
}

/// Steps summed between two fit tests: long enough for the compiler to unroll and schedule
/// freely, short enough that a misfit is noticed early.
///
/// A step fits when `RD[t][r] <= AR[t][r]` for every kind, that is when `AR[t][r] - RD[t][r]`
/// is not negative: amounts are finite, and the difference of two finite numbers is 0 only
/// when they are equal and has the sign of the exact difference otherwise.
const CHUNK: usize = 8;

/// Adds the steps' `AR[t][r] - RD[t][r]` to `idle` in step order and lowers `low` to the
/// smallest. Two steps at a time, their smaller difference lowering `low` once: a minimum
/// waits longer for its operands than a sum, so the chain of minimums is kept half as long.
#[inline(always)]
fn sum_rows<const K: usize>(idle: &mut [f64; K], low: &mut [f64; K], need: &[f64], have: &[f64]) {
    let two = K.saturating_mul(2);
    let (mut needs, mut haves) = (need.chunks_exact(two), have.chunks_exact(two));
    for (need, have) in (&mut needs).zip(&mut haves) {
        let ((need_0, need_1), (have_0, have_1)) = (need.split_at(K), have.split_at(K));
        let mut first = [0.0; K];
        for (((idle, d), &n), &h) in idle.iter_mut().zip(&mut first).zip(need_0).zip(have_0) {
            *d = h - n;
            *idle += *d;
        }
        for ((((idle, low), &d_0), &n), &h) in idle
            .iter_mut()
            .zip(low.iter_mut())
            .zip(&first)
            .zip(need_1)
            .zip(have_1)
        {
            let d = h - n;
            *idle += d;
            *low = lower(*low, lower(d_0, d));
        }
    }
}

/// Lowers `low` to the smallest `AR[t][r] - RD[t][r]` of the steps, without summing: four
/// steps at a time, their smallest difference (a tree of minimums) lowering `low` once, so
/// that the chain through `low` is a quarter as long.
#[inline(always)]
fn test_rows<const K: usize>(low: &mut [f64; K], need: &[f64], have: &[f64]) {
    let four = K.saturating_mul(4);
    let (mut needs, mut haves) = (need.chunks_exact(four), have.chunks_exact(four));
    for (need, have) in (&mut needs).zip(&mut haves) {
        let mut least = [[0.0; K]; 4];
        for ((least, need), have) in least
            .iter_mut()
            .zip(need.chunks_exact(K))
            .zip(have.chunks_exact(K))
        {
            for ((least, &n), &h) in least.iter_mut().zip(need).zip(have) {
                *least = h - n;
            }
        }
        let [a, b, c, d] = least;
        for ((((low, a), b), c), d) in low.iter_mut().zip(a).zip(b).zip(c).zip(d) {
            *low = lower(*low, lower(lower(a, b), lower(c, d)));
        }
    }
    let rest = needs
        .remainder()
        .chunks_exact(K)
        .zip(haves.remainder().chunks_exact(K));
    for (need, have) in rest {
        for ((low, &n), &h) in low.iter_mut().zip(need).zip(have) {
            *low = lower(*low, h - n);
        }
    }
}

/// Whether any of `low` is negative.
#[inline(always)]
fn negative<const K: usize>(low: &[f64; K]) -> bool {
    low.iter().fold(false, |any, &l| any | (l < 0.0))
}

/// `c` added to 0 `steps` times (at most [`MAX_STEPS`](super::MAX_STEPS)), one rounded
/// addition after the other, for a positive capacity `c` of at most `f64::MAX / MAX_STEPS`:
/// the product `steps · c` when `exact` ([`multiplies_exactly`]), the additions otherwise.
fn summed(c: f64, exact: bool, steps: usize) -> f64 {
    if exact {
        steps as f64 * c
    } else {
        (0..steps).fold(0.0, |sum, _| sum + c)
    }
}

// `multiplies_exactly`'s bound: `MAX_STEPS · 2^45 <= 2^53`.
const _: () = assert!(super::MAX_STEPS <= 1 << 8);

/// Whether adding `c` to 0 up to [`MAX_STEPS`](super::MAX_STEPS) times never rounds. It does not
/// when `c` is an odd integer `M` below `2^45` times a power of two: every partial sum `k · c`
/// is then `k · M < 2^53` times that power, a number the format holds exactly, so the sum is
/// the exact product (capacities are usually such numbers: 16 cores, 64 GB, 0.5 GB/s).
fn multiplies_exactly(c: f64) -> bool {
    let bits = c.to_bits();
    let exponent = bits >> 52 & 0x7ff;
    let fraction = bits & ((1 << 52) - 1);
    let significand = if exponent == 0 {
        fraction
    } else {
        fraction | 1 << 52
    };
    significand >> significand.trailing_zeros().min(63) < 1 << 45
}

/// The smaller of `low` and `d` (one instruction: no NaN reaches it).
fn lower(low: f64, d: f64) -> f64 {
    if d < low {
        d
    } else {
        low
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

/// Whether every amount of `available` is between 0 and its kind's capacity, branch-free and
/// compiled per number of kinds (it reads whole availability series, for many machines at a
/// time).
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
                .fold(within, |within, (&have, &c)| {
                    within & (0.0 <= have) & (have <= c)
                })
        })
    }
}

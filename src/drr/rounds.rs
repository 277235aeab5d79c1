//! What MinFrag's rounds on one machine keep from one round to the next (§III-B2, Algorithm 1),
//! so that a round gives the exact pass ([`super::remaining`]) to few of its candidates.
//!
//! A round wants only its best candidate: the smallest score under DRR or TRC, the largest
//! alignment under Tetris, ties to the lower index. Three things spare the others the exact
//! pass, none of which changes the choice or any bit of its score:
//!
//! - **Witnesses.** A candidate found not to fit leaves a witness, a step and kind where it
//!   needs more than is available; the last [`WITNESSES`] are kept. Placements only take from
//!   `AR`, so a later candidate that needs more than `AR` has at a witness does not fit either:
//!   one comparison per witness instead of a pass, and it is closed as the pass would close it.
//! - **A lower bound (DRR, TRC).** From plain sums of the candidate's demand and of `AR` up to
//!   `t*` ([`Rounds::ruled_out`]): a candidate whose score would be at least the best found so
//!   far in the round cannot be chosen. Its demand's sums depend on `t* = min(t_run, T_i)` only, so
//!   they are kept from round to round (taken again only when a placement lowers `t_run`
//!   below `T_i`), and `AR`'s come from its prefix sums, taken once a round: after the first
//!   round, a bound is a few operations per kind instead of a read of the series.
//! - **Alignment first (Tetris).** The alignment needs only the candidate's peak demand (kept
//!   like the sums) and `AR`'s first row; a candidate whose alignment is not above the best
//!   found so far cannot be chosen, and its fit is not tested.
//!
//! A candidate ruled out by its bound or its alignment is not tested, so it stays open: it may
//! not fit, which a witness or a later round finds out. Sums are kept for the first [`KEPT`]
//! candidates, on the stack; later ones are summed again each round. A heartbeat of at most
//! [`FEW`] candidates whose `t_run` is at most [`SHORT`] steps gets rounds sized for it: the
//! stack they take is zeroed before the first round, so the space a heartbeat cannot use is
//! not.

use super::remaining::{combine, peak, Capacity};
use super::series::{rows, Executor, MAX_STEPS};
use super::Metric;
use crate::resources::Resources;

/// Candidates, by index, whose sums [`Rounds`] keeps at most.
pub(super) const KEPT: usize = 256;

/// Candidates of a heartbeat small enough for a smaller [`Rounds`]: sums for this many.
pub(super) const FEW: usize = 128;

/// `t_run` of a heartbeat small enough for a smaller [`Rounds`]: prefix sums up to this many
/// steps.
pub(super) const SHORT: usize = 64;

// `Rounds::kept_steps` holds any number of steps.
const _: () = assert!(MAX_STEPS <= u16::MAX as usize);

/// Witnesses [`Rounds`] keeps.
const WITNESSES: usize = 4;

/// How far below its estimate `A - D` a fitting executor's numerator may be, relative to `A +
/// D` ([`Rounds::ruled_out`]).
const SLACK: f64 = 1.0 / (1u64 << 36) as f64;

/// What trying a candidate in a round found ([`Rounds::choose`]).
enum Trial {
    /// If it fits, its score is not better than the best so far (tested or not).
    Worse,
    /// It does not fit.
    Misfit,
    /// It fits, with this score, better than the best so far.
    Better(f64),
}

/// One heartbeat's rounds on a machine of `K` kinds, keeping sums for the first `KEPT`
/// candidates and `AR`'s prefix sums up to `STEPS - 1` steps (at least `t_run`).
pub(super) struct Rounds<const K: usize, const KEPT: usize, const STEPS: usize> {
    capacity: Capacity<K>,
    metric: Metric,
    /// For candidate `i < KEPT`: under DRR and TRC its demand summed over its first
    /// `kept_steps[i]` steps, under Tetris its peak demand.
    kept: [[f64; K]; KEPT],
    /// The steps `kept[i]` covers, 0 before it is taken.
    kept_steps: [u16; KEPT],
    /// `prefix[t]`: `AR` summed over its first `t` steps, for `t` up to this round's `t_run`.
    prefix: [[f64; K]; STEPS],
    /// Where candidates did not fit, as positions `t · K + r` in the series, the newest first,
    /// each with what `available` has there this round.
    witnesses: [(usize, f64); WITNESSES],
    /// How many of them there are yet.
    found: usize,
    /// `prefix[t_run]` and `Σ_{t<t_run} C[r]` for this round's `t_run`: what the bounds of
    /// the candidates running at least `t_run` steps read.
    whole: ([f64; K], [f64; K]),
}

impl<const K: usize, const KEPT: usize, const STEPS: usize> Rounds<K, KEPT, STEPS> {
    /// Rounds on a machine of `capacity` (`K` kinds) under `metric`, nothing kept yet.
    #[inline(always)]
    pub(super) fn new(capacity: &Resources, metric: Metric) -> Self {
        Rounds {
            capacity: Capacity::of(capacity),
            metric,
            kept: [[0.0; K]; KEPT],
            kept_steps: [0; KEPT],
            prefix: [[0.0; K]; STEPS],
            witnesses: [(0, 0.0); WITNESSES],
            found: 0,
            whole: ([0.0; K], [0.0; K]),
        }
    }

    /// One round on the machine as it is now, `available` (time-major, at least as long as
    /// every candidate's series) and `t_run`: the best of `candidates` (their indices and
    /// series) under the metric, the first of equals, or `None` when none fits. `misfit`
    /// gets the index of every candidate found not to fit.
    ///
    /// The candidates must be the same executors under the same indices in every round of a
    /// heartbeat, and `available` may only lose amounts between rounds.
    #[inline(always)]
    pub(super) fn choose<'e>(
        &mut self,
        available: &[f64],
        t_run: usize,
        candidates: impl Iterator<Item = (usize, Executor<'e>)>,
        misfit: impl FnMut(usize),
    ) -> Option<(usize, Executor<'e>)> {
        match self.metric {
            Metric::Drr | Metric::Trc => {
                self.sum_available(available, t_run);
                self.whole = (self.available_sum(t_run), self.capacity.summed(t_run));
                self.each(available, candidates, misfit, |rounds, i, demand, best| {
                    rounds.least(i, demand, available, t_run, best)
                })
            }
            Metric::Tetris => {
                self.each(available, candidates, misfit, |rounds, i, demand, best| {
                    rounds.aligned(i, demand, available, best)
                })
            }
        }
    }

    /// [`Rounds::choose`]'s loop, with `trial` trying a candidate (its index, series and the
    /// best score so far) once no witness refutes it.
    #[inline(always)]
    fn each<'e>(
        &mut self,
        available: &[f64],
        candidates: impl Iterator<Item = (usize, Executor<'e>)>,
        mut misfit: impl FnMut(usize),
        mut trial: impl FnMut(&mut Self, usize, &[f64], Option<f64>) -> Trial,
    ) -> Option<(usize, Executor<'e>)> {
        self.reread(available);
        let mut best: Option<(usize, Executor<'e>, f64)> = None;
        for (i, executor) in candidates {
            let demand = executor.demand();
            if self.refuted(demand) {
                misfit(i);
                continue;
            }
            match trial(self, i, demand, best.map(|(_, _, score)| score)) {
                Trial::Worse => {}
                Trial::Misfit => {
                    self.witness(available, demand);
                    misfit(i);
                }
                Trial::Better(score) => best = Some((i, executor, score)),
            }
        }
        best.map(|(i, executor, _)| (i, executor))
    }

    /// Candidate `i`, series `demand`, under DRR or TRC (the smaller score the better): the
    /// exact pass, all steps tested, unless [ruled out](Rounds::ruled_out) by the best score
    /// so far.
    #[inline(always)]
    fn least(
        &mut self,
        i: usize,
        demand: &[f64],
        available: &[f64],
        t_run: usize,
        best: Option<f64>,
    ) -> Trial {
        let t_star = t_run.min(rows(demand.len(), K));
        if best.is_some_and(|least| self.ruled_out(i, demand, t_star, t_run, least)) {
            return Trial::Worse;
        }
        match self.capacity.score(available, demand, t_run, self.metric) {
            Some(score) if best.is_none_or(|least| score < least) => Trial::Better(score),
            Some(_) => Trial::Worse,
            None => Trial::Misfit,
        }
    }

    /// Candidate `i`, series `demand`, under Tetris: the fit test, unless its alignment is
    /// not better than the best so far.
    #[inline(always)]
    fn aligned(&mut self, i: usize, demand: &[f64], available: &[f64], best: Option<f64>) -> Trial {
        let peak = self.kept(i, demand, rows(demand.len(), K), peak::<K>);
        let score = self.capacity.alignment(&peak, available);
        if best.is_some_and(|most| !Metric::Tetris.better(score, most)) {
            Trial::Worse
        } else if Capacity::<K>::fits(available, demand) {
            Trial::Better(score)
        } else {
            Trial::Misfit
        }
    }

    /// Whether `demand` needs more than `available` has at a witness: then it does not fit.
    #[inline(always)]
    fn refuted(&self, demand: &[f64]) -> bool {
        let witnesses = self.witnesses.get(..self.found).unwrap_or_default();
        witnesses
            .iter()
            .any(|&(at, have)| demand.get(at).is_some_and(|&need| need > have))
    }

    /// Reads `available` at the witnesses again, for a round on it.
    #[inline(always)]
    fn reread(&mut self, available: &[f64]) {
        for (at, have) in self.witnesses.iter_mut().take(self.found) {
            *have = available.get(*at).copied().unwrap_or(f64::INFINITY);
        }
    }

    /// Keeps the first place where `demand`, found not to fit, needs more than `available`
    /// has, as the newest witness.
    fn witness(&mut self, available: &[f64], demand: &[f64]) {
        let at = demand
            .iter()
            .zip(available)
            .position(|(need, have)| need > have);
        if let Some(at) = at {
            self.witnesses.rotate_right(1);
            if let Some(newest) = self.witnesses.first_mut() {
                *newest = (at, available.get(at).copied().unwrap_or(f64::INFINITY));
            }
            self.found = self.found.saturating_add(1).min(WITNESSES);
        }
    }

    /// `take` of candidate `i`'s first `steps` rows of `demand`: kept from an earlier round
    /// when it took the same steps, and kept for later ones.
    #[inline(always)]
    fn kept(
        &mut self,
        i: usize,
        demand: &[f64],
        steps: usize,
        take: impl FnOnce(&[f64]) -> [f64; K],
    ) -> [f64; K] {
        let rows = demand.get(..steps.saturating_mul(K)).unwrap_or(demand);
        match (self.kept.get_mut(i), self.kept_steps.get_mut(i)) {
            (Some(sums), Some(kept_steps)) => {
                // Exact: a series has at most `MAX_STEPS` steps.
                let steps = steps as u16;
                if *kept_steps != steps {
                    *sums = take(rows);
                    *kept_steps = steps;
                }
                *sums
            }
            _ => take(rows),
        }
    }

    /// `AR` summed over its first `steps` steps, from `prefix`.
    #[inline(always)]
    fn available_sum(&self, steps: usize) -> [f64; K] {
        self.prefix.get(steps).copied().unwrap_or([0.0; K])
    }

    /// `prefix` for the round: `AR` summed step by step up to `t_run`.
    #[inline(always)]
    fn sum_available(&mut self, available: &[f64], t_run: usize) {
        let mut sum = [0.0; K];
        let steps = available.chunks_exact(K).take(t_run);
        for (row, prefix) in steps.zip(self.prefix.iter_mut().skip(1)) {
            for (sum, &have) in sum.iter_mut().zip(row) {
                *sum += have;
            }
            *prefix = sum;
        }
    }

    /// Whether candidate `i` (series `demand`, `t* = t_star`; `whole` holds the sums of the
    /// round's `t_run`), if it fits, scores at least `best` under [`Metric::Drr`] or
    /// [`Metric::Trc`] (so that it cannot be chosen over the score `best`), told from sums in
    /// any order: no fit test, no ordered chain.
    ///
    /// With `A = Σ_{t<t*} AR[t][r]` and `D = Σ_{t<t*} RD[t][r]`, the score's numerator `N`
    /// sums `t* <= 256` differences `AR[t][r] - RD[t][r]`, each at least 0 when the executor
    /// fits, so it is at least `(A - D)(1 - 257u)` (`u = 2^-53`; a sum of non-negative terms
    /// loses at most that; an underflowing difference or sum is exact). `A` and `D` summed in
    /// any order are within `256u` of their own values, so `N` is at least the estimate `n =
    /// A - D - SLACK · (A + D)` with room to spare (`SLACK = 2^-36`, against about `2^-42`
    /// needed, covers the rounding of this formula too). An executor that does not fit has no
    /// score, and nothing is owed to it. Overflowing demand makes `n` `-∞` or NaN, which
    /// is above nothing.
    ///
    /// - Under DRR, a kind whose `n` is above the rounded product `best · T` (`T = Σ_{t<t*}
    ///   C[r]`, the share's denominator) is enough: the number after a rounded product is at
    ///   least the exact product, so `N >= n > best · T` exactly, the share `N / T` is at
    ///   least `best` before rounding and, `best` being a number the format holds, after it,
    ///   and so is the largest share. No division.
    /// - Under TRC, the shares `n / T`, each at most its kind's share since rounded division
    ///   keeps an order, summed ([`combine`], monotone in each) must be above `best`.
    #[inline(always)]
    fn ruled_out(
        &mut self,
        i: usize,
        demand: &[f64],
        t_star: usize,
        t_run: usize,
        best: f64,
    ) -> bool {
        let need = self.kept(i, demand, t_star, total::<K>);
        let (have, totals) = if t_star == t_run {
            self.whole
        } else {
            (self.available_sum(t_star), self.capacity.summed(t_star))
        };
        let mut least = [0.0; K];
        for (least, (&have, &need)) in least.iter_mut().zip(have.iter().zip(&need)) {
            *least = have - need - SLACK * (have + need);
        }
        if self.metric == Metric::Trc {
            let mut shares = least;
            for (share, &total) in shares.iter_mut().zip(&totals) {
                *share /= total;
            }
            return combine(shares, Metric::Trc) > best;
        }
        least
            .iter()
            .zip(&totals)
            .fold(false, |above, (&least, &total)| {
                above | (least > best * total)
            })
    }
}

/// `amounts` (time-major rows of `K`) added up kind by kind, in no particular order: even
/// and odd rows into two sums, so that neither waits on the other.
#[inline(always)]
fn total<const K: usize>(amounts: &[f64]) -> [f64; K] {
    let mut pairs = amounts.chunks_exact(K.saturating_mul(2));
    let (mut even, mut odd) = ([0.0; K], [0.0; K]);
    for pair in &mut pairs {
        let (first, second) = pair.split_at(K);
        for ((even, odd), (&a, &b)) in even
            .iter_mut()
            .zip(odd.iter_mut())
            .zip(first.iter().zip(second))
        {
            *even += a;
            *odd += b;
        }
    }
    for (even, &a) in even.iter_mut().zip(pairs.remainder()) {
        *even += a;
    }
    for (even, &odd) in even.iter_mut().zip(&odd) {
        *even += odd;
    }
    even
}

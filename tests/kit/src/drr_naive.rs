//! Naive references for DRR (Liu, Xu: *Elasecutor: Elastic Executor Scheduling in Data
//! Analytics Systems*, IEEE/ACM Transactions on Networking, 2021; §III-B, §III-C, §IV-C),
//! written from the formulas of the `drr` module's documentation with no attempt at speed: the
//! models the library must match bit for bit (tests/drr_properties.rs, tests/drr_timeline.rs,
//! tests/drr_predictor.rs and the fuzz harness).
//!
//! - [`score`] and [`min_frag`]: a placement's score and Algorithm 1 by exhaustive search each
//!   round, with no memory of earlier misfits;
//! - [`Timeline`]: a machine's running executors as a list, `AR` recomputed from them from
//!   scratch whenever it is asked for;
//! - [`Predictor`]: every run of every application in a list, the prediction averaged from
//!   the list's tail.

use fairsched::drr::{Metric, MAX_STEPS};
use fairsched::Error;

/// The score of `demand` on a machine (`capacity`, `available`, `t_run`) under `metric`, or
/// `None` when it does not fit: the sums taken step by step, as the `drr` module defines them.
pub fn score(
    capacity: &[f64],
    available: &[f64],
    t_run: usize,
    demand: &[f64],
    metric: Metric,
) -> Option<f64> {
    let m = capacity.len();
    let steps = demand.len() / m;
    let at = |series: &[f64], t: usize, r: usize| series[t * m + r];
    let fits = (0..steps).all(|t| (0..m).all(|r| at(demand, t, r) <= at(available, t, r)));
    if !fits {
        return None;
    }
    let t_star = t_run.min(steps);
    let share = |r: usize| {
        let idle: f64 = (0..t_star)
            .map(|t| at(available, t, r) - at(demand, t, r))
            .sum();
        let total: f64 = (0..t_star).map(|_| capacity[r]).sum();
        idle / total
    };
    let peak = |r: usize| (0..steps).map(|t| at(demand, t, r)).fold(0.0, f64::max);
    Some(match metric {
        Metric::Drr => (0..m).map(share).fold(0.0, f64::max),
        Metric::Trc => (0..m).map(share).sum(),
        Metric::Tetris => (0..m)
            .map(|r| peak(r) / capacity[r] * (available[r] / capacity[r]))
            .sum(),
    })
}

/// Algorithm 1 on the machine (`capacity`, `available`, `t_run`) over executors `series`,
/// executor `i` standing for `counts[i]` copies, placing at most `limit`: each round scores
/// every executor with copies left and takes the best (strictly better only, so ties keep the
/// lower index). Returns the indices placed, in order, and `t_run` afterwards; `available` is
/// updated in place.
pub fn min_frag(
    capacity: &[f64],
    available: &mut [f64],
    t_run: usize,
    series: &[&[f64]],
    counts: &[u32],
    metric: Metric,
    limit: usize,
) -> (Vec<u32>, usize) {
    let kinds = capacity.len();
    let mut left = counts.to_vec();
    let mut t_run = t_run;
    let mut placed = Vec::new();
    while placed.len() < limit {
        let mut best: Option<(usize, f64)> = None;
        for (i, demand) in series.iter().enumerate() {
            if left[i] == 0 {
                continue;
            }
            if let Some(s) = score(capacity, available, t_run, demand, metric) {
                let better = |b: f64| match metric {
                    Metric::Tetris => s > b,
                    _ => s < b,
                };
                if best.is_none_or(|(_, b)| better(b)) {
                    best = Some((i, s));
                }
            }
        }
        let Some((i, _)) = best else { break };
        for (have, need) in available.iter_mut().zip(series[i]) {
            *have -= need;
        }
        t_run = t_run.min(series[i].len() / kinds);
        left[i] -= 1;
        placed.push(i as u32);
    }
    (placed, t_run)
}

/// The steps of a series of `kinds` kinds, or the error of its length: the first checks of
/// `Executor::new(demand, kinds)`, for the references' own validation.
fn check_shape(demand: &[f64], kinds: usize) -> Result<usize, Error> {
    if !demand.len().is_multiple_of(kinds) {
        return Err(Error::LengthMismatch);
    }
    let steps = demand.len() / kinds;
    if steps == 0 {
        return Err(Error::Empty);
    }
    if steps > MAX_STEPS {
        return Err(Error::CapacityFull);
    }
    Ok(steps)
}

/// Every amount finite and not negative.
fn check_amounts(amounts: &[f64]) -> Result<(), Error> {
    for &a in amounts {
        if !a.is_finite() {
            return Err(Error::NotFinite);
        }
        if a < 0.0 {
            return Err(Error::Negative);
        }
    }
    Ok(())
}

/// One running executor of the naive timeline.
#[derive(Clone, Debug)]
pub struct Running {
    pub id: u64,
    pub start: u64,
    pub series: Vec<f64>,
}

/// A machine's timeline as a list of running executors in placement order.
#[derive(Clone, Debug)]
pub struct Timeline {
    pub capacity: Vec<f64>,
    pub horizon: usize,
    /// The most executors running at once.
    pub slots: usize,
    pub now: u64,
    pub next_id: u64,
    pub running: Vec<Running>,
}

impl Timeline {
    /// At step 0 with nothing running; ids from 1.
    pub fn new(capacity: &[f64], horizon: usize, slots: usize) -> Self {
        Timeline {
            capacity: capacity.to_vec(),
            horizon,
            slots,
            now: 0,
            next_id: 1,
            running: Vec::new(),
        }
    }

    fn kinds(&self) -> usize {
        self.capacity.len()
    }

    fn end(&self, e: &Running) -> u64 {
        e.start + (e.series.len() / self.kinds()) as u64
    }

    /// `AR` from scratch: the capacity minus every executor running at each step, in
    /// placement order, one subtraction at a time. `scaled`: one executor's series replaced.
    fn available_with(&self, scaled: Option<(u64, &[f64])>) -> Vec<f64> {
        let k = self.kinds();
        let mut out = Vec::with_capacity(self.horizon * k);
        for t in 0..self.horizon as u64 {
            let at = self.now + t;
            for r in 0..k {
                let mut value = self.capacity[r];
                for e in &self.running {
                    if at < self.end(e) {
                        let series = match scaled {
                            Some((id, series)) if id == e.id => series,
                            _ => &e.series,
                        };
                        value -= series[(at - e.start) as usize * k + r];
                    }
                }
                out.push(value);
            }
        }
        out
    }

    /// `AR`, recomputed from the running executors.
    pub fn available(&self) -> Vec<f64> {
        self.available_with(None)
    }

    /// The steps until the first series ends, `H` with none running.
    pub fn t_run(&self) -> usize {
        self.running
            .iter()
            .map(|e| (self.end(e) - self.now) as usize)
            .min()
            .unwrap_or(self.horizon)
            .min(self.horizon)
    }

    /// Moves time on; executors whose series ended are let go (their number returned).
    pub fn advance(&mut self, steps: u64) -> Result<usize, Error> {
        let now = self
            .now
            .checked_add(steps)
            .filter(|&n| n <= u64::MAX - MAX_STEPS as u64)
            .ok_or(Error::OutOfRange)?;
        self.now = now;
        let before = self.running.len();
        let running = std::mem::take(&mut self.running);
        self.running = running.into_iter().filter(|e| self.end(e) > now).collect();
        Ok(before - self.running.len())
    }

    /// Places `demand` now with the next id.
    pub fn place(&mut self, demand: &[f64]) -> Result<u64, Error> {
        let steps = check_shape(demand, self.kinds())?;
        check_amounts(demand)?;
        if steps > self.horizon {
            return Err(Error::OutOfRange);
        }
        if self.running.len() >= self.slots {
            return Err(Error::CapacityFull);
        }
        let available = self.available();
        if demand
            .iter()
            .zip(&available)
            .any(|(need, have)| need > have)
        {
            return Err(Error::DoesNotFit);
        }
        Ok(self.hold(demand))
    }

    fn hold(&mut self, demand: &[f64]) -> u64 {
        let id = self.next_id;
        self.running.push(Running {
            id,
            start: self.now,
            series: demand.to_vec(),
        });
        self.next_id += 1;
        id
    }

    /// Releases `id`.
    pub fn release(&mut self, id: u64) -> Result<(), Error> {
        let at = self
            .running
            .iter()
            .position(|e| e.id == id)
            .ok_or(Error::UnknownId)?;
        self.running.remove(at);
        Ok(())
    }

    /// Scales `id`'s series from now on by observed / predicted (1 where predicted is 0).
    pub fn reprovision(
        &mut self,
        id: u64,
        observed: &[f64],
        predicted: &[f64],
    ) -> Result<(), Error> {
        let k = self.kinds();
        if observed.len() != k || predicted.len() != k {
            return Err(Error::LengthMismatch);
        }
        check_amounts(observed)?;
        check_amounts(predicted)?;
        let at = self
            .running
            .iter()
            .position(|e| e.id == id)
            .ok_or(Error::UnknownId)?;
        let e = &self.running[at];
        let done = (self.now - e.start) as usize * k;
        let mut series = e.series.clone();
        for (i, amount) in series.iter_mut().enumerate().skip(done) {
            let (u, p) = (observed[i % k], predicted[i % k]);
            if p > 0.0 {
                *amount *= u / p;
            }
        }
        if !series.iter().all(|a| a.is_finite()) {
            return Err(Error::OutOfRange);
        }
        if self
            .available_with(Some((id, &series)))
            .iter()
            .any(|&a| a < 0.0)
        {
            return Err(Error::DoesNotFit);
        }
        self.running[at].series = series;
        Ok(())
    }

    /// A heartbeat over `series` (each of the machine's kinds, within the horizon) with
    /// `counts` copies each, placing at most `room` (the placements' length): the indices
    /// placed and the first id.
    pub fn heartbeat(
        &mut self,
        series: &[&[f64]],
        counts: &[u32],
        metric: Metric,
        room: usize,
    ) -> Result<(Vec<u32>, u64), Error> {
        for demand in series {
            if demand.len() / self.kinds() > self.horizon {
                return Err(Error::OutOfRange);
            }
        }
        if counts.len() != series.len() {
            return Err(Error::LengthMismatch);
        }
        let limit = room.min(self.slots - self.running.len());
        let mut available = self.available();
        let (placed, _) = min_frag(
            &self.capacity,
            &mut available,
            self.t_run(),
            series,
            counts,
            metric,
            limit,
        );
        let first = self.next_id;
        for &i in &placed {
            self.hold(series[i as usize]);
        }
        Ok((placed, first))
    }
}

/// Every run of every application, in a list; predictions averaged from its tail.
#[derive(Clone, Debug)]
pub struct Predictor {
    pub kinds: usize,
    pub window: usize,
    pub steps: usize,
    pub capacity: usize,
    pub applications: Vec<(u64, Vec<Vec<f64>>)>,
}

impl Predictor {
    pub fn new(capacity: usize, kinds: usize, window: usize, steps: usize) -> Self {
        Predictor {
            kinds,
            window,
            steps,
            capacity,
            applications: Vec::new(),
        }
    }

    fn runs_of(&self, id: u64) -> Option<&Vec<Vec<f64>>> {
        self.applications
            .iter()
            .find(|(a, _)| *a == id)
            .map(|(_, runs)| runs)
    }

    /// The runs kept: at most the window.
    pub fn runs(&self, id: u64) -> usize {
        self.runs_of(id)
            .map_or(0, |runs| runs.len().min(self.window))
    }

    pub fn record(&mut self, id: u64, run: &[f64]) -> Result<(), Error> {
        let steps = check_shape(run, self.kinds)?;
        if steps > self.steps {
            return Err(Error::CapacityFull);
        }
        check_amounts(run)?;
        let full = self.applications.len() == self.capacity;
        match self.applications.iter_mut().find(|(a, _)| *a == id) {
            Some((_, runs)) => runs.push(run.to_vec()),
            None if full => return Err(Error::CapacityFull),
            None => self.applications.push((id, vec![run.to_vec()])),
        }
        Ok(())
    }

    pub fn forget(&mut self, id: u64) -> Result<(), Error> {
        let at = self
            .applications
            .iter()
            .position(|(a, _)| *a == id)
            .ok_or(Error::UnknownId)?;
        self.applications.remove(at);
        Ok(())
    }

    /// The series and the runs averaged (0 for the peak).
    pub fn predict(&self, id: u64, peak: &[f64], steps: u32) -> Result<(Vec<f64>, usize), Error> {
        if peak.len() != self.kinds {
            return Err(Error::LengthMismatch);
        }
        check_amounts(peak)?;
        let steps = steps as usize;
        if steps == 0 {
            return Err(Error::Empty);
        }
        if steps > MAX_STEPS || steps > self.steps {
            return Err(Error::CapacityFull);
        }
        let runs = self.runs_of(id).filter(|runs| runs.len() >= self.window);
        let Some(runs) = runs else {
            return Ok((peak.repeat(steps), 0));
        };
        let last = &runs[runs.len() - self.window..];
        let k = self.kinds;
        let longest = last.iter().map(|r| r.len() / k).max().unwrap();
        let mut out = Vec::new();
        for t in 0..longest {
            for r in 0..k {
                let reached: Vec<f64> = last
                    .iter()
                    .filter(|run| run.len() / k > t)
                    .map(|run| run[t * k + r])
                    .collect();
                let mut sum = 0.0;
                for x in &reached {
                    sum += x;
                }
                out.push(sum / reached.len() as f64);
            }
        }
        Ok((out, self.window))
    }
}

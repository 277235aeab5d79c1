//! DRR and MinFrag: random machines and executors (valid and not: no or too many kinds,
//! amounts NaN, negative or above the capacity, t_run outside the horizon, executors running
//! past it, unknown metrics, lengths that do not match) through the five stateless exports:
//! what a failed call must leave as it was is its output and in-out arrays. Between them, the
//! two DRR objects, a machine's timeline (module `drr_timeline`) and the predictor
//! (module `drr_predictor`), built from the first bytes, take their own random calls.
//!
//! After every successful call: no output is NaN; a MinFrag heartbeat places distinct
//! pending executors, never more than given, and leaves the machine's available amounts
//! between zero and what they were, with a t_run no later than before; a machine an executor
//! does not fit scores the metric's worst value (+∞, for Tetris -∞); reprovisioning never
//! produces a negative amount; reprovisioning's trigger flags exactly the executors past rho
//! times their expected time, and counts them.

use super::drr_predictor::Predictor;
use super::drr_timeline::Timeline;
use super::input::Input;
use super::watch::{no_nan, Out, Watch};
use fairsched::ffi::drr::*;

/// Runs the DRR target on `data`.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let mut timeline = Timeline::build(&mut input);
    let mut predictor = Predictor::build(&mut input);
    while !input.is_empty() {
        match input.below(7) {
            0 => machine(&mut input),
            1 => min_frag(&mut input),
            2 => score_machines(&mut input),
            3 => reprovision(&mut input),
            4 => reprovision_due(&mut input),
            5 => {
                if let Some(timeline) = &mut timeline {
                    timeline.step(&mut input);
                }
            }
            _ => {
                if let Some(predictor) = &mut predictor {
                    predictor.step(&mut input);
                }
            }
        }
    }
}

/// Reprovisioning's trigger on up to 4 random executors with a random rho.
fn reprovision_due(input: &mut Input) {
    let n = input.below(5);
    let elapsed: Vec<f64> = (0..n).map(|_| amount(input)).collect();
    let expected: Vec<f64> = (0..input.skewed(n)).map(|_| amount(input)).collect();
    let rho = if input.one_in(8) {
        input.number()
    } else {
        FAIRSCHED_DRR_RHO
    };
    let mut due = vec![false; input.skewed(n)];
    let mut count = usize::MAX;
    let watch = Watch::new().slice(&due).value(&count);
    let status = unsafe {
        fairsched_drr_reprovision_due(
            input.reads(&elapsed),
            elapsed.len(),
            input.reads(&expected),
            expected.len(),
            rho,
            input.or_null(due.as_mut_ptr()),
            due.len(),
            input.or_null(&mut count),
        )
    };
    if watch.check("fairsched_drr_reprovision_due", status) {
        for ((&d, &e), &x) in due.iter().zip(&elapsed).zip(&expected) {
            assert_eq!(d, e > rho * x, "{e} against {rho} times {x}");
        }
        assert_eq!(count, due.iter().filter(|&&d| d).count());
    }
}

/// An amount: mostly a small whole number, once in a while any number.
fn amount(input: &mut Input) -> f64 {
    if input.one_in(32) {
        input.number()
    } else {
        input.below(5) as f64
    }
}

/// A random machine: `kinds` capacities, `steps` steps of available amounts (mostly within
/// the capacity) and a t_run (mostly within the horizon).
struct Machine {
    kinds: usize,
    capacity: Vec<f64>,
    available: Vec<f64>,
    t_run: u32,
}

impl Machine {
    fn random(input: &mut Input, kinds: usize, steps: usize) -> Self {
        let capacity: Vec<f64> = (0..kinds).map(|_| 1.0 + amount(input)).collect();
        let available = (0..steps * kinds)
            .map(|i| {
                capacity[i % kinds] * input.below(3) as f64 / 2.0 + f64::from(input.one_in(64))
            })
            .collect();
        let t_run = input.below(steps + 2) as u32;
        Machine {
            kinds,
            capacity,
            available,
            t_run,
        }
    }
}

/// Kinds (0 to 3: 0 is invalid) and steps (1 to 4) of a random call.
fn shape(input: &mut Input) -> (usize, usize) {
    (input.below(4), 1 + input.below(4))
}

/// One machine's θ(j) and TRC.
fn machine(input: &mut Input) {
    let (kinds, steps) = shape(input);
    let m = Machine::random(input, kinds, steps);
    let (mut drr, mut trc) = (f64::NAN, f64::NAN);
    let watch = Watch::new().value(&drr).value(&trc);
    let status = unsafe {
        fairsched_drr_machine(
            input.reads(&m.capacity),
            m.kinds,
            input.reads(&m.available),
            input.skewed(m.available.len()).min(m.available.len()),
            m.t_run,
            input.or_null(&mut drr),
            input.or_null(&mut trc),
        )
    };
    if watch.check("fairsched_drr_machine", status) {
        no_nan("machine", &[drr, trc]);
    }
}

/// One MinFrag heartbeat over random pending executors.
fn min_frag(input: &mut Input) {
    let (kinds, steps) = shape(input);
    let mut m = Machine::random(input, kinds, steps);
    let executors = input.below(6);
    let runs: Vec<u32> = (0..executors)
        .map(|_| input.below(steps + 2) as u32)
        .collect();
    let demands: Vec<f64> = (0..runs.iter().sum::<u32>() as usize * kinds)
        .map(|_| amount(input))
        .collect();
    let demands_len = input.skewed(demands.len()).min(demands.len());
    let mut placements = vec![u32::MAX; input.skewed(executors)];
    let mut beat = Out::<FairschedDrrHeartbeat>::new();
    let before = m.available.clone();
    let watch = Watch::new()
        .slice(&m.available)
        .slice(&placements)
        .out(&beat);
    let status = unsafe {
        fairsched_drr_min_frag(
            input.reads(&m.capacity),
            m.kinds,
            input.or_null(m.available.as_mut_ptr()),
            m.available.len(),
            m.t_run,
            input.reads(&demands),
            demands_len,
            input.reads(&runs),
            executors,
            input.below(4) as u32,
            input.or_null(placements.as_mut_ptr()),
            placements.len(),
            input.or_null(beat.ptr()),
        )
    };
    if !watch.check("fairsched_drr_min_frag", status) {
        return;
    }
    let beat = beat.into_inner();
    no_nan("heartbeat", &[m.available.as_slice(), &[beat.drr]].concat());
    assert!(
        beat.placed <= executors && beat.t_run <= m.t_run,
        "placed {} of {executors}",
        beat.placed
    );
    let placed = &placements[..beat.placed];
    assert!(
        placed.iter().all(|&i| (i as usize) < executors),
        "{placed:?}"
    );
    assert!(
        placed
            .iter()
            .enumerate()
            .all(|(n, i)| !placed[..n].contains(i)),
        "{placed:?}"
    );
    for (after, before) in m.available.iter().zip(&before) {
        assert!(
            (0.0..=*before).contains(after),
            "available {before} became {after}"
        );
    }
}

/// One executor scored on a few random machines sharing kinds and a horizon.
fn score_machines(input: &mut Input) {
    let (kinds, steps) = shape(input);
    let machines: Vec<Machine> = (0..input.below(4))
        .map(|_| Machine::random(input, kinds, steps))
        .collect();
    let capacities: Vec<f64> = machines.iter().flat_map(|m| m.capacity.clone()).collect();
    let available: Vec<f64> = machines.iter().flat_map(|m| m.available.clone()).collect();
    let t_runs: Vec<u32> = machines.iter().map(|m| m.t_run).collect();
    let demand: Vec<f64> = (0..input.below(steps + 1) * kinds)
        .map(|_| amount(input))
        .collect();
    let metric = input.below(4) as u32;
    let mut fits = vec![false; input.skewed(machines.len())];
    let mut scores = vec![f64::NAN; input.skewed(machines.len())];
    let watch = Watch::new().slice(&fits).slice(&scores);
    let status = unsafe {
        fairsched_drr_score_machines(
            input.reads(&capacities),
            capacities.len(),
            kinds,
            input.reads(&available),
            available.len(),
            input.reads(&t_runs),
            t_runs.len(),
            input.reads(&demand),
            demand.len(),
            metric,
            input.or_null(fits.as_mut_ptr()),
            fits.len(),
            input.or_null(scores.as_mut_ptr()),
            scores.len(),
        )
    };
    if watch.check("fairsched_drr_score_machines", status) {
        no_nan("scores", &scores);
        let worst = if metric == FAIRSCHED_DRR_METRIC_TETRIS {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for (&fit, &score) in fits.iter().zip(&scores) {
            assert!(
                fit || score == worst,
                "a machine that does not fit scored {score}"
            );
        }
    }
}

/// Reprovisioning a random remaining series by random observed and predicted usage.
fn reprovision(input: &mut Input) {
    let (kinds, steps) = shape(input);
    let mut remaining: Vec<f64> = (0..steps * kinds).map(|_| amount(input)).collect();
    let observed: Vec<f64> = (0..input.skewed(kinds)).map(|_| amount(input)).collect();
    let predicted: Vec<f64> = (0..input.skewed(kinds)).map(|_| amount(input)).collect();
    let watch = Watch::new().slice(&remaining);
    let status = unsafe {
        fairsched_drr_reprovision(
            input.or_null(remaining.as_mut_ptr()),
            remaining.len(),
            kinds,
            input.reads(&observed),
            observed.len(),
            input.reads(&predicted),
            predicted.len(),
        )
    };
    if watch.check("fairsched_drr_reprovision", status) {
        no_nan("reprovisioned", &remaining);
        assert!(
            remaining.iter().all(|&r| r >= 0.0),
            "negative amount in {remaining:?}"
        );
    }
}

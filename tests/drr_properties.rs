//! MinFrag on random instances against a naive reference written from the `drr` module's
//! formulas: the same choices, never an over-committed resource, DRR in [0, 1] (the Elasecutor
//! paper, IEEE/ACM Transactions on Networking, 2021, §III-B2).

use fairsched::drr::{min_frag, score_machines, Executor, Executors, Machine, Machines, Metric};
use fairsched_testkit::drr_naive;
use quickcheck::{Arbitrary, Gen, QuickCheck};

/// A machine and pending executors: 1-4 kinds, 1-12 steps, 0-8 executors. Amounts are small
/// integers (so sums are exact and ties common) or, with `fractional`, arbitrary fractions.
#[derive(Clone, Debug)]
struct Instance {
    kinds: usize,
    capacity: Vec<f64>,
    available: Vec<f64>,
    t_run: u32,
    demands: Vec<f64>,
    steps: Vec<u32>,
}

impl Instance {
    fn generate(g: &mut Gen, fractional: bool) -> Self {
        let kinds = usize::arbitrary(g) % 4 + 1;
        let horizon = usize::arbitrary(g) % 12 + 1;
        let n = usize::arbitrary(g) % 9;
        let amount = |g: &mut Gen, top: f64| {
            let x = f64::from(u16::arbitrary(g)) / f64::from(u16::MAX) * top;
            if fractional {
                x
            } else {
                x.round()
            }
        };
        let capacity: Vec<f64> = (0..kinds).map(|_| amount(g, 9.0) + 1.0).collect();
        let available = (0..horizon * kinds)
            .map(|i| amount(g, capacity[i % kinds]))
            .collect();
        let steps: Vec<u32> = (0..n)
            .map(|_| (usize::arbitrary(g) % horizon + 1) as u32)
            .collect();
        let total: usize = steps.iter().map(|&t| t as usize).sum();
        let demands = (0..total * kinds)
            .map(|i| amount(g, capacity[i % kinds] / 2.0))
            .collect();
        Instance {
            kinds,
            t_run: (usize::arbitrary(g) % horizon + 1) as u32,
            capacity,
            available,
            demands,
            steps,
        }
    }

    fn executors(&self) -> Executors<'_> {
        Executors::new(&self.demands, &self.steps, self.kinds).unwrap()
    }

    fn series(&self) -> Vec<&[f64]> {
        self.executors().iter().map(|e| e.demand()).collect()
    }
}

impl Arbitrary for Instance {
    fn arbitrary(g: &mut Gen) -> Self {
        Instance::generate(g, false)
    }
}

/// The same with fractional amounts.
#[derive(Clone, Debug)]
struct Fractional(Instance);

impl Arbitrary for Fractional {
    fn arbitrary(g: &mut Gen) -> Self {
        Fractional(Instance::generate(g, true))
    }
}

/// Algorithm 1 by exhaustive search each round (the kit's naive MinFrag, every executor once).
fn naive_min_frag(instance: &Instance, metric: Metric) -> (Vec<u32>, Vec<f64>, usize) {
    let series = instance.series();
    let mut available = instance.available.clone();
    let (placed, t_run) = drr_naive::min_frag(
        &instance.capacity,
        &mut available,
        instance.t_run as usize,
        &series,
        &vec![1; series.len()],
        metric,
        series.len(),
    );
    (placed, available, t_run)
}

fn run(instance: &Instance, metric: Metric) -> (Vec<u32>, Vec<f64>, u32, f64) {
    let mut available = instance.available.clone();
    let mut placements = vec![u32::MAX; instance.steps.len()];
    let beat = min_frag(
        &instance.capacity,
        &mut available,
        instance.t_run,
        &instance.executors(),
        metric,
        &mut placements,
    )
    .unwrap();
    placements.truncate(beat.placed);
    (placements, available, beat.t_run, beat.drr)
}

const METRICS: [Metric; 3] = [Metric::Drr, Metric::Trc, Metric::Tetris];

#[test]
fn min_frag_chooses_the_exhaustive_argmin_every_round() {
    fn property(instance: Instance) -> bool {
        METRICS.iter().all(|&metric| {
            let (placed, available, t_run, _) = run(&instance, metric);
            let (naive, naive_available, naive_t_run) = naive_min_frag(&instance, metric);
            placed == naive && available == naive_available && t_run as usize == naive_t_run
        })
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(property as fn(Instance) -> bool);
}

#[test]
fn placements_never_over_commit_and_stop_when_nothing_fits() {
    fn property(instance: Fractional) -> bool {
        let instance = instance.0;
        let series = instance.series();
        let m = instance.kinds;
        METRICS.iter().all(|&metric| {
            let (placed, available, _, _) = run(&instance, metric);
            // Everything placed, added up step by step, stays within what was available.
            let mut used = vec![0.0; instance.available.len()];
            for &i in &placed {
                for (u, need) in used.iter_mut().zip(series[i as usize]) {
                    *u += need;
                }
            }
            let within = used.iter().zip(&instance.available).all(|(u, a)| u <= a)
                && available.iter().all(|&a| a >= 0.0);
            // Nothing left over fits.
            let machine = Machine::new(&instance.capacity, &available, 1).unwrap();
            let done = (0..series.len())
                .filter(|i| !placed.contains(&(*i as u32)))
                .all(|i| !machine.fits(&Executor::new(series[i], m).unwrap()).unwrap());
            within && done
        })
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(property as fn(Fractional) -> bool);
}

#[test]
fn drr_stays_in_unit_interval_and_trc_within_kinds() {
    fn property(instance: Fractional) -> bool {
        let instance = instance.0;
        let machine = Machine::new(&instance.capacity, &instance.available, instance.t_run);
        let machine = machine.unwrap();
        let in_unit = |x: f64| (0.0..=1.0).contains(&x);
        let kinds = instance.kinds as f64;
        in_unit(machine.drr())
            && (0.0..=kinds).contains(&machine.trc())
            && instance.executors().iter().all(|executor| {
                let drr = machine.score(&executor, Metric::Drr).unwrap();
                let trc = machine.score(&executor, Metric::Trc).unwrap();
                drr.is_none_or(in_unit) && trc.is_none_or(|t| (0.0..=kinds).contains(&t))
            })
            && in_unit(run(&instance, Metric::Drr).3)
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(property as fn(Fractional) -> bool);
}

#[test]
fn scoring_across_machines_agrees_with_one_at_a_time() {
    /// Each executor of an instance against every machine of three instances with its kinds and
    /// horizon (the first one's, repeated with other availabilities).
    fn property(a: Fractional, seed: u64) -> bool {
        let a = a.0;
        let mut g = Gen::new(seed as usize % 100 + 1);
        let others: Vec<Instance> = (0..2)
            .map(|_| Instance::generate(&mut g, true))
            .filter(|o| o.kinds == a.kinds && o.available.len() == a.available.len())
            .collect();
        let all: Vec<&Instance> = std::iter::once(&a).chain(&others).collect();
        let capacities: Vec<f64> = all.iter().flat_map(|i| i.capacity.clone()).collect();
        let available: Vec<f64> = all.iter().flat_map(|i| i.available.clone()).collect();
        let t_runs: Vec<u32> = all.iter().map(|i| i.t_run).collect();
        let machines = Machines::new(&capacities, a.kinds, &available, &t_runs).unwrap();
        let agree = a.executors().iter().all(|executor| {
            METRICS.iter().all(|&metric| {
                let mut fits = vec![false; all.len()];
                let mut scores = vec![0.0; all.len()];
                score_machines(&machines, &executor, metric, &mut fits, &mut scores).unwrap();
                all.iter().enumerate().all(|(j, i)| {
                    let single = Machine::new(&i.capacity, &i.available, i.t_run).unwrap();
                    let score = single.score(&executor, metric).unwrap();
                    fits[j] == score.is_some() && scores[j] == score.unwrap_or(metric.worst())
                })
            })
        });
        agree
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(property as fn(Fractional, u64) -> bool);
}

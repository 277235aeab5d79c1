//! PAF: one workspace for up to 8 jobs in caller memory at a random alignment, running
//! Algorithm 1 (both methods) and enforcement on random jobs, and the stateless Ernest fit,
//! tabulation, curve check and concave envelope in between. One step in 32 (first byte 0xa0 to
//! 0xa7) instead builds a curve from task durations with `fairsched_paf_curve_from_tasks`, on
//! random arguments (no task, durations NaN, ±∞, negative, -0, huge or summing beyond
//! `f64::MAX`, all 0, a warm-up factor below 1, NaN or ∞, an output one point too long or too
//! short, a scratch one short, NULL pointers).
//!
//! After every successful call: no output is NaN; an allocation hands out
//! `min(slots, Σ demands)` slots, each job between its minAlloc and its demand, the progress
//! written is the curve's at the slots given, PAF's total progress is at least fair sharing's,
//! no job loses more than `1 - α`, and the literal and fast methods agree bit for bit;
//! enforcement gives no job more than it lacks, and stops only when the slots or the lacks run
//! out; an Ernest fit is non-negative, a tabulated curve never falls, an envelope lies on or
//! above its curve. A curve built from tasks starts at +0, never falls, stays within [0, 1], is
//! below 1 before the fewest slots whose `profile::makespan` is the least and exactly 1 from
//! there on; the shortest JCT written is that least makespan, bit for bit; and the curve and
//! the JCT are `profile::curve_from_tasks`'s, called directly, bit for bit.

use super::input::Input;
use super::watch::{no_nan, Block, Out, Watch};
use super::Target;
use fairsched::ffi::paf::*;
use fairsched::paf::profile;
use std::ptr;

/// Runs the PAF target on `data`.
pub fn run(data: &[u8]) {
    super::drive::<Workspace>(data);
}

/// A progress curve of `demand + 1` points: mostly valid (0, then never falling), with a
/// random number in place of a point once in a while.
fn random_curve(input: &mut Input, demand: usize) -> Vec<f64> {
    let mut total = 0.0;
    (0..=demand)
        .map(|x| {
            if input.one_in(24) {
                input.number()
            } else {
                total += if x == 0 {
                    0.0
                } else {
                    input.below(8) as f64 / 4.0
                };
                total
            }
        })
        .collect()
}

/// The per-job outputs of one allocation.
#[derive(Clone, Debug)]
struct Outputs {
    fair: Vec<u32>,
    min: Vec<u32>,
    paf: Vec<u32>,
    fair_progress: Vec<f64>,
    paf_progress: Vec<f64>,
    totals: [u64; 5],
}

/// Bit for bit, so that the NaN progress of a job without a curve compares equal to itself.
impl PartialEq for Outputs {
    fn eq(&self, other: &Self) -> bool {
        let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        (&self.fair, &self.min, &self.paf, self.totals)
            == (&other.fair, &other.min, &other.paf, other.totals)
            && bits(&self.fair_progress) == bits(&other.fair_progress)
            && bits(&self.paf_progress) == bits(&other.paf_progress)
    }
}

/// Random jobs in the flat layout: weights, curve offsets and the curves' points.
struct Jobs {
    weights: Vec<u32>,
    offsets: Vec<u32>,
    points: Vec<f64>,
}

impl Jobs {
    fn random(input: &mut Input) -> Self {
        let jobs = input.below(10);
        let weights = (0..jobs).map(|_| input.count(3) as u32).collect();
        let mut offsets = vec![0];
        let mut points = Vec::new();
        for _ in 0..jobs {
            let demand = input.below(7);
            points.extend(random_curve(input, demand));
            offsets.push(points.len() as u32);
        }
        // Offsets that do not start at 0 or do not end at the last point (always `jobs + 1`
        // of them: the export reads that many).
        if input.one_in(16) {
            offsets[0] = 1;
        }
        if let Some(last) = offsets.last_mut().filter(|_| input.one_in(16)) {
            *last += 1;
        }
        Jobs {
            weights,
            offsets,
            points,
        }
    }

    /// Job `j`'s curve (the jobs were accepted, so the offsets are valid).
    fn curve(&self, j: usize) -> &[f64] {
        &self.points[self.offsets[j] as usize..self.offsets[j + 1] as usize]
    }
}

/// The workspace under test. Its memory is scratch space that holds nothing between calls,
/// so it is not watched: what a failed call must leave as it was is its outputs.
struct Workspace {
    _memory: Block,
    handle: *mut FairschedPaf,
}

impl Target for Workspace {
    /// Asks for the storage size and builds the workspace, either possibly invalid.
    fn init(input: &mut Input) -> Option<Self> {
        let capacity = input.below(9) as u32;
        let (block, handle) = Block::build(
            input,
            "fairsched_paf",
            |size| unsafe { fairsched_paf_storage_size(capacity, size) },
            |memory, len, out| unsafe { fairsched_paf_init(memory, len, capacity, out) },
        )?;
        Some(Workspace {
            _memory: block,
            handle,
        })
    }

    /// A step's first byte picks the call (modulo 6); eight values (one in 32) build a curve
    /// from task durations instead. Those are values no step of the inputs saved before that
    /// export starts with, so that the saved corpus decodes as it did.
    fn step(&mut self, input: &mut Input) {
        match input.byte() {
            FROM_TASKS_FIRST..=FROM_TASKS_LAST => curve_from_tasks(input),
            b => match b % 6 {
                0 | 1 => self.allocate(input),
                2 => self.enforce(input),
                3 => ernest(input),
                _ => curve(input),
            },
        }
    }
}

impl Workspace {
    /// Algorithm 1 on random jobs by a random method, then by the other one.
    fn allocate(&self, input: &mut Input) {
        let jobs = Jobs::random(input);
        let slots = input.count(40) as u32;
        let alpha = if input.one_in(8) {
            input.number()
        } else {
            input.below(5) as f64 / 4.0
        };
        let method = input.below(3) as u32;
        let null = input.one_in(16);
        let Some(first) = self.run_allocate(&jobs, slots, alpha, method, null) else {
            return;
        };
        let other = FAIRSCHED_PAF_LITERAL + FAIRSCHED_PAF_FAST - method;
        let second = self.run_allocate(&jobs, slots, alpha, other, false);
        assert_eq!(
            second.as_ref(),
            Some(&first),
            "the literal and fast methods differ"
        );

        let n = jobs.weights.len();
        let demands = (0..n).map(|j| jobs.curve(j).len() as u64 - 1);
        let [given, _moved, fair_progress, paf_progress, largest_loss] = first.totals;
        let [fair_progress, paf_progress, largest_loss] =
            [fair_progress, paf_progress, largest_loss].map(f64::from_bits);
        no_nan("PAF totals", &[fair_progress, paf_progress, largest_loss]);
        // A job whose points are all NaN has no curve (PAF §IV-A): it keeps its fair share and
        // its progress is NaN; every other job's progress is a number.
        let has_curve = |j: usize| !jobs.curve(j).iter().all(|p| p.is_nan());
        let with_curves: Vec<f64> = (0..n)
            .filter(|&j| has_curve(j))
            .flat_map(|j| [first.fair_progress[j], first.paf_progress[j]])
            .collect();
        no_nan("PAF progress", &with_curves);
        assert_eq!(given, u64::from(slots).min(demands.sum()), "slots given");
        assert_eq!(first.paf.iter().map(|&s| u64::from(s)).sum::<u64>(), given);
        assert_eq!(first.fair.iter().map(|&s| u64::from(s)).sum::<u64>(), given);
        assert!(
            paf_progress >= fair_progress,
            "PAF lost progress: {first:?}"
        );
        assert!(
            largest_loss <= 1.0 - alpha + 1e-12,
            "a job lost more than 1 - α: {first:?}"
        );
        for j in 0..n {
            let curve = jobs.curve(j);
            let (fair, min, paf) = (first.fair[j], first.min[j], first.paf[j]);
            let demand = curve.len() - 1;
            assert!(min <= paf && paf as usize <= demand && fair as usize <= demand);
            if !has_curve(j) {
                assert_eq!((min, paf), (fair, fair), "job {j} without a curve moved");
                assert!(first.fair_progress[j].is_nan() && first.paf_progress[j].is_nan());
                continue;
            }
            assert_eq!(
                first.fair_progress[j], curve[fair as usize],
                "fair progress of {j}"
            );
            assert_eq!(
                first.paf_progress[j], curve[paf as usize],
                "PAF progress of {j}"
            );
        }
    }

    /// One `fairsched_paf_allocate` call (with a NULL output if `null`): the outputs on
    /// success.
    fn run_allocate(
        &self,
        jobs: &Jobs,
        slots: u32,
        alpha: f64,
        method: u32,
        null: bool,
    ) -> Option<Outputs> {
        let n = jobs.weights.len();
        let mut out = Outputs {
            fair: vec![u32::MAX; n],
            min: vec![u32::MAX; n],
            paf: vec![u32::MAX; n],
            fair_progress: vec![f64::NAN; n],
            paf_progress: vec![f64::NAN; n],
            totals: [u64::MAX; 5],
        };
        let mut totals = Out::<FairschedPafTotals>::new();
        let watch = Watch::new()
            .slice(&out.fair)
            .slice(&out.min)
            .slice(&out.paf)
            .slice(&out.fair_progress)
            .slice(&out.paf_progress)
            .out(&totals);
        let nulled = |p: *mut u32| if null && n > 0 { ptr::null_mut() } else { p };
        let status = unsafe {
            fairsched_paf_allocate(
                self.handle,
                jobs.weights.as_ptr(),
                n,
                jobs.offsets.as_ptr(),
                jobs.points.as_ptr(),
                jobs.points.len(),
                slots,
                alpha,
                method,
                out.fair.as_mut_ptr(),
                out.min.as_mut_ptr(),
                nulled(out.paf.as_mut_ptr()),
                out.fair_progress.as_mut_ptr(),
                out.paf_progress.as_mut_ptr(),
                totals.ptr(),
            )
        };
        watch.check("fairsched_paf_allocate", status).then(|| {
            let t = totals.into_inner();
            out.totals = [
                t.slots,
                t.moved,
                t.fair_progress.to_bits(),
                t.paf_progress.to_bits(),
                t.largest_loss.to_bits(),
            ];
            out
        })
    }

    /// Enforcement of random targets on random running counts.
    fn enforce(&self, input: &mut Input) {
        let n = input.below(10);
        // Now and then a weight of 0, for the weight check.
        let weights: Vec<u32> = (0..n)
            .map(|_| input.below(4) as u32 + u32::from(!input.one_in(16)))
            .collect();
        let targets: Vec<u32> = (0..n).map(|_| input.below(6) as u32).collect();
        // Now and then one running count too many, for the length check.
        let running_len = n + usize::from(input.below(8) == 0);
        let running: Vec<u32> = (0..running_len).map(|_| input.below(6) as u32).collect();
        let mut given = vec![u32::MAX; input.below(12)];
        let mut assigned = usize::MAX;
        let watch = Watch::new().slice(&given).value(&assigned);
        let status = unsafe {
            fairsched_paf_enforce(
                input.or_null(self.handle),
                input.reads(&weights),
                weights.len(),
                input.reads(&targets),
                targets.len(),
                input.reads(&running),
                running.len(),
                input.or_null(given.as_mut_ptr()),
                given.len(),
                input.or_null(&mut assigned),
            )
        };
        if watch.check("fairsched_paf_enforce", status) {
            let lacks: Vec<u32> = targets
                .iter()
                .zip(&running)
                .map(|(t, r)| t.saturating_sub(*r))
                .collect();
            let mut counts = vec![0; n];
            for &j in &given[..assigned] {
                counts[j as usize] += 1;
            }
            assert!(
                counts.iter().zip(&lacks).all(|(c, l)| c <= l),
                "enforce overfilled a job"
            );
            assert_eq!(
                assigned,
                given.len().min(lacks.iter().sum::<u32>() as usize)
            );
        }
    }
}

/// An Ernest fit on random samples, then the tabulation of random coefficients.
fn ernest(input: &mut Input) {
    let samples = input.below(7);
    let slots: Vec<u32> = (0..samples).map(|_| input.count(16) as u32).collect();
    // Now and then one run time too many, for the length check.
    let runtimes_len = samples + usize::from(input.below(8) == 0);
    let runtimes: Vec<f64> = (0..runtimes_len).map(|_| input.number()).collect();
    let mut coefficients = [f64::NAN; 4];
    let watch = Watch::new().slice(&coefficients);
    let status = unsafe {
        fairsched_paf_ernest_fit(
            input.reads(&slots),
            slots.len(),
            input.reads(&runtimes),
            runtimes.len(),
            input.or_null(coefficients.as_mut_ptr()),
        )
    };
    if watch.check("fairsched_paf_ernest_fit", status) {
        assert!(
            coefficients.iter().all(|a| a.is_finite() && *a >= 0.0),
            "{coefficients:?}"
        );
    }
    let given: [f64; 4] = core::array::from_fn(|_| input.number());
    let mut points = vec![f64::NAN; input.below(9)];
    let watch = Watch::new().slice(&points);
    let status = unsafe {
        fairsched_paf_ernest_tabulate(
            input.reads(&given),
            input.or_null(points.as_mut_ptr()),
            points.len(),
        )
    };
    if watch.check("fairsched_paf_ernest_tabulate", status) {
        no_nan("tabulated curve", &points);
        assert!(
            points.windows(2).all(|w| w[0] <= w[1]),
            "the curve falls: {points:?}"
        );
    }
}

/// The curve check and the concave envelope of a random curve.
fn curve(input: &mut Input) {
    let demand = input.below(9);
    let points = random_curve(input, demand);
    let mut from = u32::MAX;
    let watch = Watch::new().value(&from);
    let status = unsafe {
        fairsched_paf_curve_check(input.reads(&points), points.len(), input.or_null(&mut from))
    };
    if watch.check("fairsched_paf_curve_check", status) {
        assert!(
            (from as usize) < points.len(),
            "concave from {from} of {points:?}"
        );
    }
    // Now and then room for one point too many, for the length check.
    let mut envelope = vec![f64::NAN; points.len() + usize::from(input.below(8) == 0)];
    let watch = Watch::new().slice(&envelope);
    let status = unsafe {
        fairsched_paf_concave_envelope(
            input.reads(&points),
            points.len(),
            input.or_null(envelope.as_mut_ptr()),
            envelope.len(),
        )
    };
    if watch.check("fairsched_paf_concave_envelope", status) {
        no_nan("envelope", &envelope);
        assert!(
            envelope.iter().zip(&points).all(|(e, p)| e >= p),
            "{envelope:?} below {points:?}"
        );
    }
}

/// The first bytes of a step that builds a curve from task durations.
const FROM_TASKS_FIRST: u8 = 0xa0;
const FROM_TASKS_LAST: u8 = 0xa7;

/// `fairsched_paf_curve_from_tasks` on random durations and warm-up factors.
fn curve_from_tasks(input: &mut Input) {
    let tasks = input.below(10);
    let durations: Vec<f64> = (0..tasks)
        .map(|_| match input.below(16) {
            // NaN, ±∞, 0, -0, -1, 2^61, f64::MAX (two of which overflow the sum), any bits.
            0 => input.number(),
            1 => 0.0,
            _ => input.below(64) as f64 / 4.0,
        })
        .collect();
    let warmup = match input.below(16) {
        0 => input.number(),
        1 => input.below(4) as f64 / 4.0,
        _ => 1.0 + input.below(16) as f64 / 2.0,
    };
    let mut scratch = vec![f64::NAN; input.skewed(tasks)];
    let mut points = vec![f64::NAN; input.skewed(tasks + 1)];
    let mut shortest = f64::NAN;
    // The scratch's contents are unspecified after the call, success or not: not watched.
    let watch = Watch::new().slice(&points).value(&shortest);
    let status = unsafe {
        fairsched_paf_curve_from_tasks(
            input.reads(&durations),
            durations.len(),
            warmup,
            input.or_null(scratch.as_mut_ptr()),
            scratch.len(),
            input.or_null(points.as_mut_ptr()),
            points.len(),
            input.or_null(&mut shortest),
        )
    };
    let export = "fairsched_paf_curve_from_tasks";
    if !watch.check(export, status) {
        return;
    }
    assert_eq!(points.len(), tasks + 1, "{export}: {points:?}");
    assert!(
        scratch.len() >= tasks,
        "{export}: scratch of {}",
        scratch.len()
    );
    assert_eq!(points[0].to_bits(), 0, "{export}: p(0) of {points:?}");
    assert!(
        points.iter().all(|p| (0.0..=1.0).contains(p)),
        "{export}: {points:?} outside [0, 1]"
    );
    assert!(
        points.windows(2).all(|w| w[0] <= w[1]),
        "{export}: {points:?} falls"
    );
    // The least makespan over 1..=d slots, and the fewest slots giving it.
    let mut heap = vec![0.0; tasks];
    let makespans: Vec<f64> = (1..=tasks as u32)
        .map(|x| {
            profile::makespan(&durations, warmup, x, &mut heap)
                .unwrap_or_else(|e| panic!("makespan on {x} slots: {e:?}"))
        })
        .collect();
    let least = makespans.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(
        shortest.to_bits(),
        least.to_bits(),
        "{export}: shortest JCT of {durations:?} at warm-up {warmup}, makespans {makespans:?}"
    );
    assert!(
        shortest.is_finite() && shortest > 0.0,
        "{export}: {shortest}"
    );
    let fewest = 1 + makespans.iter().position(|&m| m == least).unwrap_or(0);
    for (x, &p) in points.iter().enumerate().skip(1) {
        assert_eq!(
            p == 1.0,
            x >= fewest,
            "{export}: p({x}) = {p} of {points:?}, the least JCT first on {fewest} slots"
        );
    }
    let mut direct = vec![f64::NAN; tasks + 1];
    let jct = profile::curve_from_tasks(&durations, warmup, &mut vec![0.0; tasks], &mut direct);
    assert_eq!(jct.map(f64::to_bits), Ok(shortest.to_bits()), "{export}");
    assert!(
        direct
            .iter()
            .zip(&points)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "{export} wrote {points:?}, profile::curve_from_tasks {direct:?}"
    );
}

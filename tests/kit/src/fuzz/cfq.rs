//! CFQ: one scheduler of up to 16 jobs in caller memory at a random alignment, driven by random
//! arrivals, pending counts, offers, re-profiles, completions, removals, clock and slot changes
//! and queries; and one naive profiler beside it, observing durations and giving estimates
//! that re-profiles sometimes use.
//!
//! After every call, besides the no-harm contract (the profiler is watched byte for byte as
//! the scheduler's memory is): the stats agree with the jobs reachable by id, no time is NaN,
//! the clock and virtual time never go back, a job is backlogged exactly when it has pending
//! tasks, and the next slot goes to the backlogged job with the smallest (virtual finish,
//! arrival, id), which `offer` hands out first and never more slots than asked. A re-profile
//! that succeeds leaves the job with the slot-time given and, if GPS has completed it, a GPS
//! completion no later than now; an estimate is a slot-time, in `(0, 2^60]`.

use super::input::Input;
use super::watch::{no_nan, Block, Out, Watch};
use super::Target;
use fairsched::ffi::cfq::*;
use std::ptr;

/// Ids are drawn below this, so that calls hit known, unknown and duplicate ids alike.
const IDS: u64 = 10;

/// Runs the CFQ target on `data`.
pub fn run(data: &[u8]) {
    super::drive::<Scheduler>(data);
}

/// The scheduler under test and what the harness last saw of it.
struct Scheduler {
    block: Block,
    handle: *mut FairschedCfq,
    now: f64,
    virtual_time: f64,
    /// The job the next slot goes to, by the harness' own reckoning.
    next: Option<u64>,
    /// The naive profiler, in caller memory as C keeps it.
    profiler: FairschedCfqProfiler,
    /// Its last estimate, which re-profiles use once in a while.
    estimate: f64,
}

impl Target for Scheduler {
    /// Asks for the storage size and builds the scheduler, either possibly invalid (capacity
    /// or slots 0, a bad start time, memory one byte short, a NULL pointer).
    fn init(input: &mut Input) -> Option<Self> {
        let capacity = input.below(17) as u32;
        let slots = input.below(5) as u32;
        let start = if input.one_in(4) { input.number() } else { 0.0 };
        let (block, handle) = Block::build(
            input,
            "fairsched_cfq",
            |size| unsafe { fairsched_cfq_storage_size(capacity, size) },
            |memory, len, out| unsafe {
                fairsched_cfq_init(memory, len, capacity, slots, start, out)
            },
        )?;
        let mut profiler = Out::new();
        let status = unsafe { fairsched_cfq_profiler_init(profiler.ptr()) };
        assert!(Watch::new().check("fairsched_cfq_profiler_init", status));
        Some(Scheduler {
            block,
            handle,
            now: start,
            virtual_time: f64::NEG_INFINITY,
            next: None,
            profiler: profiler.into_inner(),
            estimate: 1.0,
        })
    }

    fn step(&mut self, input: &mut Input) {
        self.call(input);
        self.check();
    }
}

impl Scheduler {
    /// A time for a call: mostly now or a little later, sometimes earlier or any number.
    fn time(&self, input: &mut Input) -> f64 {
        match input.below(8) {
            0 => input.number(),
            1 => self.now - 1.0,
            b => self.now + f64::from(b as u8 - 2) * 0.75,
        }
    }

    /// One random call, checked against the no-harm contract.
    fn call(&mut self, input: &mut Input) {
        let cfq = input.or_null(self.handle);
        let id = input.below(IDS as usize) as u64;
        let state = self.block.watched(Watch::new());
        match input.below(14) {
            0 => {
                let now = self.time(input);
                let status = unsafe { fairsched_cfq_advance(cfq, now) };
                state.check("fairsched_cfq_advance", status);
            }
            1 => {
                let now = self.time(input);
                let status = unsafe { fairsched_cfq_set_slots(cfq, now, input.below(5) as u32) };
                state.check("fairsched_cfq_set_slots", status);
            }
            2 => {
                let (now, slot_time) = (self.time(input), input.number());
                let weight = input.count(3) as u32;
                let status = unsafe { fairsched_cfq_arrive(cfq, now, id, slot_time, weight) };
                state.check("fairsched_cfq_arrive", status);
            }
            3 => {
                let pending = input.count(4) as u32;
                let status = unsafe { fairsched_cfq_set_pending(cfq, id, pending) };
                state.check("fairsched_cfq_set_pending", status);
            }
            4 => {
                let len = input.below(5);
                let ids: Vec<u64> = (0..len).map(|_| input.below(IDS as usize) as u64).collect();
                let pending: Vec<u32> = (0..input.skewed(len))
                    .map(|_| input.count(4) as u32)
                    .collect();
                let status = unsafe {
                    fairsched_cfq_set_pending_batch(
                        cfq,
                        input.reads(&ids),
                        ids.len(),
                        input.reads(&pending),
                        pending.len(),
                    )
                };
                state.check("fairsched_cfq_set_pending_batch", status);
            }
            5 => self.offer(cfq, state, input),
            6 => {
                let (mut next, mut found) = (u64::MAX, false);
                let watch = Watch::new().value(&next).value(&found);
                let status = unsafe {
                    fairsched_cfq_peek(cfq, input.or_null(&mut next), input.or_null(&mut found))
                };
                state.unchanged("fairsched_cfq_peek");
                if watch.check("fairsched_cfq_peek", status) {
                    assert_eq!(found.then_some(next), self.next, "peek");
                }
            }
            7 | 8 => {
                let now = self.time(input);
                let (export, status) = if input.one_in(2) {
                    ("fairsched_cfq_complete", unsafe {
                        fairsched_cfq_complete(cfq, now, id)
                    })
                } else {
                    ("fairsched_cfq_remove", unsafe {
                        fairsched_cfq_remove(cfq, now, id)
                    })
                };
                state.check(export, status);
            }
            9 => {
                let mut time = f64::NAN;
                let watch = Watch::new().value(&time);
                let out = input.or_null(&mut time);
                let status = unsafe { fairsched_cfq_gps_completion_estimate(cfq, id, out) };
                state.unchanged("fairsched_cfq_gps_completion_estimate");
                if watch.check("fairsched_cfq_gps_completion_estimate", status) {
                    no_nan("GPS completion estimate", &[time]);
                }
            }
            10 => {
                // Half the time a job GPS still runs, so that re-profiles also succeed.
                let id = if input.one_in(2) {
                    self.in_gps(input).unwrap_or(id)
                } else {
                    id
                };
                let now = self.time(input);
                let slot_time = if input.one_in(4) {
                    self.estimate
                } else {
                    input.number()
                };
                let status = unsafe { fairsched_cfq_reprofile(cfq, now, id, slot_time) };
                if state.check("fairsched_cfq_reprofile", status) {
                    let job = self.job(id).expect("a re-profiled job is known");
                    assert_eq!(job.slot_time.to_bits(), slot_time.to_bits(), "slot-time");
                    assert!(
                        job.gps_active || job.gps_completion <= now,
                        "GPS completion"
                    );
                }
            }
            11 => self.profile(input),
            _ => {
                // Queries with a NULL out-parameter; `check` queries every job and the stats.
                let status = unsafe { fairsched_cfq_job_get(cfq, id, ptr::null_mut()) };
                Watch::new().check("fairsched_cfq_job_get", status);
                let status = unsafe { fairsched_cfq_stats_get(cfq, ptr::null_mut()) };
                Watch::new().check("fairsched_cfq_stats_get", status);
                state.unchanged("fairsched_cfq_job_get and _stats_get");
            }
        }
    }

    /// One call to the profiler: observe one duration or a batch, or estimate, with a NULL
    /// pointer once in a while; a failure leaves the profiler and the estimate as they were.
    fn profile(&mut self, input: &mut Input) {
        let profiler = input.or_null(&mut self.profiler);
        let watch = Watch::new().value(&self.profiler);
        match input.below(3) {
            0 => {
                let status = unsafe { fairsched_cfq_profiler_observe(profiler, input.number()) };
                watch.check("fairsched_cfq_profiler_observe", status);
            }
            1 => {
                let durations: Vec<f64> = (0..input.below(5)).map(|_| input.number()).collect();
                let status = unsafe {
                    fairsched_cfq_profiler_observe_batch(
                        profiler,
                        input.reads(&durations),
                        durations.len(),
                    )
                };
                watch.check("fairsched_cfq_profiler_observe_batch", status);
            }
            _ => {
                let mut estimate = f64::NAN;
                let watch = watch.value(&estimate);
                let out = input.or_null(&mut estimate);
                let tasks = input.count(64);
                let status = unsafe { fairsched_cfq_profiler_estimate(profiler, tasks, out) };
                if watch.check("fairsched_cfq_profiler_estimate", status) {
                    assert!(
                        estimate > 0.0 && estimate <= 2f64.powi(60),
                        "estimate {estimate}"
                    );
                    self.estimate = estimate;
                }
            }
        }
    }

    /// Offers up to a few slots: never more than asked, the first to the job `check` found
    /// next.
    fn offer(&mut self, cfq: *mut FairschedCfq, state: Watch, input: &mut Input) {
        let mut ids = vec![u64::MAX; input.below(6)];
        let mut assigned = usize::MAX;
        let watch = state.slice(&ids).value(&assigned);
        let status = unsafe {
            fairsched_cfq_offer(
                cfq,
                input.or_null(ids.as_mut_ptr()),
                ids.len(),
                input.or_null(&mut assigned),
            )
        };
        if watch.check("fairsched_cfq_offer", status) {
            assert!(
                assigned <= ids.len(),
                "offer gave {assigned} of {} slots",
                ids.len()
            );
            assert_eq!(
                ids[..assigned].first().copied(),
                self.next.filter(|_| !ids.is_empty())
            );
        }
    }

    /// Reads the whole scheduler through the C ABI and checks its invariants.
    fn check(&mut self) {
        let stats = self.stats();
        no_nan("stats", &[stats.now, stats.virtual_time]);
        assert!(stats.now >= self.now, "the clock went back");
        assert!(
            stats.virtual_time >= self.virtual_time,
            "virtual time went back"
        );
        (self.now, self.virtual_time) = (stats.now, stats.virtual_time);
        assert!(stats.jobs <= stats.rows_in_use && stats.rows_in_use <= stats.capacity);
        assert!(stats.gps_active <= stats.rows_in_use && stats.backlogged <= stats.jobs);

        let jobs: Vec<FairschedCfqJobInfo> = (0..IDS).filter_map(|id| self.job(id)).collect();
        let backlogged: Vec<&FairschedCfqJobInfo> = jobs.iter().filter(|j| j.backlogged).collect();
        assert_eq!(jobs.len(), stats.jobs as usize, "jobs reachable by id");
        assert_eq!(
            backlogged.len(),
            stats.backlogged as usize,
            "backlogged jobs"
        );
        for job in &jobs {
            let times = [job.arrival, job.slot_time, job.virtual_finish];
            no_nan(
                "job",
                &[times.as_slice(), &[job.gps_completion, job.completion]].concat(),
            );
            assert_eq!(job.backlogged, job.pending_tasks > 0, "job {}", job.id);
        }
        self.next = backlogged
            .iter()
            .min_by(|a, b| {
                let key = |j: &FairschedCfqJobInfo| (j.virtual_finish, j.arrival);
                let ((fa, aa), (fb, ab)) = (key(a), key(b));
                fa.total_cmp(&fb)
                    .then(aa.total_cmp(&ab))
                    .then(a.id.cmp(&b.id))
            })
            .map(|j| j.id);
        let (mut next, mut found) = (0, false);
        let status = unsafe { fairsched_cfq_peek(self.handle, &mut next, &mut found) };
        assert!(Watch::new().check("fairsched_cfq_peek", status));
        assert_eq!(
            found.then_some(next),
            self.next,
            "peek is not the smallest key"
        );
    }

    fn stats(&self) -> FairschedCfqStats {
        let mut stats = FairschedCfqStats {
            now: 0.0,
            virtual_time: 0.0,
            slots: 0,
            capacity: 0,
            jobs: 0,
            backlogged: 0,
            gps_active: 0,
            rows_in_use: 0,
        };
        let status = unsafe { fairsched_cfq_stats_get(self.handle, &mut stats) };
        assert!(Watch::new().check("fairsched_cfq_stats_get", status));
        stats
    }

    /// One of the running jobs GPS has not completed, if any.
    fn in_gps(&self, input: &mut Input) -> Option<u64> {
        let jobs: Vec<u64> = (0..IDS)
            .filter(|&id| self.job(id).is_some_and(|j| j.gps_active && !j.completed))
            .collect();
        jobs.get(input.below(jobs.len().max(1))).copied()
    }

    /// Job `id`, if reachable; a failure must write nothing into the info.
    fn job(&self, id: u64) -> Option<FairschedCfqJobInfo> {
        let mut info = Out::new();
        let watch = Watch::new().out(&info);
        let status = unsafe { fairsched_cfq_job_get(self.handle, id, info.ptr()) };
        watch
            .check("fairsched_cfq_job_get", status)
            .then(|| info.into_inner())
    }
}

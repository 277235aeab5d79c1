//! DRR's timeline in the `drr` target: one timeline of up to 4 executors over 1 to 3 kinds and
//! up to 5 steps in caller memory at a random alignment (or none, when its random
//! configuration is refused), driven by random advances, placements, releases,
//! reprovisionings and heartbeats, valid and not (NULL pointers, lengths that do not match,
//! NaN and negative amounts, executors past the horizon or that do not fit, unknown ids and
//! metrics, a clock running out).
//!
//! After every call, besides the no-harm contract (a failed call leaves the timeline's memory
//! byte for byte, and its outputs, as they were; the stats and the available series only
//! read): a call that succeeded succeeds on the kit's naive timeline with the same outputs
//! (ids, executors let go, placements), and the available series, the stats and `t_run` are
//! the naive timeline's, bit for bit, the series between zero and the capacity.

use super::input::Input;
use super::watch::{no_nan, Block, Out, Watch};
use crate::drr_naive;
use fairsched::drr::Metric;
use fairsched::ffi::drr_timeline::*;
use fairsched::ffi::FairschedStatus;

/// The timeline under test and its naive twin.
pub struct Timeline {
    block: Block,
    handle: *mut FairschedDrrTimeline,
    naive: drr_naive::Timeline,
}

/// An amount: mostly a small multiple of a quarter, once in a while any number.
fn amount(input: &mut Input) -> f64 {
    if input.one_in(32) {
        input.number()
    } else {
        input.below(9) as f64 / 4.0
    }
}

impl Timeline {
    /// Builds a timeline from random bytes, possibly with an invalid configuration: `None`
    /// when that was refused (as it must be).
    pub fn build(input: &mut Input) -> Option<Self> {
        let capacity = input.below(5) as u32;
        let kinds = input.below(4);
        let horizon = input.below(6) as u32;
        let machine: Vec<f64> = (0..input.skewed(kinds))
            .map(|_| {
                if input.one_in(16) {
                    input.number()
                } else {
                    1.0 + input.below(8) as f64
                }
            })
            .collect();
        let at = input.reads(&machine);
        let (block, handle) = Block::build(
            input,
            "fairsched_drr_timeline",
            |size| unsafe { fairsched_drr_timeline_storage_size(capacity, kinds, horizon, size) },
            |memory, len, out| unsafe {
                fairsched_drr_timeline_init(memory, len, capacity, at, machine.len(), horizon, out)
            },
        )?;
        let naive = drr_naive::Timeline::new(&machine, horizon as usize, capacity as usize);
        Some(Timeline {
            block,
            handle,
            naive,
        })
    }

    /// One random call, then the comparison with the naive timeline.
    pub fn step(&mut self, input: &mut Input) {
        self.call(input);
        self.check();
    }

    /// A random series of 0 to `H + 1` steps over (mostly) the machine's kinds.
    fn series(&self, input: &mut Input) -> Vec<f64> {
        let steps = input.below(self.naive.horizon + 2);
        let len = input.skewed(steps * self.naive.capacity.len());
        (0..len).map(|_| amount(input)).collect()
    }

    /// An id: mostly one running, else one that is not.
    fn id(&self, input: &mut Input) -> u64 {
        let running = &self.naive.running;
        if running.is_empty() || input.one_in(4) {
            input.below(self.naive.next_id as usize % 250 + 2) as u64
        } else {
            running[input.below(running.len())].id
        }
    }

    fn call(&mut self, input: &mut Input) {
        let timeline = input.or_null(self.handle);
        let kinds = self.naive.capacity.len();
        let state = self.block.watched(Watch::new());
        match input.below(7) {
            0 => {
                let steps = match input.below(16) {
                    0 => u64::MAX,
                    1 => fairsched::drr::timeline::MAX_NOW - self.naive.now,
                    b => b as u64 % 4,
                };
                let mut finished = usize::MAX;
                let watch = state.value(&finished);
                let status = unsafe {
                    fairsched_drr_timeline_advance(timeline, steps, input.or_null(&mut finished))
                };
                if watch.check("fairsched_drr_timeline_advance", status) {
                    assert_eq!(Ok(finished), self.naive.advance(steps), "advance {steps}");
                }
            }
            1 => {
                let demand = self.series(input);
                let mut id = 0;
                let watch = state.value(&id);
                let status = unsafe {
                    fairsched_drr_timeline_place(
                        timeline,
                        input.reads(&demand),
                        demand.len(),
                        input.or_null(&mut id),
                    )
                };
                if watch.check("fairsched_drr_timeline_place", status) {
                    assert_eq!(Ok(id), self.naive.place(&demand), "place {demand:?}");
                }
            }
            2 => {
                let id = self.id(input);
                let status = unsafe { fairsched_drr_timeline_release(timeline, id) };
                if state.check("fairsched_drr_timeline_release", status) {
                    assert_eq!(Ok(()), self.naive.release(id), "release {id}");
                }
            }
            3 => {
                let id = self.id(input);
                let observed: Vec<f64> = (0..input.skewed(kinds)).map(|_| amount(input)).collect();
                let predicted: Vec<f64> = (0..input.skewed(kinds)).map(|_| amount(input)).collect();
                let status = unsafe {
                    fairsched_drr_timeline_reprovision(
                        timeline,
                        id,
                        input.reads(&observed),
                        observed.len(),
                        input.reads(&predicted),
                        predicted.len(),
                    )
                };
                if state.check("fairsched_drr_timeline_reprovision", status) {
                    let naive = self.naive.reprovision(id, &observed, &predicted);
                    assert_eq!(
                        naive,
                        Ok(()),
                        "reprovision {id} by {observed:?} / {predicted:?}"
                    );
                }
            }
            4 => self.heartbeat(input, timeline, state),
            5 => {
                let mut stats = Out::<FairschedDrrTimelineStats>::new();
                let watch = Watch::new().out(&stats);
                let status = unsafe {
                    fairsched_drr_timeline_stats_get(timeline, input.or_null(stats.ptr()))
                };
                watch.check("fairsched_drr_timeline_stats_get", status);
                state.unchanged("fairsched_drr_timeline_stats_get");
            }
            _ => {
                let len = input.skewed(self.naive.horizon * kinds);
                let mut out = vec![f64::NAN; len];
                let watch = Watch::new().slice(&out);
                let status = unsafe {
                    fairsched_drr_timeline_available(timeline, input.or_null(out.as_mut_ptr()), len)
                };
                watch.check("fairsched_drr_timeline_available", status);
                state.unchanged("fairsched_drr_timeline_available");
            }
        }
    }

    /// A heartbeat over up to 3 random pending executors with random counts.
    fn heartbeat(&mut self, input: &mut Input, timeline: *mut FairschedDrrTimeline, state: Watch) {
        let kinds = self.naive.capacity.len();
        let n = input.below(4);
        let steps: Vec<u32> = (0..n)
            .map(|_| input.below(self.naive.horizon + 2) as u32)
            .collect();
        let total = steps.iter().sum::<u32>() as usize * kinds;
        let demands: Vec<f64> = (0..input.skewed(total)).map(|_| amount(input)).collect();
        let counts: Vec<u32> = (0..input.skewed(n))
            .map(|_| input.below(3) as u32)
            .collect();
        let metric = input.below(4) as u32;
        let mut placements = vec![u32::MAX; input.below(5)];
        let mut beat = Out::<FairschedDrrTimelineHeartbeat>::new();
        let watch = state.slice(&placements).out(&beat);
        let status = unsafe {
            fairsched_drr_timeline_heartbeat(
                timeline,
                input.reads(&demands),
                demands.len(),
                input.reads(&steps),
                steps.len(),
                input.reads(&counts),
                counts.len(),
                metric,
                input.or_null(placements.as_mut_ptr()),
                placements.len(),
                input.or_null(beat.ptr()),
            )
        };
        if !watch.check("fairsched_drr_timeline_heartbeat", status) {
            return;
        }
        let beat = beat.into_inner();
        let mut rest = demands.as_slice();
        let series: Vec<&[f64]> = steps
            .iter()
            .map(|&t| {
                let (one, tail) = rest.split_at(t as usize * kinds);
                rest = tail;
                one
            })
            .collect();
        let metric = [Metric::Drr, Metric::Trc, Metric::Tetris][metric as usize];
        let room = placements.len();
        let (placed, first) = self
            .naive
            .heartbeat(&series, &counts, metric, room)
            .expect("the naive heartbeat succeeds too");
        assert_eq!(
            &placements[..beat.placed],
            &placed[..],
            "heartbeat placements"
        );
        assert_eq!(
            (beat.first_id, beat.t_run as usize),
            (first, self.naive.t_run())
        );
        no_nan("heartbeat", &[beat.drr]);
    }

    /// The state read through the ABI is the naive timeline's.
    fn check(&self) {
        let mut stats = Out::<FairschedDrrTimelineStats>::new();
        let kinds = self.naive.capacity.len();
        let mut available = vec![f64::NAN; self.naive.horizon * kinds];
        unsafe {
            let status = fairsched_drr_timeline_stats_get(self.handle, stats.ptr());
            assert_eq!(status, FairschedStatus::Ok);
            let status = fairsched_drr_timeline_available(
                self.handle,
                available.as_mut_ptr(),
                available.len(),
            );
            assert_eq!(status, FairschedStatus::Ok);
        }
        let stats = stats.into_inner();
        let naive = self.naive.available();
        let bits = |s: &[f64]| s.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&available), bits(&naive), "{available:?} != {naive:?}");
        for (i, &a) in available.iter().enumerate() {
            assert!(
                (0.0..=self.naive.capacity[i % kinds]).contains(&a),
                "{available:?}"
            );
        }
        assert_eq!(
            (
                stats.now,
                stats.next_id,
                stats.running as usize,
                stats.t_run as usize
            ),
            (
                self.naive.now,
                self.naive.next_id,
                self.naive.running.len(),
                self.naive.t_run()
            )
        );
        no_nan("stats", &[stats.drr, stats.trc]);
    }
}

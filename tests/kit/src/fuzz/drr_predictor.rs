//! DRR's predictor in the `drr` target: one predictor of up to 3 applications over 1 to 3
//! kinds, averaging up to 4 runs of up to 5 steps, in caller memory at a random alignment (or
//! none, when its random configuration is refused), driven by random records, forgets, run
//! counts and predictions, valid and not (NULL pointers, runs of no step, of too many or of a
//! partial step, NaN and negative amounts, a peak of other kinds, outputs too short).
//!
//! After every call, besides the no-harm contract (a failed call leaves the predictor's memory
//! byte for byte, and its outputs, as they were; counting runs and predicting only read): a
//! record or forget that succeeded succeeds on the kit's naive predictor, and a prediction is
//! the naive one, bit for bit, with the runs kept of every id.

use super::input::Input;
use super::watch::{Block, Out, Watch};
use crate::drr_naive;
use fairsched::ffi::drr_predictor::*;
use fairsched::ffi::FairschedStatus;

/// Ids are drawn below this, so that calls hit known and unknown applications alike.
const IDS: u64 = 5;

/// The predictor under test and its naive twin.
pub struct Predictor {
    block: Block,
    handle: *mut FairschedDrrPredictor,
    naive: drr_naive::Predictor,
}

/// An amount: mostly a small multiple of a third, once in a while any number.
fn amount(input: &mut Input) -> f64 {
    if input.one_in(32) {
        input.number()
    } else {
        input.below(10) as f64 / 3.0
    }
}

impl Predictor {
    /// Builds a predictor from random bytes, possibly with an invalid configuration: `None`
    /// when that was refused (as it must be).
    pub fn build(input: &mut Input) -> Option<Self> {
        let capacity = input.below(4) as u32;
        let kinds = input.below(4);
        let window = if input.one_in(16) {
            17
        } else {
            input.below(5) as u32
        };
        let steps = input.below(6) as u32;
        let (block, handle) = Block::build(
            input,
            "fairsched_drr_predictor",
            |size| unsafe {
                fairsched_drr_predictor_storage_size(capacity, kinds, window, steps, size)
            },
            |memory, len, out| unsafe {
                fairsched_drr_predictor_init(memory, len, capacity, kinds, window, steps, out)
            },
        )?;
        let naive =
            drr_naive::Predictor::new(capacity as usize, kinds, window as usize, steps as usize);
        Some(Predictor {
            block,
            handle,
            naive,
        })
    }

    /// One random call, then the comparison with the naive predictor.
    pub fn step(&mut self, input: &mut Input) {
        let predictor = input.or_null(self.handle);
        let id = input.below(IDS as usize) as u64;
        let kinds = self.naive.kinds;
        let state = self.block.watched(Watch::new());
        match input.below(4) {
            0 => {
                let steps = input.below(self.naive.steps + 2);
                let run: Vec<f64> = (0..input.skewed(steps * kinds))
                    .map(|_| amount(input))
                    .collect();
                let status = unsafe {
                    fairsched_drr_predictor_record(predictor, id, input.reads(&run), run.len())
                };
                if state.check("fairsched_drr_predictor_record", status) {
                    assert_eq!(self.naive.record(id, &run), Ok(()), "record {id} {run:?}");
                }
            }
            1 => {
                let status = unsafe { fairsched_drr_predictor_forget(predictor, id) };
                if state.check("fairsched_drr_predictor_forget", status) {
                    assert_eq!(self.naive.forget(id), Ok(()), "forget {id}");
                }
            }
            2 => {
                let mut runs = u32::MAX;
                let watch = Watch::new().value(&runs);
                let status = unsafe {
                    fairsched_drr_predictor_runs(predictor, id, input.or_null(&mut runs))
                };
                if watch.check("fairsched_drr_predictor_runs", status) {
                    assert_eq!(runs as usize, self.naive.runs(id), "runs of {id}");
                }
                state.unchanged("fairsched_drr_predictor_runs");
            }
            _ => {
                let peak: Vec<f64> = (0..input.skewed(kinds)).map(|_| amount(input)).collect();
                let steps = input.below(self.naive.steps + 2) as u32;
                let room = input.below(self.naive.steps * kinds + 2);
                let mut series = vec![f64::NAN; room];
                let mut prediction = Out::<FairschedDrrPrediction>::new();
                let watch = Watch::new().slice(&series).out(&prediction);
                let status = unsafe {
                    fairsched_drr_predictor_predict(
                        predictor,
                        id,
                        input.reads(&peak),
                        peak.len(),
                        steps,
                        input.or_null(series.as_mut_ptr()),
                        series.len(),
                        input.or_null(prediction.ptr()),
                    )
                };
                if watch.check("fairsched_drr_predictor_predict", status) {
                    let prediction = prediction.into_inner();
                    let (want, runs) = self
                        .naive
                        .predict(id, &peak, steps)
                        .expect("the naive prediction succeeds too");
                    let bits = |s: &[f64]| s.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
                    let written = prediction.steps as usize * kinds;
                    assert_eq!(bits(&series[..written]), bits(&want), "predict {id}");
                    assert_eq!(prediction.runs as usize, runs);
                }
                state.unchanged("fairsched_drr_predictor_predict");
            }
        }
        self.check();
    }

    /// Every id's runs are the naive predictor's.
    fn check(&self) {
        for id in 0..IDS {
            let mut runs = u32::MAX;
            let status = unsafe { fairsched_drr_predictor_runs(self.handle, id, &mut runs) };
            assert_eq!(status, FairschedStatus::Ok);
            assert_eq!(runs as usize, self.naive.runs(id), "runs of {id}");
        }
    }
}

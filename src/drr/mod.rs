//! DRR and MinFrag: packing executors whose demand varies over time (Liu, Xu: *Elasecutor:
//! Elastic Executor Scheduling in Data Analytics Systems*, IEEE/ACM Transactions on
//! Networking, 2021; §III-B and §III-C).
//!
//! Time is in steps of a caller-chosen length. Every series is *time-major* and flat: the
//! amount of resource kind `r` at step `t` is `series[t * kinds + r]`, for 1 to
//! [`MAX_KINDS`](crate::resources::MAX_KINDS) kinds and up to [`MAX_STEPS`] steps.
//!
//! - [`Machine`]: capacity `C[r]`, predicted available series `AR[t][r]` over a horizon of `H`
//!   steps, and `t_run`, the earliest step at which one of its running executors finishes.
//!   With none running (or none finishing within the horizon) `t_run` is `H`: `θ(j)` then
//!   averages over the whole horizon, and `θ(i, j)` over the new executor's lifetime, since
//!   `min(H, T_i) = T_i` (an executor longer than the horizon is rejected).
//! - [`Executor`]: a predicted demand series `RD[t][r]` for `t < T_i`; [`Executors`]: the pending
//!   ones, back to back.
//! - Fit, `θ(j)` and `θ(i, j) = max_r Σ_{t<t*} (AR[t][r] - RD[t][r]) / Σ_{t<t*} C[r]` with
//!   `t* = min(t_run, T_i)` ([`Machine::fits`], [`Machine::drr`], [`Machine::score`]), and the
//!   paper's alternatives for comparison: TRC (§V-F, the sum over kinds instead of the
//!   maximum) and Tetris' alignment score ([`Metric`]).
//! - [`min_frag()`]: Algorithm 1 for one heartbeat of one machine.
//! - [`score_machines`]: one executor against many machines, one call over flat arrays.
//! - [`reprovision()`]: §III-C's correction of a running executor's remaining series, and
//!   [`reprovision_due`], its trigger (a stage running longer than [`RHO`] = 1.1 times its
//!   expected time).
//! - [`Timeline`] ([`timeline`]): one machine over time, what a caller otherwise keeps beside
//!   [`min_frag()`]: the executors running on it, `AR` and `t_run`, kept exactly as time
//!   advances and executors are placed, released and reprovisioned; a heartbeat is one call.
//! - [`Predictor`] ([`predictor`]): §IV-C's prediction of an executor's demand series, the
//!   mean of its application's last runs, or its peak until there are enough.
//!
//! ```
//! use fairsched::drr::{min_frag, Executors, Metric};
//!
//! // Two kinds (CPU 4, memory 8) over 4 steps; a running executor finishes at step 2.
//! let capacity = [4.0, 8.0];
//! let mut available = [2.0, 4.0, 2.0, 4.0, 4.0, 8.0, 4.0, 8.0];
//! // Executor 0 takes all of it for 2 steps; executor 1 half of the CPU for 4.
//! let demands = [2.0, 4.0, 2.0, 4.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
//! let pending = Executors::new(&demands, &[2, 4], 2)?;
//! let mut placed = [0u32; 2];
//! let beat = min_frag(&capacity, &mut available, 2, &pending, Metric::Drr, &mut placed)?;
//! // Executor 0 leaves nothing over the first two steps (θ = 0): it goes first, and then
//! // executor 1 no longer fits.
//! assert_eq!(&placed[..beat.placed], &[0]);
//! assert_eq!(available, [0.0, 0.0, 0.0, 0.0, 4.0, 8.0, 4.0, 8.0]);
//! # Ok::<(), fairsched::Error>(())
//! ```

mod machine;
mod machines;
mod min_frag;
pub mod predictor;
mod remaining;
mod reprovision;
mod rounds;
mod series;
pub mod timeline;

pub use machine::Machine;
pub use machines::{score_machines, Machines};
pub use min_frag::{min_frag, Heartbeat};
pub use predictor::{Prediction, Predictor};
pub use reprovision::{reprovision, reprovision_due, RHO};
// For the C ABI's laid-out executors, which check a machine's kinds as the flat export does.
#[cfg(feature = "ffi")]
pub(crate) use series::check_kinds;
pub use series::{Executor, Executors, MAX_EXECUTORS, MAX_STEPS};
pub use timeline::{Placed, Timeline};

/// How a placement is scored: the metric MinFrag optimizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Metric {
    /// Dominant remaining resource, `θ(i, j)` (§III-B2): the largest average share of any
    /// kind left idle until `t*`. MinFrag takes the smallest.
    #[default]
    Drr,
    /// Total remaining capacity (§V-F, Table XI): the same averages summed over the kinds
    /// instead of their maximum. MinFrag takes the smallest.
    Trc,
    /// Tetris' alignment (the paper's \[33\], §VII): `Σ_r (peak_t RD[t][r] / C[r]) ·
    /// (AR[0][r] / C[r])`, the executor's peak demand against what is available *now* (step
    /// 0), both normalized by capacity. MinFrag takes the largest.
    Tetris,
}

impl Metric {
    /// Whether score `a` is strictly better than `b` under this metric.
    pub fn better(self, a: f64, b: f64) -> bool {
        match self {
            Metric::Drr | Metric::Trc => a < b,
            Metric::Tetris => a > b,
        }
    }

    /// The score of an executor that does not fit: worse than any score that does.
    pub fn worst(self) -> f64 {
        match self {
            Metric::Drr | Metric::Trc => f64::INFINITY,
            Metric::Tetris => f64::NEG_INFINITY,
        }
    }
}

//! # fairsched-testkit
//!
//! What the crates around the core share, so that none includes another's files by path: the
//! core's integration tests (`tests/*.rs`), the benchmarks (`bench/`), the simulator (`sim/`)
//! and the fuzz targets (`fuzz/`). Not published: the core itself never depends on it, only
//! its tests do (a dev-dependency: they link the same `fairsched`).
//!
//! - [`memory`]: heap storage of any capacity for the core's tables (tests, benchmarks, the
//!   simulator);
//! - [`rng`]: the seeded generator behind every random workload and case;
//! - [`drr_naive`]: the naive DRR (scores, MinFrag, a machine's timeline, the predictor),
//!   the models the library must match;
//! - [`hai_naive`]: the naive HAI, the model the library must match and the benchmarks'
//!   baseline;
//! - [`hai_cases`]: random HAI batches for property tests;
//! - [`paf`] and [`paf_outputs`]: running PAF on heap-held curves and owned output buffers;
//! - [`qknobler`]: QKnobler's offline allocation into owned vectors;
//! - [`exports`]: the C ABI's exports, read from the source of `src/ffi`;
//! - `fuzz` (with the `ffi` feature): the fuzz harness of the C ABI, run by libFuzzer from
//!   `fuzz/` and on stable by `tests/kit/tests/fuzz_regression.rs`.

pub mod drr_naive;
pub mod exports;
pub mod hai_cases;
pub mod hai_naive;
pub mod memory;
pub mod paf;
pub mod paf_outputs;
pub mod qknobler;
pub mod rng;

#[cfg(feature = "ffi")]
pub mod fuzz;

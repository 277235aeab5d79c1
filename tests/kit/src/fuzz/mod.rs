//! The fuzz harness of fairsched's C ABI: one target per algorithm, each decoding a byte string
//! into a sequence of calls to its exports, valid and invalid (NULL pointers, NaN, infinities,
//! negative and huge numbers, unknown and duplicate ids, times going backwards, lengths that
//! do not match, full capacities), and checking after every call:
//! - no call panics (`FAIRSCHED_STATUS_PANIC` is a bug);
//! - a failed call changed nothing, byte for byte: neither the caller memory holding a
//!   scheduler (CFQ, the DRF queue, DRR's timeline and predictor) nor any output or in-out array (see `watch::Watch`); a
//!   read-only call does not change the scheduler either. (PAF's and HAI's workspaces are
//!   scratch space that holds nothing between calls: those are not watched.)
//! - the documented invariants of each algorithm hold (listed in each module).
//!
//! The targets go through the C ABI, not the Rust API, because the C ABI is the contract every
//! binding relies on and it wraps the whole Rust API: NULL checks, the panic boundary, the
//! carving of caller memory and the status mapping are exercised too.
//!
//! `cargo fuzz run <target>` drives them with libFuzzer (see `scripts/fuzz`: the fuzz crate in
//! `fuzz/`, on nightly, whose `fuzz_targets/*.rs` only call [`cfq::run`] and the like); the
//! project's `cargo test --features ffi` runs the same harness on the saved corpus and on
//! seeded random inputs (tests/kit/tests/fuzz_regression.rs), so every input ever kept stays a
//! regression test on stable. Here, in the test kit (behind its `ffi` feature), rather than in
//! the fuzz crate, so that both can use it as a library.

pub mod cfq;
pub mod drf;
pub mod drr;
mod drr_predictor;
mod drr_timeline;
pub mod hai;
pub mod paf;

mod input;
mod watch;

use input::Input;

/// A target's entry point: runs it on one input, panicking when a check fails.
pub type Run = fn(&[u8]);

/// The targets by name, as `cargo fuzz` and the corpus directories call them.
pub const TARGETS: [(&str, Run); 5] = [
    ("cfq", cfq::run),
    ("drf", drf::run),
    ("drr", drr::run),
    ("hai", hai::run),
    ("paf", paf::run),
];

/// A target over one object built from the first bytes, then driven by one random call a
/// step until the bytes run out.
trait Target: Sized {
    /// Builds the object; `None` when the build failed (as it must, on bad input): the run
    /// ends there.
    fn init(input: &mut Input) -> Option<Self>;

    /// One random call, and the checks after it.
    fn step(&mut self, input: &mut Input);
}

/// Runs target `T` on `data`.
fn drive<T: Target>(data: &[u8]) {
    let mut input = Input::new(data);
    if let Some(mut target) = T::init(&mut input) {
        while !input.is_empty() {
            target.step(&mut input);
        }
    }
}

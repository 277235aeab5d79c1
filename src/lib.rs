//! # fairsched
//!
//! Published cluster-scheduling algorithms for data-analytics jobs, as a `no_std`,
//! allocation-free core that real schedulers can call in their hot path: from Rust directly,
//! and from the JVM and Go through a C ABI (feature `ffi`, header `include/fairsched.h`).
//!
//! - [`cfq`]: Cluster Fair Queueing (Chen, Wang, Zhang, Li, IEEE INFOCOM 2017): jobs ordered
//!   by their virtual finish time under an idealized, weighted fair share (GPS), with a delay
//!   guarantee.
//! - [`drf`]: weighted Dominant Resource Fairness (Ghodsi et al., USENIX NSDI 2011): the
//!   divisible closed form, and an incremental queue with discrete progressive filling for
//!   allocators.
//! - [`drr`]: Elasecutor's dominant remaining resource and MinFrag (Liu, Xu, IEEE/ACM
//!   Transactions on Networking 2021): packing executors whose demand varies over time onto
//!   machines, one heartbeat at a time.
//! - [`hai`]: ReB's heuristic allocation initialization (Hu, Li, Guo, Tsinghua Science and
//!   Technology 2020): cores for a batch of jobs from their predicted completion-time tables,
//!   shortest-job-optimal start then transfers that lower the total completion time.
//! - [`paf`]: Performance-Aware Fair scheduling (Chen, Wang, Li, IEEE INFOCOM 2018): slots move
//!   from jobs that barely slow down to jobs that speed up most, each keeping a fraction of its
//!   fair progress.
//! - [`qknobler`]: QKnobler (Tang, Yu, Li, IEEE Transactions on Cloud Computing 2020): a knob
//!   trading fairness for efficiency with a guaranteed soft-fairness bound, its linear program
//!   solved exactly ([`lp`]).
//!
//! Each module's documentation gives the paper's full title, and the choices this crate makes
//! where the paper leaves a point open.
//!
//! Every fallible call validates its input first and returns an [`Error`] without changing
//! anything. Capacities are fixed at construction: const generics for Rust callers, memory the
//! caller provides for C callers; every stateful algorithm keeps its state in one shape
//! ([`table`]) and checks its capacity with [`table::check_capacity`]. `unsafe` is denied
//! everywhere but in `ffi`.
#![no_std]
#![deny(unsafe_code)]
// The core never panics: the panicking lints are denied outside tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented
    )
)]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

pub mod cfq;
pub mod drf;
pub mod drr;
mod error;
pub mod hai;
pub mod heap;
pub mod id_index;
pub mod lp;
mod num;
pub mod paf;
pub mod qknobler;
pub mod resources;
pub mod table;
mod tree;

pub use error::{Error, Result};

#[cfg(feature = "ffi")]
#[allow(unsafe_code)]
pub mod ffi;

/// The Rust examples of `README.md`, compiled and run as doctests so that the README cannot
/// drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

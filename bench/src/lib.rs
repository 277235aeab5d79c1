//! Workloads shared by the benchmarks (and mirrored by the Java and Go benchmarks, which
//! build the same jobs in the same order).

pub mod baseline;
pub mod cfq;
pub mod drf;
pub mod drr;
#[cfg(feature = "glpk")]
pub mod glpk;
pub mod hai;
pub mod lockstep;
pub mod paf;

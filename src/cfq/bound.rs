//! Theorem 1 of the CFQ paper (Chen, Wang, Zhang, Li: *Cluster Fair Queueing: Speeding up
//! Data-Parallel Jobs with Delay Guarantees*, IEEE INFOCOM 2017, §IV-B): CFQ completes every
//! job at most `2 l_max + L_max / M` after GPS does, `l_max` being the longest task of any
//! job, `L_max` the largest slot-time and `M` the slots.
//!
//! The paper proves it for unweighted single-stage jobs whose tasks are all pending at arrival,
//! with exact slot-times and constant `M`. Its argument is packet-by-packet GPS's (Parekh and
//! Gallager), which does not depend on the weights, and the bound holds with weights too: the
//! simulator checks it on random weighted workloads (`sim/tests/theorem_1.rs`). With changing
//! slots, use the fewest the cluster had; with estimated slot-times, it bounds the delay
//! against the GPS of the estimates.

use super::checked_slot_time;
use crate::{Error, Result};

/// `2 · longest_task + largest_slot_time / slots`, the most CFQ can complete a job after its
/// GPS completion. `longest_task` is the longest run time of any task, `largest_slot_time` the
/// largest slot-time of any job, both checked as an arrival's slot-time (in `(0, 2^60]`:
/// [`Error::NotFinite`], [`Error::NotPositive`] and [`Error::OutOfRange`] otherwise); a task is
/// part of its job's slot-time, so `longest_task > largest_slot_time` is
/// [`Error::OutOfRange`]; `slots` is at least 1 ([`Error::NotPositive`]).
pub fn delay_bound(longest_task: f64, largest_slot_time: f64, slots: u32) -> Result<f64> {
    let longest_task = checked_slot_time(longest_task)?;
    let largest_slot_time = checked_slot_time(largest_slot_time)?;
    if slots == 0 {
        return Err(Error::NotPositive);
    }
    if longest_task > largest_slot_time {
        return Err(Error::OutOfRange);
    }
    Ok(2.0 * longest_task + largest_slot_time / f64::from(slots))
}

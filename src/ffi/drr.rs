//! C ABI of [`crate::drr`]: DRR and MinFrag over flat arrays the caller owns.
//!
//! Series are time-major: the amount of kind `r` at step `t` is `series[t * kinds + r]`, with
//! `kinds` 1 to 8 (the length of a machine's `capacity`) and up to 256 steps. Pending executors lie back to back in `demands`,
//! executor `i` running `steps[i]` steps. A machine with no running executor (or none finishing
//! within its horizon) has `t_run` equal to its horizon. Metrics are
//! `FAIRSCHED_DRR_METRIC_DRR`, `_TRC` and `_TETRIS`.

use super::{
    boundary, decode, laid_out, lay_out, read, read_slice, write, write_slice, FairschedStatus,
    Status,
};
use crate::drr::{self, Executor, Executors, Machine, Machines, Metric};

/// Dominant remaining resource, θ (§III-B2): smaller is better.
pub const FAIRSCHED_DRR_METRIC_DRR: u32 = 0;
/// Total remaining capacity (§V-F): smaller is better.
pub const FAIRSCHED_DRR_METRIC_TRC: u32 = 1;
/// Tetris' alignment of peak demand with what is available now: larger is better.
pub const FAIRSCHED_DRR_METRIC_TETRIS: u32 = 2;
/// The metric of each code.
pub(crate) const METRICS: [(u32, Metric); 3] = [
    (FAIRSCHED_DRR_METRIC_DRR, Metric::Drr),
    (FAIRSCHED_DRR_METRIC_TRC, Metric::Trc),
    (FAIRSCHED_DRR_METRIC_TETRIS, Metric::Tetris),
];

/// What one MinFrag heartbeat did (see `fairsched_drr_min_frag`).
#[repr(C)]
pub struct FairschedDrrHeartbeat {
    /// Executors placed: the first `placed` entries of the placements.
    pub placed: usize,
    /// The machine's t_run afterwards.
    pub t_run: u32,
    /// θ(j) afterwards.
    pub drr: f64,
}

/// A machine's DRR θ(j) and TRC until `t_run`: `capacity` holds `capacity_len` amounts (one per kind), `available`
/// the machine's series (`available_len` amounts). Wraps `Machine::drr` and `Machine::trc`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `out_drr` and
/// `out_trc` must be valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_machine(
    capacity: *const f64,
    capacity_len: usize,
    available: *const f64,
    available_len: usize,
    t_run: u32,
    out_drr: *mut f64,
    out_trc: *mut f64,
) -> FairschedStatus {
    boundary(|| {
        let capacity = unsafe { read_slice(capacity, capacity_len) }?;
        let available = unsafe { read_slice(available, available_len) }?;
        let drr = unsafe { write(out_drr) }?;
        let trc = unsafe { write(out_trc) }?;
        let machine = Machine::new(capacity, available, t_run)?;
        *drr = machine.drr();
        *trc = machine.trc();
        Ok(())
    })
}

/// One MinFrag heartbeat (Algorithm 1) of the machine (`capacity`, `available`, `t_run`) over
/// the `steps_len` pending ones (`demands`, `steps`): writes the placed executors' indices, in
/// order, to the front of `out_placements` (room for at least `steps_len`), the machine's
/// updated series over `available`, and the summary. On error nothing is written, `available`
/// included. Wraps `drr::min_frag`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `available` must not overlap any other argument; `out_heartbeat` must be valid
/// for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_drr_min_frag(
    capacity: *const f64,
    capacity_len: usize,
    available: *mut f64,
    available_len: usize,
    t_run: u32,
    demands: *const f64,
    demands_len: usize,
    steps: *const u32,
    steps_len: usize,
    metric: u32,
    out_placements: *mut u32,
    out_placements_len: usize,
    out_heartbeat: *mut FairschedDrrHeartbeat,
) -> FairschedStatus {
    boundary(|| {
        let capacity = unsafe { read_slice(capacity, capacity_len) }?;
        let available = unsafe { write_slice(available, available_len) }?;
        let demands = unsafe { read_slice(demands, demands_len) }?;
        let steps = unsafe { read_slice(steps, steps_len) }?;
        let placements = unsafe { write_slice(out_placements, out_placements_len) }?;
        let out = unsafe { write(out_heartbeat) }?;
        let metric = decode(metric, &METRICS)?;
        let pending = Executors::new(demands, steps, capacity.len())?;
        heartbeat(
            capacity, available, t_run, &pending, metric, placements, out,
        )
    })
}

/// `drr::min_frag` with its summary written to `out`.
fn heartbeat(
    capacity: &[f64],
    available: &mut [f64],
    t_run: u32,
    pending: &Executors<'_>,
    metric: Metric,
    placements: &mut [u32],
    out: &mut FairschedDrrHeartbeat,
) -> Status<()> {
    let beat = drr::min_frag(capacity, available, t_run, pending, metric, placements)?;
    *out = FairschedDrrHeartbeat {
        placed: beat.placed,
        t_run: beat.t_run,
        drr: beat.drr,
    };
    Ok(())
}

/// Pending executors laid out once in caller-provided memory (`fairsched_drr_executors_init`)
/// for any number of heartbeats (`fairsched_drr_min_frag_executors`,
/// `fairsched_drr_timeline_heartbeat_executors`): their series and steps copied and checked
/// once, as Rust callers keep a `drr::Executors`. Opaque.
pub struct FairschedDrrExecutors {
    pub(crate) inner: Executors<'static>,
}

/// Writes into `*out_size` the number of bytes `fairsched_drr_executors_init` needs for
/// `steps_len` executors whose series hold `demands_len` amounts in all (alignment slack
/// included); CAPACITY_TOO_LARGE when that is not addressable.
///
/// # Safety
/// `out_size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_executors_storage_size(
    demands_len: usize,
    steps_len: usize,
    out_size: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let out = unsafe { write(out_size) }?;
        *out = laid_out::<FairschedDrrExecutors, f64, u32>(demands_len, steps_len)?
            .0
            .bytes()?;
        Ok(())
    })
}

/// Lays out `steps_len` pending executors over `kinds` kinds (`demands` back to back,
/// executor i running `steps[i]` steps, as `fairsched_drr_min_frag` takes them) inside
/// `memory` (`memory_len` bytes, at least what `fairsched_drr_executors_storage_size` says
/// for `demands_len` and `steps_len`; any alignment), copying them, so that heartbeats over
/// them do not check them again. Checks, in this order: `out_executors` and `memory` for NULL,
/// the arrays as `fairsched_drr_min_frag` checks them for a machine of `kinds` kinds (the same
/// statuses: `kinds` 0 EMPTY, above 8 CAPACITY_FULL), then the size (BUFFER_TOO_SMALL). On
/// success `*out_executors` points into `memory`: keep `memory` to free it, in place and alive
/// while the handle is used; the arrays passed are not used afterwards. Wraps
/// `Executors::new`.
///
/// # Safety
/// `memory` must be NULL or valid for writes of `memory_len` bytes and not used otherwise
/// while the handle lives; each array must hold its length in elements (NULL allowed for 0);
/// `out_executors` must be NULL or valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_drr_executors_init(
    memory: *mut core::ffi::c_void,
    memory_len: usize,
    demands: *const f64,
    demands_len: usize,
    steps: *const u32,
    steps_len: usize,
    kinds: usize,
    out_executors: *mut *mut FairschedDrrExecutors,
) -> FairschedStatus {
    boundary(|| {
        let out = unsafe { write(out_executors) }?;
        if memory.is_null() {
            return Err(FairschedStatus::NullPointer);
        }
        let demands = unsafe { read_slice(demands, demands_len) }?;
        let steps = unsafe { read_slice(steps, steps_len) }?;
        Executors::new(demands, steps, kinds)?;
        // SAFETY: the caller promised the memory is ours while the handle lives.
        let (handle, amounts, counts) = unsafe {
            lay_out::<FairschedDrrExecutors, f64, u32>(
                memory,
                memory_len,
                (demands.len(), 0.0),
                (steps.len(), 0),
            )
        }?;
        amounts.copy_from_slice(demands);
        counts.copy_from_slice(steps);
        let inner = Executors::new(amounts, counts, kinds)?;
        unsafe { handle.write(FairschedDrrExecutors { inner }) };
        *out = handle;
        Ok(())
    })
}

/// `fairsched_drr_min_frag` over executors laid out by `fairsched_drr_executors_init`: the
/// same result, the executors not checked again (only against the machine: its kinds,
/// LENGTH_MISMATCH, and its horizon, OUT_OF_RANGE). `out_placements` needs room for the
/// executors' number. Statuses as `fairsched_drr_min_frag` for valid executors (NULL_POINTER
/// also for a NULL `pending`).
///
/// # Safety
/// `pending` must be NULL or a handle from `fairsched_drr_executors_init` whose memory is
/// still valid; each array must hold its length in elements (NULL allowed for length 0) and
/// `available` must not overlap any other argument nor the executors' memory;
/// `out_heartbeat` must be NULL or valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_drr_min_frag_executors(
    capacity: *const f64,
    capacity_len: usize,
    available: *mut f64,
    available_len: usize,
    t_run: u32,
    pending: *const FairschedDrrExecutors,
    metric: u32,
    out_placements: *mut u32,
    out_placements_len: usize,
    out_heartbeat: *mut FairschedDrrHeartbeat,
) -> FairschedStatus {
    boundary(|| {
        let capacity = unsafe { read_slice(capacity, capacity_len) }?;
        let available = unsafe { write_slice(available, available_len) }?;
        let pending = &unsafe { read(pending) }?.inner;
        let placements = unsafe { write_slice(out_placements, out_placements_len) }?;
        let out = unsafe { write(out_heartbeat) }?;
        let metric = decode(metric, &METRICS)?;
        over_kinds(pending, capacity.len())?;
        heartbeat(capacity, available, t_run, pending, metric, placements, out)
    })
}

/// `fairsched_drr_min_frag`'s status for executors read over `kinds` kinds (the capacity's),
/// which it checks before the machine: EMPTY or CAPACITY_FULL for that many kinds,
/// LENGTH_MISMATCH when the executors were laid out over other kinds (and there are any).
fn over_kinds(pending: &Executors<'_>, kinds: usize) -> Status<()> {
    drr::check_kinds(kinds)?;
    if !pending.is_empty() && pending.kinds() != kinds {
        return Err(FairschedStatus::LengthMismatch);
    }
    Ok(())
}

/// Scores one executor (`demand`, `demand_len` amounts over `kinds` kinds) on machines sharing
/// `kinds` and a horizon, one a `t_runs` entry: machine `j`'s capacity at
/// `capacities[j * kinds]` (`capacities_len` must be `t_runs_len * kinds`), its series at
/// `available[j * H * kinds]` with `H = available_len / (t_runs_len * kinds)`, its t_run
/// `t_runs[j]`. Writes one fit flag and one score a machine (the score of a machine it does not
/// fit is +infinity, for Tetris -infinity). Wraps `drr::score_machines`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_drr_score_machines(
    capacities: *const f64,
    capacities_len: usize,
    kinds: usize,
    available: *const f64,
    available_len: usize,
    t_runs: *const u32,
    t_runs_len: usize,
    demand: *const f64,
    demand_len: usize,
    metric: u32,
    out_fits: *mut bool,
    out_fits_len: usize,
    out_scores: *mut f64,
    out_scores_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let capacities = unsafe { read_slice(capacities, capacities_len) }?;
        let available = unsafe { read_slice(available, available_len) }?;
        let t_runs = unsafe { read_slice(t_runs, t_runs_len) }?;
        let demand = unsafe { read_slice(demand, demand_len) }?;
        let fits = unsafe { write_slice(out_fits, out_fits_len) }?;
        let scores = unsafe { write_slice(out_scores, out_scores_len) }?;
        let metric = decode(metric, &METRICS)?;
        let machines = Machines::new(capacities, kinds, available, t_runs)?;
        let executor = Executor::new(demand, kinds)?;
        drr::score_machines(&machines, &executor, metric, fits, scores)?;
        Ok(())
    })
}

/// Reprovisioning (§III-C): scales the executor's `remaining` series (over `kinds` kinds) in
/// place by `observed[r] / predicted[r]` per kind (`observed_len` and `predicted_len` must both
/// be `kinds`; a kind predicted at zero is left as it is). On error nothing is written. Wraps
/// `drr::reprovision`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `remaining` must
/// not overlap `observed` or `predicted`.
#[no_mangle]
pub unsafe extern "C" fn fairsched_drr_reprovision(
    remaining: *mut f64,
    remaining_len: usize,
    kinds: usize,
    observed: *const f64,
    observed_len: usize,
    predicted: *const f64,
    predicted_len: usize,
) -> FairschedStatus {
    boundary(|| {
        let remaining = unsafe { write_slice(remaining, remaining_len) }?;
        let observed = unsafe { read_slice(observed, observed_len) }?;
        let predicted = unsafe { read_slice(predicted, predicted_len) }?;
        drr::reprovision(remaining, kinds, observed, predicted)?;
        Ok(())
    })
}

/// The paper's rho for `fairsched_drr_reprovision_due` (§III-C): a stage running longer than
/// 1.1 times its expected execution time triggers reprovisioning.
pub const FAIRSCHED_DRR_RHO: f64 = 1.1;
// cbindgen needs the literal; the core's constant must agree.
const _: () = assert!(FAIRSCHED_DRR_RHO == drr::RHO);

/// Reprovisioning's trigger (§III-C) for `elapsed_len` executors in one call: executor i is due
/// when its current stage has run `elapsed[i]` (finite, not negative) and that exceeds `rho`
/// times the stage's expected execution time `expected[i]` (finite, positive, same unit):
/// `elapsed[i] > rho * expected[i]`, strictly. The paper's rho is FAIRSCHED_DRR_RHO, 1.1; any
/// finite rho of at least 1 is accepted. Writes whether each is due into `out_due` and how
/// many are into `*out_count`. Errors, in this order: LENGTH_MISMATCH (`expected_len` or
/// `out_due_len` not `elapsed_len`); NOT_FINITE (rho), OUT_OF_RANGE (rho below 1); NOT_FINITE
/// or NEGATIVE (an elapsed time); NOT_FINITE, NEGATIVE or NOT_POSITIVE (an expected time). On
/// error nothing is written. Wraps `drr::reprovision_due`.
///
/// # Safety
/// Each array must hold its length in elements (NULL allowed for length 0); `out_count` must
/// be NULL or valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fairsched_drr_reprovision_due(
    elapsed: *const f64,
    elapsed_len: usize,
    expected: *const f64,
    expected_len: usize,
    rho: f64,
    out_due: *mut bool,
    out_due_len: usize,
    out_count: *mut usize,
) -> FairschedStatus {
    boundary(|| {
        let elapsed = unsafe { read_slice(elapsed, elapsed_len) }?;
        let expected = unsafe { read_slice(expected, expected_len) }?;
        let due = unsafe { write_slice(out_due, out_due_len) }?;
        let out = unsafe { write(out_count) }?;
        *out = drr::reprovision_due(elapsed, expected, rho, due)?;
        Ok(())
    })
}

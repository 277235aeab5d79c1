package fairsched

// #include "fairsched.h"
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Metric is how DRRMinFrag and DRRScoreMachines score the placement of an executor on a machine.
// Other values are ErrOutOfRange.
type Metric uint32

const (
	// MetricDRR is the dominant remaining resource θ(i, j) (§III-B2): the largest average share
	// of any kind the machine leaves idle until t* = min(t_run, T_i). Smaller is better.
	MetricDRR Metric = C.FAIRSCHED_DRR_METRIC_DRR
	// MetricTRC is the total remaining capacity (§V-F): the same averages summed over the kinds
	// instead of their maximum. Smaller is better.
	MetricTRC Metric = C.FAIRSCHED_DRR_METRIC_TRC
	// MetricTetris is Tetris' alignment of the executor's peak demand with what the machine has
	// available now (step 0), both normalized by capacity. Larger is better.
	MetricTetris Metric = C.FAIRSCHED_DRR_METRIC_TETRIS
)

func (m Metric) String() string {
	switch m {
	case MetricDRR:
		return "DRR"
	case MetricTRC:
		return "TRC"
	case MetricTetris:
		return "Tetris"
	}
	return fmt.Sprintf("Metric(%d)", uint32(m))
}

// DRRHeartbeat is what one DRRMinFrag heartbeat did.
type DRRHeartbeat struct {
	Placed int     // executors placed: their indices are placements[:Placed], in order
	TRun   uint32  // the machine's t_run afterwards: the earliest finish, placed executors included
	DRR    float64 // θ(j) afterwards
}

// DRRMachine returns a machine's dominant remaining resource θ(j) (in [0, 1]) and its total
// remaining capacity (in [0, kinds]), both until tRun. The machine is its capacity, its
// available series and tRun, as the package documentation says (DRR and MinFrag).
func DRRMachine(capacity, available []float64, tRun uint32) (drr, trc float64, err error) {
	var d, t C.double
	err = check(C.fairsched_drr_machine(doubles(capacity), C.size_t(len(capacity)),
		doubles(available), C.size_t(len(available)), C.uint32_t(tRun), &d, &t))
	return float64(d), float64(t), err
}

// DRRMinFrag is one heartbeat of MinFrag (Elasecutor's Algorithm 1) on one machine (capacity,
// available, tRun) over the pending executors, executor i running steps[i] steps with its
// demand series back to back in demands: among the executors that fit, it places the one with
// the best score under metric (for MetricDRR the smallest θ(i, j); ties to the lower index),
// subtracts its series from available, sets t_run to min(t_run, T_i), and repeats until none
// fits. It writes the placed executors' indices, in order, to placements[:Placed] (room for
// len(steps) is needed: ErrLengthMismatch otherwise) and updates available in place. A failed
// call changes neither. One C call, no allocation.
//
// Every executor must have the machine's kinds (ErrLengthMismatch) and run at most its horizon
// (ErrOutOfRange); at most 4096 are pending (ErrCapacityFull).
func DRRMinFrag(capacity, available []float64, tRun uint32, demands []float64, steps []uint32, metric Metric,
	placements []uint32) (DRRHeartbeat, error) {
	// The library writes available and placements while it reads the rest.
	capacity, demands = apart(capacity, available), apart(demands, available)
	steps = apart(steps, placements)
	var beat C.fairsched_drr_heartbeat
	err := check(C.fairsched_drr_min_frag(doubles(capacity), C.size_t(len(capacity)),
		doubles(available), C.size_t(len(available)), C.uint32_t(tRun),
		doubles(demands), C.size_t(len(demands)), uint32s(steps), C.size_t(len(steps)),
		C.uint32_t(metric), uint32s(placements), C.size_t(len(placements)), &beat))
	return heartbeat(beat, err)
}

// heartbeat is the DRRHeartbeat the library wrote into beat, or err.
func heartbeat(beat C.fairsched_drr_heartbeat, err error) (DRRHeartbeat, error) {
	if err != nil {
		return DRRHeartbeat{}, err
	}
	return DRRHeartbeat{Placed: int(beat.placed), TRun: uint32(beat.t_run), DRR: float64(beat.drr)}, nil
}

// DRRExecutors is a set of pending executors laid out once for repeated heartbeats
// (DRRMinFragExecutors, DRRTimeline.HeartbeatExecutors): their demand series and steps copied
// into C memory and checked there once, so that a heartbeat neither copies nor checks them
// again (that was a fifth of a heartbeat's instructions for 100 executors of 16 to 64 steps).
// Later changes to the slices it was built from do not reach it. It may be shared by
// goroutines. Close frees its C memory (or the garbage collector does, once it is
// unreachable); a heartbeat over it then returns ErrClosed.
type DRRExecutors struct {
	native *object[*C.fairsched_drr_executors]
	n      int
}

// NewDRRExecutors lays out len(steps) pending executors over kinds kinds, executor i running
// steps[i] steps with its series back to back in demands, as DRRMinFrag takes them. Errors, as
// DRRMinFrag's for the same executors on a machine of kinds kinds: ErrEmpty (no kind, a step
// count of 0), ErrCapacityFull (more than 8 kinds, 256 steps or 4096 executors),
// ErrLengthMismatch (demands not steps[i]·kinds amounts back to back), ErrNotFinite or
// ErrNegative (an amount); ErrOutOfMemory when there is no C memory for them.
func NewDRRExecutors(demands []float64, steps []uint32, kinds int) (*DRRExecutors, error) {
	// newObject's capacity is unused here: the size is the series' and the steps'.
	native, err := newObject(0, func(_ C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_drr_executors_storage_size(C.size_t(len(demands)), C.size_t(len(steps)), size)
	}, func(memory unsafe.Pointer, size C.size_t, _ C.uint32_t, pending **C.fairsched_drr_executors) C.fairsched_status {
		return C.fairsched_drr_executors_init(memory, size, doubles(demands), C.size_t(len(demands)),
			uint32s(steps), C.size_t(len(steps)), C.size_t(kinds), pending)
	})
	if err != nil {
		return nil, err
	}
	return &DRRExecutors{native: native, n: len(steps)}, nil
}

// Len is the number of executors.
func (e *DRRExecutors) Len() int {
	return e.n
}

// Close frees the executors' C memory. Calls after the first return ErrClosed.
func (e *DRRExecutors) Close() error {
	return e.native.close()
}

// handle is the executors' C handle, ErrNullPointer for nil executors or ErrClosed for closed
// ones. The caller keeps e alive (runtime.KeepAlive) until its C call has returned.
func (e *DRRExecutors) handle() (*C.fairsched_drr_executors, error) {
	switch {
	case e == nil:
		return nil, ErrNullPointer
	case e.native.memory == nil:
		return nil, ErrClosed
	}
	return e.native.handle, nil
}

// DRRMinFragExecutors is DRRMinFrag over executors laid out by NewDRRExecutors: the same
// heartbeat, without copying or checking their series (only against the machine: its kinds,
// ErrLengthMismatch, and its horizon, ErrOutOfRange); placements needs room for pending.Len().
// A nil pending is ErrNullPointer, a closed one ErrClosed. One C call, no allocation.
func DRRMinFragExecutors(capacity, available []float64, tRun uint32, pending *DRRExecutors, metric Metric,
	placements []uint32) (DRRHeartbeat, error) {
	// The library writes available while it reads capacity.
	capacity = apart(capacity, available)
	p, err := pending.handle()
	if err != nil {
		return DRRHeartbeat{}, err
	}
	var beat C.fairsched_drr_heartbeat
	err = check(C.fairsched_drr_min_frag_executors(doubles(capacity), C.size_t(len(capacity)),
		doubles(available), C.size_t(len(available)), C.uint32_t(tRun), p, C.uint32_t(metric),
		uint32s(placements), C.size_t(len(placements)), &beat))
	runtime.KeepAlive(pending)
	return heartbeat(beat, err)
}

// DRRScoreMachines scores one executor, its demand series over kinds kinds, on len(tRuns)
// machines sharing kinds and a horizon H: machine j's capacity is capacities[j*kinds:][:kinds],
// its available series available[j*H*kinds:][:H*kinds] and its t_run tRuns[j]. It writes, for
// each machine, whether the executor fits into fits[j] and its score under metric into
// scores[j]; where it does not fit the score is the worst there is, +Inf (-Inf for
// MetricTetris), so the best machine is simply the best score. fits and scores hold one entry a
// machine (ErrLengthMismatch otherwise); a failed call writes neither. One C call, no
// allocation.
//
// capacities holds kinds amounts a machine (ErrLengthMismatch otherwise).
func DRRScoreMachines(capacities []float64, kinds int, available []float64, tRuns []uint32,
	demand []float64, metric Metric, fits []bool, scores []float64) error {
	capacities, available, demand = apart(capacities, scores), apart(available, scores), apart(demand, scores)
	return check(C.fairsched_drr_score_machines(doubles(capacities), C.size_t(len(capacities)), C.size_t(kinds),
		doubles(available), C.size_t(len(available)), uint32s(tRuns), C.size_t(len(tRuns)),
		doubles(demand), C.size_t(len(demand)), C.uint32_t(metric),
		bools(fits), C.size_t(len(fits)), doubles(scores), C.size_t(len(scores))))
}

// DRRReprovision is Elasecutor's reprovisioning (§III-C): it scales an executor's remaining
// demand series (over kinds kinds) in place by observed[r] / predicted[r] for each kind r, the
// usage observed over one monitoring period against the usage predicted for it (each finite and
// not negative). A kind predicted at zero is left as it is. A failed call changes nothing;
// ErrOutOfRange when a scaled amount would overflow.
//
// observed and predicted hold kinds amounts each (ErrLengthMismatch otherwise).
func DRRReprovision(remaining []float64, kinds int, observed, predicted []float64) error {
	observed, predicted = apart(observed, remaining), apart(predicted, remaining)
	return check(C.fairsched_drr_reprovision(doubles(remaining), C.size_t(len(remaining)),
		C.size_t(kinds), doubles(observed), C.size_t(len(observed)), doubles(predicted),
		C.size_t(len(predicted))))
}

// DRRRho is the paper's ρ for DRRReprovisionDue (§III-C, C: FAIRSCHED_DRR_RHO): a stage running
// longer than 1.1 times its expected execution time triggers reprovisioning.
const DRRRho float64 = C.FAIRSCHED_DRR_RHO

// DRRReprovisionDue is reprovisioning's trigger (§III-C) for a batch of executors: executor i is
// due when its current stage has run elapsed[i] (finite, not negative) and that is longer than
// rho times the stage's expected execution time expected[i] (finite, positive, in the same
// unit): elapsed[i] > rho·expected[i], strictly. The paper's rho is DRRRho; any finite rho of at
// least 1 is accepted. It writes whether each is due into due and returns how many are. One C
// call, no allocation. Errors: ErrLengthMismatch (expected or due not one per executor),
// ErrNotFinite (a NaN or infinite rho or time), ErrOutOfRange (rho below 1), ErrNegative (a
// negative time), ErrNotPositive (an expected time of 0); a failed call writes nothing.
func DRRReprovisionDue(elapsed, expected []float64, rho float64, due []bool) (int, error) {
	var count C.size_t
	err := check(C.fairsched_drr_reprovision_due(doubles(elapsed), C.size_t(len(elapsed)),
		doubles(expected), C.size_t(len(expected)), C.double(rho), bools(due), C.size_t(len(due)),
		&count))
	return int(count), err
}

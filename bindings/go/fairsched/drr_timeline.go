package fairsched

// #include "fairsched.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// DRRTimeline is one machine over time, as Elasecutor's scheduler keeps it (Liu, Xu:
// Elasecutor: Elastic Executor Scheduling in Data Analytics Systems, IEEE/ACM Transactions on
// Networking, 2021, §III-B and §III-C): the executors running on it, each holding its predicted
// demand series from the step it started, and what that leaves, the available series AR over a
// horizon of H steps from now. It is what a scheduler otherwise keeps beside DRRMinFrag: time
// moves on by steps (Advance: an executor whose series has ended has finished as predicted and
// is let go), executors are placed (Place, or by MinFrag in one call, Heartbeat), released when
// they finish early (Release: the rest of their series comes back) and reprovisioned
// (Reprovision: §III-C's scaling of the remaining series). Nothing is ever over-committed: a
// demand that does not fit is ErrDoesNotFit. AR is exact: after any sequence of calls it is, bit
// for bit, the capacity minus every running executor's demand, subtracted in the order they
// were placed.
//
// Series are time-major and flat (see the package documentation), over the machine's kinds, 1
// to H steps. Executors get ids 1, 2, 3, ... in the order they are placed. A call that fails
// returns one of the Err values and changes nothing. A DRRTimeline lives in C memory: Close it
// when done. It is not safe for concurrent use.
type DRRTimeline struct {
	native *object[*C.fairsched_drr_timeline]
}

// DRRTimelineHeartbeat is what one DRRTimeline.Heartbeat did.
type DRRTimelineHeartbeat struct {
	Placed  int     // executors placed: their pending indices are placements[:Placed], in order
	FirstID uint64  // the first one's id; the k-th placed (from 0) has id FirstID + k
	TRun    uint32  // the machine's t_run afterwards
	DRR     float64 // θ(j) afterwards
}

// DRRTimelineStats is a DRRTimeline as a whole.
type DRRTimelineStats struct {
	Now      uint64  // the current step
	NextID   uint64  // the id the next executor placed gets
	Running  uint32  // executors running
	Capacity uint32  // executors the memory holds
	Horizon  uint32  // H, the steps of the available series
	TRun     uint32  // the steps until the first running executor's series ends (H with none)
	Kinds    uint32  // resource kinds
	DRR      float64 // θ(j), the machine's dominant remaining resource until t_run
	TRC      float64 // its total remaining capacity until t_run
}

// NewDRRTimeline returns the timeline of a machine of capacity machine (one amount per kind, 1
// to 8 kinds, each positive and at most math.MaxFloat64 / 256) over a horizon of horizon steps
// (1 to 256), at step 0 with nothing running, for up to capacity executors running at once.
// Errors: ErrEmpty (no kind, a horizon of 0), ErrCapacityFull (more than 8 kinds or 256 steps),
// ErrNotPositive, ErrNotFinite or ErrOutOfRange (an amount), besides the capacity's.
func NewDRRTimeline(capacity uint32, machine []float64, horizon uint32) (*DRRTimeline, error) {
	native, err := newObject(capacity, func(capacity C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_drr_timeline_storage_size(capacity, C.size_t(len(machine)), C.uint32_t(horizon), size)
	}, func(memory unsafe.Pointer, size C.size_t, capacity C.uint32_t, timeline **C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_init(memory, size, capacity, doubles(machine), C.size_t(len(machine)),
			C.uint32_t(horizon), timeline)
	})
	if err != nil {
		return nil, err
	}
	return &DRRTimeline{native: native}, nil
}

// Close frees the timeline's memory. Calls after the first return ErrClosed.
func (t *DRRTimeline) Close() error {
	return t.native.close()
}

// Advance moves time steps steps on (0 changes nothing): the available series slides, and every
// executor whose series has ended by then is let go; it returns how many, finished as
// predicted. ErrOutOfRange when the clock would pass 2^64 - 257.
func (t *DRRTimeline) Advance(steps uint64) (int, error) {
	var finished C.size_t
	err := t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_advance(h, C.uint64_t(steps), &finished)
	})
	return int(finished), err
}

// Place places one executor now, reserving demand, its series from the current step, and
// returns its id. Errors: ErrLengthMismatch (not whole steps of the machine's kinds), ErrEmpty
// (no step), ErrOutOfRange (more steps than the horizon), ErrCapacityFull (more than 256 steps,
// or the timeline runs its capacity of executors), ErrNotFinite or ErrNegative (an amount),
// ErrDoesNotFit (some step needs more of a kind than is available).
func (t *DRRTimeline) Place(demand []float64) (uint64, error) {
	var id C.uint64_t
	err := t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_place(h, doubles(demand), C.size_t(len(demand)), &id)
	})
	return uint64(id), err
}

// Release releases executor id before its series ends (it finished early, or was stopped): the
// rest of its series becomes available again. ErrUnknownID for an id not running (never
// placed, released, or let go when its series ended).
func (t *DRRTimeline) Release(id uint64) error {
	return t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_release(h, C.uint64_t(id))
	})
}

// Reprovision reprovisions executor id (§III-C): its series from the current step on is scaled
// by observed[r] / predicted[r] for each kind r, the usage observed over one monitoring period
// against the usage predicted for it (a kind predicted at zero is left as it is), as
// DRRReprovision scales a series. Errors: ErrLengthMismatch (observed or predicted not of the
// machine's kinds), ErrNotFinite or ErrNegative (an amount), ErrUnknownID, ErrOutOfRange (a
// scaled amount would overflow), ErrDoesNotFit (the scaled series needs more than the machine
// has at some step).
func (t *DRRTimeline) Reprovision(id uint64, observed, predicted []float64) error {
	return t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_reprovision(h, C.uint64_t(id), doubles(observed),
			C.size_t(len(observed)), doubles(predicted), C.size_t(len(predicted)))
	})
}

// Heartbeat is one MinFrag heartbeat (Elasecutor's Algorithm 1) of this machine over the
// pending executors, executor i running steps[i] steps with its series back to back in demands
// and standing for counts[i] identical executors (an application's; 1 for one executor, 0 for
// none): among those that fit, it places the one with the best score under metric (for
// MetricDRR the smallest θ(i, j); ties to the lower index), and repeats until none fits,
// placements is full, or the timeline runs its capacity of executors. It writes the placed
// executors' indices, in order, to placements[:Placed]. One C call, no allocation. Errors:
// ErrLengthMismatch (counts not one per executor, demands not their series back to back over
// the machine's kinds), ErrOutOfRange (an unknown metric, an executor longer than the horizon),
// and DRRMinFrag's for the executors; a failed call writes nothing.
func (t *DRRTimeline) Heartbeat(demands []float64, steps, counts []uint32, metric Metric,
	placements []uint32) (DRRTimelineHeartbeat, error) {
	// The library writes placements while it reads the rest.
	steps, counts = apart(steps, placements), apart(counts, placements)
	var beat C.fairsched_drr_timeline_heartbeat_result
	err := t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_heartbeat(h, doubles(demands), C.size_t(len(demands)),
			uint32s(steps), C.size_t(len(steps)), uint32s(counts), C.size_t(len(counts)),
			C.uint32_t(metric), uint32s(placements), C.size_t(len(placements)), &beat)
	})
	return timelineHeartbeat(beat, err)
}

// HeartbeatExecutors is Heartbeat over executors laid out by NewDRRExecutors: the same
// heartbeat, without copying or checking their series (only against the machine: its kinds,
// ErrLengthMismatch, and its horizon, ErrOutOfRange); counts holds one count per executor. A
// nil pending is ErrNullPointer, a closed one ErrClosed (checked before the timeline). One C
// call, no allocation.
func (t *DRRTimeline) HeartbeatExecutors(pending *DRRExecutors, counts []uint32, metric Metric,
	placements []uint32) (DRRTimelineHeartbeat, error) {
	// The library writes placements while it reads counts.
	counts = apart(counts, placements)
	p, err := pending.handle()
	if err != nil {
		return DRRTimelineHeartbeat{}, err
	}
	var beat C.fairsched_drr_timeline_heartbeat_result
	err = t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_heartbeat_executors(h, p, uint32s(counts), C.size_t(len(counts)),
			C.uint32_t(metric), uint32s(placements), C.size_t(len(placements)), &beat)
	})
	runtime.KeepAlive(pending)
	return timelineHeartbeat(beat, err)
}

// timelineHeartbeat is the DRRTimelineHeartbeat the library wrote into beat, or err.
func timelineHeartbeat(beat C.fairsched_drr_timeline_heartbeat_result, err error) (DRRTimelineHeartbeat, error) {
	if err != nil {
		return DRRTimelineHeartbeat{}, err
	}
	return DRRTimelineHeartbeat{
		Placed:  int(beat.placed),
		FirstID: uint64(beat.first_id),
		TRun:    uint32(beat.t_run),
		DRR:     float64(beat.drr),
	}, nil
}

// Stats returns the timeline as a whole.
func (t *DRRTimeline) Stats() (DRRTimelineStats, error) {
	var s C.fairsched_drr_timeline_stats
	err := t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_stats_get(h, &s)
	})
	return DRRTimelineStats{
		Now:      uint64(s.now),
		NextID:   uint64(s.next_id),
		Running:  uint32(s.running),
		Capacity: uint32(s.capacity),
		Horizon:  uint32(s.horizon),
		TRun:     uint32(s.t_run),
		Kinds:    uint32(s.kinds),
		DRR:      float64(s.drr),
		TRC:      float64(s.trc),
	}, err
}

// Available copies the available series AR from the current step into out, which must hold
// exactly H times the machine's kinds amounts (ErrLengthMismatch otherwise).
func (t *DRRTimeline) Available(out []float64) error {
	return t.native.call(func(h *C.fairsched_drr_timeline) C.fairsched_status {
		return C.fairsched_drr_timeline_available(h, doubles(out), C.size_t(len(out)))
	})
}

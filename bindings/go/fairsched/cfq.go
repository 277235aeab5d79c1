package fairsched

// #include "fairsched.h"
import "C"

import "unsafe"

// CFQ is a Cluster Fair Queueing scheduler (Chen, Wang, Zhang, Li).
//
// CFQ keeps an idealized fair scheduler, the cluster GPS, as a reference: every active job
// receives slots·w/W slots, infinitely divisible. A job arriving at a with slot-time L (its
// task run times summed on one slot) and weight w gets the virtual finish time F = V(a) + L/w,
// the virtual time at which GPS completes it. Every free slot goes to the backlogged job (one
// with pending tasks) with the smallest F; ties go to the earlier arrival, then the lower id.
//
// A job's life: Arrive, then SetPending and Offer any number of times (stages), and Reprofile
// to correct its slot-time while GPS has not completed it, Complete (optional: records the
// real completion and keeps the job queryable), Remove (forgets the id). GPS completes a job
// when V reaches its F, whatever happens to it in the real system. CFQProfiler estimates
// slot-times as the paper's naive profiler does.
//
// Times are in any unit, the same for times and slot-times, within ±2^60; slot-times are in
// (0, 2^60]; weights and slots are at least 1. A call that fails returns one of the Err
// values and changes nothing.
//
// A CFQ lives in C memory, fixed in size by its capacity: Close it when done. It is not safe
// for concurrent use.
type CFQ struct {
	native *object[*C.fairsched_cfq]
}

// CFQJobInfo is what the scheduler knows about one job.
type CFQJobInfo struct {
	ID            uint64
	Arrival       float64
	SlotTime      float64 // given at arrival, or at the last Reprofile
	Weight        uint32
	VirtualFinish float64 // F = V(Arrival) + SlotTime/Weight
	PendingTasks  uint32
	Backlogged    bool     // whether the job waits for slots
	GPSCompletion *float64 // when GPS completed the job; nil while it is active in GPS
	Completion    *float64 // when the job completed or was removed; nil while it runs
}

// CFQStats is the scheduler as a whole.
type CFQStats struct {
	Now         float64 // time of the last accepted call
	VirtualTime float64 // GPS virtual time at Now
	Slots       uint32  // slots shared
	Capacity    uint32  // jobs the memory holds
	Jobs        uint32  // jobs reachable by id
	Backlogged  uint32  // jobs with pending tasks
	GPSActive   uint32  // jobs active in GPS, removed ones included
	RowsInUse   uint32  // jobs reachable by id plus removed jobs still active in GPS
}

// NewCFQ returns a scheduler for up to capacity jobs sharing slots slots, its clock at
// startTime.
func NewCFQ(capacity, slots uint32, startTime float64) (*CFQ, error) {
	native, err := newObject(capacity, func(capacity C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_cfq_storage_size(capacity, size)
	}, func(memory unsafe.Pointer, size C.size_t, capacity C.uint32_t, cfq **C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_init(memory, size, capacity, C.uint32_t(slots), C.double(startTime), cfq)
	})
	if err != nil {
		return nil, err
	}
	return &CFQ{native: native}, nil
}

// Close frees the scheduler's memory. Calls after the first return ErrClosed.
func (c *CFQ) Close() error {
	return c.native.close()
}

// Advance moves the clock to now, processing GPS departures up to it.
func (c *CFQ) Advance(now float64) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_advance(h, C.double(now))
	})
}

// SetSlots makes GPS share slots slots from now on (machines joined or left).
func (c *CFQ) SetSlots(now float64, slots uint32) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_set_slots(h, C.double(now), C.uint32_t(slots))
	})
}

// Arrive adds job id at now with slotTime of work and weight, with no pending task. Its
// virtual finish time is fixed here. Capacity is judged at the previous call's time: rows of
// removed jobs are freed as GPS completes them, so Advance first to reclaim them.
func (c *CFQ) Arrive(now float64, id uint64, slotTime float64, weight uint32) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_arrive(h, C.double(now), C.uint64_t(id), C.double(slotTime),
			C.uint32_t(weight))
	})
}

// Reprofile corrects job id's slot-time to slotTime at now, as if it had been known at
// arrival: the clock advances to now, then the job's virtual finish becomes
// V(arrival) + slotTime/weight, bit for bit what an arrival with slotTime would have given; if
// that is not above the virtual time at now, GPS completes the job at now. Its place in the
// backlog follows. A job GPS had completed by the previous call keeps its GPS completion, and
// only its backlog key moves, to F + (slotTime - old slot-time)/weight. ErrJobCompleted for a
// job completed in the real system. Otherwise the errors of Arrive for now and slotTime, and
// ErrUnknownID.
func (c *CFQ) Reprofile(now float64, id uint64, slotTime float64) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_reprofile(h, C.double(now), C.uint64_t(id), C.double(slotTime))
	})
}

// SetPending sets the number of tasks job id has waiting for a slot: above zero the job is
// backlogged, zero takes it out of the backlog.
func (c *CFQ) SetPending(id uint64, pending uint32) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_set_pending(h, C.uint64_t(id), C.uint32_t(pending))
	})
}

// SetPendingBatch is SetPending for ids[i] and pending[i], in one call: all or nothing. A
// repeated id takes its last count.
func (c *CFQ) SetPendingBatch(ids []uint64, pending []uint32) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_set_pending_batch(h,
			(*C.uint64_t)(unsafe.SliceData(ids)), C.size_t(len(ids)),
			(*C.uint32_t)(unsafe.SliceData(pending)), C.size_t(len(pending)))
	})
}

// Offer hands out len(out) free slots, each to the backlogged job with the smallest virtual
// finish time and each consuming one of its pending tasks. It writes one job id per slot into
// out and returns how many it wrote: fewer than len(out) when the backlog runs dry.
func (c *CFQ) Offer(out []uint64) (int, error) {
	var assigned C.size_t
	err := c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_offer(h, (*C.uint64_t)(unsafe.SliceData(out)), C.size_t(len(out)),
			&assigned)
	})
	return int(assigned), err
}

// Peek returns the job the next free slot would go to, without giving it; ok is false when
// the backlog is empty.
func (c *CFQ) Peek() (id uint64, ok bool, err error) {
	var next C.uint64_t
	var found C.bool
	err = c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_peek(h, &next, &found)
	})
	return uint64(next), bool(found), err
}

// Complete records that job id finished in the real system at now: it leaves the backlog for
// good and stays queryable until Remove. Its place in GPS is unchanged.
func (c *CFQ) Complete(now float64, id uint64) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_complete(h, C.double(now), C.uint64_t(id))
	})
}

// Remove forgets job id at now, completing it first if it has not completed (a cancelled
// job). The id can be reused at once; a job still active in GPS keeps its place, and its row,
// until GPS completes it.
func (c *CFQ) Remove(now float64, id uint64) error {
	return c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_remove(h, C.double(now), C.uint64_t(id))
	})
}

// Job returns what the scheduler knows about job id.
func (c *CFQ) Job(id uint64) (CFQJobInfo, error) {
	var info C.fairsched_cfq_job_info
	err := c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_job_get(h, C.uint64_t(id), &info)
	})
	if err != nil {
		return CFQJobInfo{}, err
	}
	return CFQJobInfo{
		ID:            uint64(info.id),
		Arrival:       float64(info.arrival),
		SlotTime:      float64(info.slot_time),
		Weight:        uint32(info.weight),
		VirtualFinish: float64(info.virtual_finish),
		PendingTasks:  uint32(info.pending_tasks),
		Backlogged:    bool(info.backlogged),
		GPSCompletion: optional(info.gps_completion, !bool(info.gps_active)),
		Completion:    optional(info.completion, bool(info.completed)),
	}, nil
}

// optional returns a pointer to x when present, else nil.
func optional(x C.double, present bool) *float64 {
	if !present {
		return nil
	}
	value := float64(x)
	return &value
}

// GPSCompletionEstimate returns job id's GPS completion time: exact once GPS has completed it;
// before that, the time GPS will complete it if no further job arrives and the slot count
// stays. It costs O(jobs).
func (c *CFQ) GPSCompletionEstimate(id uint64) (float64, error) {
	var time C.double
	err := c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_gps_completion_estimate(h, C.uint64_t(id), &time)
	})
	return float64(time), err
}

// CFQDelayBound returns Theorem 1's bound of the CFQ paper (§IV-B): CFQ completes every job at
// most 2*longestTask + largestSlotTime/slots after GPS does (it holds with weights too).
// longestTask is the longest run time of any task, largestSlotTime the largest slot-time of any
// job, each in (0, 2^60] with longestTask <= largestSlotTime (ErrNotFinite, ErrNotPositive or
// ErrOutOfRange otherwise); slots is at least 1 (ErrNotPositive).
func CFQDelayBound(longestTask, largestSlotTime float64, slots uint32) (float64, error) {
	var bound C.double
	err := check(C.fairsched_cfq_delay_bound(C.double(longestTask), C.double(largestSlotTime),
		C.uint32_t(slots), &bound))
	return float64(bound), err
}

// Stats returns the scheduler as a whole.
func (c *CFQ) Stats() (CFQStats, error) {
	var stats C.fairsched_cfq_stats
	err := c.native.call(func(h *C.fairsched_cfq) C.fairsched_status {
		return C.fairsched_cfq_stats_get(h, &stats)
	})
	if err != nil {
		return CFQStats{}, err
	}
	return CFQStats{
		Now:         float64(stats.now),
		VirtualTime: float64(stats.virtual_time),
		Slots:       uint32(stats.slots),
		Capacity:    uint32(stats.capacity),
		Jobs:        uint32(stats.jobs),
		Backlogged:  uint32(stats.backlogged),
		GPSActive:   uint32(stats.gps_active),
		RowsInUse:   uint32(stats.rows_in_use),
	}, nil
}

// CFQProfiler is the CFQ paper's naive profiler (§V-B): it observes the run time of every task
// that finishes, and estimates a new job's slot-time as its number of tasks times the mean of
// every duration observed, for Arrive or, once the job's own tasks have run, Reprofile.
//
// The mean is exact to the last bit however many durations are observed: the library keeps
// the count and the sum in two doubles (the C struct fairsched_cfq_profiler, which this type
// holds). A CFQProfiler is a plain value in Go memory, with nothing to close; the zero value
// is an empty profiler. It is not safe for concurrent use.
type CFQProfiler struct {
	state C.fairsched_cfq_profiler
}

// NewCFQProfiler returns an empty profiler (the zero value is one too).
func NewCFQProfiler() *CFQProfiler {
	p := new(CFQProfiler)
	// Fails only for a NULL pointer, and p is not NULL.
	_ = check(C.fairsched_cfq_profiler_init(&p.state))
	return p
}

// Observe observes one finished task that ran duration (the unit of slot-times): finite
// (ErrNotFinite), not negative (ErrNegative) and at most 2^60 (ErrOutOfRange).
func (p *CFQProfiler) Observe(duration float64) error {
	return check(C.fairsched_cfq_profiler_observe(&p.state, C.double(duration)))
}

// ObserveBatch observes every one of durations in one call, all or nothing: each duration is
// checked as by Observe first.
func (p *CFQProfiler) ObserveBatch(durations []float64) error {
	return check(C.fairsched_cfq_profiler_observe_batch(&p.state,
		(*C.double)(unsafe.SliceData(durations)), C.size_t(len(durations))))
}

// Estimate returns the slot-time of a new job of tasks tasks: tasks times the mean duration
// observed. ErrNotPositive for 0 tasks, ErrEmpty before the first observation; an estimate
// Arrive would refuse is ErrNotPositive (every duration was 0) or ErrOutOfRange (above 2^60).
func (p *CFQProfiler) Estimate(tasks uint64) (float64, error) {
	var slotTime C.double
	err := check(C.fairsched_cfq_profiler_estimate(&p.state, C.uint64_t(tasks), &slotTime))
	return float64(slotTime), err
}

// Count returns the number of durations observed.
func (p *CFQProfiler) Count() uint64 {
	return uint64(p.state.count)
}

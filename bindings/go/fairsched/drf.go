package fairsched

// #include "fairsched.h"
import "C"

import "unsafe"

// DRFAllocation is the divisible DRF allocation of some users, one entry per user in each
// slice.
type DRFAllocation struct {
	Tasks  []float64 // N_i^max: every user's tasks, fractional
	Shares []float64 // s_i^max = w_i/φ: every user's dominant share
	Phi    float64   // φ: one unit of weighted dominant share costs φ of the busiest resource
}

// DRFDivisible is divisible weighted DRF in closed form: with divisible tasks and unlimited
// demand, every user i gets N_i^max = w_i / (φ δ_i) tasks, δ_i being the dominant share of one
// of its tasks. The slices are as the package documentation says (DRF and QKnobler).
func DRFDivisible(cluster, weights, demands []float64) (DRFAllocation, error) {
	drf := DRFAllocation{
		Tasks:  make([]float64, len(weights)),
		Shares: make([]float64, len(weights)),
	}
	var phi C.double
	status := C.fairsched_drf_divisible(
		doubles(cluster), C.size_t(len(cluster)),
		doubles(weights), C.size_t(len(weights)),
		doubles(demands), C.size_t(len(demands)),
		doubles(drf.Tasks), C.size_t(len(drf.Tasks)),
		doubles(drf.Shares), C.size_t(len(drf.Shares)),
		&phi)
	if err := check(status); err != nil {
		return DRFAllocation{}, err
	}
	drf.Phi = float64(phi)
	return drf, nil
}

// DRFQueue is incremental weighted DRF for allocators: users ordered by weighted dominant
// share as their tasks start and finish, so that the next user costs O(1) and every change
// O(log n), instead of a sort of all users per decision.
//
// A user is added (AddUser) with a weight and the demand vector of each of its tasks; the
// caller sets how many of its tasks wait (SetPending: above zero the user is active) and
// either lets the queue decide a whole round on the free resources (AllocateRound: discrete
// DRF; QKnoblerRound: QKnobler's Algorithm 1 on one machine) or places tasks itself
// (StartNext, or Next then TasksStarted); it reports the tasks that finish (TasksFinished).
// Ties between equal weighted shares go to the lower id. Resource vectors hold one amount per
// kind of the queue's cluster. A call that fails returns one of the Err values and changes
// nothing.
//
// A DRFQueue lives in C memory, fixed in size by its number of users: Close it when done. It
// is not safe for concurrent use.
type DRFQueue struct {
	native *object[*C.fairsched_drf_queue]
}

// DRFUserInfo is what the queue knows about one user.
type DRFUserInfo struct {
	ID            uint64
	Running       uint64  // running tasks
	Pending       uint64  // pending tasks; the user is active while this is not zero
	Weight        float64 // the weight given when the user was added
	DominantShare float64 // the user's dominant share of the cluster, Running·δ
	WeightedShare float64 // DominantShare / Weight: the queue's order
	TaskShare     float64 // δ: the dominant share of one of the user's tasks
}

// DRFQueueStats is the queue as a whole.
type DRFQueueStats struct {
	Capacity uint32 // users the memory holds
	Users    uint32 // users present
	Active   uint32 // users with pending tasks
	Kinds    uint32 // resource kinds of the cluster
}

// NewDRFQueue returns a queue for up to capacity users sharing cluster (one amount per
// resource kind, 1 to 8 kinds, each finite and positive).
func NewDRFQueue(capacity uint32, cluster []float64) (*DRFQueue, error) {
	native, err := newObject(capacity, func(capacity C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_drf_queue_storage_size(capacity, size)
	}, func(memory unsafe.Pointer, size C.size_t, capacity C.uint32_t, queue **C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_init(memory, size, capacity, doubles(cluster), C.size_t(len(cluster)), queue)
	})
	if err != nil {
		return nil, err
	}
	return &DRFQueue{native: native}, nil
}

// Close frees the queue's memory. Calls after the first return ErrClosed.
func (q *DRFQueue) Close() error {
	return q.native.close()
}

// AddUser adds user id with weight (finite, positive) and the demand of each of its tasks (one
// amount per kind, each finite and not negative, not all zero; both within the range the
// package documentation gives), with no task running or pending.
func (q *DRFQueue) AddUser(id uint64, weight float64, demand []float64) error {
	return q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_add_user(h, C.uint64_t(id), C.double(weight),
			doubles(demand), C.size_t(len(demand)))
	})
}

// RemoveUser removes user id, whatever it has running or pending; its row is free at once.
func (q *DRFQueue) RemoveUser(id uint64) error {
	return q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_remove_user(h, C.uint64_t(id))
	})
}

// SetPending sets how many tasks of user id wait: above zero the user is active.
func (q *DRFQueue) SetPending(id, pending uint64) error {
	return q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_set_pending(h, C.uint64_t(id), C.uint64_t(pending))
	})
}

// TasksStarted records that count tasks of user id started outside a round: they run, and as
// many pending tasks (at most all of them) no longer wait.
func (q *DRFQueue) TasksStarted(id, count uint64) error {
	return q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_tasks_started(h, C.uint64_t(id), C.uint64_t(count))
	})
}

// TasksFinished records that count running tasks of user id finished; ErrNegative if fewer
// run.
func (q *DRFQueue) TasksFinished(id, count uint64) error {
	return q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_tasks_finished(h, C.uint64_t(id), C.uint64_t(count))
	})
}

// Next returns the active user with the lowest weighted dominant share; ok is false when no
// user is active.
func (q *DRFQueue) Next() (id uint64, ok bool, err error) {
	var next C.uint64_t
	var found C.bool
	err = q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_next(h, &next, &found)
	})
	return uint64(next), bool(found), err
}

// StartNext starts one task of the active user with the lowest weighted dominant share (the
// user Next returns) and returns its id: one of its pending tasks runs. Nothing is checked
// against free resources: the caller places the task. ok is false, and nothing changes, when
// no user is active.
func (q *DRFQueue) StartNext() (id uint64, ok bool, err error) {
	var started C.uint64_t
	var found C.bool
	err = q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_start_next(h, &started, &found)
	})
	return uint64(started), bool(found), err
}

// User returns what the queue knows about user id.
func (q *DRFQueue) User(id uint64) (DRFUserInfo, error) {
	var info C.fairsched_drf_user_info
	err := q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_user_get(h, C.uint64_t(id), &info)
	})
	if err != nil {
		return DRFUserInfo{}, err
	}
	return DRFUserInfo{
		ID:            uint64(info.id),
		Running:       uint64(info.running),
		Pending:       uint64(info.pending),
		Weight:        float64(info.weight),
		DominantShare: float64(info.dominant_share),
		WeightedShare: float64(info.weighted_share),
		TaskShare:     float64(info.task_share),
	}, nil
}

// Stats returns the queue as a whole.
func (q *DRFQueue) Stats() (DRFQueueStats, error) {
	var stats C.fairsched_drf_queue_stats
	err := q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_stats_get(h, &stats)
	})
	if err != nil {
		return DRFQueueStats{}, err
	}
	return DRFQueueStats{
		Capacity: uint32(stats.capacity),
		Users:    uint32(stats.users),
		Active:   uint32(stats.active),
		Kinds:    uint32(stats.kinds),
	}, nil
}

// AllocateRound is discrete DRF on the free resources (one amount per kind, each finite and
// not negative): it starts tasks one at a time, each of the active user with the lowest
// weighted dominant share whose task fits what is still free, writing its id into out, until
// no task fits or out is full. It returns how many it started (out[:n]).
func (q *DRFQueue) AllocateRound(free []float64, out []uint64) (int, error) {
	var started C.size_t
	err := q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_allocate_round(h, doubles(free), C.size_t(len(free)),
			uint64s(out), C.size_t(len(out)), &started)
	})
	return int(started), err
}

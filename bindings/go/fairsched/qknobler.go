package fairsched

// #include "fairsched.h"
import "C"

// QKnoblerAllocation is QKnobler's allocation of some users at a knob setting, one entry per
// user in each slice.
type QKnoblerAllocation struct {
	Fair      []float64 // N̄_i = ρ N_i^max: the tasks of the fairness-oriented stage
	Efficient []float64 // N'_i: the tasks of the efficiency-oriented stage
	Whole     []uint64  // both stages' tasks rounded down to whole tasks, within every capacity
	Summary   QKnoblerSummary
}

// QKnoblerSummary is what QKnoblerAllocate decided besides the per-user tasks.
type QKnoblerSummary struct {
	Rho                 float64   // the knob
	Phi                 float64   // DRF's φ (see DRFAllocation)
	Theta               float64   // Theorem 1's bound on |s_i/w_i - s_j/w_j|
	SharingIncentiveRho float64   // Theorem 2: the smallest knob with sharing incentive, φ/Σw
	Efficiency          float64   // ε(U), eq. 7: every user's tasks times their normalized size
	Residual            []float64 // r': what the fairness stage leaves, one amount per kind
}

// QKnoblerAllocate is QKnobler's two-stage allocation of the users (slices as the package
// documentation says) at knob rho, finite in [0, 1]: every user first gets ρ of its DRF tasks
// (the fairness-oriented stage), then what is left goes where it is worth most (the
// efficiency-oriented stage, a linear program).
func QKnoblerAllocate(cluster, weights, demands []float64, rho float64) (QKnoblerAllocation, error) {
	allocation := QKnoblerAllocation{
		Fair:      make([]float64, len(weights)),
		Efficient: make([]float64, len(weights)),
		Whole:     make([]uint64, len(weights)),
	}
	var summary C.fairsched_qknobler_summary
	status := C.fairsched_qknobler_allocate(
		doubles(cluster), C.size_t(len(cluster)),
		doubles(weights), C.size_t(len(weights)),
		doubles(demands), C.size_t(len(demands)),
		C.double(rho),
		doubles(allocation.Fair), C.size_t(len(allocation.Fair)),
		doubles(allocation.Efficient), C.size_t(len(allocation.Efficient)),
		uint64s(allocation.Whole), C.size_t(len(allocation.Whole)),
		&summary)
	if err := check(status); err != nil {
		return QKnoblerAllocation{}, err
	}
	residual := make([]float64, summary.kinds)
	for k := range residual {
		residual[k] = float64(summary.residual[k])
	}
	allocation.Summary = QKnoblerSummary{
		Rho:                 float64(summary.rho),
		Phi:                 float64(summary.phi),
		Theta:               float64(summary.theta),
		SharingIncentiveRho: float64(summary.sharing_incentive_rho),
		Efficiency:          float64(summary.efficiency),
		Residual:            residual,
	}
	return allocation, nil
}

// QKnoblerRoundResult is how a QKnoblerRound went.
type QKnoblerRoundResult struct {
	Started  int // tasks started, whose users' ids were written
	Fairness int // how many of them the fairness-oriented branch chose; the rest, efficiency
}

// QKnoblerRound is QKnobler's Algorithm 1 on one machine of capacity machine with idle
// resources (each one amount per kind of the queue's cluster; idle at most the machine's),
// at knob rho (finite, in [0, 1]): while the active user with the lowest weighted dominant
// share is owed fairness (s_i < ρ s_i^max) and its task fits, it gets it; otherwise the
// fitting task with the highest affinity to what is idle does. s_i^max is computed over the
// users with pending tasks, again whenever one runs out. At rho = 1 a round is exactly
// AllocateRound. It writes the id of each task started into out, until no task fits or out
// is full.
//
// machine or idle of another number of kinds than the queue's cluster is ErrLengthMismatch,
// reported by the library after it has checked each vector's amounts.
func (q *DRFQueue) QKnoblerRound(rho float64, machine, idle []float64, out []uint64) (QKnoblerRoundResult, error) {
	var round C.fairsched_qknobler_round_result
	err := q.native.call(func(h *C.fairsched_drf_queue) C.fairsched_status {
		return C.fairsched_drf_queue_qknobler_round(h, C.double(rho),
			doubles(machine), C.size_t(len(machine)), doubles(idle), C.size_t(len(idle)),
			uint64s(out), C.size_t(len(out)), &round)
	})
	return QKnoblerRoundResult{Started: int(round.started), Fairness: int(round.fairness)}, err
}

// QKnoblerAverage is QKnoblerAverageDemand's estimate of one user's current average task
// demand.
type QKnoblerAverage struct {
	Average []float64 // one amount per kind
	Counted uint64    // pending tasks counted First-Fit into the idle resources
}

// QKnoblerAverageDemand is the QKnobler paper's fitness-based estimate (§6.1 C2) of a user's
// current average task demand, for users whose tasks differ in demand (map and reduce tasks):
// its running tasks, their demands summed (runningSum, one amount per kind of idle) and their
// number (running), and its pending tasks (pending, row-major in queue order) counted
// First-Fit into the cluster's idle resources: a task that fits what is still idle is counted
// and takes its demand from it, one that does not is skipped. The average is over the running
// and counted tasks; with none of either it is the first pending task's demand (Counted 0), and
// a user with no task at all is ErrEmpty. Feed the averages to DRFDivisible for every user's
// s_i^max (the paper's MDRS updater), then to QKnoblerChoose.
func QKnoblerAverageDemand(idle, runningSum []float64, running uint64, pending []float64) (QKnoblerAverage, error) {
	average := make([]float64, len(idle))
	var counted C.uint64_t
	status := C.fairsched_qknobler_average_demand(
		doubles(idle), C.size_t(len(idle)),
		doubles(runningSum), C.size_t(len(runningSum)),
		C.uint64_t(running),
		doubles(pending), C.size_t(len(pending)),
		doubles(average), C.size_t(len(average)),
		&counted)
	if err := check(status); err != nil {
		return QKnoblerAverage{}, err
	}
	return QKnoblerAverage{Average: average, Counted: uint64(counted)}, nil
}

// QKnoblerActiveUsers are the users with pending tasks as the caller tracks them (the paper's
// QueueInfo Tracker), user i at index i of each slice; vectors are row-major with one amount
// per kind of the cluster.
type QKnoblerActiveUsers struct {
	Weights   []float64 // w_i
	Allocated []float64 // U_i: the resources of the user's running tasks
	MaxShares []float64 // s_i^max, e.g. DRFDivisible's Shares over the users' average demands
	Next      []float64 // the demand of the user's next pending task
}

// QKnoblerChoice is QKnoblerChoose's decision.
type QKnoblerChoice struct {
	User     int  // the user's index in QKnoblerActiveUsers
	Fairness bool // true for the fairness-oriented branch, false for efficiency
}

// QKnoblerChoose is QKnobler's Algorithm 1 deciding one task on one machine with heterogeneous
// tasks: among the users whose next task fits idle (at most the machine's capacity), the one
// with the lowest s_i/w_i, s_i = max_k U_ik / cluster_k (ties: lower index), gets it when
// s_i < ρ s_i^max (always at rho = 1); otherwise the fitting task with the highest affinity to
// idle does (ties: lower index). found is false when no task fits.
func QKnoblerChoose(rho float64, cluster, machine, idle []float64, users QKnoblerActiveUsers) (choice QKnoblerChoice, found bool, err error) {
	var out C.fairsched_qknobler_choice
	var ok C.bool
	status := C.fairsched_qknobler_choose(C.double(rho),
		doubles(cluster), C.size_t(len(cluster)),
		doubles(machine), C.size_t(len(machine)),
		doubles(idle), C.size_t(len(idle)),
		doubles(users.Weights), C.size_t(len(users.Weights)),
		doubles(users.Allocated), C.size_t(len(users.Allocated)),
		doubles(users.MaxShares), C.size_t(len(users.MaxShares)),
		doubles(users.Next), C.size_t(len(users.Next)),
		&out, &ok)
	if err := check(status); err != nil {
		return QKnoblerChoice{}, false, err
	}
	if !bool(ok) {
		return QKnoblerChoice{}, false, nil
	}
	return QKnoblerChoice{User: int(out.user), Fairness: bool(out.fairness)}, true, nil
}

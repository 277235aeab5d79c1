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

package fairsched_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// drfCase is a case of drf.json: "divisible" and "qknobler" cases allocate users, "queue"
// cases run steps on a DRF queue.
type drfCase struct {
	Name     string
	Type     string
	Capacity []number
	Weights  []number
	Demands  []number
	Rho      number
	Status   string          // the expected error of an allocation
	Expect   json.RawMessage // an allocation's fields

	Users      uint32
	InitStatus string `json:"init_status"`

	// average_demand
	Idle       []number
	RunningSum []number `json:"running_sum"`
	Running    id
	Pending    []number
	// qknobler_choose (and Idle)
	Cluster   []number
	Machine   []number
	Allocated []number
	MaxShares []number `json:"max_shares"`
	Next      []number
	Steps     []drfStep
}

type drfStep struct {
	stepHeader
	ID             id
	Weight         number
	Demand         []number
	Pending        uint64
	Count          uint64
	Free           []number
	Rho            number
	Machine        []number
	Idle           []number
	Slots          int
	ExpectID       *id               `json:"expect_id"`
	ExpectIDs      []id              `json:"expect_ids"`
	ExpectCounts   map[string]uint64 `json:"expect_counts"`
	ExpectFairness *int              `json:"expect_fairness"`
	Expect         json.RawMessage
}

func TestDRFVectors(t *testing.T) {
	for _, dc := range readVectors[drfCase](t, "drf.json") {
		t.Run(dc.Name, func(t *testing.T) {
			switch dc.Type {
			case "divisible", "qknobler":
				runAllocationCase(t, dc)
			case "queue":
				runQueueCase(t, dc)
			case "average_demand":
				runAverageDemandCase(t, dc)
			case "qknobler_choose":
				runChooseCase(t, dc)
			default:
				t.Fatalf("unknown case type %q", dc.Type)
			}
		})
	}
}

// runAllocationCase runs DRFDivisible or QKnoblerAllocate on the case's users: it must fail
// with the case's error or return the fields the case expects.
func runAllocationCase(t *testing.T, dc drfCase) {
	cluster, weights, demands := floats(dc.Capacity), floats(dc.Weights), floats(dc.Demands)
	var allocation any
	var err error
	if dc.Type == "divisible" {
		allocation, err = fairsched.DRFDivisible(cluster, weights, demands)
	} else {
		allocation, err = fairsched.QKnoblerAllocate(cluster, weights, demands, float64(dc.Rho))
	}
	if want := expectedError(t, dc.Status); err != want {
		t.Fatalf("got error %v, want %v", err, want)
	}
	expectFieldsOf(t, dc.Expect, allocation, err)
}

// runAverageDemandCase runs QKnoblerAverageDemand: it must fail with the case's error or
// return the average and count the case expects.
func runAverageDemandCase(t *testing.T, dc drfCase) {
	got, err := fairsched.QKnoblerAverageDemand(floats(dc.Idle), floats(dc.RunningSum),
		uint64(dc.Running), floats(dc.Pending))
	if want := expectedError(t, dc.Status); err != want {
		t.Fatalf("got error %v, want %v", err, want)
	}
	expectFieldsOf(t, dc.Expect, got, err)
}

// runChooseCase runs QKnoblerChoose: it must fail with the case's error or make the decision
// the case expects (found, and when found the user's index and whether fairness chose it).
func runChooseCase(t *testing.T, dc drfCase) {
	users := fairsched.QKnoblerActiveUsers{
		Weights:   floats(dc.Weights),
		Allocated: floats(dc.Allocated),
		MaxShares: floats(dc.MaxShares),
		Next:      floats(dc.Next),
	}
	choice, found, err := fairsched.QKnoblerChoose(float64(dc.Rho), floats(dc.Cluster),
		floats(dc.Machine), floats(dc.Idle), users)
	if want := expectedError(t, dc.Status); err != want {
		t.Fatalf("got error %v, want %v", err, want)
	}
	if err == nil {
		fields := map[string]any{"found": found}
		if found {
			fields["user"] = uint64(choice.User)
			fields["fairness"] = choice.Fairness
		}
		expectFields(t, dc.Expect, fields)
	}
}

// runQueueCase builds the case's queue, then runs its steps; a failed one must leave the stats
// and every user the case adds as they were.
func runQueueCase(t *testing.T, dc drfCase) {
	q, err := fairsched.NewDRFQueue(dc.Users, floats(dc.Capacity))
	if want := expectedError(t, dc.InitStatus); err != want {
		t.Fatalf("NewDRFQueue: got error %v, want %v", err, want)
	}
	if err != nil {
		return
	}
	defer q.Close()
	var users []uint64
	for _, s := range dc.Steps {
		if s.Op == "add_user" && !slices.Contains(users, uint64(s.ID)) {
			users = append(users, uint64(s.ID))
		}
	}
	runSteps(t, dc.Steps,
		func(t *testing.T) string { return queueState(t, q, users) },
		func(t *testing.T, s drfStep) error { return queueCall(t, q, s) })
}

// queueState renders the queue's stats and each of users (absent ones as such).
func queueState(t *testing.T, q *fairsched.DRFQueue, users []uint64) string {
	t.Helper()
	stats, err := q.Stats()
	must(t, err)
	state := fmt.Sprintf("%+v", stats)
	for _, id := range users {
		info, err := q.User(id)
		if err == fairsched.ErrUnknownID {
			state += fmt.Sprintf(" user %d absent", id)
			continue
		}
		must(t, err)
		state += fmt.Sprintf(" %+v", info)
	}
	return state
}

// queueCall makes the step's call, checks its expectations when it succeeds, and returns its
// error.
func queueCall(t *testing.T, q *fairsched.DRFQueue, s drfStep) error {
	user := uint64(s.ID)
	switch s.Op {
	case "add_user":
		return q.AddUser(user, float64(s.Weight), floats(s.Demand))
	case "remove_user":
		return q.RemoveUser(user)
	case "set_pending":
		return q.SetPending(user, s.Pending)
	case "tasks_started":
		return q.TasksStarted(user, s.Count)
	case "tasks_finished":
		return q.TasksFinished(user, s.Count)
	case "next":
		next, found, err := q.Next()
		return expectFound(t, "next", next, found, err, s.ExpectID)
	case "user":
		info, err := q.User(user)
		return expectFieldsOf(t, s.Expect, info, err)
	case "stats":
		st, err := q.Stats()
		return expectFieldsOf(t, s.Expect, st, err)
	case "allocate_round":
		out := make([]uint64, s.Slots)
		n, err := q.AllocateRound(floats(s.Free), out)
		if err == nil {
			expectStarted(t, s, out[:n])
		}
		return err
	case "qknobler_round":
		out := make([]uint64, s.Slots)
		round, err := q.QKnoblerRound(float64(s.Rho), floats(s.Machine), floats(s.Idle), out)
		if err == nil {
			expectStarted(t, s, out[:round.Started])
			if s.ExpectFairness == nil {
				t.Errorf("the step says nothing of expect_fairness")
			} else if round.Fairness != *s.ExpectFairness {
				t.Errorf("%d tasks from the fairness branch, want %d", round.Fairness, *s.ExpectFairness)
			}
		}
		return err
	}
	t.Fatalf("unknown op %q", s.Op)
	return nil
}

// expectStarted checks the ids a round wrote: in order (expect_ids), or counted per user
// (expect_counts).
func expectStarted(t *testing.T, s drfStep, started []uint64) {
	t.Helper()
	if s.ExpectIDs != nil && !slices.Equal(started, uint64s(s.ExpectIDs)) {
		t.Errorf("started %v, want %v", started, s.ExpectIDs)
	}
	if s.ExpectCounts != nil {
		counts := map[string]uint64{}
		for _, id := range started {
			counts[strconv.FormatUint(id, 10)]++
		}
		if !maps.Equal(counts, s.ExpectCounts) {
			t.Errorf("tasks started per user %v, want %v", counts, s.ExpectCounts)
		}
	}
}

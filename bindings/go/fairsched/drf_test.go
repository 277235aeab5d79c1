package fairsched_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// The QKnobler paper's Example 1: 200 CPUs and 1000 GB shared by user A, whose tasks need
// <1 CPU, 6 GB>, and user B, <1 CPU, 2 GB>, of equal weights.
var (
	example1Capacity = []float64{200, 1000}
	example1Weights  = []float64{1, 1}
	example1Demands  = []float64{1, 6, 1, 2}
)

// Relative tolerances: for values worked out by hand as fractions, and for values the library
// finds by linear programming.
const (
	fraction  = 1e-12
	efficient = 1e-9
)

func expectClose(t *testing.T, what string, got, want, relative float64) {
	t.Helper()
	if math.Abs(got-want) > relative*math.Abs(want) {
		t.Errorf("%s: got %v, want %v (relative tolerance %g)", what, got, want, relative)
	}
}

func TestExample1DivisibleDRF(t *testing.T) {
	drf, err := fairsched.DRFDivisible(example1Capacity, example1Weights, example1Demands)
	must(t, err)
	// Dominant shares equal at 6/11 use up the CPUs.
	expectClose(t, "A's tasks", drf.Tasks[0], 1000.0/11, fraction)
	expectClose(t, "B's tasks", drf.Tasks[1], 1200.0/11, fraction)
	expectClose(t, "A's share", drf.Shares[0], 6.0/11, fraction)
	expectClose(t, "B's share", drf.Shares[1], 6.0/11, fraction)
	expectClose(t, "φ", drf.Phi, 11.0/6, fraction)
}

func TestExample1DiscreteDRF(t *testing.T) {
	for _, tc := range []struct {
		demands []float64
		want    string
	}{
		{example1Demands, "map[0:91 1:109]"},
		// With a third user C, <1 CPU, 2 GB> (the paper's figure rounds 58.8/70.6/70.6).
		{append(slices.Clone(example1Demands), 1, 2), "map[0:59 1:71 2:70]"},
	} {
		q := newDRFQueue(t, 8, example1Capacity)
		for user := range uint64(len(tc.demands) / 2) {
			must(t, q.AddUser(user, 1, tc.demands[2*user:2*user+2]))
			must(t, q.SetPending(user, 1000))
		}
		out := make([]uint64, 300)
		n, err := q.AllocateRound(example1Capacity, out)
		must(t, err)
		expect(t, "tasks started (one per CPU)", n, 200)
		tasks := map[uint64]int{}
		for _, user := range out[:n] {
			tasks[user]++
		}
		expect(t, "tasks per user", fmt.Sprint(tasks), tc.want)
	}
}

func TestExample1QKnobler(t *testing.T) {
	// At ρ = 0, pure efficiency: A 150 tasks (150 CPUs, 900 GB) and B 50 (50 CPUs, 100 GB).
	a, err := fairsched.QKnoblerAllocate(example1Capacity, example1Weights, example1Demands, 0)
	must(t, err)
	expect(t, "fair", fmt.Sprint(a.Fair), "[0 0]")
	expectClose(t, "A's efficient tasks", a.Efficient[0], 150, efficient)
	expectClose(t, "B's efficient tasks", a.Efficient[1], 50, efficient)
	expect(t, "whole", fmt.Sprint(a.Whole), "[150 50]")
	expectClose(t, "φ", a.Summary.Phi, 11.0/6, fraction)
	// Theorem 2: sharing incentive from ρ = φ/Σw = 11/12 on.
	expectClose(t, "sharing incentive ρ", a.Summary.SharingIncentiveRho, 11.0/12, fraction)
	expect(t, "residual", fmt.Sprint(a.Summary.Residual), "[200 1000]")

	// At ρ = 1, DRF exactly.
	a, err = fairsched.QKnoblerAllocate(example1Capacity, example1Weights, example1Demands, 1)
	must(t, err)
	expectClose(t, "A's fair tasks", a.Fair[0], 1000.0/11, fraction)
	expectClose(t, "B's fair tasks", a.Fair[1], 1200.0/11, fraction)
	expect(t, "efficient", fmt.Sprint(a.Efficient), "[0 0]")
	expect(t, "whole", fmt.Sprint(a.Whole), "[90 109]")
	expect(t, "θ", a.Summary.Theta, 0)
}

func TestNewDRFQueueRejectsBadConfigurations(t *testing.T) {
	for _, tc := range []struct {
		capacity uint32
		cluster  []float64
		want     error
	}{
		{1, nil, fairsched.ErrEmpty},
		{1, []float64{0, 1000}, fairsched.ErrNotPositive},
		{1, []float64{-200, 1000}, fairsched.ErrNotPositive},
		{1, []float64{math.NaN(), 1000}, fairsched.ErrNotFinite},
		{1, []float64{200, math.Inf(1)}, fairsched.ErrNotFinite},
		{1, nineKinds, fairsched.ErrCapacityFull},
	} {
		if q, err := fairsched.NewDRFQueue(tc.capacity, tc.cluster); q != nil || err != tc.want {
			t.Errorf("NewDRFQueue(%d, %v) = %v, %v; want nil, %v", tc.capacity, tc.cluster, q, err, tc.want)
		}
	}
}

var nineKinds = []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}

// Users that DRFDivisible and QKnoblerAllocate both reject.
func TestAllocationsRejectUsers(t *testing.T) {
	w, d := example1Weights, example1Demands
	for _, tc := range []struct {
		name                       string
		capacity, weights, demands []float64
		want                       error
	}{
		{"no kind", nil, w, d, fairsched.ErrEmpty},
		{"NaN capacity", []float64{math.NaN(), 1000}, w, d, fairsched.ErrNotFinite},
		{"infinite capacity", []float64{200, math.Inf(1)}, w, d, fairsched.ErrNotFinite},
		{"zero capacity", []float64{0, 1000}, w, d, fairsched.ErrNotPositive},
		{"negative capacity", []float64{-200, 1000}, w, d, fairsched.ErrNotPositive},
		{"nine kinds", nineKinds, []float64{1}, nineKinds, fairsched.ErrCapacityFull},
		{"no user", example1Capacity, nil, nil, fairsched.ErrEmpty},
		{"zero weight", example1Capacity, []float64{0, 1}, d, fairsched.ErrNotPositive},
		{"negative weight", example1Capacity, []float64{1, -1}, d, fairsched.ErrNotPositive},
		{"NaN weight", example1Capacity, []float64{math.NaN(), 1}, d, fairsched.ErrNotFinite},
		{"infinite weight", example1Capacity, []float64{1, math.Inf(1)}, d, fairsched.ErrNotFinite},
		{"negative demand", example1Capacity, w, []float64{1, 6, -1, 2}, fairsched.ErrNegative},
		{"NaN demand", example1Capacity, w, []float64{1, math.NaN(), 1, 2}, fairsched.ErrNotFinite},
		{"all-zero demand", example1Capacity, w, []float64{1, 6, 0, 0}, fairsched.ErrNotPositive},
		{"demands too short", example1Capacity, w, []float64{1, 6, 1}, fairsched.ErrLengthMismatch},
		{"demands too long", example1Capacity, w, []float64{1, 6, 1, 2, 1, 2}, fairsched.ErrLengthMismatch},
	} {
		if _, err := fairsched.DRFDivisible(tc.capacity, tc.weights, tc.demands); err != tc.want {
			t.Errorf("DRFDivisible, %s: got %v, want %v", tc.name, err, tc.want)
		}
		if _, err := fairsched.QKnoblerAllocate(tc.capacity, tc.weights, tc.demands, 0.5); err != tc.want {
			t.Errorf("QKnoblerAllocate, %s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct {
		rho  float64
		want error
	}{
		{math.NaN(), fairsched.ErrNotFinite},
		{math.Inf(-1), fairsched.ErrNotFinite},
		{-0.1, fairsched.ErrOutOfRange},
		{math.Nextafter(1, 2), fairsched.ErrOutOfRange},
	} {
		if _, err := fairsched.QKnoblerAllocate(example1Capacity, w, d, tc.rho); err != tc.want {
			t.Errorf("QKnoblerAllocate at ρ = %v: got %v, want %v", tc.rho, err, tc.want)
		}
	}
}

// The queue the failure tests run against, full, with room for three users: 1 (weight 2,
// <1, 6>) with 2 tasks running and 3 pending, 2 (weight 1, <1, 2>) with 1 pending, 3 (weight
// 1, <2, 2>) idle.
func newDRFFixture(t *testing.T) *fairsched.DRFQueue {
	t.Helper()
	q := newDRFQueue(t, 3, example1Capacity)
	must(t, q.AddUser(1, 2, []float64{1, 6}))
	must(t, q.AddUser(2, 1, []float64{1, 2}))
	must(t, q.AddUser(3, 1, []float64{2, 2}))
	must(t, q.TasksStarted(1, 2))
	must(t, q.SetPending(1, 3))
	must(t, q.SetPending(2, 1))
	return q
}

// drfSnapshot renders what can be observed of the fixture: its stats and its three users.
func drfSnapshot(t *testing.T, q *fairsched.DRFQueue) string {
	t.Helper()
	stats, err := q.Stats()
	must(t, err)
	state := []any{stats}
	for _, user := range []uint64{1, 2, 3} {
		info, err := q.User(user)
		must(t, err)
		state = append(state, info)
	}
	rendered, err := json.Marshal(state)
	must(t, err)
	return string(rendered)
}

// A call on the fixture; rounds write into out.
type drfCall func(q *fairsched.DRFQueue, out []uint64) error

func TestDRFFailedCallsChangeNothing(t *testing.T) {
	addUser := func(id uint64, weight float64, demand ...float64) drfCall {
		return func(q *fairsched.DRFQueue, _ []uint64) error { return q.AddUser(id, weight, demand) }
	}
	round := func(free ...float64) drfCall {
		return func(q *fairsched.DRFQueue, out []uint64) error {
			_, err := q.AllocateRound(free, out)
			return err
		}
	}
	qknobler := func(rho float64, machine, idle []float64) drfCall {
		return func(q *fairsched.DRFQueue, out []uint64) error {
			_, err := q.QKnoblerRound(rho, machine, idle, out)
			return err
		}
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, f := range []struct {
		name string
		want error
		call drfCall
	}{
		{"AddUser weight 0", fairsched.ErrNotPositive, addUser(9, 0, 1, 1)},
		{"AddUser weight -1", fairsched.ErrNotPositive, addUser(9, -1, 1, 1)},
		{"AddUser weight NaN", fairsched.ErrNotFinite, addUser(9, nan, 1, 1)},
		{"AddUser weight inf", fairsched.ErrNotFinite, addUser(9, inf, 1, 1)},
		{"AddUser NaN demand", fairsched.ErrNotFinite, addUser(9, 1, nan, 1)},
		{"AddUser negative demand", fairsched.ErrNegative, addUser(9, 1, -1, 1)},
		{"AddUser all-zero demand", fairsched.ErrNotPositive, addUser(9, 1, 0, 0)},
		{"AddUser no kind", fairsched.ErrEmpty, addUser(9, 1)},
		{"AddUser one kind", fairsched.ErrLengthMismatch, addUser(9, 1, 1)},
		{"AddUser three kinds", fairsched.ErrLengthMismatch, addUser(9, 1, 1, 1, 1)},
		{"AddUser nine kinds", fairsched.ErrCapacityFull, addUser(9, 1, nineKinds...)},
		{"AddUser duplicate", fairsched.ErrDuplicateID, addUser(2, 1, 1, 1)},
		{"AddUser full", fairsched.ErrCapacityFull, addUser(9, 1, 1, 1)},
		{"RemoveUser unknown", fairsched.ErrUnknownID, func(q *fairsched.DRFQueue, _ []uint64) error {
			return q.RemoveUser(9)
		}},
		{"SetPending unknown", fairsched.ErrUnknownID, func(q *fairsched.DRFQueue, _ []uint64) error {
			return q.SetPending(9, 1)
		}},
		{"TasksStarted unknown", fairsched.ErrUnknownID, func(q *fairsched.DRFQueue, _ []uint64) error {
			return q.TasksStarted(9, 1)
		}},
		{"TasksStarted beyond u64", fairsched.ErrOutOfRange, func(q *fairsched.DRFQueue, _ []uint64) error {
			return q.TasksStarted(1, math.MaxUint64)
		}},
		{"TasksFinished unknown", fairsched.ErrUnknownID, func(q *fairsched.DRFQueue, _ []uint64) error {
			return q.TasksFinished(9, 1)
		}},
		{"TasksFinished more than run", fairsched.ErrNegative, func(q *fairsched.DRFQueue, _ []uint64) error {
			return q.TasksFinished(1, 3)
		}},
		{"User unknown", fairsched.ErrUnknownID, func(q *fairsched.DRFQueue, _ []uint64) error {
			_, err := q.User(9)
			return err
		}},
		{"AllocateRound NaN", fairsched.ErrNotFinite, round(nan, 0)},
		{"AllocateRound inf", fairsched.ErrNotFinite, round(0, inf)},
		{"AllocateRound negative", fairsched.ErrNegative, round(-1, 0)},
		{"AllocateRound one kind", fairsched.ErrLengthMismatch, round(1)},
		{"AllocateRound no kind", fairsched.ErrEmpty, round()},
		{"AllocateRound nine kinds", fairsched.ErrCapacityFull, round(nineKinds...)},
		{"QKnoblerRound ρ NaN", fairsched.ErrNotFinite, qknobler(nan, example1Capacity, example1Capacity)},
		{"QKnoblerRound ρ inf", fairsched.ErrNotFinite, qknobler(inf, example1Capacity, example1Capacity)},
		{"QKnoblerRound ρ -0.1", fairsched.ErrOutOfRange, qknobler(-0.1, example1Capacity, example1Capacity)},
		{"QKnoblerRound ρ 1.5", fairsched.ErrOutOfRange, qknobler(1.5, example1Capacity, example1Capacity)},
		{"QKnoblerRound zero machine", fairsched.ErrNotPositive, qknobler(0.5, []float64{0, 1000}, []float64{0, 0})},
		{"QKnoblerRound NaN machine", fairsched.ErrNotFinite, qknobler(0.5, []float64{nan, 1000}, []float64{0, 0})},
		{"QKnoblerRound idle above machine", fairsched.ErrOutOfRange, qknobler(0.5, example1Capacity, []float64{201, 0})},
		{"QKnoblerRound negative idle", fairsched.ErrNegative, qknobler(0.5, example1Capacity, []float64{-1, 0})},
		{"QKnoblerRound one kind", fairsched.ErrLengthMismatch, qknobler(0.5, []float64{200}, []float64{1})},
		{"QKnoblerRound idle of another length", fairsched.ErrLengthMismatch, qknobler(0.5, example1Capacity, []float64{1})},
		{"QKnoblerRound machine of another length", fairsched.ErrLengthMismatch, qknobler(0.5, []float64{200}, []float64{1, 1})},
		{"QKnoblerRound both of three kinds", fairsched.ErrLengthMismatch, qknobler(0.5, []float64{200, 1000, 1}, []float64{1, 1, 1})},
		// The library checks the amounts before the kinds: NaN, not the length.
		{"QKnoblerRound NaN idle of another length", fairsched.ErrNotFinite, qknobler(0.5, example1Capacity, []float64{nan})},
	} {
		t.Run(f.name, func(t *testing.T) {
			q := newDRFFixture(t)
			out := []uint64{5, 5, 5, 5}
			expectUnchanged(t, f.want, func() string { return drfSnapshot(t, q) },
				func() error { return f.call(q, out) })
			expect(t, "ids after the failed call", fmt.Sprint(out), "[5 5 5 5]")
		})
	}
}

func TestDRFQueueClose(t *testing.T) {
	q := newDRFFixture(t)
	must(t, q.Close())
	out := make([]uint64, 1)
	expectClosed(t, map[string]func() error{
		"Close":         q.Close,
		"AddUser":       func() error { return q.AddUser(9, 1, []float64{1, 1}) },
		"RemoveUser":    func() error { return q.RemoveUser(1) },
		"SetPending":    func() error { return q.SetPending(1, 1) },
		"TasksStarted":  func() error { return q.TasksStarted(1, 1) },
		"TasksFinished": func() error { return q.TasksFinished(1, 1) },
		"Next":          func() error { _, _, err := q.Next(); return err },
		"StartNext":     func() error { _, _, err := q.StartNext(); return err },
		"User":          func() error { _, err := q.User(1); return err },
		"Stats":         func() error { _, err := q.Stats(); return err },
		"AllocateRound": func() error { _, err := q.AllocateRound(example1Capacity, out); return err },
		"QKnoblerRound": func() error {
			_, err := q.QKnoblerRound(1, example1Capacity, example1Capacity, out)
			return err
		},
	})
}

// Rounds with no room for an id succeed and change nothing; with no active user, Next finds
// nobody and rounds start nothing.
func TestDRFEmptyCalls(t *testing.T) {
	q := newDRFFixture(t)
	before := drfSnapshot(t, q)
	n, err := q.AllocateRound(example1Capacity, nil)
	must(t, err)
	round, err := q.QKnoblerRound(0.5, example1Capacity, example1Capacity, nil)
	must(t, err)
	expect(t, "started", fmt.Sprint(n, round), "0 {0 0}")
	expect(t, "state", drfSnapshot(t, q), before)

	next, ok, err := q.Next()
	must(t, err)
	expect(t, "next", fmt.Sprint(next, ok), "2 true")
	must(t, q.SetPending(1, 0))
	must(t, q.SetPending(2, 0))
	next, ok, err = q.Next()
	must(t, err)
	expect(t, "next with nobody active", fmt.Sprint(next, ok), "0 false")
	before = drfSnapshot(t, q)
	started, ok, err := q.StartNext()
	must(t, err)
	expect(t, "started with nobody active", fmt.Sprint(started, ok), "0 false")
	expect(t, "state after starting nothing", drfSnapshot(t, q), before)
	out := []uint64{5, 5}
	n, err = q.AllocateRound(example1Capacity, out)
	must(t, err)
	expect(t, "round with nobody active", fmt.Sprint(n, out), "0 [5 5]")
}

func TestDRFFullU64Range(t *testing.T) {
	q := newDRFQueue(t, 1, example1Capacity)
	must(t, q.AddUser(math.MaxUint64, 1, []float64{1, 1}))
	must(t, q.SetPending(math.MaxUint64, math.MaxUint64))
	next, ok, err := q.Next()
	must(t, err)
	expect(t, "next", next, math.MaxUint64)
	expect(t, "found", ok, true)
	must(t, q.TasksStarted(math.MaxUint64, math.MaxUint64))
	info, err := q.User(math.MaxUint64)
	must(t, err)
	expect(t, "user", fmt.Sprint(info.ID, info.Running, info.Pending),
		"18446744073709551615 18446744073709551615 0")
}

// QKnoblerRound on a small machine: the fixture's user 2, lowest, then user 1 are owed
// fairness; then nothing fits what is left, <2 CPUs, 4 GB>.
func TestQKnoblerRound(t *testing.T) {
	q := newDRFFixture(t)
	machine := []float64{4, 12}
	out := []uint64{5, 5, 5, 5}
	round, err := q.QKnoblerRound(1, machine, machine, out)
	must(t, err)
	expect(t, "round", round, fairsched.QKnoblerRoundResult{Started: 2, Fairness: 2})
	expect(t, "ids", fmt.Sprint(out), "[2 1 5 5]")
}

// Example 1 one task at a time: A's tasks have dominant share 6/1000, B's 1/200 (their task
// shares), so StartNext, following the lowest weighted dominant share (ties to the lower id),
// starts A B B A B A B A B A; each start moves one task of that user from pending to running,
// and is the user Next named.
func TestDRFStartNext(t *testing.T) {
	const a, b = 1, 2
	q := newDRFQueue(t, 2, example1Capacity)
	must(t, q.AddUser(a, 1, example1Demands[:2]))
	must(t, q.AddUser(b, 1, example1Demands[2:]))
	expect(t, "A's task share", user(t, q, a).TaskShare, 0.006)
	expect(t, "B's task share", user(t, q, b).TaskShare, 0.005)
	must(t, q.SetPending(a, 10))
	must(t, q.SetPending(b, 10))
	var order []uint64
	for range 10 {
		next, _, err := q.Next()
		must(t, err)
		before := user(t, q, next)
		id, ok, err := q.StartNext()
		must(t, err)
		if !ok || id != next {
			t.Fatalf("StartNext() = %d, %v; Next() named %d", id, ok, next)
		}
		after := user(t, q, id)
		expect(t, "running", after.Running, before.Running+1)
		expect(t, "pending", after.Pending, before.Pending-1)
		order = append(order, id)
	}
	expect(t, "starts", fmt.Sprint(order), "[1 2 2 1 2 1 2 1 2 1]")
	expect(t, "A's dominant share", user(t, q, a).DominantShare, 5*0.006)
}

// user returns what q knows about user id.
func user(t *testing.T, q *fairsched.DRFQueue, id uint64) fairsched.DRFUserInfo {
	t.Helper()
	info, err := q.User(id)
	must(t, err)
	return info
}

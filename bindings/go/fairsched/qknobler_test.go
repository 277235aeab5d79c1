package fairsched_test

import (
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// QKnobler with heterogeneous tasks (§6.1 C2), end to end through the C ABI: two MapReduce
// users on a cluster of <10 CPU, 20 GB> with <7, 10> idle. A runs a map <1, 2> and has two
// reduces <2, 8> pending: First-Fit counts the first (<5, 2> left), not the second, so its
// average is (<1, 2> + <2, 8>) / 2 = <1.5, 5>. B runs a reduce <2, 8> and has three maps
// <1, 2> pending, all counted: (<2, 8> + 3·<1, 2>) / 4 = <1.25, 3.5>. DRF over those averages
// gives φ = 2 (memory: (5/0.25 + 3.5/0.175) / 20) and s^max = 1/2 each. On a machine <4, 8>
// with <3, 8> idle, A (s = 0.1) is the lowest: owed at ρ = 0.3 (0.1 < 0.15), not at ρ = 0.1,
// where A's reduce has the higher affinity (1.375 against 0.4375).
func TestQKnoblerHeterogeneousMapReduce(t *testing.T) {
	cluster, idle := []float64{10, 20}, []float64{7, 10}
	a, err := fairsched.QKnoblerAverageDemand(idle, []float64{1, 2}, 1, []float64{2, 8, 2, 8})
	must(t, err)
	b, err := fairsched.QKnoblerAverageDemand(idle, []float64{2, 8}, 1, []float64{1, 2, 1, 2, 1, 2})
	must(t, err)
	if !slices.Equal(a.Average, []float64{1.5, 5}) || a.Counted != 1 ||
		!slices.Equal(b.Average, []float64{1.25, 3.5}) || b.Counted != 3 {
		t.Fatalf("averages %+v %+v", a, b)
	}
	drf, err := fairsched.DRFDivisible(cluster, []float64{1, 1}, slices.Concat(a.Average, b.Average))
	must(t, err)
	if drf.Phi != 2 || !slices.Equal(drf.Shares, []float64{0.5, 0.5}) {
		t.Fatalf("DRF %+v", drf)
	}
	users := fairsched.QKnoblerActiveUsers{
		Weights:   []float64{1, 1},
		Allocated: []float64{1, 2, 2, 8},
		MaxShares: drf.Shares,
		Next:      []float64{2, 8, 1, 2},
	}
	for _, tc := range []struct {
		rho  float64
		want fairsched.QKnoblerChoice
	}{
		{0.3, fairsched.QKnoblerChoice{User: 0, Fairness: true}},
		{0.1, fairsched.QKnoblerChoice{User: 0, Fairness: false}},
		{1, fairsched.QKnoblerChoice{User: 0, Fairness: true}},
	} {
		choice, found, err := fairsched.QKnoblerChoose(tc.rho, cluster, []float64{4, 8}, []float64{3, 8}, users)
		if err != nil || !found || choice != tc.want {
			t.Errorf("ρ = %v: %+v %v %v, want %+v", tc.rho, choice, found, err, tc.want)
		}
	}
	// Nothing fits <0.5, 8>.
	if _, found, err := fairsched.QKnoblerChoose(0.5, cluster, []float64{4, 8}, []float64{0.5, 8}, users); found || err != nil {
		t.Errorf("nothing fits: found %v, %v", found, err)
	}
}

func TestQKnoblerHeterogeneousErrors(t *testing.T) {
	pending := []float64{1, 2}
	for _, tc := range []struct {
		name    string
		idle    []float64
		sum     []float64
		running uint64
		pending []float64
		want    error
	}{
		{"no task", []float64{1, 1}, []float64{0, 0}, 0, nil, fairsched.ErrEmpty},
		{"sum without tasks", []float64{1, 1}, []float64{1, 0}, 0, pending, fairsched.ErrOutOfRange},
		{"ragged pending", []float64{1, 1}, []float64{0, 0}, 0, []float64{1, 2, 3}, fairsched.ErrLengthMismatch},
		{"NaN idle", []float64{math.NaN(), 1}, []float64{0, 0}, 0, pending, fairsched.ErrNotFinite},
		{"negative pending", []float64{1, 1}, []float64{0, 0}, 0, []float64{1, -2}, fairsched.ErrNegative},
		{"zero pending", []float64{1, 1}, []float64{0, 0}, 0, []float64{0, 0}, fairsched.ErrNotPositive},
		{"count overflow", []float64{1, 2}, []float64{1, 1}, math.MaxUint64, pending, fairsched.ErrOutOfRange},
	} {
		if got, err := fairsched.QKnoblerAverageDemand(tc.idle, tc.sum, tc.running, tc.pending); err != tc.want || got.Average != nil {
			t.Errorf("%s: got %+v, %v, want %v", tc.name, got, err, tc.want)
		}
	}
	users := fairsched.QKnoblerActiveUsers{
		Weights:   []float64{1, 2},
		Allocated: []float64{2, 4, 4, 2},
		MaxShares: []float64{0.5, 0.6},
		Next:      []float64{1, 2, 3, 3},
	}
	with := func(f func(*fairsched.QKnoblerActiveUsers)) fairsched.QKnoblerActiveUsers {
		u := users
		f(&u)
		return u
	}
	cluster, machine := []float64{10, 20}, []float64{4, 8}
	for _, tc := range []struct {
		name  string
		rho   float64
		idle  []float64
		users fairsched.QKnoblerActiveUsers
		want  error
	}{
		{"ρ above 1", 1.5, machine, users, fairsched.ErrOutOfRange},
		{"NaN ρ", math.NaN(), machine, users, fairsched.ErrNotFinite},
		{"idle above the machine", 0.5, []float64{4, 9}, users, fairsched.ErrOutOfRange},
		{"idle kinds", 0.5, []float64{4}, users, fairsched.ErrLengthMismatch},
		{"weights length", 0.5, machine, with(func(u *fairsched.QKnoblerActiveUsers) { u.Weights = []float64{1} }), fairsched.ErrLengthMismatch},
		{"zero weight", 0.5, machine, with(func(u *fairsched.QKnoblerActiveUsers) { u.Weights = []float64{1, 0} }), fairsched.ErrNotPositive},
		{"negative s^max", 0.5, machine, with(func(u *fairsched.QKnoblerActiveUsers) { u.MaxShares = []float64{0.5, -1} }), fairsched.ErrNegative},
		{"zero next task", 0.5, machine, with(func(u *fairsched.QKnoblerActiveUsers) { u.Next = []float64{1, 2, 0, 0} }), fairsched.ErrNotPositive},
		{"negative allocation", 0.5, machine, with(func(u *fairsched.QKnoblerActiveUsers) { u.Allocated = []float64{2, 4, -4, 2} }), fairsched.ErrNegative},
	} {
		choice, found, err := fairsched.QKnoblerChoose(tc.rho, cluster, machine, tc.idle, tc.users)
		if err != tc.want || found || choice != (fairsched.QKnoblerChoice{}) {
			t.Errorf("%s: got %+v %v %v, want %v", tc.name, choice, found, err, tc.want)
		}
	}
}

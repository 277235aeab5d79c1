package fairsched_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

func prefix(increments ...float64) []float64 {
	p := []float64{0}
	for _, d := range increments {
		p = append(p, p[len(p)-1]+d)
	}
	return p
}

// §V-A: weights 12:3:1 on 128 slots with demands of 128 give fair shares 96, 24, 8.
func TestPAFTestbedFairShares(t *testing.T) {
	p := newPAF(t, 3)
	linear := make([]float64, 129)
	for x := range linear {
		linear[x] = float64(x) / 128
	}
	a, err := p.Allocate([]uint32{12, 3, 1}, [][]float64{linear, linear, linear}, 128, 0.9, fairsched.PAFFast)
	must(t, err)
	if !slices.Equal(a.Fair, []uint32{96, 24, 8}) {
		t.Errorf("fair shares %v", a.Fair)
	}
}

// Every call with invalid input returns its error and writes nothing.
func TestPAFErrors(t *testing.T) {
	p := newPAF(t, 2)
	curves := [][]float64{prefix(0.5, 0.25), prefix(0.25, 0.25)}
	for _, c := range []struct {
		name string
		err  error
		call func() error
	}{
		{"alpha NaN", fairsched.ErrNotFinite, func() error {
			_, err := p.Allocate([]uint32{1, 1}, curves, 3, math.NaN(), fairsched.PAFFast)
			return err
		}},
		{"alpha above 1", fairsched.ErrOutOfRange, func() error {
			_, err := p.Allocate([]uint32{1, 1}, curves, 3, 1.5, fairsched.PAFLiteral)
			return err
		}},
		{"zero slots", fairsched.ErrNotPositive, func() error {
			_, err := p.Allocate([]uint32{1, 1}, curves, 0, 0.9, fairsched.PAFFast)
			return err
		}},
		{"decreasing curve", fairsched.ErrNotMonotone, func() error {
			_, err := p.Allocate([]uint32{1}, [][]float64{{0, 0.5, 0.25}}, 3, 0.9, fairsched.PAFFast)
			return err
		}},
		{"too many jobs", fairsched.ErrCapacityFull, func() error {
			_, err := p.Allocate([]uint32{1, 1, 1}, append(curves, curves[0]), 3, 0.9, fairsched.PAFFast)
			return err
		}},
		{"weights and curves", fairsched.ErrLengthMismatch, func() error {
			_, err := p.Allocate([]uint32{1}, curves, 3, 0.9, fairsched.PAFFast)
			return err
		}},
		{"unknown method", fairsched.ErrOutOfRange, func() error {
			_, err := p.Allocate([]uint32{1, 1}, curves, 3, 0.9, fairsched.PAFMethod(9))
			return err
		}},
		{"enforce lengths", fairsched.ErrLengthMismatch, func() error {
			_, err := p.Enforce([]uint32{1}, []uint32{1}, []uint32{}, make([]uint32, 2))
			return err
		}},
		{"enforce weights length", fairsched.ErrLengthMismatch, func() error {
			_, err := p.Enforce([]uint32{1, 1}, []uint32{1}, []uint32{0}, make([]uint32, 2))
			return err
		}},
		{"enforce zero weight", fairsched.ErrNotPositive, func() error {
			_, err := p.Enforce([]uint32{0}, []uint32{1}, []uint32{0}, make([]uint32, 2))
			return err
		}},
		{"no curve among numbers", fairsched.ErrNotFinite, func() error {
			_, err := p.Allocate([]uint32{1}, [][]float64{{0, math.NaN()}}, 3, 0.9, fairsched.PAFFast)
			return err
		}},
		{"enforce more jobs than the capacity", fairsched.ErrCapacityFull, func() error {
			_, err := p.Enforce([]uint32{1, 1, 1}, []uint32{1, 1, 1}, []uint32{0, 0, 0}, make([]uint32, 2))
			return err
		}},
		{"fit lengths", fairsched.ErrLengthMismatch, func() error {
			_, err := fairsched.PAFErnestFit([]uint32{1, 2, 4, 8, 16}, []float64{1, 0.7, 0.5, 0.4})
			return err
		}},
		{"fit too few", fairsched.ErrUnderdetermined, func() error {
			_, err := fairsched.PAFErnestFit([]uint32{1, 2, 4}, []float64{1, 0.7, 0.5})
			return err
		}},
		{"tabulate negative", fairsched.ErrNegative, func() error {
			return fairsched.PAFErnestTabulate([4]float64{1, -1, 0, 0}, make([]float64, 3))
		}},
		{"curve empty", fairsched.ErrEmpty, func() error {
			_, err := fairsched.PAFCurveCheck(nil)
			return err
		}},
	} {
		if err := c.call(); err != c.err {
			t.Errorf("%s: got %v, want %v", c.name, err, c.err)
		}
	}
	for _, tc := range []struct {
		name        string
		points, out []float64
		want        error
	}{
		{"decreasing", []float64{0, 1, 0.5}, []float64{7, 7, 7}, fairsched.ErrNotMonotone},
		{"out of another length", []float64{0, 1, 2}, []float64{7, 7}, fairsched.ErrLengthMismatch},
	} {
		given := slices.Clone(tc.out)
		if err := fairsched.PAFConcaveEnvelope(tc.points, tc.out); err != tc.want || !slices.Equal(tc.out, given) {
			t.Errorf("envelope, %s: got %v, %v", tc.name, err, tc.out)
		}
	}
}

// Jobs laid out once allocate as Allocate does, call after call, and keep their own copy of
// the weights and curves.
func TestPAFJobs(t *testing.T) {
	p := newPAF(t, 3)
	weights := []uint32{1, 1, 2}
	curves := [][]float64{prefix(0.5, 0.25, 0.125, 0.0625), fairsched.PAFNoCurve(3), prefix(0.25, 0.25, 0.25, 0.25)}
	jobs, err := fairsched.NewPAFJobs(weights, curves)
	must(t, err)
	expect(t, "jobs", fmt.Sprint(jobs.Len()), "3")
	for _, method := range []fairsched.PAFMethod{fairsched.PAFLiteral, fairsched.PAFFast} {
		want, err := p.Allocate(weights, curves, 9, 0.5, method)
		must(t, err)
		for range 2 {
			got, err := p.AllocateJobs(jobs, 9, 0.5, method)
			must(t, err)
			expect(t, "allocation", fmt.Sprint(*got), fmt.Sprint(*want))
		}
	}
	want, err := p.AllocateJobs(jobs, 9, 0.5, fairsched.PAFFast)
	must(t, err)
	weights[0], curves[2][4] = 7, 0
	got, err := p.AllocateJobs(jobs, 9, 0.5, fairsched.PAFFast)
	must(t, err)
	expect(t, "after the slices changed", fmt.Sprint(*got), fmt.Sprint(*want))

	empty, err := fairsched.NewPAFJobs(nil, nil)
	must(t, err)
	a, err := p.AllocateJobs(empty, 9, 0.5, fairsched.PAFFast)
	must(t, err)
	expect(t, "no job", fmt.Sprint(len(a.PAF), a.Slots), "0 0")
}

// The Into methods give what Allocate and AllocateJobs return, into the caller's allocation:
// its slices reused once they have room (no Go allocation at all), replaced where they are
// too short or share memory with one another or with the weights, and left as they were by a
// call that fails.
func TestPAFAllocateInto(t *testing.T) {
	p := newPAF(t, 3)
	weights := []uint32{1, 1, 2}
	curves := [][]float64{prefix(0.5, 0.25, 0.125, 0.0625), fairsched.PAFNoCurve(3), prefix(0.25, 0.25, 0.25, 0.25)}
	jobs, err := fairsched.NewPAFJobs(weights, curves)
	must(t, err)
	want, err := p.Allocate(weights, curves, 9, 0.5, fairsched.PAFFast)
	must(t, err)

	var a fairsched.PAFAllocation
	must(t, p.AllocateJobsInto(&a, jobs, 9, 0.5, fairsched.PAFFast))
	expect(t, "into a new allocation", fmt.Sprint(a), fmt.Sprint(*want))
	fair := &a.Fair[0]
	a.PAF[0] = 99
	must(t, p.AllocateInto(&a, weights, curves, 9, 0.5, fairsched.PAFFast))
	expect(t, "again, from the curves", fmt.Sprint(a), fmt.Sprint(*want))
	if &a.Fair[0] != fair {
		t.Error("a slice with room was replaced")
	}
	for name, call := range map[string]func() error{
		"AllocateJobsInto": func() error { return p.AllocateJobsInto(&a, jobs, 9, 0.5, fairsched.PAFFast) },
		"AllocateInto":     func() error { return p.AllocateInto(&a, weights, curves, 9, 0.5, fairsched.PAFFast) },
	} {
		if allocs := testing.AllocsPerRun(20, func() { must(t, call()) }); allocs != 0 {
			t.Errorf("%s allocates %v times a call", name, allocs)
		}
	}

	// Too short, sharing memory with one another, sharing memory with the weights.
	shared := make([]uint32, 4)
	tangled := fairsched.PAFAllocation{Fair: make([]uint32, 1), Min: shared[:3], PAF: shared[1:], PAFProgress: make([]float64, 3)}
	tangled.FairProgress = tangled.PAFProgress
	must(t, p.AllocateJobsInto(&tangled, jobs, 9, 0.5, fairsched.PAFFast))
	expect(t, "into overlapping slices", fmt.Sprint(tangled), fmt.Sprint(*want))
	aliased := fairsched.PAFAllocation{Min: weights}
	must(t, p.AllocateInto(&aliased, weights, curves, 9, 0.5, fairsched.PAFFast))
	expect(t, "into the weights' memory", fmt.Sprint(aliased), fmt.Sprint(*want))

	before := fmt.Sprint(a)
	refused, err := fairsched.NewPAFJobs([]uint32{0}, [][]float64{{0, 1}})
	must(t, err)
	for name, c := range map[string]struct {
		err  error
		call func(*fairsched.PAFAllocation) error
	}{
		"zero slots": {fairsched.ErrNotPositive, func(a *fairsched.PAFAllocation) error {
			return p.AllocateJobsInto(a, jobs, 0, 0.5, fairsched.PAFFast)
		}},
		"unknown method": {fairsched.ErrOutOfRange, func(a *fairsched.PAFAllocation) error {
			return p.AllocateInto(a, weights, curves, 9, 0.5, fairsched.PAFMethod(7))
		}},
		"lengths": {fairsched.ErrLengthMismatch, func(a *fairsched.PAFAllocation) error {
			return p.AllocateInto(a, weights[:2], curves, 9, 0.5, fairsched.PAFFast)
		}},
		"refused jobs": {fairsched.ErrNotPositive, func(a *fairsched.PAFAllocation) error {
			return p.AllocateJobsInto(a, refused, 9, 0.5, fairsched.PAFFast)
		}},
		"nil jobs": {fairsched.ErrNullPointer, func(a *fairsched.PAFAllocation) error {
			return p.AllocateJobsInto(a, nil, 9, 0.5, fairsched.PAFFast)
		}},
	} {
		if err := c.call(&a); err != c.err || fmt.Sprint(a) != before {
			t.Errorf("%s: got %v, %v; want %v and the allocation unchanged", name, err, a, c.err)
		}
		if err := c.call(nil); err != fairsched.ErrNullPointer {
			t.Errorf("%s into nil: got %v", name, err)
		}
	}
	short := fairsched.PAFAllocation{Fair: make([]uint32, 1)}
	if err := p.AllocateJobsInto(&short, jobs, 0, 0.5, fairsched.PAFFast); err != fairsched.ErrNotPositive || len(short.Fair) != 1 || short.Min != nil {
		t.Errorf("a failed call replaced a short allocation's slices: %v, %v", err, short)
	}
}

// Invalid jobs return their error, from NewPAFJobs when the slices disagree and otherwise from
// AllocateJobs, which then returns no allocation.
func TestPAFJobsErrors(t *testing.T) {
	p := newPAF(t, 2)
	if _, err := fairsched.NewPAFJobs([]uint32{1}, [][]float64{{0, 1}, {0, 1}}); err != fairsched.ErrLengthMismatch {
		t.Errorf("lengths: got %v", err)
	}
	for _, c := range []struct {
		name    string
		weights []uint32
		curves  [][]float64
		err     error
	}{
		{"decreasing curve", []uint32{1}, [][]float64{{0, 0.5, 0.25}}, fairsched.ErrNotMonotone},
		{"empty curve", []uint32{1}, [][]float64{{}}, fairsched.ErrEmpty},
		{"zero weight", []uint32{0}, [][]float64{{0, 1}}, fairsched.ErrNotPositive},
		{"NaN among numbers", []uint32{1}, [][]float64{{0, math.NaN()}}, fairsched.ErrNotFinite},
		{"too many jobs", []uint32{1, 1, 1}, [][]float64{{0, 1}, {0, 1}, {0, 1}}, fairsched.ErrCapacityFull},
	} {
		jobs, err := fairsched.NewPAFJobs(c.weights, c.curves)
		must(t, err)
		if a, err := p.AllocateJobs(jobs, 3, 0.9, fairsched.PAFFast); err != c.err || a != nil {
			t.Errorf("%s: got %v, %v; want %v", c.name, a, err, c.err)
		}
	}
	jobs, err := fairsched.NewPAFJobs([]uint32{1}, [][]float64{{0, 1}})
	must(t, err)
	if _, err := p.AllocateJobs(jobs, 0, 0.9, fairsched.PAFFast); err != fairsched.ErrNotPositive {
		t.Errorf("zero slots: got %v", err)
	}
	if _, err := p.AllocateJobs(nil, 3, 0.9, fairsched.PAFFast); err != fairsched.ErrNullPointer {
		t.Errorf("nil jobs: got %v", err)
	}
	if a, err := p.AllocateJobs(jobs, 3, 0.9, fairsched.PAFMethod(7)); err != fairsched.ErrOutOfRange || a != nil {
		t.Errorf("unknown method: got %v, %v", a, err)
	}
}

// Close frees the jobs: an allocation over them is then ErrClosed, as is a second Close; jobs
// the library refused close too.
func TestPAFJobsClose(t *testing.T) {
	p := newPAF(t, 2)
	for _, weight := range []uint32{1, 0} {
		jobs, err := fairsched.NewPAFJobs([]uint32{weight}, [][]float64{{0, 1}})
		must(t, err)
		must(t, jobs.Close())
		if _, err := p.AllocateJobs(jobs, 3, 0.9, fairsched.PAFFast); err != fairsched.ErrClosed {
			t.Errorf("weight %d: allocation after Close: got %v", weight, err)
		}
		if err := jobs.Close(); err != fairsched.ErrClosed {
			t.Errorf("weight %d: second Close: got %v", weight, err)
		}
	}
}

func TestPAFClose(t *testing.T) {
	p := newPAF(t, 2)
	must(t, p.Close())
	expectClosed(t, map[string]func() error{
		"Close": p.Close,
		"Allocate": func() error {
			_, err := p.Allocate([]uint32{1}, [][]float64{{0, 1}}, 1, 0.9, fairsched.PAFFast)
			return err
		},
		"Enforce": func() error {
			_, err := p.Enforce([]uint32{1}, []uint32{1}, []uint32{0}, make([]uint32, 1))
			return err
		},
		"AllocateJobs": func() error {
			jobs, err := fairsched.NewPAFJobs([]uint32{1}, [][]float64{{0, 1}})
			must(t, err)
			_, err = p.AllocateJobs(jobs, 1, 0.9, fairsched.PAFFast)
			return err
		},
		"AllocateInto": func() error {
			return p.AllocateInto(new(fairsched.PAFAllocation), []uint32{1}, [][]float64{{0, 1}}, 1, 0.9, fairsched.PAFFast)
		},
		"AllocateJobsInto": func() error {
			jobs, err := fairsched.NewPAFJobs([]uint32{1}, [][]float64{{0, 1}})
			must(t, err)
			return p.AllocateJobsInto(new(fairsched.PAFAllocation), jobs, 1, 0.9, fairsched.PAFFast)
		},
	})
}

// Outputs may share memory with the inputs they are computed from: the result is that of
// separate slices holding the same values.
func TestPAFSharedMemory(t *testing.T) {
	p := newPAF(t, 3)
	weights, targets, running := []uint32{1, 1, 1}, []uint32{4, 2, 6}, []uint32{1, 1, 3}
	want := make([]uint32, 3)
	n, err := p.Enforce(weights, targets, running, want)
	must(t, err)
	expect(t, "separate", fmt.Sprint(want[:n]), "[0 1 0]")
	n, err = p.Enforce(weights, targets, running, targets)
	must(t, err)
	expect(t, "over the targets", fmt.Sprint(targets[:n]), fmt.Sprint(want[:n]))

	curve := []float64{0, 0.1, 0.5, 0.6}
	envelope := make([]float64, len(curve))
	must(t, fairsched.PAFConcaveEnvelope(curve, envelope))
	must(t, fairsched.PAFConcaveEnvelope(curve, curve))
	expect(t, "envelope in place", fmt.Sprint(curve), fmt.Sprint(envelope))
}

// A job without a curve keeps its fair share and takes no part in transfers (§IV-A).
func TestPAFNoCurve(t *testing.T) {
	p := newPAF(t, 3)
	elastic := []float64{0, 0.5, 0.75, 0.875, 0.9375, 0.96875, 0.984375, 0.9921875, 0.99609375}
	linear := []float64{0, 0.1875, 0.375, 0.5625, 0.75, 0.9375, 1.125, 1.3125, 1.5}
	a, err := p.Allocate([]uint32{1, 1, 2}, [][]float64{elastic, fairsched.PAFNoCurve(8), linear}, 12, 0.5, fairsched.PAFFast)
	must(t, err)
	expect(t, "fair", fmt.Sprint(a.Fair), "[3 3 6]")
	expect(t, "min", fmt.Sprint(a.Min), "[1 3 3]")
	expect(t, "paf", fmt.Sprint(a.PAF), "[2 3 7]")
	if !math.IsNaN(a.FairProgress[1]) || !math.IsNaN(a.PAFProgress[1]) || a.TotalFairProgress != 2 || a.TotalProgress != 2.0625 {
		t.Errorf("progress %v %v, totals %v %v", a.FairProgress, a.PAFProgress, a.TotalFairProgress, a.TotalProgress)
	}
	expect(t, "demand 0", fmt.Sprint(len(fairsched.PAFNoCurve(0))), "1")
}

// A job's curve from its task durations: 4, 2, 6 and 2 s, warm tasks taking half (delta 2).
// JCT 9 on 1 slot (4 + 1 + 3 + 1), 5 on 2, 6 on 3 and 4: fastest on 2 slots.
func TestPAFCurveFromTasks(t *testing.T) {
	out := make([]float64, 5)
	shortest, err := fairsched.PAFCurveFromTasks([]float64{4, 2, 6, 2}, 2, out)
	must(t, err)
	if shortest != 5 || !slices.Equal(out, []float64{0, 5.0 / 9, 1, 1, 1}) {
		t.Errorf("shortest %v, curve %v", shortest, out)
	}
	// In place over the durations: the curve of a copy of them.
	tasks := []float64{4, 2, 6, 2, -1}
	shortest, err = fairsched.PAFCurveFromTasks(tasks[:4], 2, tasks)
	must(t, err)
	expect(t, "in place", fmt.Sprint(shortest, tasks), fmt.Sprint(5, out))
}

// Every invalid input returns its error and leaves out as it was.
func TestPAFCurveFromTasksErrors(t *testing.T) {
	tasks := []float64{4, 2, 6, 2}
	for _, c := range []struct {
		name      string
		durations []float64
		warmup    float64
		out       int
		want      error
	}{
		{"no task", nil, 2, 1, fairsched.ErrEmpty},
		{"NaN duration", []float64{1, math.NaN()}, 2, 3, fairsched.ErrNotFinite},
		{"negative duration", []float64{1, -0.5}, 2, 3, fairsched.ErrNegative},
		{"durations summing past MaxFloat64", []float64{math.MaxFloat64, math.MaxFloat64}, 2, 3, fairsched.ErrOutOfRange},
		{"warm-up below 1", tasks, 0.5, 5, fairsched.ErrOutOfRange},
		{"warm-up NaN", tasks, math.NaN(), 5, fairsched.ErrNotFinite},
		{"warm-up infinite", tasks, math.Inf(1), 5, fairsched.ErrNotFinite},
		{"out too short", tasks, 2, 4, fairsched.ErrLengthMismatch},
		{"out too long", tasks, 2, 6, fairsched.ErrLengthMismatch},
		{"no time", []float64{0, 0}, 2, 3, fairsched.ErrNotPositive},
	} {
		out := make([]float64, c.out)
		for i := range out {
			out[i] = -7
		}
		given := slices.Clone(out)
		shortest, err := fairsched.PAFCurveFromTasks(c.durations, c.warmup, out)
		if err != c.want || shortest != 0 || !slices.Equal(out, given) {
			t.Errorf("%s: got %v, %v, %v", c.name, err, shortest, out)
		}
	}
}

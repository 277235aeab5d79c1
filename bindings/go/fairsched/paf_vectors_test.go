package fairsched_test

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

type pafCase struct {
	caseHeader
	Op                string
	Capacity          uint32
	Weights           []uint32
	Curves            [][]number
	Slots             json.RawMessage // a count, or the slots of ernest_fit
	Alpha             number
	Targets, Running  []uint32
	ExpectJobs        []uint32 `json:"expect_jobs"`
	Runtimes          []number
	Coefficients      []number
	Points            json.RawMessage // a curve, or how many points to tabulate
	Tolerance         number
	ExpectConcaveFrom uint32 `json:"expect_concave_from"`
	Durations         []number
	Warmup            number
	Expect            json.RawMessage
}

type pafExpect struct {
	Fair, Min, PAF []uint32
	FairProgress   []number `json:"fair_progress"`
	PAFProgress    []number `json:"paf_progress"`
	Slots, Moved   uint64
	TotalFair      number `json:"total_fair_progress"`
	TotalPAF       number `json:"total_paf_progress"`
	LargestLoss    number `json:"largest_loss"`
}

// sameBits compares floats bit for bit; any NaN (a job without a curve has NaN progress)
// equals any NaN, as Go's NaN and Rust's differ in their payload.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	})
}

// TestPAFVectors runs the shared PAF vectors (paf.json; format in
// ../../../tests/vectors/README.md), one subtest per case.
func TestPAFVectors(t *testing.T) {
	runCases(t, "paf.json", 30, runPAFCase)
}

// runPAFCase makes the case's call, checks its expectations when it succeeds, and returns its
// error.
func runPAFCase(t *testing.T, c pafCase) error {
	switch c.Op {
	case "allocate", "enforce":
		p, err := fairsched.NewPAF(c.Capacity)
		if err != nil {
			return err
		}
		defer p.Close()
		var slots uint32
		must(t, json.Unmarshal(c.Slots, &slots))
		if c.Op == "enforce" {
			out := make([]uint32, slots)
			n, err := p.Enforce(c.Weights, c.Targets, c.Running, out)
			if err == nil && !slices.Equal(out[:n], c.ExpectJobs) && (n > 0 || len(c.ExpectJobs) > 0) {
				t.Errorf("gave %v, want %v", out[:n], c.ExpectJobs)
			}
			return err
		}
		curves := make([][]float64, len(c.Curves))
		for i, curve := range c.Curves {
			curves[i] = floats(curve)
		}
		for _, method := range []fairsched.PAFMethod{fairsched.PAFLiteral, fairsched.PAFFast} {
			a, err := p.Allocate(c.Weights, curves, slots, float64(c.Alpha), method)
			if err != nil {
				return err
			}
			var e pafExpect
			must(t, json.Unmarshal(c.Expect, &e))
			if !slices.Equal(a.Fair, e.Fair) || !slices.Equal(a.Min, e.Min) || !slices.Equal(a.PAF, e.PAF) ||
				!sameBits(a.FairProgress, floats(e.FairProgress)) || !sameBits(a.PAFProgress, floats(e.PAFProgress)) ||
				a.Slots != e.Slots || a.Moved != e.Moved ||
				!sameBits([]float64{a.TotalFairProgress, a.TotalProgress, a.LargestLoss},
					floats([]number{e.TotalFair, e.TotalPAF, e.LargestLoss})) {
				t.Errorf("method %d: got %+v, want %s", method, a, c.Expect)
			}
		}
		return nil
	case "ernest_fit":
		var slots []uint32
		must(t, json.Unmarshal(c.Slots, &slots))
		a, err := fairsched.PAFErnestFit(slots, floats(c.Runtimes))
		if err == nil {
			var want []number
			must(t, json.Unmarshal(c.Expect, &want))
			for i := range a {
				if math.Abs(a[i]-float64(want[i])) > float64(c.Tolerance) {
					t.Errorf("fit %v, want %v", a, want)
				}
			}
		}
		return err
	case "ernest_tabulate":
		var points int
		must(t, json.Unmarshal(c.Points, &points))
		out := make([]float64, points)
		err := fairsched.PAFErnestTabulate([4]float64(floats(c.Coefficients)), out)
		return expectCurve(t, out, err, c.Expect)
	case "curve_check", "concave_envelope":
		var points []number
		must(t, json.Unmarshal(c.Points, &points))
		if c.Op == "curve_check" {
			k, err := fairsched.PAFCurveCheck(floats(points))
			if err == nil && k != c.ExpectConcaveFrom {
				t.Errorf("concave from %d, want %d", k, c.ExpectConcaveFrom)
			}
			return err
		}
		out := make([]float64, len(points))
		err := fairsched.PAFConcaveEnvelope(floats(points), out)
		return expectCurve(t, out, err, c.Expect)
	case "curve_from_tasks":
		durations := floats(c.Durations)
		points := len(durations) + 1
		if c.Points != nil {
			must(t, json.Unmarshal(c.Points, &points))
		}
		out := make([]float64, points)
		for i := range out {
			out[i] = -1
		}
		shortest, err := fairsched.PAFCurveFromTasks(durations, float64(c.Warmup), out)
		if err != nil {
			if slices.ContainsFunc(out, func(p float64) bool { return p != -1 }) {
				t.Errorf("out written: %v", out)
			}
			return err
		}
		var want struct {
			Points   []number
			Shortest number
		}
		must(t, json.Unmarshal(c.Expect, &want))
		if !sameBits(out, floats(want.Points)) || !sameBits([]float64{shortest}, []float64{float64(want.Shortest)}) {
			t.Errorf("curve %v, shortest %v; want %s", out, shortest, c.Expect)
		}
		return nil
	}
	t.Fatalf("unknown op %q", c.Op)
	return nil
}

// expectCurve checks the curve a call wrote into out, bit for bit, when it succeeded (err is
// nil), and returns err.
func expectCurve(t *testing.T, out []float64, err error, expect json.RawMessage) error {
	t.Helper()
	if err == nil {
		var want []number
		must(t, json.Unmarshal(expect, &want))
		if !sameBits(out, floats(want)) {
			t.Errorf("curve %v, want %v", out, want)
		}
	}
	return err
}

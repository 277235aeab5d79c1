package fairsched_test

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// drrCase is a case of drr.json: one call, of its type, with the fields that type uses.
type drrCase struct {
	caseHeader
	Type       string
	Capacity   []number // machine, min_frag
	Available  []number // machine, min_frag, score_machines
	TRun       uint32   `json:"t_run"`
	Demands    []number // min_frag
	Steps      []uint32
	Metric     uint32 // min_frag, score_machines
	Capacities []number
	Kinds      int      // score_machines, reprovision
	TRuns      []uint32 `json:"t_runs"`
	Demand     []number
	Remaining  []number // reprovision
	Observed   []number
	Predicted  []number
	Expect     json.RawMessage
}

// TestDRRVectors runs the shared DRR vectors (drr.json; format in
// ../../../tests/vectors/README.md), one subtest per case.
func TestDRRVectors(t *testing.T) {
	runCases(t, "drr.json", 25, func(t *testing.T, c drrCase) error {
		fields, err := runDRRCase(t, c)
		if err == nil {
			expectFields(t, c.Expect, fields)
		}
		return err
	})
}

// runDRRCase makes the case's call and returns its outputs by their names in the vectors, or
// its error, having checked that a failed call wrote none of them.
func runDRRCase(t *testing.T, c drrCase) (map[string]any, error) {
	metric := fairsched.Metric(c.Metric)
	switch c.Type {
	case "machine":
		drr, trc, err := fairsched.DRRMachine(floats(c.Capacity), floats(c.Available), c.TRun)
		return map[string]any{"drr": drr, "trc": trc}, err
	case "min_frag":
		given := floats(c.Available)
		available := slices.Clone(given)
		unwritten := slices.Repeat([]uint32{math.MaxUint32}, len(c.Steps))
		placements := slices.Clone(unwritten)
		beat, err := fairsched.DRRMinFrag(floats(c.Capacity), available, c.TRun, floats(c.Demands), c.Steps, metric, placements)
		if err != nil {
			unchanged(t, "available", available, given)
			unchanged(t, "placements", placements, unwritten)
			return nil, err
		}
		return map[string]any{
			"placements": placements[:beat.Placed],
			"t_run":      beat.TRun,
			"drr":        beat.DRR,
			"available":  available,
		}, nil
	case "score_machines":
		unfit := slices.Repeat([]bool{true}, len(c.TRuns))
		unscored := slices.Repeat([]float64{math.NaN()}, len(c.TRuns))
		fits, scores := slices.Clone(unfit), slices.Clone(unscored)
		err := fairsched.DRRScoreMachines(floats(c.Capacities), c.Kinds, floats(c.Available), c.TRuns,
			floats(c.Demand), metric, fits, scores)
		if err != nil {
			unchanged(t, "fits", fits, unfit)
			unchanged(t, "scores", scores, unscored)
			return nil, err
		}
		return map[string]any{"fits": fits, "scores": scores}, nil
	case "reprovision":
		given := floats(c.Remaining)
		remaining := slices.Clone(given)
		err := fairsched.DRRReprovision(remaining, c.Kinds, floats(c.Observed), floats(c.Predicted))
		if err != nil {
			unchanged(t, "remaining", remaining, given)
			return nil, err
		}
		return map[string]any{"remaining": remaining}, nil
	}
	t.Fatalf("unknown case type %q", c.Type)
	return nil, nil
}

// unchanged checks that a failed call left the output what as it was (as render compares).
func unchanged[E any](t *testing.T, what string, got, want []E) {
	t.Helper()
	if renderSlice(got) != renderSlice(want) {
		t.Errorf("a failed call changed %s from %v to %v", what, want, got)
	}
}

package fairsched_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// drrCase is a case of drr.json: one call, of its type, with the fields that type uses, or
// (timeline, predictor) an object and its steps. Two fields mean one thing for the calls and
// another for the objects, and are decoded by type: capacity (a machine's amounts, or the
// entries an object holds) and steps (each executor's T_i, or the object's steps).
type drrCase struct {
	caseHeader
	Type       string
	Capacity   json.RawMessage // machine, min_frag: []number; timeline, predictor: uint32
	Available  []number        // machine, min_frag, score_machines
	TRun       uint32          `json:"t_run"`
	Demands    []number        // min_frag
	Steps      json.RawMessage // min_frag: []uint32; timeline: []timelineStep; predictor: []predictorStep
	Metric     uint32          // min_frag, score_machines
	Capacities []number
	Kinds      int      // score_machines, reprovision, predictor
	TRuns      []uint32 `json:"t_runs"`
	Demand     []number
	Remaining  []number // reprovision
	Observed   []number
	Predicted  []number
	Elapsed    []number // reprovision_due
	Expected   []number
	Rho        number
	DueLen     *int     `json:"due_len"`
	Machine    []number // timeline
	Horizon    uint32   // timeline
	Window     uint32   // predictor
	MaxSteps   uint32   `json:"max_steps"`
	InitStatus string   `json:"init_status"`
	Expect     json.RawMessage
}

// decode decodes one of the case's fields whose type depends on the case's type.
func decode[T any](t *testing.T, field json.RawMessage) T {
	t.Helper()
	var value T
	must(t, json.Unmarshal(field, &value))
	return value
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
		capacity := floats(decode[[]number](t, c.Capacity))
		drr, trc, err := fairsched.DRRMachine(capacity, floats(c.Available), c.TRun)
		return map[string]any{"drr": drr, "trc": trc}, err
	case "min_frag":
		given := floats(c.Available)
		available := slices.Clone(given)
		steps := decode[[]uint32](t, c.Steps)
		unwritten := slices.Repeat([]uint32{math.MaxUint32}, len(steps))
		placements := slices.Clone(unwritten)
		capacity := floats(decode[[]number](t, c.Capacity))
		beat, err := fairsched.DRRMinFrag(capacity, available, c.TRun, floats(c.Demands), steps, metric, placements)
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
	case "reprovision_due":
		elapsed := floats(c.Elapsed)
		length := len(elapsed)
		if c.DueLen != nil {
			length = *c.DueLen
		}
		unwritten := slices.Repeat([]bool{true}, length)
		due := slices.Clone(unwritten)
		count, err := fairsched.DRRReprovisionDue(elapsed, floats(c.Expected), float64(c.Rho), due)
		if err != nil {
			unchanged(t, "due", due, unwritten)
			return nil, err
		}
		return map[string]any{"due": due, "count": uint32(count)}, nil
	case "timeline":
		runTimelineCase(t, c)
		return nil, nil
	case "predictor":
		runPredictorCase(t, c)
		return nil, nil
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

// timelineStep is a step of a timeline case.
type timelineStep struct {
	stepHeader
	By             id   // advance
	ExpectFinished *int `json:"expect_finished"`
	Demand         []number
	ExpectID       *id `json:"expect_id"`
	ID             id
	Observed       []number
	Predicted      []number
	Demands        []number // heartbeat
	Steps          []uint32
	Counts         []uint32
	Metric         uint32
	Slots          int
	Expect         json.RawMessage
}

// runTimelineCase builds the case's timeline, then runs its steps; a failed one must leave the
// stats and the available series as they were.
func runTimelineCase(t *testing.T, c drrCase) {
	capacity := decode[uint32](t, c.Capacity)
	timeline, err := fairsched.NewDRRTimeline(capacity, floats(c.Machine), c.Horizon)
	if want := expectedError(t, c.InitStatus); err != want {
		t.Fatalf("NewDRRTimeline: got error %v, want %v", err, want)
	}
	if err != nil {
		return
	}
	defer timeline.Close()
	length := int(c.Horizon) * len(c.Machine)
	runSteps(t, decode[[]timelineStep](t, c.Steps),
		func(t *testing.T) string { return timelineState(t, timeline, length) },
		func(t *testing.T, s timelineStep) error { return timelineCall(t, timeline, length, s) })
}

// timelineState renders the stats and the available series (length amounts), bit for bit.
func timelineState(t *testing.T, timeline *fairsched.DRRTimeline, length int) string {
	t.Helper()
	stats, err := timeline.Stats()
	must(t, err)
	available := make([]float64, length)
	must(t, timeline.Available(available))
	return fmt.Sprintf("%+v %s", stats, renderSlice(available))
}

// timelineCall makes the step's call, checks its expectations when it succeeds, and returns its
// error.
func timelineCall(t *testing.T, timeline *fairsched.DRRTimeline, length int, s timelineStep) error {
	switch s.Op {
	case "advance":
		finished, err := timeline.Advance(uint64(s.By))
		if err == nil {
			expect(t, "finished", finished, *s.ExpectFinished)
		}
		return err
	case "place":
		got, err := timeline.Place(floats(s.Demand))
		if err == nil {
			expect(t, "id", got, uint64(*s.ExpectID))
		}
		return err
	case "release":
		return timeline.Release(uint64(s.ID))
	case "reprovision":
		return timeline.Reprovision(uint64(s.ID), floats(s.Observed), floats(s.Predicted))
	case "heartbeat":
		unwritten := slices.Repeat([]uint32{math.MaxUint32}, s.Slots)
		placements := slices.Clone(unwritten)
		beat, err := timeline.Heartbeat(floats(s.Demands), s.Steps, s.Counts, fairsched.Metric(s.Metric), placements)
		if err != nil {
			unchanged(t, "placements", placements, unwritten)
			return err
		}
		expectFields(t, s.Expect, map[string]any{
			"placements": placements[:beat.Placed],
			"first_id":   beat.FirstID,
			"t_run":      beat.TRun,
			"drr":        beat.DRR,
		})
		expectU64(t, s.Expect, "first_id", beat.FirstID)
		return nil
	case "stats":
		stats, err := timeline.Stats()
		must(t, err)
		expectFieldsOf(t, s.Expect, stats, nil)
		expectU64(t, s.Expect, "now", stats.Now)
		expectU64(t, s.Expect, "next_id", stats.NextID)
		return nil
	case "available":
		available := make([]float64, length)
		err := timeline.Available(available)
		if err == nil {
			expect(t, "available", renderSlice(available), renderJSON(t, s.Expect))
		}
		return err
	}
	t.Fatalf("unknown timeline op %q", s.Op)
	return nil
}

// expectU64 checks the u64 field of expect named field, if any (an id-like number or decimal
// string), exactly: render compares u64s as floats.
func expectU64(t *testing.T, expect json.RawMessage, field string, got uint64) {
	t.Helper()
	var fields map[string]json.RawMessage
	must(t, json.Unmarshal(expect, &fields))
	if text, given := fields[field]; given {
		if want := decode[id](t, text); uint64(want) != got {
			t.Errorf("%s = %d, want %d", field, got, uint64(want))
		}
	}
}

// predictorStep is a step of a predictor case.
type predictorStep struct {
	stepHeader
	ID        id
	Run       []number
	Peak      []number
	PeakSteps uint32 `json:"peak_steps"`
	Room      *int
	Expect    json.RawMessage
}

// runPredictorCase builds the case's predictor, then runs its steps; a failed one must leave
// the runs of every id the case names as they were.
func runPredictorCase(t *testing.T, c drrCase) {
	capacity := decode[uint32](t, c.Capacity)
	predictor, err := fairsched.NewDRRPredictor(capacity, c.Kinds, c.Window, c.MaxSteps)
	if want := expectedError(t, c.InitStatus); err != want {
		t.Fatalf("NewDRRPredictor: got error %v, want %v", err, want)
	}
	if err != nil {
		return
	}
	defer predictor.Close()
	steps := decode[[]predictorStep](t, c.Steps)
	var ids []uint64
	for _, s := range steps {
		ids = append(ids, uint64(s.ID))
	}
	room := int(c.MaxSteps) * c.Kinds
	runSteps(t, steps,
		func(t *testing.T) string { return predictorState(t, predictor, ids) },
		func(t *testing.T, s predictorStep) error { return predictorCall(t, predictor, room, s) })
}

// predictorState renders the runs kept of every one of ids.
func predictorState(t *testing.T, predictor *fairsched.DRRPredictor, ids []uint64) string {
	t.Helper()
	state := ""
	for _, id := range ids {
		runs, err := predictor.Runs(id)
		must(t, err)
		state += fmt.Sprintf(" %d:%d", id, runs)
	}
	return state
}

// predictorCall makes the step's call (a prediction into room amounts unless the step gives
// its own), checks its expectations when it succeeds, and returns its error.
func predictorCall(t *testing.T, predictor *fairsched.DRRPredictor, room int, s predictorStep) error {
	id := uint64(s.ID)
	switch s.Op {
	case "record":
		return predictor.Record(id, floats(s.Run))
	case "forget":
		return predictor.Forget(id)
	case "runs":
		runs, err := predictor.Runs(id)
		if err == nil {
			expect(t, "runs", render(float64(runs)), renderJSON(t, s.Expect))
		}
		return err
	case "predict":
		if s.Room != nil {
			room = *s.Room
		}
		unwritten := slices.Repeat([]float64{-1}, room)
		series := slices.Clone(unwritten)
		prediction, err := predictor.Predict(id, floats(s.Peak), s.PeakSteps, series)
		if err != nil {
			unchanged(t, "series", series, unwritten)
			return err
		}
		expectFields(t, s.Expect, map[string]any{
			"series": series[:prediction.Steps*len(s.Peak)],
			"runs":   uint32(prediction.Runs),
		})
		return nil
	}
	t.Fatalf("unknown predictor op %q", s.Op)
	return nil
}

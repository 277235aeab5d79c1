package fairsched_test

import (
	"fmt"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// predicted renders what Predict writes for id with the peak (2, 5) for steps steps.
func predicted(t *testing.T, p *fairsched.DRRPredictor, id uint64, steps uint32) string {
	t.Helper()
	series := make([]float64, 8)
	prediction, err := p.Predict(id, []float64{2, 5}, steps, series)
	must(t, err)
	return fmt.Sprint(series[:prediction.Steps*2], prediction.Runs)
}

// The peak until three runs, then their mean step by step over the runs that lasted, the
// oldest replaced by a fourth (bindings/c/test_drr_predictor.c).
func TestDRRPredictorMeanOfTheLastRuns(t *testing.T) {
	p := newDRRPredictor(t, 4, 2, 3, 4)
	expect(t, "never seen", predicted(t, p, 7, 3), "[2 5 2 5 2 5] 0")
	must(t, p.Record(7, []float64{1, 2, 3, 4}))
	must(t, p.Record(7, []float64{2, 2, 2, 2, 2, 2}))
	runs, err := p.Runs(7)
	must(t, err)
	expect(t, "runs", runs, 2)
	expect(t, "two runs", predicted(t, p, 7, 1), "[2 5] 0")
	must(t, p.Record(7, []float64{3, 5}))
	expect(t, "three runs", predicted(t, p, 7, 1), "[2 3 2.5 3 2 2] 3")
	must(t, p.Record(7, []float64{6, 6, 6, 6}))
	expect(t, "a fourth", predicted(t, p, 7, 1), fmt.Sprint([]float64{11.0 / 3, 13.0 / 3, 4, 4, 2, 2}, 3))
	must(t, p.Forget(7))
	expect(t, "forgotten", predicted(t, p, 7, 2), "[2 5 2 5] 0")
	expect(t, "forget again", p.Forget(7), error(fairsched.ErrUnknownID))
}

// Every rejection leaves every id's runs as they were and writes nothing.
func TestDRRPredictorRejectionsChangeNothing(t *testing.T) {
	ok := []float64{1, 1}
	for _, tc := range []struct {
		name string
		want error
		call func(*fairsched.DRRPredictor, []float64) error
	}{
		{"partial step", fairsched.ErrLengthMismatch, func(p *fairsched.DRRPredictor, _ []float64) error { return p.Record(5, []float64{1}) }},
		{"no step", fairsched.ErrEmpty, func(p *fairsched.DRRPredictor, _ []float64) error { return p.Record(5, nil) }},
		{"too long", fairsched.ErrCapacityFull, func(p *fairsched.DRRPredictor, _ []float64) error { return p.Record(5, make([]float64, 8)) }},
		{"negative", fairsched.ErrNegative, func(p *fairsched.DRRPredictor, _ []float64) error { return p.Record(5, []float64{1, -1}) }},
		{"full", fairsched.ErrCapacityFull, func(p *fairsched.DRRPredictor, _ []float64) error { return p.Record(6, ok) }},
		{"unknown", fairsched.ErrUnknownID, func(p *fairsched.DRRPredictor, _ []float64) error { return p.Forget(6) }},
		{"peak of one kind", fairsched.ErrLengthMismatch, func(p *fairsched.DRRPredictor, out []float64) error {
			_, err := p.Predict(6, []float64{1}, 1, out)
			return err
		}},
		{"no steps", fairsched.ErrEmpty, func(p *fairsched.DRRPredictor, out []float64) error {
			_, err := p.Predict(6, ok, 0, out)
			return err
		}},
		{"too many steps", fairsched.ErrCapacityFull, func(p *fairsched.DRRPredictor, out []float64) error {
			_, err := p.Predict(6, ok, 4, out)
			return err
		}},
		{"no room for the mean", fairsched.ErrLengthMismatch, func(p *fairsched.DRRPredictor, out []float64) error {
			_, err := p.Predict(5, ok, 1, out[:3])
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newDRRPredictor(t, 1, 2, 2, 3)
			must(t, p.Record(5, []float64{1, 2}))
			must(t, p.Record(5, []float64{3, 4, 5, 6}))
			before := predictorState(t, p, []uint64{5, 6})
			out := []float64{7, 7, 7, 7, 7, 7}
			expect(t, "error", tc.call(p, out), tc.want)
			expect(t, "state", predictorState(t, p, []uint64{5, 6}), before)
			expect(t, "unwritten", fmt.Sprint(out), "[7 7 7 7 7 7]")
		})
	}
}

func TestDRRPredictorClose(t *testing.T) {
	p := newDRRPredictor(t, 1, 1, 1, 1)
	must(t, p.Close())
	expectClosed(t, map[string]func() error{
		"Close":  p.Close,
		"Record": func() error { return p.Record(1, []float64{1}) },
		"Forget": func() error { return p.Forget(1) },
		"Runs":   func() error { _, err := p.Runs(1); return err },
		"Predict": func() error {
			_, err := p.Predict(1, []float64{1}, 1, make([]float64, 1))
			return err
		},
	})
}

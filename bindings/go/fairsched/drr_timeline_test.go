package fairsched_test

import (
	"fmt"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// available returns the timeline's available series, H·kinds amounts.
func available(t *testing.T, timeline *fairsched.DRRTimeline, length int) []float64 {
	t.Helper()
	out := make([]float64, length)
	must(t, timeline.Available(out))
	return out
}

// The hand-built sequence of bindings/c/test_drr_timeline.c: placing, a misfit, advancing,
// releasing, reprovisioning, a series ending.
func TestDRRTimelineSequence(t *testing.T) {
	timeline := newDRRTimeline(t, 4, []float64{4, 8}, 4)
	all := []float64{4, 8, 4, 8, 4, 8, 4, 8}
	expect(t, "AR", fmt.Sprint(available(t, timeline, 8)), fmt.Sprint(all))
	stats, err := timeline.Stats()
	must(t, err)
	expect(t, "stats", stats, fairsched.DRRTimelineStats{Now: 0, NextID: 1, Capacity: 4, Horizon: 4, TRun: 4, Kinds: 2, DRR: 1, TRC: 2})
	// Executor 1: all the CPU and half the memory for two steps; executor 2 then misfits.
	id, err := timeline.Place([]float64{4, 4, 4, 4})
	must(t, err)
	expect(t, "id", id, 1)
	two := []float64{1, 0, 1, 0, 1, 0, 1, 0}
	_, err = timeline.Place(two)
	expect(t, "misfit", err, error(fairsched.ErrDoesNotFit))
	finished, err := timeline.Advance(1)
	must(t, err)
	expect(t, "finished", finished, 0)
	expect(t, "AR", fmt.Sprint(available(t, timeline, 8)), "[0 4 4 8 4 8 4 8]")
	stats, err = timeline.Stats()
	must(t, err)
	expect(t, "stats", stats, fairsched.DRRTimelineStats{Now: 1, NextID: 2, Running: 1, Capacity: 4, Horizon: 4, TRun: 1, Kinds: 2, DRR: 0.5, TRC: 0.5})
	// Released early: its last step comes back, and executor 2 fits.
	must(t, timeline.Release(1))
	expect(t, "AR", fmt.Sprint(available(t, timeline, 8)), fmt.Sprint(all))
	id, err = timeline.Place(two)
	must(t, err)
	expect(t, "id", id, 2)
	_, err = timeline.Advance(1)
	must(t, err)
	// Twice the predicted CPU observed: its remaining three steps double.
	must(t, timeline.Reprovision(2, []float64{2, 0}, []float64{1, 0}))
	expect(t, "AR", fmt.Sprint(available(t, timeline, 8)), "[2 8 2 8 2 8 4 8]")
	expect(t, "five times", timeline.Reprovision(2, []float64{5, 0}, []float64{1, 0}), error(fairsched.ErrDoesNotFit))
	// Its series ends at step 5: it finishes as predicted.
	finished, err = timeline.Advance(3)
	must(t, err)
	expect(t, "finished", finished, 1)
	expect(t, "release", timeline.Release(2), error(fairsched.ErrUnknownID))
}

// Four executors of (2, 2) (one application) and one of (3, 3, 3) on a machine of 10, room
// for three: the other first (7/10 < 4/5), then two copies.
func TestDRRTimelineHeartbeatPlacesCopies(t *testing.T) {
	timeline := newDRRTimeline(t, 3, []float64{10}, 3)
	demands, steps, counts := []float64{2, 2, 3, 3, 3}, []uint32{2, 3}, []uint32{4, 1}
	placements := make([]uint32, 8)
	beat, err := timeline.Heartbeat(demands, steps, counts, fairsched.MetricDRR, placements)
	must(t, err)
	expect(t, "heartbeat", beat, fairsched.DRRTimelineHeartbeat{Placed: 3, FirstID: 1, TRun: 2, DRR: 0.3})
	expect(t, "placements", fmt.Sprint(placements[:beat.Placed]), "[1 0 0]")
	expect(t, "AR", fmt.Sprint(available(t, timeline, 3)), "[3 3 7]")
	beat, err = timeline.Heartbeat(demands, steps, counts, fairsched.MetricTRC, placements)
	must(t, err)
	expect(t, "full", beat, fairsched.DRRTimelineHeartbeat{Placed: 0, FirstID: 4, TRun: 2, DRR: 0.3})
	// The placements may be the counts: read as a copy.
	shared := []uint32{2, 0}
	other := newDRRTimeline(t, 4, []float64{4}, 2)
	beat, err = other.Heartbeat([]float64{1, 1}, []uint32{1, 1}, shared, fairsched.MetricDRR, shared)
	must(t, err)
	expect(t, "shared", fmt.Sprint(beat.Placed, shared), "2 [0 0]")
}

// Every rejection leaves the stats and the series as they were, and writes nothing.
func TestDRRTimelineRejectionsChangeNothing(t *testing.T) {
	ok := []float64{1, 1}
	one := []uint32{1}
	for _, tc := range []struct {
		name string
		want error
		call func(*fairsched.DRRTimeline) error
	}{
		{"advance past the clock", fairsched.ErrOutOfRange, func(tl *fairsched.DRRTimeline) error { _, err := tl.Advance(^uint64(0)); return err }},
		{"partial step", fairsched.ErrLengthMismatch, func(tl *fairsched.DRRTimeline) error { _, err := tl.Place([]float64{1}); return err }},
		{"no step", fairsched.ErrEmpty, func(tl *fairsched.DRRTimeline) error { _, err := tl.Place(nil); return err }},
		{"past the horizon", fairsched.ErrOutOfRange, func(tl *fairsched.DRRTimeline) error { _, err := tl.Place(make([]float64, 8)); return err }},
		{"negative", fairsched.ErrNegative, func(tl *fairsched.DRRTimeline) error { _, err := tl.Place([]float64{-1, 1}); return err }},
		{"misfit", fairsched.ErrDoesNotFit, func(tl *fairsched.DRRTimeline) error { _, err := tl.Place([]float64{4, 1}); return err }},
		{"unknown release", fairsched.ErrUnknownID, func(tl *fairsched.DRRTimeline) error { return tl.Release(9) }},
		{"unknown reprovision", fairsched.ErrUnknownID, func(tl *fairsched.DRRTimeline) error { return tl.Reprovision(9, ok, ok) }},
		{"observed of one kind", fairsched.ErrLengthMismatch, func(tl *fairsched.DRRTimeline) error { return tl.Reprovision(1, []float64{1}, ok) }},
		{"overflow", fairsched.ErrOutOfRange, func(tl *fairsched.DRRTimeline) error {
			return tl.Reprovision(1, []float64{1e308, 1}, []float64{1e-308, 1})
		}},
		{"reprovision misfit", fairsched.ErrDoesNotFit, func(tl *fairsched.DRRTimeline) error { return tl.Reprovision(1, []float64{5, 1}, ok) }},
		{"counts", fairsched.ErrLengthMismatch, func(tl *fairsched.DRRTimeline) error {
			_, err := tl.Heartbeat(ok, one, nil, fairsched.MetricDRR, make([]uint32, 2))
			return err
		}},
		{"metric", fairsched.ErrOutOfRange, func(tl *fairsched.DRRTimeline) error {
			_, err := tl.Heartbeat(ok, one, one, 3, make([]uint32, 2))
			return err
		}},
		{"available", fairsched.ErrLengthMismatch, func(tl *fairsched.DRRTimeline) error { return tl.Available(make([]float64, 5)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			timeline := newDRRTimeline(t, 2, []float64{4, 8}, 3)
			_, err := timeline.Place([]float64{1, 2, 1, 2})
			must(t, err)
			_, err = timeline.Advance(1)
			must(t, err)
			before := timelineState(t, timeline, 6)
			expect(t, "error", tc.call(timeline), tc.want)
			expect(t, "state", timelineState(t, timeline, 6), before)
		})
	}
}

func TestDRRTimelineClose(t *testing.T) {
	timeline := newDRRTimeline(t, 1, []float64{4, 8}, 4)
	must(t, timeline.Close())
	expectClosed(t, map[string]func() error{
		"Close":       timeline.Close,
		"Advance":     func() error { _, err := timeline.Advance(1); return err },
		"Place":       func() error { _, err := timeline.Place([]float64{1, 1}); return err },
		"Release":     func() error { return timeline.Release(1) },
		"Reprovision": func() error { return timeline.Reprovision(1, []float64{1, 1}, []float64{1, 1}) },
		"Heartbeat": func() error {
			_, err := timeline.Heartbeat(nil, nil, nil, fairsched.MetricDRR, nil)
			return err
		},
		"Stats":     func() error { _, err := timeline.Stats(); return err },
		"Available": func() error { return timeline.Available(make([]float64, 8)) },
	})
}

// Reprovisioning's trigger: due past rho times the expected time, strictly.
func TestDRRReprovisionDue(t *testing.T) {
	due := make([]bool, 4)
	count, err := fairsched.DRRReprovisionDue([]float64{10, 10.5, 12, 0}, []float64{10, 10, 10, 10}, fairsched.DRRRho, due)
	must(t, err)
	expect(t, "due", fmt.Sprint(count, due), "1 [false false true false]")
	expect(t, "rho", fairsched.DRRRho, 1.1)
	flags := []bool{true, true}
	_, err = fairsched.DRRReprovisionDue([]float64{1, 1}, []float64{1, 0}, fairsched.DRRRho, flags)
	expect(t, "zero expected", err, error(fairsched.ErrNotPositive))
	_, err = fairsched.DRRReprovisionDue([]float64{1, 1}, []float64{1, 1}, 0.99, flags)
	expect(t, "rho below 1", err, error(fairsched.ErrOutOfRange))
	expect(t, "unwritten", slices.Equal(flags, []bool{true, true}), true)
}

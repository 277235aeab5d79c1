package fairsched_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// newDRRExecutors lays out executors over kinds kinds, closed when the test ends.
func newDRRExecutors(t testing.TB, demands []float64, steps []uint32, kinds int) *fairsched.DRRExecutors {
	t.Helper()
	pending, err := fairsched.NewDRRExecutors(demands, steps, kinds)
	must(t, err)
	t.Cleanup(func() { _ = pending.Close() })
	return pending
}

// A heartbeat over laid out executors is DRRMinFrag's over the same slices, bit for bit, and
// leaves the executors as they were (changes to the slices afterwards do not reach them).
func TestDRRMinFragExecutorsIsDRRMinFrag(t *testing.T) {
	given := drrMachine(1)
	demands, steps := drrExecutors(100, 2)
	laid := slices.Clone(demands)
	pending := newDRRExecutors(t, laid, steps, len(benchDRRCapacity))
	clear(laid)
	expect(t, "len", pending.Len(), 100)
	for _, metric := range []fairsched.Metric{fairsched.MetricDRR, fairsched.MetricTRC, fairsched.MetricTetris} {
		want, placed := slices.Clone(given), make([]uint32, 100)
		beat, err := fairsched.DRRMinFrag(benchDRRCapacity, want, benchDRRTRun, demands, steps, metric, placed)
		must(t, err)
		for range 2 {
			got, placements := slices.Clone(given), make([]uint32, 100)
			gotBeat, err := fairsched.DRRMinFragExecutors(benchDRRCapacity, got, benchDRRTRun, pending, metric, placements)
			must(t, err)
			expect(t, metric.String(), gotBeat, beat)
			expect(t, metric.String()+" placements", fmt.Sprint(placements), fmt.Sprint(placed))
			expect(t, metric.String()+" available", fmt.Sprint(got), fmt.Sprint(want))
		}
	}
}

// Every input DRRMinFrag refuses is refused with the same error: by NewDRRExecutors for the
// executors themselves, by DRRMinFragExecutors otherwise, which then writes nothing.
func TestDRRExecutorsErrors(t *testing.T) {
	nan := math.NaN()
	ones := slices.Repeat([]float64{1}, 12)
	for _, tc := range []struct {
		name       string
		capacity   []float64
		demands    []float64
		steps      []uint32
		kinds      int
		metric     fairsched.Metric
		placements int
		want       error
	}{
		{"NaN demand", drrCapacity, []float64{1, nan}, []uint32{1}, 2, fairsched.MetricDRR, 4, fairsched.ErrNotFinite},
		{"negative demand", drrCapacity, []float64{1, -1}, []uint32{1}, 2, fairsched.MetricDRR, 4, fairsched.ErrNegative},
		{"zero steps", drrCapacity, nil, []uint32{0}, 2, fairsched.MetricDRR, 4, fairsched.ErrEmpty},
		{"demands shorter than the steps", drrCapacity, ones[:3], []uint32{1, 1}, 2, fairsched.MetricDRR, 4, fairsched.ErrLengthMismatch},
		{"4097 executors", drrCapacity, make([]float64, 2*4097), slices.Repeat([]uint32{1}, 4097), 2, fairsched.MetricDRR, 4097,
			fairsched.ErrCapacityFull},
		{"no kind", nil, ones[:2], []uint32{1}, 0, fairsched.MetricDRR, 4, fairsched.ErrEmpty},
		{"nine kinds", nineKinds, nineKinds, []uint32{1}, 9, fairsched.MetricDRR, 4, fairsched.ErrCapacityFull},
		{"longer than the horizon", drrCapacity, ones[:10], []uint32{5}, 2, fairsched.MetricDRR, 4, fairsched.ErrOutOfRange},
		{"no room for every placement", drrCapacity, ones[:4], []uint32{1, 1}, 2, fairsched.MetricDRR, 1, fairsched.ErrLengthMismatch},
		{"unknown metric", drrCapacity, ones[:2], []uint32{1}, 2, fairsched.Metric(3), 4, fairsched.ErrOutOfRange},
		{"capacity of other kinds", []float64{4, 8, 1}, ones[:2], []uint32{1}, 2, fairsched.MetricDRR, 4, fairsched.ErrLengthMismatch},
		{"no capacity", nil, ones[:2], []uint32{1}, 2, fairsched.MetricDRR, 4, fairsched.ErrEmpty},
	} {
		available := slices.Clone(drrAvailable)
		placements := slices.Repeat([]uint32{99}, tc.placements)
		if _, err := fairsched.DRRMinFrag(tc.capacity, available, 4, tc.demands, tc.steps, tc.metric, placements); err != tc.want {
			t.Errorf("%s: DRRMinFrag: got %v, want %v", tc.name, err, tc.want)
		}
		pending, err := fairsched.NewDRRExecutors(tc.demands, tc.steps, tc.kinds)
		if err == nil {
			var beat fairsched.DRRHeartbeat
			beat, err = fairsched.DRRMinFragExecutors(tc.capacity, available, 4, pending, tc.metric, placements)
			expect(t, tc.name+": heartbeat", beat, fairsched.DRRHeartbeat{})
			must(t, pending.Close())
		} else if pending != nil {
			t.Errorf("%s: executors with an error", tc.name)
		}
		if err != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
		expect(t, tc.name+": available", fmt.Sprint(available), fmt.Sprint(drrAvailable))
		expect(t, tc.name+": placements", fmt.Sprint(placements), fmt.Sprint(slices.Repeat([]uint32{99}, tc.placements)))
	}
}

// A heartbeat over laid out executors is DRRTimeline.Heartbeat's over the same slices, and
// each bad input gets Heartbeat's error, changing nothing.
func TestDRRTimelineHeartbeatExecutors(t *testing.T) {
	demands, steps, counts := []float64{2, 2, 3, 3, 3}, []uint32{2, 3}, []uint32{4, 1}
	pending := newDRRExecutors(t, demands, steps, 1)
	flat, laid := newDRRTimeline(t, 3, []float64{10}, 3), newDRRTimeline(t, 3, []float64{10}, 3)
	for range 2 {
		want, wantPlaced := make([]uint32, 8), make([]uint32, 8)
		beat, err := flat.Heartbeat(demands, steps, counts, fairsched.MetricDRR, wantPlaced)
		must(t, err)
		got, err := laid.HeartbeatExecutors(pending, counts, fairsched.MetricDRR, want)
		must(t, err)
		expect(t, "heartbeat", got, beat)
		expect(t, "placements", fmt.Sprint(want), fmt.Sprint(wantPlaced))
		expect(t, "AR", fmt.Sprint(available(t, laid, 3)), fmt.Sprint(available(t, flat, 3)))
	}

	long := newDRRExecutors(t, make([]float64, 8), []uint32{4}, 2)
	three := newDRRExecutors(t, make([]float64, 3), []uint32{1}, 3)
	two := newDRRExecutors(t, []float64{1, 1}, []uint32{1}, 2)
	closed, err := fairsched.NewDRRExecutors([]float64{1, 1}, []uint32{1}, 2)
	must(t, err)
	must(t, closed.Close())
	for _, tc := range []struct {
		name    string
		pending *fairsched.DRRExecutors
		counts  []uint32
		metric  fairsched.Metric
		want    error
	}{
		{"counts", two, nil, fairsched.MetricDRR, fairsched.ErrLengthMismatch},
		{"metric", two, []uint32{1}, 3, fairsched.ErrOutOfRange},
		{"longer than the horizon", long, []uint32{1}, fairsched.MetricDRR, fairsched.ErrOutOfRange},
		{"other kinds", three, []uint32{1}, fairsched.MetricDRR, fairsched.ErrLengthMismatch},
		{"nil", nil, []uint32{1}, fairsched.MetricDRR, fairsched.ErrNullPointer},
		{"closed", closed, []uint32{1}, fairsched.MetricDRR, fairsched.ErrClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			timeline := newDRRTimeline(t, 2, []float64{4, 8}, 3)
			_, err := timeline.Place([]float64{1, 2, 1, 2})
			must(t, err)
			before := timelineState(t, timeline, 6)
			placements := []uint32{99, 99}
			beat, err := timeline.HeartbeatExecutors(tc.pending, tc.counts, tc.metric, placements)
			expect(t, "error", err, tc.want)
			expect(t, "heartbeat", beat, fairsched.DRRTimelineHeartbeat{})
			expect(t, "placements", fmt.Sprint(placements), "[99 99]")
			expect(t, "state", timelineState(t, timeline, 6), before)
		})
	}
}

// Close frees the executors: a heartbeat over them is then ErrClosed, as is a second Close; nil
// executors are ErrNullPointer.
func TestDRRExecutorsClose(t *testing.T) {
	pending, err := fairsched.NewDRRExecutors([]float64{1, 1}, []uint32{1}, 2)
	must(t, err)
	must(t, pending.Close())
	timeline := newDRRTimeline(t, 2, []float64{4, 8}, 3)
	expectClosed(t, map[string]func() error{
		"Close": pending.Close,
		"DRRMinFragExecutors": func() error {
			_, err := fairsched.DRRMinFragExecutors(drrCapacity, slices.Clone(drrAvailable), 4, pending, fairsched.MetricDRR, make([]uint32, 1))
			return err
		},
		"HeartbeatExecutors": func() error {
			_, err := timeline.HeartbeatExecutors(pending, []uint32{1}, fairsched.MetricDRR, make([]uint32, 1))
			return err
		},
	})
	if _, err := fairsched.DRRMinFragExecutors(drrCapacity, slices.Clone(drrAvailable), 4, nil, fairsched.MetricDRR, nil); err != fairsched.ErrNullPointer {
		t.Errorf("nil executors: got %v", err)
	}
}

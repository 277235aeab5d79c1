package fairsched_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// A machine of capacity (4, 8) over four steps, as bindings/c/test_drr.c has it.
var (
	drrCapacity  = []float64{4, 8}
	drrAvailable = []float64{3, 6, 2, 5, 4, 8, 1, 2}
)

func TestDRRMachine(t *testing.T) {
	drr, trc, err := fairsched.DRRMachine(drrCapacity, drrAvailable, 4)
	must(t, err)
	// CPU (3+2+4+1)/16 = 5/8, memory (6+5+8+2)/32 = 21/32.
	expect(t, "θ(j)", drr, 21.0/32)
	expect(t, "TRC", trc, 5.0/8+21.0/32)
}

// scoreOn scores demand (two kinds) on the machine with tRun; NaN when it does not fit.
func scoreOn(t *testing.T, demand []float64, tRun uint32, metric fairsched.Metric) float64 {
	t.Helper()
	fits, scores := []bool{false}, []float64{0}
	must(t, fairsched.DRRScoreMachines(drrCapacity, 2, drrAvailable, []uint32{tRun}, demand, metric, fits, scores))
	if !fits[0] {
		return math.NaN()
	}
	return scores[0]
}

// t* = min(t_run, T_i): set by the new executor, then by a running one.
func TestDRRScoreTStar(t *testing.T) {
	// T_i = 2 < t_run = 4: CPU ((3-1)+(2-2))/8 = 1/4, memory ((6-2)+(5-1))/16 = 1/2.
	first := []float64{1, 2, 2, 1}
	expect(t, "DRR", scoreOn(t, first, 4, fairsched.MetricDRR), 0.5)
	expect(t, "TRC", scoreOn(t, first, 4, fairsched.MetricTRC), 0.75)
	expect(t, "Tetris", scoreOn(t, first, 4, fairsched.MetricTetris), 9.0/16)
	// t_run = 1 < T_i = 3: CPU (3-1)/4 = 1/2, memory (6-1)/8 = 5/8.
	second := []float64{1, 1, 1, 1, 1, 1}
	expect(t, "DRR until t_run", scoreOn(t, second, 1, fairsched.MetricDRR), 5.0/8)
	expect(t, "DRR until T_i", scoreOn(t, second, 4, fairsched.MetricDRR), 16.0/24)
}

// One executor on three machines: where it does not fit, the worst score of the metric.
func TestDRRScoreMachines(t *testing.T) {
	capacities := []float64{4, 8, 4, 8, 8, 8}
	available := slices.Concat(drrAvailable, make([]float64, 8), []float64{8, 8, 8, 8, 8, 8, 8, 8})
	for _, tc := range []struct {
		metric fairsched.Metric
		want   string
	}{
		{fairsched.MetricDRR, "[true false true] [0.5 +Inf 0.875]"},
		{fairsched.MetricTRC, "[true false true] [0.75 +Inf 1.625]"},
		{fairsched.MetricTetris, "[true false true] [0.5625 -Inf 0.5]"},
	} {
		fits, scores := make([]bool, 3), make([]float64, 3)
		must(t, fairsched.DRRScoreMachines(capacities, 2, available, []uint32{4, 4, 1}, []float64{1, 2, 2, 1},
			tc.metric, fits, scores))
		expect(t, tc.metric.String(), fmt.Sprint(fits, scores), tc.want)
	}
}

// Fig. 6 of the Elasecutor paper as reconstructed in tests/drr_paper.rs: θ(1, j) = 53/112,
// θ(2, j) = 13/32, so executor 2 goes first; then executor 1 no longer fits (no network left
// at step 0).
func TestDRRMinFragFig6(t *testing.T) {
	capacity := []float64{16, 64, 10, 500}
	var available []float64
	for range 8 {
		available = append(available, 12, 40, 6, 300)
	}
	available = append(available, capacity...)
	demands := []float64{
		5, 17, 6, 300, 5, 17, 6, 200, 5, 17, 6, 200, 4, 16, 6, 200, // executor 1
		4, 16, 5, 200, 4, 16, 5, 200, 4, 16, 5, 200,
		6, 20, 6, 300, 6, 20, 5, 300, 6, 20, 5, 300, 6, 20, 5, 300, // executor 2
		5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 5, 250, 5, 17, 4, 250, 4, 8, 2, 100,
	}
	placements := []uint32{99, 99}
	beat, err := fairsched.DRRMinFrag(capacity, available, 8, demands, []uint32{7, 9}, fairsched.MetricDRR, placements)
	must(t, err)
	expect(t, "heartbeat", beat, fairsched.DRRHeartbeat{Placed: 1, TRun: 8, DRR: 13.0 / 32})
	expect(t, "placements", fmt.Sprint(placements), "[1 99]")
	expect(t, "network and disk left at step 0", fmt.Sprint(available[2:4]), "[0 0]")
}

func TestDRRReprovision(t *testing.T) {
	remaining := []float64{2, 4, 1, 3, 6, 5}
	// CPU ×3/2, memory ×1/4, a kind predicted at zero left as it is.
	must(t, fairsched.DRRReprovision(remaining, 3, []float64{3, 1, 7}, []float64{2, 4, 0}))
	expect(t, "remaining", fmt.Sprint(remaining), "[3 1 1 4.5 1.5 5]")
}

func TestMetricString(t *testing.T) {
	expect(t, "metrics", fmt.Sprint(fairsched.MetricDRR, fairsched.MetricTRC, fairsched.MetricTetris, fairsched.Metric(3)),
		"DRR TRC Tetris Metric(3)")
}

// Slices the call writes may share memory with those it reads: the result is that of separate
// slices holding the same values.
func TestDRRSharedMemory(t *testing.T) {
	// A machine of one step whose available series is its capacity, the same slice.
	machine := []float64{4, 8}
	separate := slices.Clone(machine)
	demands, steps := []float64{1, 2, 4, 8}, []uint32{1, 1}
	want, err := fairsched.DRRMinFrag(slices.Clone(machine), separate, 1, demands, steps, fairsched.MetricDRR, make([]uint32, 2))
	must(t, err)
	got, err := fairsched.DRRMinFrag(machine, machine, 1, demands, steps, fairsched.MetricDRR, make([]uint32, 2))
	must(t, err)
	expect(t, "heartbeat", got, want)
	expect(t, "available", fmt.Sprint(machine), fmt.Sprint(separate))

	// Placements written over the steps they are read from.
	shared := []uint32{1, 1}
	beat, err := fairsched.DRRMinFrag([]float64{4, 8}, []float64{4, 8}, 1, demands, shared, fairsched.MetricDRR, shared)
	must(t, err)
	expect(t, "placed over the steps", fmt.Sprint(shared[:beat.Placed]), "[1]")

	// Scores written over the demand, and a series scaled over its observed usage.
	scored := []float64{1, 1}
	fits := []bool{false}
	must(t, fairsched.DRRScoreMachines([]float64{4, 8}, 2, []float64{3, 6}, []uint32{1}, scored, fairsched.MetricTRC, fits, scored[:1]))
	expect(t, "scores", fmt.Sprint(fits, scored), "[true] [1.125 1]")
	series := []float64{2, 4, 2, 1}
	must(t, fairsched.DRRReprovision(series, 2, series[2:], []float64{1, 2}))
	expect(t, "scaled", fmt.Sprint(series), "[4 2 4 0.5]")
}

// Every DRR call with invalid input returns its error and writes nothing: no output, and
// neither the series MinFrag updates nor the one DRRReprovision scales.
func TestDRRErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	t.Run("DRRMachine", func(t *testing.T) {
		for _, tc := range []struct {
			name                string
			capacity, available []float64
			tRun                uint32
			want                error
		}{
			{"NaN available", drrCapacity, []float64{nan, 1}, 1, fairsched.ErrNotFinite},
			{"negative available", drrCapacity, []float64{-1, 1}, 1, fairsched.ErrNegative},
			{"available above capacity", drrCapacity, []float64{5, 1}, 1, fairsched.ErrOutOfRange},
			{"zero capacity", []float64{0, 8}, drrAvailable, 4, fairsched.ErrNotPositive},
			{"t_run 0", drrCapacity, drrAvailable, 0, fairsched.ErrOutOfRange},
			{"t_run past the horizon", drrCapacity, drrAvailable, 5, fairsched.ErrOutOfRange},
			{"partial step", drrCapacity, drrAvailable[:7], 3, fairsched.ErrLengthMismatch},
			{"no kind", nil, drrAvailable, 4, fairsched.ErrEmpty},
			{"nine kinds", nineKinds, nineKinds, 1, fairsched.ErrCapacityFull},
			{"no step", drrCapacity, nil, 4, fairsched.ErrEmpty},
			{"257 steps", []float64{1}, make([]float64, 257), 1, fairsched.ErrCapacityFull},
		} {
			if drr, trc, err := fairsched.DRRMachine(tc.capacity, tc.available, tc.tRun); err != tc.want || drr != 0 || trc != 0 {
				t.Errorf("%s: got %v, %v, %v; want 0, 0, %v", tc.name, drr, trc, err, tc.want)
			}
		}
	})

	t.Run("MinFrag", func(t *testing.T) {
		ones := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
		for _, tc := range []struct {
			name       string
			demands    []float64
			steps      []uint32
			metric     fairsched.Metric
			placements int
			want       error
		}{
			{"NaN demand", []float64{1, nan}, []uint32{1}, fairsched.MetricDRR, 4, fairsched.ErrNotFinite},
			{"infinite demand", []float64{inf, 1}, []uint32{1}, fairsched.MetricDRR, 4, fairsched.ErrNotFinite},
			{"negative demand", []float64{1, -1}, []uint32{1}, fairsched.MetricDRR, 4, fairsched.ErrNegative},
			{"longer than the horizon", ones[:10], []uint32{5}, fairsched.MetricDRR, 4, fairsched.ErrOutOfRange},
			{"zero steps", nil, []uint32{0}, fairsched.MetricDRR, 4, fairsched.ErrEmpty},
			{"demands shorter than the steps", ones[:3], []uint32{1, 1}, fairsched.MetricDRR, 4, fairsched.ErrLengthMismatch},
			{"no room for every placement", ones[:4], []uint32{1, 1}, fairsched.MetricDRR, 1, fairsched.ErrLengthMismatch},
			{"unknown metric", ones[:2], []uint32{1}, fairsched.Metric(3), 4, fairsched.ErrOutOfRange},
			{"4097 executors", make([]float64, 2*4097), slices.Repeat([]uint32{1}, 4097), fairsched.MetricDRR, 4097,
				fairsched.ErrCapacityFull},
		} {
			available := slices.Clone(drrAvailable)
			placements := slices.Repeat([]uint32{99}, tc.placements)
			beat, err := fairsched.DRRMinFrag(drrCapacity, available, 4, tc.demands, tc.steps, tc.metric, placements)
			if err != tc.want || beat != (fairsched.DRRHeartbeat{}) {
				t.Errorf("%s: got %+v, %v; want %v", tc.name, beat, err, tc.want)
			}
			expect(t, tc.name+": available", fmt.Sprint(available), fmt.Sprint(drrAvailable))
			expect(t, tc.name+": placements", fmt.Sprint(placements), fmt.Sprint(slices.Repeat([]uint32{99}, tc.placements)))
		}
		// An invalid machine: the series is not changed either.
		available := []float64{5, 1}
		if _, err := fairsched.DRRMinFrag(drrCapacity, available, 1, ones[:2], []uint32{1}, fairsched.MetricDRR, make([]uint32, 1)); err != fairsched.ErrOutOfRange {
			t.Errorf("available above capacity: got %v", err)
		}
		expect(t, "available above capacity", fmt.Sprint(available), "[5 1]")
	})

	t.Run("DRRScoreMachines", func(t *testing.T) {
		capacities := []float64{4, 8, 4, 8}
		available := slices.Concat(drrAvailable, drrAvailable)
		for _, tc := range []struct {
			name       string
			capacities []float64
			kinds      int
			available  []float64
			tRuns      []uint32
			demand     []float64
			metric     fairsched.Metric
			out        int
			want       error
		}{
			{"NaN demand", capacities, 2, available, []uint32{4, 4}, []float64{nan, 1}, fairsched.MetricDRR, 2, fairsched.ErrNotFinite},
			{"longer than the horizon", capacities, 2, available, []uint32{4, 4}, make([]float64, 10), fairsched.MetricDRR, 2, fairsched.ErrOutOfRange},
			{"t_run past the horizon", capacities, 2, available, []uint32{4, 9}, []float64{1, 1}, fairsched.MetricDRR, 2, fairsched.ErrOutOfRange},
			{"unknown metric", capacities, 2, available, []uint32{4, 4}, []float64{1, 1}, fairsched.Metric(7), 2, fairsched.ErrOutOfRange},
			{"one output a machine", capacities, 2, available, []uint32{4, 4}, []float64{1, 1}, fairsched.MetricDRR, 1, fairsched.ErrLengthMismatch},
			{"no machine", nil, 2, nil, nil, []float64{1, 1}, fairsched.MetricDRR, 0, fairsched.ErrEmpty},
			{"demand of a partial step", capacities, 2, available, []uint32{4, 4}, []float64{1, 1, 1}, fairsched.MetricDRR, 2, fairsched.ErrLengthMismatch},
			{"no kind", nil, 0, available, []uint32{4, 4}, nil, fairsched.MetricDRR, 2, fairsched.ErrEmpty},
			{"series of different horizons", capacities, 2, available[:14], []uint32{4, 4}, []float64{1, 1}, fairsched.MetricDRR, 2, fairsched.ErrLengthMismatch},
			// The library wants kinds capacities a machine.
			{"capacities short of a machine", capacities[:2], 2, available, []uint32{4, 4}, []float64{1, 1}, fairsched.MetricDRR, 2, fairsched.ErrLengthMismatch},
			{"capacities of another kinds", capacities, 1, available, []uint32{4, 4}, []float64{1, 1}, fairsched.MetricDRR, 2, fairsched.ErrLengthMismatch},
		} {
			fits := slices.Repeat([]bool{true}, tc.out)
			scores := slices.Repeat([]float64{7}, tc.out)
			err := fairsched.DRRScoreMachines(tc.capacities, tc.kinds, tc.available, tc.tRuns, tc.demand, tc.metric, fits, scores)
			if err != tc.want {
				t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
			}
			expect(t, tc.name+": outputs", fmt.Sprint(fits, scores),
				fmt.Sprint(slices.Repeat([]bool{true}, tc.out), slices.Repeat([]float64{7}, tc.out)))
		}
	})

	t.Run("DRRReprovision", func(t *testing.T) {
		one := []float64{1, 1}
		for _, tc := range []struct {
			name                string
			remaining           []float64
			kinds               int
			observed, predicted []float64
			want                error
		}{
			{"negative observed", []float64{1, 2, 3, 4}, 2, []float64{-1, 1}, one, fairsched.ErrNegative},
			{"infinite predicted", []float64{1, 2, 3, 4}, 2, one, []float64{inf, 1}, fairsched.ErrNotFinite},
			{"negative remaining", []float64{1, -2, 3, 4}, 2, one, one, fairsched.ErrNegative},
			{"overflow", []float64{1, 2, 3, 4}, 2, []float64{1e308, 1}, []float64{1e-10, 1}, fairsched.ErrOutOfRange},
			{"partial step", []float64{1, 2, 3}, 2, one, one, fairsched.ErrLengthMismatch},
			{"no kind", []float64{1, 2, 3, 4}, 0, nil, nil, fairsched.ErrEmpty},
			{"no step", []float64{}, 2, one, one, fairsched.ErrEmpty},
			// The library wants kinds observed and predicted amounts.
			{"observed of another length", []float64{1, 2, 3, 4}, 2, []float64{1}, one, fairsched.ErrLengthMismatch},
			{"predicted of another length", []float64{1, 2, 3, 4}, 2, one, []float64{1, 1, 1}, fairsched.ErrLengthMismatch},
		} {
			given := slices.Clone(tc.remaining)
			if err := fairsched.DRRReprovision(tc.remaining, tc.kinds, tc.observed, tc.predicted); err != tc.want {
				t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
			}
			expect(t, tc.name+": remaining", fmt.Sprint(tc.remaining), fmt.Sprint(given))
		}
	})
}

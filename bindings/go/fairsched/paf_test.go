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
			_, err := p.Enforce([]uint32{1}, []uint32{}, make([]uint32, 2))
			return err
		}},
		{"enforce more jobs than the capacity", fairsched.ErrCapacityFull, func() error {
			_, err := p.Enforce([]uint32{1, 1, 1}, []uint32{0, 0, 0}, make([]uint32, 2))
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
			_, err := p.Enforce([]uint32{1}, []uint32{0}, make([]uint32, 1))
			return err
		},
	})
}

// Outputs may share memory with the inputs they are computed from: the result is that of
// separate slices holding the same values.
func TestPAFSharedMemory(t *testing.T) {
	p := newPAF(t, 3)
	targets, running := []uint32{4, 2, 6}, []uint32{1, 1, 3}
	want := make([]uint32, 3)
	n, err := p.Enforce(targets, running, want)
	must(t, err)
	expect(t, "separate", fmt.Sprint(want[:n]), "[0 0 1]")
	n, err = p.Enforce(targets, running, targets)
	must(t, err)
	expect(t, "over the targets", fmt.Sprint(targets[:n]), fmt.Sprint(want[:n]))

	curve := []float64{0, 0.1, 0.5, 0.6}
	envelope := make([]float64, len(curve))
	must(t, fairsched.PAFConcaveEnvelope(curve, envelope))
	must(t, fairsched.PAFConcaveEnvelope(curve, curve))
	expect(t, "envelope in place", fmt.Sprint(curve), fmt.Sprint(envelope))
}

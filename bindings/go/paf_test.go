package fairsched_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go"
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
	p, err := fairsched.NewPAF(3)
	must(t, err)
	defer p.Close()
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
	p, err := fairsched.NewPAF(2)
	must(t, err)
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
		{"fit too few", fairsched.ErrUnderdetermined, func() error {
			_, err := fairsched.ErnestFit([]uint32{1, 2, 4}, []float64{1, 0.7, 0.5})
			return err
		}},
		{"tabulate negative", fairsched.ErrNegative, func() error {
			return fairsched.ErnestTabulate([4]float64{1, -1, 0, 0}, make([]float64, 3))
		}},
		{"curve empty", fairsched.ErrEmpty, func() error {
			_, err := fairsched.CurveConcaveFrom(nil)
			return err
		}},
	} {
		if err := c.call(); err != c.err {
			t.Errorf("%s: got %v, want %v", c.name, err, c.err)
		}
	}
	out := []float64{7, 7, 7}
	if err := fairsched.ConcaveEnvelope([]float64{0, 1, 0.5}, out); err != fairsched.ErrNotMonotone || out[0] != 7 {
		t.Errorf("envelope of a decreasing curve: %v, %v", err, out)
	}
	if _, err := fairsched.NewPAF(0); err != fairsched.ErrNotPositive {
		t.Errorf("NewPAF(0): %v", err)
	}
	must(t, p.Close())
	if err := p.Close(); !errors.Is(err, fairsched.ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
	if _, err := p.Allocate([]uint32{1, 1}, curves, 3, 0.9, fairsched.PAFFast); err != fairsched.ErrClosed {
		t.Errorf("Allocate after Close: %v", err)
	}
}

package fairsched_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// pagerank10 is the PageRank job of ReB §4.2 in whole numbers, θ = 10: its JCT at 0, 10, ...,
// 60 cores, optimum 40, waiting without cores.
var pagerank10 = []float64{math.Inf(1), 170, 100, 84, 80, 82, 87}

// batchOf is a batch of n copies of table on totalCores cores in steps of theta.
func batchOf(totalCores, theta uint32, n int, table []float64) fairsched.HAIBatch {
	b := fairsched.HAIBatch{TotalCores: totalCores, Theta: theta}
	for range n {
		b.Caps = append(b.Caps, uint32(len(table)-1)*theta)
		b.JCT = append(b.JCT, table...)
	}
	return b
}

// ReB §4.2, Fig. 3, with θ = 1 (JCT 1600/a + a): the start leaves one of four jobs waiting;
// HAI gives all four 30 cores.
func TestHAIMicroBenchmark(t *testing.T) {
	table := []float64{math.Inf(1)}
	for a := 1.0; a <= 60; a++ {
		table = append(table, 1600/a+a)
	}
	h := newHAI(t, 4)
	b := batchOf(120, 1, 4, table)
	cores, jct := make([]uint32, 4), make([]float64, 4)

	start, err := h.ShortestJobOptimal(b, cores, jct)
	must(t, err)
	expect(t, "start", slices.Equal(cores, []uint32{40, 40, 40, 0}), true)
	expect(t, "waiting JCT", math.IsInf(jct[3], 1), true)
	expect(t, "start summary", start, fairsched.HAISummary{JCTSumStart: math.Inf(1), JCTSum: math.Inf(1)})

	summary, err := h.Allocate(b, cores, jct)
	must(t, err)
	a := 30.0 // a variable, so that the division rounds as the library's does
	each := 1600/a + a
	expect(t, "HAI", slices.Equal(cores, []uint32{30, 30, 30, 30}), true)
	expect(t, "HAI JCT", slices.Equal(jct, []float64{each, each, each, each}), true)
	expect(t, "HAI summary", summary,
		fairsched.HAISummary{JCTSumStart: math.Inf(1), JCTSum: each + each + each + each, Transfers: 30})
}

// A fifth job arrives at four jobs of 30 cores: it takes from jobs 0 and 1, in place.
func TestHAIRebalanceOnArrival(t *testing.T) {
	cores, jct := []uint32{30, 30, 30, 30, 0}, make([]float64, 5)
	summary, err := newHAI(t, 8).Rebalance(batchOf(120, 10, 5, pagerank10), cores, jct)
	must(t, err)
	expect(t, "cores", slices.Equal(cores, []uint32{20, 20, 30, 30, 20}), true)
	expect(t, "jct", slices.Equal(jct, []float64{100, 100, 84, 84, 100}), true)
	expect(t, "summary", summary, fairsched.HAISummary{JCTSumStart: math.Inf(1), JCTSum: 468, Transfers: 2})
}

// Every rejection returns its error and writes nothing: the cores (a rebalance's current
// allocation) unchanged, the JCTs untouched.
func TestHAIFailuresWriteNothing(t *testing.T) {
	two := batchOf(50, 10, 2, pagerank10)
	withJCT := func(at int, x float64) fairsched.HAIBatch {
		b := two
		b.JCT = slices.Clone(two.JCT)
		b.JCT[at] = x
		return b
	}
	cases := []struct {
		name   string
		method func(*fairsched.HAI, fairsched.HAIBatch, []uint32, []float64) (fairsched.HAISummary, error)
		batch  fairsched.HAIBatch
		cores  []uint32
		jctLen int
		want   error
	}{
		{"cores too short", (*fairsched.HAI).Allocate, two, []uint32{0}, 2, fairsched.ErrLengthMismatch},
		{"jct too long", (*fairsched.HAI).ShortestJobOptimal, two, []uint32{0, 0}, 3, fairsched.ErrLengthMismatch},
		{"theta 0", (*fairsched.HAI).Allocate, fairsched.HAIBatch{TotalCores: 50, Caps: two.Caps, JCT: two.JCT}, []uint32{0, 0}, 2, fairsched.ErrNotPositive},
		{"too many jobs", (*fairsched.HAI).Allocate, batchOf(50, 10, 3, pagerank10), []uint32{0, 0, 0}, 3, fairsched.ErrCapacityFull},
		{"NaN JCT", (*fairsched.HAI).Allocate, withJCT(9, math.NaN()), []uint32{0, 0}, 2, fairsched.ErrNotFinite},
		{"-Inf without cores", (*fairsched.HAI).Allocate, withJCT(7, math.Inf(-1)), []uint32{0, 0}, 2, fairsched.ErrNotFinite},
		{"negative JCT", (*fairsched.HAI).Rebalance, withJCT(9, -1), []uint32{0, 0}, 2, fairsched.ErrNotPositive},
		{"JCT above 2^60", (*fairsched.HAI).Allocate, withJCT(9, 0x1p61), []uint32{0, 0}, 2, fairsched.ErrOutOfRange},
		{"over capacity", (*fairsched.HAI).Rebalance, two, []uint32{30, 30}, 2, fairsched.ErrOutOfRange},
		{"above the cap", (*fairsched.HAI).Rebalance, two, []uint32{70, 0}, 2, fairsched.ErrOutOfRange},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cores := slices.Clone(c.cores)
			jct := slices.Repeat([]float64{-1}, c.jctLen)
			_, err := c.method(newHAI(t, 2), c.batch, cores, jct)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			expect(t, "cores", slices.Equal(cores, c.cores), true)
			expect(t, "jct", sameBits(jct, slices.Repeat([]float64{-1}, c.jctLen)), true)
		})
	}
}

// An empty batch needs no slice at all, and sums to +0.
func TestHAIEmptyBatch(t *testing.T) {
	summary, err := newHAI(t, 1).Allocate(fairsched.HAIBatch{TotalCores: 1, Theta: 1}, nil, nil)
	must(t, err)
	expect(t, "summary", summary, fairsched.HAISummary{})
	expect(t, "sign", math.Signbit(summary.JCTSum), false)
}

// Close frees the workspace once; every call after it returns ErrClosed.
func TestHAIClose(t *testing.T) {
	h := newHAI(t, 2)
	must(t, h.Close())
	b, cores, jct := batchOf(50, 10, 2, pagerank10), make([]uint32, 2), make([]float64, 2)
	expectClosed(t, map[string]func() error{
		"Close": h.Close,
		"ShortestJobOptimal": func() error {
			_, err := h.ShortestJobOptimal(b, cores, jct)
			return err
		},
		"Allocate": func() error {
			_, err := h.Allocate(b, cores, jct)
			return err
		},
		"Rebalance": func() error {
			_, err := h.Rebalance(b, cores, jct)
			return err
		},
	})
}

// A decision allocates nothing on the Go side.
func TestHAIAllocatesNothing(t *testing.T) {
	h := newHAI(t, 8)
	b := batchOf(120, 10, 5, pagerank10)
	cores, jct := make([]uint32, 5), make([]float64, 5)
	allocations := testing.AllocsPerRun(100, func() {
		if _, err := h.Allocate(b, cores, jct); err != nil {
			t.Fatal(err)
		}
	})
	expect(t, "allocations per call", allocations, 0.0)
}

// The slices a call writes may share memory with the batch it reads: the result is that of
// separate slices holding the same values.
func TestHAISharedMemory(t *testing.T) {
	h := newHAI(t, 4)
	separate := batchOf(120, 10, 4, pagerank10)
	wantCores, wantJCT := make([]uint32, 4), make([]float64, 4)
	want, err := h.Allocate(separate, wantCores, wantJCT)
	must(t, err)

	// The caps are the cores, and the JCT output is the first values of the tables.
	shared := batchOf(120, 10, 4, pagerank10)
	cores, jct := shared.Caps, shared.JCT[:4]
	got, err := h.Allocate(shared, cores, jct)
	must(t, err)
	expect(t, "summary", got, want)
	expect(t, "cores", fmt.Sprint(cores), fmt.Sprint(wantCores))
	expect(t, "jct", fmt.Sprint(jct), fmt.Sprint(wantJCT))
}

// ReB's predicted differences rebuild the PageRank table of §4.2; a rejection writes nothing.
func TestHAITableFromDifferences(t *testing.T) {
	differences := []float64{70, 16, 4, -2, -5}
	table := make([]float64, 7)
	must(t, fairsched.HAITableFromDifferences(10, 40, 80, differences, table))
	expect(t, "table", sameBits(table, pagerank10), true)
	untouched := slices.Repeat([]float64{-1}, 7)
	failed := slices.Clone(untouched)
	err := fairsched.HAITableFromDifferences(10, 45, 80, differences, failed)
	if !errors.Is(err, fairsched.ErrOutOfRange) {
		t.Fatalf("got %v, want %v", err, fairsched.ErrOutOfRange)
	}
	expect(t, "table after a failed call", sameBits(failed, untouched), true)
}

// Ernest's model fitted to runs of 20 + a/2 + 400/a gives back its coefficients and table.
func TestHAITableFromSamples(t *testing.T) {
	cores := []uint32{1, 2, 4, 8, 16, 32, 64}
	jct := make([]float64, len(cores))
	for i, a := range cores {
		jct[i] = 20 + float64(a)/2 + 400/float64(a)
	}
	table := make([]float64, 41)
	a, err := fairsched.HAITableFromSamples(2, cores, jct, table)
	must(t, err)
	for i, want := range [4]float64{20, 0.5, 400, 0} {
		if math.Abs(a[i]-want) > 1e-7 {
			t.Errorf("a%d: got %v, want %v", i, a[i], want)
		}
	}
	expect(t, "JCT(0)", table[0], math.Inf(1))
	for k := 1; k < len(table); k++ {
		want := 20 + float64(k) + 400/float64(2*k)
		if math.Abs(table[k]-want) > 1e-9*want {
			t.Errorf("JCT(%d): got %v, want %v", 2*k, table[k], want)
		}
	}
	failed := []float64{-1, -1}
	if _, err := fairsched.HAITableFromSamples(1, cores[:3], jct[:3], failed); !errors.Is(err, fairsched.ErrUnderdetermined) {
		t.Fatalf("got %v, want %v", err, fairsched.ErrUnderdetermined)
	}
	expect(t, "table after a failed call", sameBits(failed, []float64{-1, -1}), true)
}

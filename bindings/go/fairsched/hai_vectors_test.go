package fairsched_test

import (
	"slices"
	"strings"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

type haiCase struct {
	caseHeader
	Method    string
	MaxJobs   uint32 `json:"max_jobs"`
	Capacity  uint32
	Theta     uint32
	Caps      []uint32
	JCT       []number `json:"jct"`
	Cores     []uint32 // nil: one 0 per job
	JCTOutLen *int     `json:"jct_out_len"`
	// The table cases (table_from_differences, table_from_samples).
	Reference      uint32
	JCTAtReference number `json:"jct_at_reference"`
	Differences    []number
	SampleCores    []uint32 `json:"sample_cores"`
	SampleJCT      []number `json:"sample_jct"`
	TableLen       int      `json:"table_len"`
	Expect         struct {
		Cores        []uint32
		JCT          []number `json:"jct"`
		JCTSumStart  number   `json:"jct_sum_start"`
		JCTSum       number   `json:"jct_sum"`
		Transfers    uint32
		Table        []number
		Coefficients []number
	}
}

// TestHAIVectors runs the shared HAI vectors (hai.json; format in
// ../../../tests/vectors/README.md), one subtest per case.
func TestHAIVectors(t *testing.T) {
	runCases(t, "hai.json", 1, runHAICase)
}

// runHAICase builds the case's workspace and makes its call: it checks the outputs when the
// call succeeds, and that it wrote nothing when it fails. Floats compare bit for bit. A case
// whose workspace cannot be built fails with NewHAI's error.
func runHAICase(t *testing.T, c haiCase) error {
	if strings.HasPrefix(c.Method, "table_from_") {
		return runHAITableCase(t, c)
	}
	h, err := fairsched.NewHAI(c.MaxJobs)
	if err != nil {
		return err
	}
	defer h.Close()
	n := len(c.Caps)
	given := c.Cores
	if given == nil {
		given = make([]uint32, n)
	}
	jctLen := n
	if c.JCTOutLen != nil {
		jctLen = *c.JCTOutLen
	}
	untouched := slices.Repeat([]float64{-1}, jctLen)
	cores, jct := slices.Clone(given), slices.Clone(untouched)
	batch := fairsched.HAIBatch{TotalCores: c.Capacity, Theta: c.Theta, Caps: c.Caps, JCT: floats(c.JCT)}
	methods := map[string]func(fairsched.HAIBatch, []uint32, []float64) (fairsched.HAISummary, error){
		"shortest_job_optimal": h.ShortestJobOptimal,
		"allocate":             h.Allocate,
		"rebalance":            h.Rebalance,
	}
	method, known := methods[c.Method]
	if !known {
		t.Fatalf("unknown method %q", c.Method)
	}
	summary, err := method(batch, cores, jct)
	if err != nil {
		expect(t, "cores after a failed call", slices.Equal(cores, given), true)
		expect(t, "JCTs after a failed call", sameBits(jct, untouched), true)
		return err
	}
	expect(t, "cores", slices.Equal(cores, c.Expect.Cores), true)
	expect(t, "jct", sameBits(jct, floats(c.Expect.JCT)), true)
	sums := []float64{summary.JCTSumStart, summary.JCTSum}
	expect(t, "sums", sameBits(sums, floats([]number{c.Expect.JCTSumStart, c.Expect.JCTSum})), true)
	expect(t, "transfers", summary.Transfers, c.Expect.Transfers)
	return nil
}

// runHAITableCase builds one job's table (table_from_differences, table_from_samples): it
// checks the table, and a fit's coefficients, when the call succeeds, and that it wrote no table
// when it fails.
func runHAITableCase(t *testing.T, c haiCase) error {
	untouched := slices.Repeat([]float64{-1}, c.TableLen)
	table := slices.Clone(untouched)
	var coefficients [4]float64
	var err error
	switch c.Method {
	case "table_from_differences":
		err = fairsched.HAITableFromDifferences(c.Theta, c.Reference, float64(c.JCTAtReference),
			floats(c.Differences), table)
	case "table_from_samples":
		coefficients, err = fairsched.HAITableFromSamples(c.Theta, c.SampleCores, floats(c.SampleJCT), table)
	default:
		t.Fatalf("unknown method %q", c.Method)
	}
	if err != nil {
		expect(t, "table after a failed call", sameBits(table, untouched), true)
		return err
	}
	expect(t, "table", sameBits(table, floats(c.Expect.Table)), true)
	if c.Expect.Coefficients != nil {
		expect(t, "coefficients", sameBits(coefficients[:], floats(c.Expect.Coefficients)), true)
	}
	return nil
}

package fairsched_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// The shared test vectors; their format is in ../../../tests/vectors/README.md.
const vectorsDir = "../../../tests/vectors/"

// readVectors returns the cases of the vector file name.
func readVectors[C any](t *testing.T, name string) []C {
	t.Helper()
	data, err := os.ReadFile(vectorsDir + name)
	must(t, err)
	var vectors struct{ Cases []C }
	must(t, json.Unmarshal(data, &vectors))
	if len(vectors.Cases) == 0 {
		t.Fatalf("no case in %s", name)
	}
	return vectors.Cases
}

// stepHeader is what every step of every vector file has.
type stepHeader struct {
	Op     string
	Status string // the expected error's name; empty for "ok"
}

func (h stepHeader) header() stepHeader { return h }

// runSteps runs the steps in order, each as a subtest, and stops at the first that fails (the
// later ones would run on a state the case did not mean). call makes a step's call, checks its
// expectations when it succeeds, and returns its error: it must be the one the step expects,
// and a step expected to fail must leave state as it was.
func runSteps[S interface{ header() stepHeader }, T comparable](t *testing.T, steps []S,
	state func(t *testing.T) T, call func(t *testing.T, s S) error) {
	for i, s := range steps {
		h := s.header()
		if !t.Run(fmt.Sprintf("%02d_%s", i, h.Op), func(t *testing.T) {
			want := expectedError(t, h.Status)
			before := state(t)
			if err := call(t, s); err != want {
				t.Fatalf("got error %v, want %v", err, want)
			}
			if after := state(t); want != nil && after != before {
				t.Errorf("a failed call changed the state from %+v to %+v", before, after)
			}
		}) {
			return
		}
	}
}

// caseHeader is what every case of the vector files of one call a case (drr.json, hai.json,
// paf.json) has.
type caseHeader struct {
	Name   string
	Status string // the expected error's name; empty for "ok"
}

func (h caseHeader) header() caseHeader { return h }

// runCases runs the cases of the vector file name, at least least of them, each as a subtest:
// run makes the case's call, checks its outputs when it succeeds (and that it wrote none when
// it fails), and returns its error, which must be the one the case expects.
func runCases[C interface{ header() caseHeader }](t *testing.T, name string, least int,
	run func(t *testing.T, c C) error) {
	cases := readVectors[C](t, name)
	if len(cases) < least {
		t.Fatalf("only %d cases in %s", len(cases), name)
	}
	for _, c := range cases {
		h := c.header()
		t.Run(h.Name, func(t *testing.T) {
			want := expectedError(t, h.Status)
			if err := run(t, c); err != want {
				t.Fatalf("got error %v, want %v", err, want)
			}
		})
	}
}

type vectorCase struct {
	Name       string
	Capacity   uint32
	Slots      uint32
	StartTime  number `json:"start_time"`
	InitStatus string `json:"init_status"`
	Steps      []step
}

type step struct {
	stepHeader
	Now       number
	ID        id
	IDs       []id
	SlotTime  number `json:"slot_time"`
	Weight    uint32
	Slots     uint32
	Pending   json.RawMessage // a count, or a list of them for set_pending_batch
	Duration  *number         // profiler_observe of one duration
	Durations []number        // profiler_observe of a batch
	Tasks     id
	ExpectIDs []id            `json:"expect_ids"`
	ExpectID  *id             `json:"expect_id"`
	Expect    json.RawMessage // a number, or an object of fields to compare
}

// number is a float: a JSON number or one of "nan", "inf", "-inf".
type number float64

func (n *number) UnmarshalJSON(text []byte) error {
	x, err := strconv.ParseFloat(unquote(text), 64)
	*n = number(x)
	return err
}

// id is a job id: a JSON number below 2^53 or a decimal string.
type id uint64

func (i *id) UnmarshalJSON(text []byte) error {
	x, err := strconv.ParseUint(unquote(text), 10, 64)
	*i = id(x)
	return err
}

// unquote returns the text of a JSON number, or of a JSON string without its quotes.
func unquote(text []byte) string {
	return strings.Trim(string(text), `"`)
}

func floats(numbers []number) []float64 {
	out := make([]float64, len(numbers))
	for i, x := range numbers {
		out[i] = float64(x)
	}
	return out
}

func uint64s(ids []id) []uint64 {
	out := make([]uint64, len(ids))
	for i, x := range ids {
		out[i] = uint64(x)
	}
	return out
}

// statusErrors maps the vectors' status names to the errors expected.
var statusErrors = map[string]error{
	"":                    nil, // the default: "ok"
	"ok":                  nil,
	"not_finite":          fairsched.ErrNotFinite,
	"not_positive":        fairsched.ErrNotPositive,
	"unknown_id":          fairsched.ErrUnknownID,
	"duplicate_id":        fairsched.ErrDuplicateID,
	"time_went_backwards": fairsched.ErrTimeWentBackwards,
	"capacity_full":       fairsched.ErrCapacityFull,
	"capacity_too_large":  fairsched.ErrCapacityTooLarge,
	"out_of_range":        fairsched.ErrOutOfRange,
	"job_completed":       fairsched.ErrJobCompleted,
	"length_mismatch":     fairsched.ErrLengthMismatch,
	"buffer_too_small":    fairsched.ErrBufferTooSmall,
	"negative":            fairsched.ErrNegative,
	"empty":               fairsched.ErrEmpty,
	"not_monotone":        fairsched.ErrNotMonotone,
	"underdetermined":     fairsched.ErrUnderdetermined,
	"does_not_fit":        fairsched.ErrDoesNotFit,
}

func expectedError(t *testing.T, status string) error {
	t.Helper()
	err, known := statusErrors[status]
	if !known {
		t.Fatalf("unknown status %q", status)
	}
	return err
}

func TestVectors(t *testing.T) {
	for _, vc := range readVectors[vectorCase](t, "cfq.json") {
		t.Run(vc.Name, func(t *testing.T) { runCase(t, vc) })
	}
}

// caseState is what a failed step must leave as it was: the scheduler's stats and the whole
// profiler.
type caseState struct {
	Stats    fairsched.CFQStats
	Profiler fairsched.CFQProfiler
}

// runCase builds the case's scheduler and profiler, then runs its steps; a failed one must
// leave the stats and the profiler unchanged.
func runCase(t *testing.T, vc vectorCase) {
	c, err := fairsched.NewCFQ(vc.Capacity, vc.Slots, float64(vc.StartTime))
	if want := expectedError(t, vc.InitStatus); err != want {
		t.Fatalf("NewCFQ: got error %v, want %v", err, want)
	}
	if err != nil {
		return
	}
	defer c.Close()
	p := fairsched.NewCFQProfiler()
	runSteps(t, vc.Steps,
		func(t *testing.T) caseState { return caseState{stats(t, c), *p} },
		func(t *testing.T, s step) error { return call(t, c, p, s) })
}

// call makes the step's call, checks its expectations when it succeeds, and returns its error.
func call(t *testing.T, c *fairsched.CFQ, p *fairsched.CFQProfiler, s step) error {
	switch s.Op {
	case "advance":
		return c.Advance(float64(s.Now))
	case "reprofile":
		return c.Reprofile(float64(s.Now), uint64(s.ID), float64(s.SlotTime))
	case "profiler_observe":
		if s.Duration != nil {
			return p.Observe(float64(*s.Duration))
		}
		return p.ObserveBatch(floats(s.Durations))
	case "profiler_estimate":
		estimate, err := p.Estimate(uint64(s.Tasks))
		return expectNumber(t, "estimate", estimate, err, s.Expect)
	case "set_slots":
		return c.SetSlots(float64(s.Now), s.Slots)
	case "arrive":
		return c.Arrive(float64(s.Now), uint64(s.ID), float64(s.SlotTime), s.Weight)
	case "set_pending":
		var pending uint32
		must(t, json.Unmarshal(s.Pending, &pending))
		return c.SetPending(uint64(s.ID), pending)
	case "set_pending_batch":
		var pending []uint32
		must(t, json.Unmarshal(s.Pending, &pending))
		return c.SetPendingBatch(uint64s(s.IDs), pending)
	case "offer":
		out := make([]uint64, s.Slots)
		n, err := c.Offer(out)
		if err == nil && !slices.Equal(out[:n], uint64s(s.ExpectIDs)) {
			t.Errorf("offer gave %v, want %v", out[:n], s.ExpectIDs)
		}
		return err
	case "peek":
		next, found, err := c.Peek()
		return expectFound(t, "peek", next, found, err, s.ExpectID)
	case "complete":
		return c.Complete(float64(s.Now), uint64(s.ID))
	case "remove":
		return c.Remove(float64(s.Now), uint64(s.ID))
	case "job":
		info, err := c.Job(uint64(s.ID))
		return expectFieldsOf(t, s.Expect, info, err)
	case "gps_estimate":
		estimate, err := c.GPSCompletionEstimate(uint64(s.ID))
		return expectNumber(t, "GPS completion estimate", estimate, err, s.Expect)
	case "stats":
		st, err := c.Stats()
		return expectFieldsOf(t, s.Expect, st, err)
	}
	t.Fatalf("unknown op %q", s.Op)
	return nil
}

// expectNumber checks the number a call returned, when it succeeded (err is nil), against the
// step's expect, bit for bit; it returns err.
func expectNumber(t *testing.T, what string, got float64, err error, expect json.RawMessage) error {
	t.Helper()
	if err == nil {
		if got, want := render(got), renderJSON(t, expect); got != want {
			t.Errorf("%s %s, want %s", what, got, want)
		}
	}
	return err
}

// expectFound checks the id a call found (Peek, Next), when it succeeded (err is nil), against
// the step's expect_id, absent when the call must find nothing; it returns err.
func expectFound(t *testing.T, what string, next uint64, found bool, err error, want *id) error {
	t.Helper()
	if err == nil && (found != (want != nil) || found && next != uint64(*want)) {
		got, expected := "nothing", "nothing"
		if found {
			got = fmt.Sprint(next)
		}
		if want != nil {
			expected = fmt.Sprint(*want)
		}
		t.Errorf("%s found %s, want %s", what, got, expected)
	}
	return err
}

func stats(t *testing.T, c *fairsched.CFQ) fairsched.CFQStats {
	t.Helper()
	st, err := c.Stats()
	must(t, err)
	return st
}

// expectFields compares each field of the JSON object expect, if any, with the value of that
// name.
func expectFields(t *testing.T, expect json.RawMessage, values map[string]any) {
	t.Helper()
	if expect == nil {
		return
	}
	var fields map[string]json.RawMessage
	must(t, json.Unmarshal(expect, &fields))
	for name, want := range fields {
		value, known := values[name]
		if !known {
			t.Errorf("unknown field %q", name)
		} else if got, want := render(value), renderJSON(t, want); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}

// expectFieldsOf compares, when a call succeeded (err is nil), the struct it returned with the
// fields of the JSON object expect, as expectFields does; it returns err.
func expectFieldsOf(t *testing.T, expect json.RawMessage, value any, err error) error {
	t.Helper()
	if err == nil {
		expectFields(t, expect, fieldsOf(value))
	}
	return err
}

// fieldsOf returns the fields of the struct v by their names in the vectors, which are the Go
// names in snake case (VirtualFinish is virtual_finish, GPSCompletion gps_completion); the
// fields of a struct-valued field (QKnoblerAllocation.Summary) count as v's own.
func fieldsOf(v any) map[string]any {
	fields := map[string]any{}
	value := reflect.ValueOf(v)
	for i := range value.NumField() {
		field := value.Field(i)
		if field.Kind() == reflect.Struct {
			maps.Copy(fields, fieldsOf(field.Interface()))
		} else {
			fields[snakeCase(value.Type().Field(i).Name)] = field.Interface()
		}
	}
	return fields
}

// snakeCase writes a Go name in snake case: a word starts at an upper-case letter after a
// lower-case one, or at the last upper-case letter of an initialism followed by a lower-case
// one (JCTSum is jct_sum).
func snakeCase(name string) string {
	letters := []rune(name)
	var b strings.Builder
	for i, r := range letters {
		lowerBefore := i > 0 && unicode.IsLower(letters[i-1])
		lowerAfter := i > 0 && i+1 < len(letters) && unicode.IsLower(letters[i+1])
		if unicode.IsUpper(r) && (lowerBefore || lowerAfter) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// render writes a value so that two values are equal exactly when their renderings are:
// floats in shortest round-trip form (so bit for bit), counts as floats, slices element by
// element, nil as null. It renders expected JSON values too: arrays, and the strings "nan",
// "inf" and "-inf" as the floats they name.
func render(value any) string {
	switch v := value.(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case uint32:
		return render(float64(v))
	case uint64:
		return render(float64(v))
	case bool:
		return strconv.FormatBool(v)
	case *float64:
		if v != nil {
			return render(*v)
		}
	case string:
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			return render(x)
		}
		return strconv.Quote(v)
	case []float64:
		return renderSlice(v)
	case []uint64:
		return renderSlice(v)
	case []uint32:
		return renderSlice(v)
	case []bool:
		return renderSlice(v)
	case []any:
		return renderSlice(v)
	}
	return "null"
}

func renderSlice[E any](s []E) string {
	rendered := make([]string, len(s))
	for i, x := range s {
		rendered[i] = render(x)
	}
	return "[" + strings.Join(rendered, " ") + "]"
}

// renderJSON renders an expected JSON value as render renders the value compared with it.
func renderJSON(t *testing.T, expected json.RawMessage) string {
	t.Helper()
	var v any
	must(t, json.Unmarshal(expected, &v))
	return render(v)
}

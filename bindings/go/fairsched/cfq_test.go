package fairsched_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

func TestPaperExample(t *testing.T) {
	c := newCFQ(t, 8, 3, 0)

	// t = 0: jobs 1 (one task) and 2 (four tasks) arrive and fill the three slots.
	must(t, c.Arrive(0, 1, 9, 1))
	must(t, c.Arrive(0, 2, 16, 1))
	must(t, c.SetPending(1, 1))
	must(t, c.SetPending(2, 4))
	expect(t, "job 1 virtual finish", job(t, c, 1).VirtualFinish, 9)
	expect(t, "job 2 virtual finish", job(t, c, 2).VirtualFinish, 16)
	expect(t, "offer 3", offer(t, c, 3), "[1 2 2]")

	// t = 4: job 3 (two tasks) arrives and takes the two slots that free.
	must(t, c.Arrive(4, 3, 8, 1))
	must(t, c.SetPending(3, 2))
	expect(t, "job 3 virtual finish", job(t, c, 3).VirtualFinish, 14)
	expect(t, "offer 2", offer(t, c, 2), "[3 3]")

	// t = 8: job 3 completes; GPS completed job 1 at 7.
	must(t, c.Complete(8, 3))
	expect(t, "job 1 GPS completion", orNaN(job(t, c, 1).GPSCompletion), 7)
	estimate, err := c.GPSCompletionEstimate(3)
	must(t, err)
	expect(t, "job 3 GPS estimate", estimate, 31.0/3)
	expect(t, "offer 2", offer(t, c, 2), "[2 2]")
	must(t, c.Complete(9, 1))
	must(t, c.Complete(12, 2))

	// Each job's real (CFQ) and GPS completion, exactly.
	for _, want := range []struct {
		id                    uint64
		completion, gpsFinish float64
	}{{1, 9, 7}, {2, 12, 11}, {3, 8, 10.333333333333334}} {
		j := job(t, c, want.id)
		expect(t, fmt.Sprintf("job %d completion", want.id), orNaN(j.Completion), want.completion)
		expect(t, fmt.Sprintf("job %d GPS completion", want.id), orNaN(j.GPSCompletion), want.gpsFinish)
	}
}

// TestDelayBound: Theorem 1's bound on the paper's example (longest task 9, largest slot-time
// 16, 3 slots), and its refusals.
func TestDelayBound(t *testing.T) {
	bound, err := fairsched.CFQDelayBound(9, 16, 3)
	if err != nil || bound != 2*9.0+16.0/3 {
		t.Errorf("CFQDelayBound(9, 16, 3) = %v, %v", bound, err)
	}
	for _, c := range []struct {
		longestTask, largestSlotTime float64
		slots                        uint32
		want                         error
	}{
		{math.NaN(), 16, 3, fairsched.ErrNotFinite},
		{0, 16, 3, fairsched.ErrNotPositive},
		{17, 16, 3, fairsched.ErrOutOfRange},
		{9, 16, 0, fairsched.ErrNotPositive},
	} {
		if _, err := fairsched.CFQDelayBound(c.longestTask, c.largestSlotTime, c.slots); !errors.Is(err, c.want) {
			t.Errorf("CFQDelayBound(%v, %v, %v): got %v, want %v", c.longestTask, c.largestSlotTime, c.slots, err, c.want)
		}
	}
}

func TestNewCFQRejectsBadConfigurations(t *testing.T) {
	for _, tc := range []struct {
		capacity, slots uint32
		start           float64
		want            error
	}{
		{1, 0, 0, fairsched.ErrNotPositive},
		{1, 1, math.NaN(), fairsched.ErrNotFinite},
		{1, 1, math.Inf(-1), fairsched.ErrNotFinite},
		{1, 1, 0x1p61, fairsched.ErrOutOfRange},
	} {
		if c, err := fairsched.NewCFQ(tc.capacity, tc.slots, tc.start); c != nil || err != tc.want {
			t.Errorf("NewCFQ(%d, %d, %v) = %v, %v; want nil, %v",
				tc.capacity, tc.slots, tc.start, c, err, tc.want)
		}
	}
}

// The fixture the failure tests run against: capacity 3, two slots, clock at 11; one job
// running with 2 pending tasks, one completed at 11, one free row.
const (
	runningJob   = 1
	completedJob = 2
	unknownJob   = 3
)

func newFixture(t *testing.T) *fairsched.CFQ {
	t.Helper()
	c := newCFQ(t, 3, 2, 10)
	must(t, c.Arrive(10, runningJob, 5, 1))
	must(t, c.SetPending(runningJob, 2))
	must(t, c.Arrive(10, completedJob, 4, 2))
	must(t, c.Complete(11, completedJob))
	return c
}

func TestFailedCallsChangeNothing(t *testing.T) {
	type failure struct {
		name string
		want error
		call func(c *fairsched.CFQ) error
	}
	failures := []failure{
		{"SetSlots zero", fairsched.ErrNotPositive, func(c *fairsched.CFQ) error {
			return c.SetSlots(12, 0)
		}},
		{"Arrive NaN slot-time", fairsched.ErrNotFinite, arrival(math.NaN(), 1)},
		{"Arrive infinite slot-time", fairsched.ErrNotFinite, arrival(math.Inf(1), 1)},
		{"Arrive zero slot-time", fairsched.ErrNotPositive, arrival(0, 1)},
		{"Arrive negative zero slot-time", fairsched.ErrNotPositive, arrival(math.Copysign(0, -1), 1)},
		{"Arrive negative slot-time", fairsched.ErrNotPositive, arrival(-1, 1)},
		{"Arrive huge slot-time", fairsched.ErrOutOfRange, arrival(0x1p61, 1)},
		{"Arrive zero weight", fairsched.ErrNotPositive, arrival(1, 0)},
		{"Arrive running id", fairsched.ErrDuplicateID, func(c *fairsched.CFQ) error {
			return c.Arrive(12, runningJob, 1, 1)
		}},
		{"Arrive completed id", fairsched.ErrDuplicateID, func(c *fairsched.CFQ) error {
			return c.Arrive(12, completedJob, 1, 1)
		}},
		{"SetPending unknown", fairsched.ErrUnknownID, func(c *fairsched.CFQ) error {
			return c.SetPending(unknownJob, 1)
		}},
		{"SetPending completed", fairsched.ErrJobCompleted, func(c *fairsched.CFQ) error {
			return c.SetPending(completedJob, 1)
		}},
		{"SetPendingBatch unknown", fairsched.ErrUnknownID,
			batch([]uint64{runningJob, unknownJob}, []uint32{7, 7})},
		{"SetPendingBatch completed", fairsched.ErrJobCompleted,
			batch([]uint64{runningJob, completedJob}, []uint32{7, 7})},
		{"SetPendingBatch lengths", fairsched.ErrLengthMismatch,
			batch([]uint64{runningJob}, []uint32{7, 7})},
		{"SetPendingBatch no ids", fairsched.ErrLengthMismatch, batch(nil, []uint32{7})},
		{"Complete unknown", fairsched.ErrUnknownID, func(c *fairsched.CFQ) error {
			return c.Complete(12, unknownJob)
		}},
		{"Complete completed", fairsched.ErrJobCompleted, func(c *fairsched.CFQ) error {
			return c.Complete(12, completedJob)
		}},
		{"Remove unknown", fairsched.ErrUnknownID, func(c *fairsched.CFQ) error {
			return c.Remove(12, unknownJob)
		}},
		{"Job unknown", fairsched.ErrUnknownID, func(c *fairsched.CFQ) error {
			_, err := c.Job(unknownJob)
			return err
		}},
		{"GPSCompletionEstimate unknown", fairsched.ErrUnknownID, func(c *fairsched.CFQ) error {
			_, err := c.GPSCompletionEstimate(unknownJob)
			return err
		}},
		{"Reprofile unknown", fairsched.ErrUnknownID, func(c *fairsched.CFQ) error {
			return c.Reprofile(12, unknownJob, 1)
		}},
		{"Reprofile completed", fairsched.ErrJobCompleted, func(c *fairsched.CFQ) error {
			return c.Reprofile(12, completedJob, 1)
		}},
	}
	// A re-profile checks its slot-time as an arrival does.
	for _, bad := range []struct {
		slotTime float64
		want     error
	}{
		{math.NaN(), fairsched.ErrNotFinite},
		{math.Inf(1), fairsched.ErrNotFinite},
		{0, fairsched.ErrNotPositive},
		{-1, fairsched.ErrNotPositive},
		{0x1p61, fairsched.ErrOutOfRange},
	} {
		failures = append(failures, failure{
			name: fmt.Sprintf("Reprofile slot-time %v", bad.slotTime),
			want: bad.want,
			call: func(c *fairsched.CFQ) error { return c.Reprofile(12, runningJob, bad.slotTime) },
		})
	}

	// Every method that takes a time rejects the same bad times the same way.
	timed := []struct {
		name string
		call func(c *fairsched.CFQ, now float64) error
	}{
		{"Advance", func(c *fairsched.CFQ, now float64) error { return c.Advance(now) }},
		{"SetSlots", func(c *fairsched.CFQ, now float64) error { return c.SetSlots(now, 3) }},
		{"Arrive", func(c *fairsched.CFQ, now float64) error { return c.Arrive(now, unknownJob, 1, 1) }},
		{"Complete", func(c *fairsched.CFQ, now float64) error { return c.Complete(now, runningJob) }},
		{"Remove", func(c *fairsched.CFQ, now float64) error { return c.Remove(now, runningJob) }},
		{"Reprofile", func(c *fairsched.CFQ, now float64) error { return c.Reprofile(now, runningJob, 1) }},
	}
	badTimes := []struct {
		now  float64
		want error
	}{
		{math.NaN(), fairsched.ErrNotFinite},
		{math.Inf(1), fairsched.ErrNotFinite},
		{math.Inf(-1), fairsched.ErrNotFinite},
		{10.5, fairsched.ErrTimeWentBackwards},
		{0x1p61, fairsched.ErrOutOfRange},
	}
	for _, method := range timed {
		for _, bad := range badTimes {
			failures = append(failures, failure{
				name: fmt.Sprintf("%s at %v", method.name, bad.now),
				want: bad.want,
				call: func(c *fairsched.CFQ) error { return method.call(c, bad.now) },
			})
		}
	}

	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			c := newFixture(t)
			expectFailure(t, c, f.want, func() error { return f.call(c) })
		})
	}
}

// arrival is an arrival of a new job at 12 with the given slot-time and weight.
func arrival(slotTime float64, weight uint32) func(c *fairsched.CFQ) error {
	return func(c *fairsched.CFQ) error { return c.Arrive(12, unknownJob, slotTime, weight) }
}

// batch is a SetPendingBatch call.
func batch(ids []uint64, pending []uint32) func(c *fairsched.CFQ) error {
	return func(c *fairsched.CFQ) error { return c.SetPendingBatch(ids, pending) }
}

func TestCapacityFull(t *testing.T) {
	c := newFixture(t)
	must(t, c.Arrive(12, unknownJob, 1, 1))
	expectFailure(t, c, fairsched.ErrCapacityFull, func() error {
		return c.Arrive(12, unknownJob+1, 1, 1)
	})
}

// Calls with nothing to do succeed and change nothing.
func TestEmptyCalls(t *testing.T) {
	c := newFixture(t)
	before := snapshot(t, c)
	n, err := c.Offer(nil)
	must(t, err)
	expect(t, "slots given", n, 0)
	must(t, c.SetPendingBatch(nil, nil))
	expect(t, "state", snapshot(t, c), before)

	must(t, c.SetPending(runningJob, 0))
	id, ok, err := c.Peek()
	must(t, err)
	expect(t, "peek on an empty backlog", fmt.Sprint(id, ok), "0 false")
	expect(t, "offer on an empty backlog", offer(t, c, 2), "[]")
}

func TestClose(t *testing.T) {
	c := newFixture(t)
	must(t, c.Close())
	expectClosed(t, map[string]func() error{
		"Close":           c.Close,
		"Advance":         func() error { return c.Advance(12) },
		"SetSlots":        func() error { return c.SetSlots(12, 1) },
		"Arrive":          func() error { return c.Arrive(12, unknownJob, 1, 1) },
		"Reprofile":       func() error { return c.Reprofile(12, runningJob, 1) },
		"SetPending":      func() error { return c.SetPending(runningJob, 1) },
		"SetPendingBatch": func() error { return c.SetPendingBatch(nil, nil) },
		"Offer":           func() error { _, err := c.Offer(make([]uint64, 1)); return err },
		"Peek":            func() error { _, _, err := c.Peek(); return err },
		"Complete":        func() error { return c.Complete(12, runningJob) },
		"Remove":          func() error { return c.Remove(12, runningJob) },
		"Job":             func() error { _, err := c.Job(runningJob); return err },
		"GPSCompletionEstimate": func() error {
			_, err := c.GPSCompletionEstimate(runningJob)
			return err
		},
		"Stats": func() error { _, err := c.Stats(); return err },
	})
}

// A job profiled at 20 s instead of 9 and corrected at once: the paper's schedule; a
// correction below the virtual time ends the job in GPS at once, and it is refused after.
func TestReprofile(t *testing.T) {
	c := newCFQ(t, 8, 3, 0)
	must(t, c.Arrive(0, 1, 20, 1))
	must(t, c.Arrive(0, 2, 16, 1))
	must(t, c.SetPendingBatch([]uint64{1, 2}, []uint32{1, 4}))
	must(t, c.Reprofile(0, 1, 9))
	expect(t, "job 1 slot-time", job(t, c, 1).SlotTime, 9)
	expect(t, "job 1 virtual finish", job(t, c, 1).VirtualFinish, 9)
	expect(t, "offer 3", offer(t, c, 3), "[1 2 2]")
	must(t, c.Arrive(4, 3, 8, 1))
	must(t, c.Reprofile(5, 2, 1)) // V(5) = 7 >= 1: job 2 leaves GPS at 5
	expect(t, "job 2 GPS completion", orNaN(job(t, c, 2).GPSCompletion), 5)
	// Out of GPS, a correction only moves its backlog key (F + (L' - L) / w = 1 + 15).
	must(t, c.Reprofile(6, 2, 16))
	expect(t, "job 2 virtual finish", job(t, c, 2).VirtualFinish, 16)
	expect(t, "job 2 GPS completion, standing", orNaN(job(t, c, 2).GPSCompletion), 5)
	must(t, c.Advance(12))
	// Jobs 1 and 3 share the 3 slots from 5 on: V reaches job 1's 9 at 5 + 2·2/3.
	expect(t, "job 1 GPS completion", orNaN(job(t, c, 1).GPSCompletion), 5+4.0/3)
}

func TestCFQProfiler(t *testing.T) {
	var zero fairsched.CFQProfiler
	p := fairsched.NewCFQProfiler()
	expect(t, "a new profiler is the zero value", *p, zero)
	if _, err := p.Estimate(3); err != fairsched.ErrEmpty {
		t.Errorf("estimate before any observation: got %v, want ErrEmpty", err)
	}
	must(t, p.ObserveBatch(nil))
	must(t, p.Observe(0.1))
	must(t, p.ObserveBatch([]float64{0.2, 0.3}))
	expect(t, "count", p.Count(), 3)
	mean, err := p.Estimate(1)
	must(t, err)
	expect(t, "the exact mean", mean, 0.2) // (0.1 + 0.2 + 0.3) / 3 is 0.20000000000000004

	// A copy goes on from where the original was.
	copied := *p
	must(t, copied.Observe(1.4))
	slotTime, err := copied.Estimate(2)
	must(t, err)
	expect(t, "the copy's estimate", slotTime, 1)
	expect(t, "the original's count", p.Count(), 3)

	for _, tc := range []struct {
		name string
		want error
		call func(p *fairsched.CFQProfiler) error
	}{
		{"Observe NaN", fairsched.ErrNotFinite, observe(math.NaN())},
		{"Observe -inf", fairsched.ErrNotFinite, observe(math.Inf(-1))},
		{"Observe negative", fairsched.ErrNegative, observe(-1)},
		{"Observe huge", fairsched.ErrOutOfRange, observe(0x1p61)},
		{"ObserveBatch NaN last", fairsched.ErrNotFinite, observeBatch(1, math.NaN())},
		{"ObserveBatch negative last", fairsched.ErrNegative, observeBatch(1, -1)},
		{"ObserveBatch huge last", fairsched.ErrOutOfRange, observeBatch(1, 0x1p61)},
		{"Estimate 0 tasks", fairsched.ErrNotPositive, estimate(0)},
		{"Estimate beyond 2^60", fairsched.ErrOutOfRange, estimate(math.MaxUint64)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := *p
			expectUnchanged(t, tc.want, func() string { return fmt.Sprintf("%+v", p) },
				func() error { return tc.call(&p) })
		})
	}

	var zeros fairsched.CFQProfiler
	must(t, zeros.ObserveBatch([]float64{0, math.Copysign(0, -1)}))
	if _, err := zeros.Estimate(4); err != fairsched.ErrNotPositive {
		t.Errorf("estimate from durations of 0: got %v, want ErrNotPositive", err)
	}
}

func observe(duration float64) func(p *fairsched.CFQProfiler) error {
	return func(p *fairsched.CFQProfiler) error { return p.Observe(duration) }
}

func observeBatch(durations ...float64) func(p *fairsched.CFQProfiler) error {
	return func(p *fairsched.CFQProfiler) error { return p.ObserveBatch(durations) }
}

func estimate(tasks uint64) func(p *fairsched.CFQProfiler) error {
	return func(p *fairsched.CFQProfiler) error { _, err := p.Estimate(tasks); return err }
}

func TestErrorsCarryTheirStatus(t *testing.T) {
	for _, tc := range []struct {
		status fairsched.Status
		err    *fairsched.Error
	}{
		{fairsched.StatusNullPointer, fairsched.ErrNullPointer},
		{fairsched.StatusNotFinite, fairsched.ErrNotFinite},
		{fairsched.StatusNotPositive, fairsched.ErrNotPositive},
		{fairsched.StatusUnknownID, fairsched.ErrUnknownID},
		{fairsched.StatusDuplicateID, fairsched.ErrDuplicateID},
		{fairsched.StatusTimeWentBackwards, fairsched.ErrTimeWentBackwards},
		{fairsched.StatusCapacityFull, fairsched.ErrCapacityFull},
		{fairsched.StatusCapacityTooLarge, fairsched.ErrCapacityTooLarge},
		{fairsched.StatusOutOfRange, fairsched.ErrOutOfRange},
		{fairsched.StatusJobCompleted, fairsched.ErrJobCompleted},
		{fairsched.StatusLengthMismatch, fairsched.ErrLengthMismatch},
		{fairsched.StatusBufferTooSmall, fairsched.ErrBufferTooSmall},
		{fairsched.StatusPanic, fairsched.ErrPanic},
		{fairsched.StatusNegative, fairsched.ErrNegative},
		{fairsched.StatusEmpty, fairsched.ErrEmpty},
		{fairsched.StatusNotMonotone, fairsched.ErrNotMonotone},
		{fairsched.StatusUnderdetermined, fairsched.ErrUnderdetermined},
	} {
		var got *fairsched.Error
		wrapped := fmt.Errorf("scheduling: %w", tc.err)
		if !errors.As(wrapped, &got) || got.Status != tc.status || got.Message == "" {
			t.Errorf("status %d: got %#v", tc.status, got)
		}
	}
	expect(t, "message", fairsched.ErrUnknownID.Error(), "fairsched: no entry (job, user) with that id")
}

// expectFailure checks that call fails with want and leaves the fixture as it was.
func expectFailure(t *testing.T, c *fairsched.CFQ, want error, call func() error) {
	t.Helper()
	expectUnchanged(t, want, func() string { return snapshot(t, c) }, call)
}

// expectUnchanged checks that call fails with want and leaves state as it was.
func expectUnchanged(t *testing.T, want error, state func() string, call func() error) {
	t.Helper()
	before := state()
	if err := call(); !errors.Is(err, want) {
		t.Errorf("got error %v, want %v", err, want)
	}
	expect(t, "state after the failed call", state(), before)
}

// snapshot renders what can be observed of the fixture: its stats and its two jobs.
func snapshot(t *testing.T, c *fairsched.CFQ) string {
	t.Helper()
	stats, err := c.Stats()
	must(t, err)
	rendered, err := json.Marshal([]any{stats, job(t, c, runningJob), job(t, c, completedJob)})
	must(t, err)
	return string(rendered)
}

func job(t *testing.T, c *fairsched.CFQ, id uint64) fairsched.CFQJobInfo {
	t.Helper()
	info, err := c.Job(id)
	must(t, err)
	return info
}

// offer offers k slots and renders the ids given.
func offer(t *testing.T, c *fairsched.CFQ, k int) string {
	t.Helper()
	out := make([]uint64, k)
	n, err := c.Offer(out)
	must(t, err)
	return fmt.Sprint(out[:n])
}

// orNaN reads an optional time, NaN standing for nil (and so equal to nothing).
func orNaN(time *float64) float64 {
	if time == nil {
		return math.NaN()
	}
	return *time
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func expect[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

package fairsched_test

import (
	"fmt"
	"math"
	"testing"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// The object types share one setup and one Close (object.go): these tests hold them to it, one
// row per type.

// closedAtEnd returns a constructor's object after checking its error, and closes the object
// when the test ends.
func closedAtEnd[T interface{ Close() error }](t testing.TB, object T, err error) T {
	t.Helper()
	must(t, err)
	t.Cleanup(func() { object.Close() })
	return object
}

func newCFQ(t testing.TB, capacity, slots uint32, startTime float64) *fairsched.CFQ {
	c, err := fairsched.NewCFQ(capacity, slots, startTime)
	return closedAtEnd(t, c, err)
}

func newDRFQueue(t testing.TB, capacity uint32, cluster []float64) *fairsched.DRFQueue {
	q, err := fairsched.NewDRFQueue(capacity, cluster)
	return closedAtEnd(t, q, err)
}

func newHAI(t testing.TB, capacity uint32) *fairsched.HAI {
	h, err := fairsched.NewHAI(capacity)
	return closedAtEnd(t, h, err)
}

func newPAF(t testing.TB, capacity uint32) *fairsched.PAF {
	p, err := fairsched.NewPAF(capacity)
	return closedAtEnd(t, p, err)
}

func newDRRTimeline(t testing.TB, capacity uint32, machine []float64, horizon uint32) *fairsched.DRRTimeline {
	timeline, err := fairsched.NewDRRTimeline(capacity, machine, horizon)
	return closedAtEnd(t, timeline, err)
}

func newDRRPredictor(t testing.TB, capacity uint32, kinds int, window, steps uint32) *fairsched.DRRPredictor {
	p, err := fairsched.NewDRRPredictor(capacity, kinds, window, steps)
	return closedAtEnd(t, p, err)
}

// expectClosed checks that each method, called after Close, returns ErrClosed; Close itself
// among them.
func expectClosed(t *testing.T, methods map[string]func() error) {
	t.Helper()
	for name, call := range methods {
		if err := call(); err != fairsched.ErrClosed {
			t.Errorf("%s after Close: got %v, want ErrClosed", name, err)
		}
	}
}

// Every constructor refuses a capacity of 0 (ErrNotPositive) and math.MaxUint32
// (ErrCapacityTooLarge) before it looks at the rest of its configuration: with an invalid
// configuration too, the error is the capacity's. At capacity 1 the configuration decides.
func TestConstructorsRefuseCapacities(t *testing.T) {
	for _, tc := range []struct {
		name       string
		construct  func(capacity uint32) (any, error)
		atCapacity error // the error at capacity 1
	}{
		{"NewCFQ", func(n uint32) (any, error) { return fairsched.NewCFQ(n, 1, 0) }, nil},
		{"NewCFQ of 0 slots", func(n uint32) (any, error) { return fairsched.NewCFQ(n, 0, 0) }, fairsched.ErrNotPositive},
		{"NewDRFQueue", func(n uint32) (any, error) { return fairsched.NewDRFQueue(n, []float64{1, 1}) }, nil},
		{"NewDRFQueue of no kind", func(n uint32) (any, error) { return fairsched.NewDRFQueue(n, nil) }, fairsched.ErrEmpty},
		// HAI and PAF have no configuration besides the capacity.
		{"NewHAI", func(n uint32) (any, error) { return fairsched.NewHAI(n) }, nil},
		{"NewPAF", func(n uint32) (any, error) { return fairsched.NewPAF(n) }, nil},
		{"NewDRRTimeline", func(n uint32) (any, error) { return fairsched.NewDRRTimeline(n, []float64{4, 8}, 4) }, nil},
		{"NewDRRTimeline of no step", func(n uint32) (any, error) { return fairsched.NewDRRTimeline(n, []float64{4, 8}, 0) },
			fairsched.ErrEmpty},
		{"NewDRRPredictor", func(n uint32) (any, error) { return fairsched.NewDRRPredictor(n, 2, 3, 4) }, nil},
		{"NewDRRPredictor of window 0", func(n uint32) (any, error) { return fairsched.NewDRRPredictor(n, 2, 0, 4) },
			fairsched.ErrNotPositive},
	} {
		for capacity, want := range map[uint32]error{
			0:              fairsched.ErrNotPositive,
			math.MaxUint32: fairsched.ErrCapacityTooLarge,
			1:              tc.atCapacity,
		} {
			object, err := tc.construct(capacity)
			if err != want {
				t.Errorf("%s, capacity %d: got %v, want %v", tc.name, capacity, err, want)
			}
			if err != nil {
				// A failed constructor returns a nil pointer.
				expect(t, tc.name+": object", fmt.Sprint(object), "<nil>")
			} else {
				must(t, object.(interface{ Close() error }).Close())
			}
		}
	}
}

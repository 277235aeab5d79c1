//go:build fairschedtesting

package fairsched

import (
	"errors"
	"testing"
)

func TestCaughtPanicIsErrPanic(t *testing.T) {
	err := testingPanic()
	var e *Error
	if !errors.Is(err, ErrPanic) || !errors.As(err, &e) || e.Status != StatusPanic {
		t.Fatalf("got %v, want ErrPanic", err)
	}
}

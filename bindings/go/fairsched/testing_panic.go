//go:build fairschedtesting

package fairsched

// The export that panics on purpose exists only in a library built with
// build-native --testing, so it is declared, and called, only under this build tag.

// #define FAIRSCHED_TESTING
// #include "fairsched.h"
import "C"

// testingPanic makes the library panic inside its boundary, for the test of ErrPanic.
func testingPanic() error {
	return check(C.fairsched_testing_panic())
}

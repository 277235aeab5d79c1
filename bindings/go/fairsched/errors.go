package fairsched

// #include "fairsched.h"
import "C"

// Status is the outcome of a call into the library: the C enum fairsched_status, with the
// same numbers.
type Status int

// The statuses, from the C header.
const (
	// Success.
	StatusOK Status = C.FAIRSCHED_STATUS_OK
	// A required pointer was NULL.
	StatusNullPointer Status = C.FAIRSCHED_STATUS_NULL_POINTER
	// A number was NaN or infinite.
	StatusNotFinite Status = C.FAIRSCHED_STATUS_NOT_FINITE
	// A number that must be positive was not, or a demand was all zeros.
	StatusNotPositive Status = C.FAIRSCHED_STATUS_NOT_POSITIVE
	// No entry (a CFQ job, a DRF user) with that id.
	StatusUnknownID Status = C.FAIRSCHED_STATUS_UNKNOWN_ID
	// An entry (a CFQ job, a DRF user) with that id is already present.
	StatusDuplicateID Status = C.FAIRSCHED_STATUS_DUPLICATE_ID
	// The time is earlier than the last accepted call's.
	StatusTimeWentBackwards Status = C.FAIRSCHED_STATUS_TIME_WENT_BACKWARDS
	// A fixed capacity is full: no room for another job or user, more than 8 resource kinds,
	// more than 256 time steps or 4096 pending executors (DRR).
	StatusCapacityFull Status = C.FAIRSCHED_STATUS_CAPACITY_FULL
	// The capacity is too large to address.
	StatusCapacityTooLarge Status = C.FAIRSCHED_STATUS_CAPACITY_TOO_LARGE
	// A number is finite but outside the supported range.
	StatusOutOfRange Status = C.FAIRSCHED_STATUS_OUT_OF_RANGE
	// The job has already completed.
	StatusJobCompleted Status = C.FAIRSCHED_STATUS_JOB_COMPLETED
	// Two parallel slices have different lengths.
	StatusLengthMismatch Status = C.FAIRSCHED_STATUS_LENGTH_MISMATCH
	// Memory or an output buffer is too small.
	StatusBufferTooSmall Status = C.FAIRSCHED_STATUS_BUFFER_TOO_SMALL
	// A panic was caught inside the library: a bug in fairsched.
	StatusPanic Status = C.FAIRSCHED_STATUS_PANIC
	// A number that must not be negative was negative.
	StatusNegative Status = C.FAIRSCHED_STATUS_NEGATIVE
	// A list that must hold at least one element was empty.
	StatusEmpty Status = C.FAIRSCHED_STATUS_EMPTY
	// A sequence that must not decrease (a progress curve) decreased.
	StatusNotMonotone Status = C.FAIRSCHED_STATUS_NOT_MONOTONE
	// The samples given cannot determine the model to fit.
	StatusUnderdetermined Status = C.FAIRSCHED_STATUS_UNDERDETERMINED
	// A demand does not fit what a machine has available at some step (a DRRTimeline).
	StatusDoesNotFit Status = C.FAIRSCHED_STATUS_DOES_NOT_FIT

	statusCount = C.FAIRSCHED_STATUS_COUNT
)

// Error is a failed call's status with the library's description of it. Every error a failed
// call returns is one of the Err values below, so errors.Is (or ==) tells them apart, and
// errors.As gives the Status.
type Error struct {
	Status  Status
	Message string // from fairsched_status_message
}

func (e *Error) Error() string {
	return "fairsched: " + e.Message
}

// errorOf maps each failing status to its error: the one table between codes and errors.
var errorOf = func() (table [statusCount]*Error) {
	for status := StatusNullPointer; status < statusCount; status++ {
		message := C.fairsched_status_message(C.uint32_t(status))
		table[status] = &Error{Status: status, Message: C.GoString(message)}
	}
	return table
}()

// The errors of failed calls, one per failing status. A call that fails changes nothing.
var (
	ErrNullPointer       = errorOf[StatusNullPointer]
	ErrNotFinite         = errorOf[StatusNotFinite]
	ErrNotPositive       = errorOf[StatusNotPositive]
	ErrUnknownID         = errorOf[StatusUnknownID]
	ErrDuplicateID       = errorOf[StatusDuplicateID]
	ErrTimeWentBackwards = errorOf[StatusTimeWentBackwards]
	ErrCapacityFull      = errorOf[StatusCapacityFull]
	ErrCapacityTooLarge  = errorOf[StatusCapacityTooLarge]
	ErrOutOfRange        = errorOf[StatusOutOfRange]
	ErrJobCompleted      = errorOf[StatusJobCompleted]
	ErrLengthMismatch    = errorOf[StatusLengthMismatch]
	ErrBufferTooSmall    = errorOf[StatusBufferTooSmall]
	// ErrPanic means the library caught a panic: a bug in fairsched. The CFQ, DRFQueue, HAI,
	// PAF, DRRTimeline or DRRPredictor involved must not be used again; Close it.
	ErrPanic           = errorOf[StatusPanic]
	ErrNegative        = errorOf[StatusNegative]
	ErrEmpty           = errorOf[StatusEmpty]
	ErrNotMonotone     = errorOf[StatusNotMonotone]
	ErrUnderdetermined = errorOf[StatusUnderdetermined]
	// ErrDoesNotFit means a demand would commit more of a resource than a DRRTimeline's machine
	// has at some step: nothing is over-committed.
	ErrDoesNotFit = errorOf[StatusDoesNotFit]
)

// check returns nil for FAIRSCHED_STATUS_OK and the status's error otherwise.
func check(status C.fairsched_status) error {
	if status == C.FAIRSCHED_STATUS_OK {
		return nil
	}
	return errorOf[status]
}

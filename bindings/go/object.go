package fairsched

// #include <stdlib.h>
// #include "fairsched.h"
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
)

// ErrClosed is returned by every method of a CFQ, a DRFQueue or a PAF after Close, Close
// included.
var ErrClosed = errors.New("fairsched: use after Close")

// ErrOutOfMemory is returned by NewCFQ, NewDRFQueue and NewPAF when the memory for the capacity
// cannot be allocated.
var ErrOutOfMemory = errors.New("fairsched: out of memory for the capacity")

// object is a fairsched object living in C memory: the block from C.calloc and the handle H
// (a C pointer into the block) the library's _init export wrote. The zero object is closed.
//
// The type owning an object holds it in a field, sets a finalizer that closes it, and makes
// every call through call, which keeps the owner alive until the C call has returned.
type object[H any] struct {
	memory unsafe.Pointer // from C.calloc; nil once closed
	handle H              // points into memory
}

// newObject allocates size bytes (the library's storage size) and has init build the object in
// them, writing its handle; the memory is freed again if init fails.
func newObject[H any](size C.size_t, init func(memory unsafe.Pointer, handle *H) C.fairsched_status) (object[H], error) {
	// calloc, unlike cgo's C.malloc, reports a failure instead of ending the program.
	memory := C.calloc(1, size)
	if memory == nil {
		return object[H]{}, ErrOutOfMemory
	}
	var handle H
	if err := check(init(memory, &handle)); err != nil {
		C.free(memory)
		return object[H]{}, err
	}
	return object[H]{memory: memory, handle: handle}, nil
}

// close frees the memory; after the first call it returns ErrClosed.
func (o *object[H]) close() error {
	if o.memory == nil {
		return ErrClosed
	}
	C.free(o.memory)
	*o = object[H]{}
	return nil
}

// call makes one C call with the handle and maps its status to an error. The closed check and
// the KeepAlive are here so that no method can forget them: o points into its owner, so the
// owner's finalizer cannot free the memory during the call.
func (o *object[H]) call(export func(handle H) C.fairsched_status) error {
	if o.memory == nil {
		return ErrClosed
	}
	err := check(export(o.handle))
	runtime.KeepAlive(o)
	return err
}

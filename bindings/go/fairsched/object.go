package fairsched

// #include <stdlib.h>
// #include "fairsched.h"
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
)

// ErrClosed is returned by every method of a CFQ, a DRFQueue, an HAI or a PAF after Close,
// Close included.
var ErrClosed = errors.New("fairsched: use after Close")

// ErrOutOfMemory is returned by NewCFQ, NewDRFQueue, NewHAI and NewPAF when the memory for the
// capacity cannot be allocated.
var ErrOutOfMemory = errors.New("fairsched: out of memory for the capacity")

// object is a fairsched object living in C memory: the block from C.calloc and the handle H
// (a C pointer into the block) the library's _init export wrote. Every object type of the ABI
// (CFQ, DRFQueue, HAI, PAF, DRRTimeline, DRRPredictor) holds one in its field native and goes
// through it for everything: newObject for its constructor, call for each method, close for
// Close. A nil or closed object answers ErrClosed.
//
// The memory is freed exactly once: by close, or, if the owner forgot Close, by the cleanup
// newObject registers, which runs once the object is unreachable. call keeps the object
// reachable until its C call has returned, so the cleanup cannot free the memory under it.
type object[H any] struct {
	memory  unsafe.Pointer  // from C.calloc; nil once closed
	handle  H               // points into memory
	cleanup runtime.Cleanup // frees memory if close is never called
}

// The two setup exports every object type has, wrapped in Go functions (cgo cannot take a C
// function as a value): fairsched_<type>_storage_size(capacity, out_size) and
// fairsched_<type>_init(memory, memory_len, capacity, <configuration>..., out), the
// configuration bound by the wrapper.
type (
	storageSizeFunc func(capacity C.uint32_t, size *C.size_t) C.fairsched_status
	initFunc[H any] func(memory unsafe.Pointer, size C.size_t, capacity C.uint32_t, handle *H) C.fairsched_status
)

// newObject returns the object of a type of the package (CFQ, DRFQueue, HAI, PAF, DRRTimeline,
// DRRPredictor, each holding it in its field native) for capacity entries: it asks storageSize how many bytes
// that needs, allocates them in C (Rust never holds Go memory), has init build the object in
// them, writing its handle, and registers the cleanup. The errors are the library's (the
// capacity first, then the configuration init checks) and ErrOutOfMemory; the memory is freed
// again if init fails.
func newObject[H any](capacity uint32, storageSize storageSizeFunc, init initFunc[H]) (*object[H], error) {
	var size C.size_t
	if err := check(storageSize(C.uint32_t(capacity), &size)); err != nil {
		return nil, err
	}
	// calloc, unlike cgo's C.malloc, reports a failure instead of ending the program.
	memory := C.calloc(1, size)
	if memory == nil {
		return nil, ErrOutOfMemory
	}
	var handle H
	if err := check(init(memory, size, C.uint32_t(capacity), &handle)); err != nil {
		C.free(memory)
		return nil, err
	}
	o := &object[H]{memory: memory, handle: handle}
	o.cleanup = runtime.AddCleanup(o, freeMemory, memory)
	return o, nil
}

// freeMemory is the cleanup of an object never closed.
func freeMemory(memory unsafe.Pointer) {
	C.free(memory)
}

// close frees the memory; after the first call it returns ErrClosed.
func (o *object[H]) close() error {
	if o == nil || o.memory == nil {
		return ErrClosed
	}
	o.cleanup.Stop()
	C.free(o.memory)
	*o = object[H]{}
	return nil
}

// call makes one C call with the handle and maps its status to an error. The closed check and
// the KeepAlive are here so that no method can forget them.
func (o *object[H]) call(export func(handle H) C.fairsched_status) error {
	if o == nil || o.memory == nil {
		return ErrClosed
	}
	err := check(export(o.handle))
	runtime.KeepAlive(o)
	return err
}

package fairsched

// #include <stdbool.h>
// #include <stdint.h>
import "C"

import (
	"slices"
	"unsafe"
)

// How Go slices reach C: a pointer to the first element (nil for an empty slice, which the
// library allows with a length of 0) next to the length the caller passes. The library reads,
// or writes, them during the call only; none keeps a pointer.

// doubles passes s to C: a pointer to its first element, nil when it is empty (C then allows
// NULL).
func doubles(s []float64) *C.double {
	return (*C.double)(unsafe.SliceData(s))
}

// uint64s passes s to C as doubles does.
func uint64s(s []uint64) *C.uint64_t {
	return (*C.uint64_t)(unsafe.SliceData(s))
}

// uint32s passes s to C as doubles does.
func uint32s(s []uint32) *C.uint32_t {
	return (*C.uint32_t)(unsafe.SliceData(s))
}

// bools passes s to C as doubles does (a Go bool and a C bool are both one byte, 0 or 1).
func bools(s []bool) *C.bool {
	return (*C.bool)(unsafe.SliceData(s))
}

// apart returns s, or a copy of it when it shares memory with any of dsts. The exports that
// write an array in place or into an output must not be given an input overlapping it (Rust
// would see the same memory as shared and as mutable); a copy gives the caller what separate
// arrays holding the same values would.
func apart[E any](s []E, dsts ...[]E) []E {
	if overlapsAny(s, dsts) {
		return slices.Clone(s)
	}
	return s
}

// separate returns out, or a new slice of its length when it shares memory with any of
// others: two outputs of one call must not overlap either (each is mutable memory to Rust).
func separate[E any](out []E, others ...[]E) []E {
	if overlapsAny(out, others) {
		return make([]E, len(out))
	}
	return out
}

// overlapsAny reports whether s shares memory with any of ts.
func overlapsAny[E any](s []E, ts [][]E) bool {
	if len(s) == 0 {
		return false
	}
	size := unsafe.Sizeof(s[0])
	start := uintptr(unsafe.Pointer(&s[0]))
	end := start + uintptr(len(s))*size
	for _, t := range ts {
		if len(t) == 0 {
			continue
		}
		tStart := uintptr(unsafe.Pointer(&t[0]))
		if start < tStart+uintptr(len(t))*size && tStart < end {
			return true
		}
	}
	return false
}

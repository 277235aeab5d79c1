// Package fairsched binds the fairsched C ABI (include/fairsched.h): published
// cluster-scheduling algorithms, allocation-free, behind one C interface: CFQ (Cluster Fair
// Queueing) and PAF (Performance-Aware Fair slot transfer).
//
// The package links the static library statically: build it first with
// ../../scripts/build-native (see README.md).
package fairsched

// This file holds every cgo directive of the package: where the header and the static library
// are, and which exports neither keep a pointer past the call nor call back into Go (noescape
// plus nocallback), so that the out-parameters Go passes them can stay on the stack.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: ${SRCDIR}/../../target/release/libfairsched.a -lm -ldl -lpthread
#cgo noescape fairsched_cfq_storage_size
#cgo nocallback fairsched_cfq_storage_size
#cgo noescape fairsched_cfq_init
#cgo nocallback fairsched_cfq_init
#cgo noescape fairsched_cfq_set_pending_batch
#cgo nocallback fairsched_cfq_set_pending_batch
#cgo noescape fairsched_cfq_offer
#cgo nocallback fairsched_cfq_offer
#cgo noescape fairsched_cfq_peek
#cgo nocallback fairsched_cfq_peek
#cgo noescape fairsched_cfq_job_get
#cgo nocallback fairsched_cfq_job_get
#cgo noescape fairsched_cfq_gps_completion_estimate
#cgo nocallback fairsched_cfq_gps_completion_estimate
#cgo noescape fairsched_cfq_stats_get
#cgo nocallback fairsched_cfq_stats_get
#cgo noescape fairsched_paf_storage_size
#cgo nocallback fairsched_paf_storage_size
#cgo noescape fairsched_paf_init
#cgo nocallback fairsched_paf_init
#cgo noescape fairsched_paf_allocate
#cgo nocallback fairsched_paf_allocate
#cgo noescape fairsched_paf_enforce
#cgo nocallback fairsched_paf_enforce
#cgo noescape fairsched_paf_ernest_fit
#cgo nocallback fairsched_paf_ernest_fit
#cgo noescape fairsched_paf_ernest_tabulate
#cgo nocallback fairsched_paf_ernest_tabulate
#cgo noescape fairsched_paf_curve_check
#cgo nocallback fairsched_paf_curve_check
#cgo noescape fairsched_paf_concave_envelope
#cgo nocallback fairsched_paf_concave_envelope
#include "fairsched.h"
*/
import "C"

import "fmt"

// init refuses a library built from another ABI than the header this package was compiled
// against: every call would otherwise misread structs or status codes.
func init() {
	if library := C.fairsched_abi_version(); library != C.FAIRSCHED_ABI_VERSION {
		panic(fmt.Sprintf("fairsched: the linked library speaks ABI %d, the header ABI %d: rebuild it with scripts/build-native",
			library, C.FAIRSCHED_ABI_VERSION))
	}
}

// Package fairsched binds the fairsched C ABI (include/fairsched.h): published
// cluster-scheduling algorithms, allocation-free, behind one C interface. So far: CFQ (Cluster
// Fair Queueing), DRF (Dominant Resource Fairness), QKnobler, PAF (Performance-Aware Fair
// slot transfer), DRR and MinFrag (Elasecutor's packing of executors whose demand varies
// over time), and HAI (ReB's allocation of cores from predicted job completion times).
//
// The package links the library statically. A released module carries the header and the
// library for linux/amd64 and linux/arm64; in a checkout, build the library first with
// ../../../scripts/build-native (see README.md). ABIVersion reports the library's ABI version.
//
// # Names and objects
//
// Every export of the header has one name per language, in one table,
// ../names.tsv. In Go, an algorithm's functions and types carry its prefix (CFQStats,
// DRRMinFrag, PAFErnestFit); an object's operations are the methods of its type (CFQ,
// DRFQueue, HAI, PAF, DRRTimeline, DRRPredictor), built by New<Type>(capacity, ...) and freed
// by Close. capacity is how many entries (jobs, users, executors, applications) the object's
// memory holds: 1 to math.MaxUint32 - 1, checked before the rest of the configuration
// (ErrNotPositive for 0, ErrCapacityTooLarge for math.MaxUint32).
//
// # DRF and QKnobler
//
// DRF is weighted Dominant Resource Fairness (Ghodsi et al.) as the QKnobler paper (Tang, Yu,
// Li) models it: users share a cluster of several resource kinds, every task of a user needs
// the same demand vector, and a user's dominant share is the largest share of any kind its
// tasks hold. DRF equalizes dominant shares divided by weights. QKnobler trades that fairness
// for efficiency with a knob ρ in [0, 1], within a guaranteed bound: ρ = 1 is DRF, ρ = 0 pure
// efficiency.
//
// DRFDivisible and QKnoblerAllocate take users as three slices: cluster, one amount per
// resource kind (1 to 8 kinds, each finite and positive, in any unit); weights, one per user
// (finite, positive); demands, every user's per-task demand row after row, user i's at
// demands[i*kinds:(i+1)*kinds] (each amount finite and not negative, not all zero). A
// weight, and the dominant share of the cluster one task takes, lie within [2^-60, 2^60]
// (ErrOutOfRange otherwise). A DRFQueue takes its cluster and each user's demand the same
// way; its capacity, as every object's, is how many entries (users) its memory holds. Slices
// are read, or written, during the call only.
//
// # PAF
//
// PAF is Performance-Aware Fair allocation (Chen, Wang, Li): slots move from jobs that barely
// slow down to jobs that speed up most, starting from weighted max-min fair shares, while every
// job keeps at least a fraction alpha of the progress its fair share gives it. A job is a
// weight and a progress curve p(0..=d). A PAF is a workspace in C memory for calls of up to
// its capacity of jobs (Allocate, Enforce); PAFErnestFit, PAFErnestTabulate, PAFCurveCheck and
// PAFConcaveEnvelope need none.
//
// # HAI
//
// HAI is ReB's allocation of cores (Hu, Li, Guo): a batch of jobs, each with its cap and its
// predicted job completion time (JCT) at 0, θ, 2θ, ..., cap cores, gets a shortest-job-optimal
// start, then transfers of θ cores from the jobs whose JCT rises least to those whose JCT falls
// most, while that lowers the total JCT. An HAI is a workspace in C memory for batches of up to
// its capacity of jobs; Allocate, ShortestJobOptimal and Rebalance write into slices the caller
// provides, read and written during the call only.
//
// # DRR and MinFrag
//
// Elasecutor (Liu et al.) packs executors whose demand varies over time. Time is in steps of a
// caller-chosen length, and every series is time-major and flat: the amount of resource kind r
// at step t is series[t*kinds+r], for 1 to 8 kinds and 1 to 256 steps. A machine is its
// capacity (one amount per kind, each positive), its predicted available series over a
// horizon of H steps (each amount finite, not negative, at most the capacity of its kind) and
// t_run, the step at which the first of its running executors finishes: 1 to H, and H when
// none runs or none finishes within the horizon. An executor is its predicted demand series,
// T_i steps of at most H. DRRMinFrag places, at each heartbeat of a machine, the pending
// executor that leaves the smallest dominant remaining resource θ(i, j), until none fits;
// DRRMachine, DRRScoreMachines, DRRReprovision and DRRReprovisionDue (reprovisioning's
// trigger) are the other functions over slices, with no state: the slices are read, or
// written, during the call only. Two objects keep what a scheduler otherwise keeps beside
// them: a DRRTimeline is one machine over time (its running executors, available series and
// t_run, kept exactly as time advances and executors are placed, released and
// reprovisioned; a heartbeat is one call), and a DRRPredictor predicts an executor's demand
// series from its application's last runs.
package fairsched

// This file holds every cgo directive of the package: where the header and the static library
// are, and which exports neither keep a pointer past the call nor call back into Go (noescape
// plus nocallback), so that the out-parameters Go passes them can stay on the stack.
//
// The same directives serve two layouts, searched in this order. A released module (the zip
// scripts/release-go makes) carries include/fairsched.h and lib/<GOOS>_<GOARCH>/libfairsched.a
// in this directory; a checkout has neither here, and finds the header in the repository's
// include/ and the library where scripts/build-native writes it, three levels up (under the
// build tag fairschedasan, the library build-native --asan instruments with AddressSanitizer,
// for `go test -asan`), none of which exists beside a downloaded module. -l:libfairsched.a
// names the static library exactly, so the linker never takes the libfairsched.so that
// build-native writes beside it.

/*
#cgo CFLAGS: -I${SRCDIR}/include -I${SRCDIR}/../../../include
#cgo linux,amd64 LDFLAGS: -L${SRCDIR}/lib/linux_amd64
#cgo linux,arm64 LDFLAGS: -L${SRCDIR}/lib/linux_arm64
#cgo !fairschedasan LDFLAGS: -L${SRCDIR}/../../../target/release
#cgo fairschedasan LDFLAGS: -L${SRCDIR}/../../../target/asan/x86_64-unknown-linux-gnu/release
#cgo LDFLAGS: -l:libfairsched.a -lm -ldl -lpthread
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
#cgo noescape fairsched_cfq_delay_bound
#cgo nocallback fairsched_cfq_delay_bound
#cgo noescape fairsched_cfq_stats_get
#cgo nocallback fairsched_cfq_stats_get
#cgo noescape fairsched_cfq_profiler_init
#cgo nocallback fairsched_cfq_profiler_init
#cgo noescape fairsched_cfq_profiler_observe
#cgo nocallback fairsched_cfq_profiler_observe
#cgo noescape fairsched_cfq_profiler_observe_batch
#cgo nocallback fairsched_cfq_profiler_observe_batch
#cgo noescape fairsched_cfq_profiler_estimate
#cgo nocallback fairsched_cfq_profiler_estimate
#cgo noescape fairsched_drf_divisible
#cgo nocallback fairsched_drf_divisible
#cgo noescape fairsched_drf_queue_storage_size
#cgo nocallback fairsched_drf_queue_storage_size
#cgo noescape fairsched_drf_queue_init
#cgo nocallback fairsched_drf_queue_init
#cgo noescape fairsched_drf_queue_add_user
#cgo nocallback fairsched_drf_queue_add_user
#cgo noescape fairsched_drf_queue_next
#cgo nocallback fairsched_drf_queue_next
#cgo noescape fairsched_drf_queue_start_next
#cgo nocallback fairsched_drf_queue_start_next
#cgo noescape fairsched_drf_queue_user_get
#cgo nocallback fairsched_drf_queue_user_get
#cgo noescape fairsched_drf_queue_stats_get
#cgo nocallback fairsched_drf_queue_stats_get
#cgo noescape fairsched_drf_queue_allocate_round
#cgo nocallback fairsched_drf_queue_allocate_round
#cgo noescape fairsched_qknobler_allocate
#cgo nocallback fairsched_qknobler_allocate
#cgo noescape fairsched_qknobler_average_demand
#cgo nocallback fairsched_qknobler_average_demand
#cgo noescape fairsched_qknobler_choose
#cgo nocallback fairsched_qknobler_choose
#cgo noescape fairsched_drf_queue_qknobler_round
#cgo nocallback fairsched_drf_queue_qknobler_round
#cgo noescape fairsched_drr_machine
#cgo nocallback fairsched_drr_machine
#cgo noescape fairsched_drr_min_frag
#cgo nocallback fairsched_drr_min_frag
#cgo noescape fairsched_drr_executors_storage_size
#cgo nocallback fairsched_drr_executors_storage_size
#cgo noescape fairsched_drr_executors_init
#cgo nocallback fairsched_drr_executors_init
#cgo noescape fairsched_drr_min_frag_executors
#cgo nocallback fairsched_drr_min_frag_executors
#cgo noescape fairsched_drr_score_machines
#cgo nocallback fairsched_drr_score_machines
#cgo noescape fairsched_drr_reprovision
#cgo nocallback fairsched_drr_reprovision
#cgo noescape fairsched_drr_reprovision_due
#cgo nocallback fairsched_drr_reprovision_due
#cgo noescape fairsched_drr_timeline_storage_size
#cgo nocallback fairsched_drr_timeline_storage_size
#cgo noescape fairsched_drr_timeline_init
#cgo nocallback fairsched_drr_timeline_init
#cgo noescape fairsched_drr_timeline_advance
#cgo nocallback fairsched_drr_timeline_advance
#cgo noescape fairsched_drr_timeline_place
#cgo nocallback fairsched_drr_timeline_place
#cgo noescape fairsched_drr_timeline_reprovision
#cgo nocallback fairsched_drr_timeline_reprovision
#cgo noescape fairsched_drr_timeline_heartbeat
#cgo nocallback fairsched_drr_timeline_heartbeat
#cgo noescape fairsched_drr_timeline_heartbeat_executors
#cgo nocallback fairsched_drr_timeline_heartbeat_executors
#cgo noescape fairsched_drr_timeline_stats_get
#cgo nocallback fairsched_drr_timeline_stats_get
#cgo noescape fairsched_drr_timeline_available
#cgo nocallback fairsched_drr_timeline_available
#cgo noescape fairsched_drr_predictor_storage_size
#cgo nocallback fairsched_drr_predictor_storage_size
#cgo noescape fairsched_drr_predictor_init
#cgo nocallback fairsched_drr_predictor_init
#cgo noescape fairsched_drr_predictor_record
#cgo nocallback fairsched_drr_predictor_record
#cgo noescape fairsched_drr_predictor_runs
#cgo nocallback fairsched_drr_predictor_runs
#cgo noescape fairsched_drr_predictor_predict
#cgo nocallback fairsched_drr_predictor_predict
#cgo noescape fairsched_paf_storage_size
#cgo nocallback fairsched_paf_storage_size
#cgo noescape fairsched_paf_init
#cgo nocallback fairsched_paf_init
#cgo noescape fairsched_paf_allocate
#cgo nocallback fairsched_paf_allocate
#cgo noescape fairsched_paf_jobs_storage_size
#cgo nocallback fairsched_paf_jobs_storage_size
#cgo noescape fairsched_paf_jobs_init
#cgo nocallback fairsched_paf_jobs_init
#cgo noescape fairsched_paf_allocate_jobs
#cgo nocallback fairsched_paf_allocate_jobs
#cgo noescape fairsched_paf_enforce
#cgo nocallback fairsched_paf_enforce
#cgo noescape fairsched_paf_curve_from_tasks
#cgo nocallback fairsched_paf_curve_from_tasks
#cgo noescape fairsched_paf_ernest_fit
#cgo nocallback fairsched_paf_ernest_fit
#cgo noescape fairsched_paf_ernest_tabulate
#cgo nocallback fairsched_paf_ernest_tabulate
#cgo noescape fairsched_paf_curve_check
#cgo nocallback fairsched_paf_curve_check
#cgo noescape fairsched_paf_concave_envelope
#cgo nocallback fairsched_paf_concave_envelope
#cgo noescape fairsched_hai_storage_size
#cgo nocallback fairsched_hai_storage_size
#cgo noescape fairsched_hai_init
#cgo nocallback fairsched_hai_init
#cgo noescape fairsched_hai_allocate
#cgo nocallback fairsched_hai_allocate
#cgo noescape fairsched_hai_table_from_differences
#cgo nocallback fairsched_hai_table_from_differences
#cgo noescape fairsched_hai_table_from_samples
#cgo nocallback fairsched_hai_table_from_samples
#include "fairsched.h"
*/
import "C"

import "fmt"

// ABIVersion returns the ABI version of the linked library (fairsched_abi_version): the
// FAIRSCHED_ABI_VERSION of the header it was built with, raised at every incompatible change
// of the C ABI. The package compares it with the header it was compiled against when it is
// initialized, and refuses to run with another, so the version returned is that header's too.
func ABIVersion() uint32 {
	return uint32(C.fairsched_abi_version())
}

// init refuses a library built from another ABI than the header this package was compiled
// against: every call would otherwise misread structs or status codes.
func init() {
	if library := ABIVersion(); library != C.FAIRSCHED_ABI_VERSION {
		panic(fmt.Sprintf("fairsched: the linked library speaks ABI %d, the header ABI %d: rebuild it with scripts/build-native",
			library, C.FAIRSCHED_ABI_VERSION))
	}
}

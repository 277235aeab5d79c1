package fairsched

// #include "fairsched.h"
import "C"

import "unsafe"

// HAI is a workspace for ReB's allocation of cores to a batch of jobs (Hu, Li, Guo), from each
// job's predicted job completion time (JCT) at every allocation: first the shortest-job-optimal
// start (by increasing least JCT, each job gets the smallest allocation reaching it while cores
// last), then HAI's transfers of cores from the jobs whose JCT rises least to those whose JCT
// falls most, while that lowers the total JCT.
//
// Each call takes an HAIBatch and writes one allocation (cores) and one predicted JCT per job
// into slices the caller provides, in one C call. A call that fails returns one of the Err
// values and writes nothing. An HAI holds only scratch space for batches of up to its capacity
// of jobs (60 bytes a job); it lives in C memory: Close it when done. It is not safe for
// concurrent use.
type HAI struct {
	native *object[*C.fairsched_hai]
}

// HAIBatch is a batch of jobs sharing TotalCores cores, allocated in steps of Theta cores.
// Caps[j] is job j's cap in cores, a positive multiple of Theta. JCT holds the JCT tables
// concatenated in job order: job j's is Caps[j]/Theta + 1 values, its JCT at 0, Theta,
// 2·Theta, ..., Caps[j] cores; the first may be +Inf (the job waits without cores), the others
// are finite and positive.
type HAIBatch struct {
	TotalCores uint32
	Theta      uint32
	Caps       []uint32
	JCT        []float64
}

// HAISummary is what a call did besides writing the allocation.
type HAISummary struct {
	// The total JCT before the first transfer: after the shortest-job-optimal start (for a
	// rebalance, after the free cores were handed out). +Inf while a job waits.
	JCTSumStart float64
	// The total JCT of the allocation written; at most JCTSumStart.
	JCTSum float64
	// Transfers of Theta cores made.
	Transfers uint32
}

// NewHAI returns a workspace for batches of up to capacity jobs.
func NewHAI(capacity uint32) (*HAI, error) {
	native, err := newObject(capacity, func(capacity C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_hai_storage_size(capacity, size)
	}, func(memory unsafe.Pointer, size C.size_t, capacity C.uint32_t, hai **C.fairsched_hai) C.fairsched_status {
		return C.fairsched_hai_init(memory, size, capacity, hai)
	})
	if err != nil {
		return nil, err
	}
	return &HAI{native: native}, nil
}

// Close frees the workspace's memory. Calls after the first return ErrClosed.
func (h *HAI) Close() error {
	return h.native.close()
}

// ShortestJobOptimal writes the shortest-job-optimal allocation alone (ReB Algorithm 1): each
// job's cores into cores and its predicted JCT into jct. Errors as Allocate.
func (h *HAI) ShortestJobOptimal(b HAIBatch, cores []uint32, jct []float64) (HAISummary, error) {
	return h.call(C.FAIRSCHED_HAI_SHORTEST_JOB_OPTIMAL, b, cores, jct)
}

// Allocate writes ReB's allocation, the shortest-job-optimal start then the HAI transfers
// (Algorithms 1 and 2): each job's cores into cores and its predicted JCT into jct, one per
// job each. Errors: ErrLengthMismatch (cores or jct not of one value per job, a table not of
// Caps[j]/Theta + 1 values), ErrNotPositive (Theta, a cap or a JCT zero or less, fewer cores
// than Theta), ErrCapacityFull (more jobs than the capacity), ErrOutOfRange (a cap not a
// multiple of Theta, a JCT above 2^60), ErrNotFinite (a NaN or infinite JCT, but +Inf at 0
// cores).
func (h *HAI) Allocate(b HAIBatch, cores []uint32, jct []float64) (HAISummary, error) {
	return h.call(C.FAIRSCHED_HAI_ALLOCATE, b, cores, jct)
}

// Rebalance rebalances in place from the allocation in cores, after a job arrived (add it
// with 0 cores) or left (drop it from the slices): every job keeps what it holds; the free
// cores go to the jobs below their optimum, shortest first; then the jobs that held no cores
// and still lack take cores from the others while that lowers the total JCT. Cores never move
// between two jobs that held some. From no allocation at all, this is Allocate. Errors as
// Allocate, and ErrOutOfRange for an allocation above its cap or not a multiple of Theta, or
// allocations adding up to more than TotalCores.
func (h *HAI) Rebalance(b HAIBatch, cores []uint32, jct []float64) (HAISummary, error) {
	return h.call(C.FAIRSCHED_HAI_REBALANCE, b, cores, jct)
}

// call makes the one C call of every method.
func (h *HAI) call(method C.uint32_t, b HAIBatch, cores []uint32, jct []float64) (HAISummary, error) {
	// The library writes cores and jct while it reads the batch.
	caps, jctIn := apart(b.Caps, cores), apart(b.JCT, jct)
	var summary C.fairsched_hai_summary
	err := h.native.call(func(handle *C.fairsched_hai) C.fairsched_status {
		return C.fairsched_hai_allocate(handle, method, C.uint32_t(b.TotalCores),
			C.uint32_t(b.Theta), uint32s(caps), C.size_t(len(caps)), doubles(jctIn),
			C.size_t(len(jctIn)), uint32s(cores), C.size_t(len(cores)), doubles(jct),
			C.size_t(len(jct)), &summary)
	})
	if err != nil {
		return HAISummary{}, err
	}
	return HAISummary{
		JCTSumStart: float64(summary.jct_sum_start),
		JCTSum:      float64(summary.jct_sum),
		Transfers:   uint32(summary.transfers),
	}, nil
}

// HAITableFromDifferences writes a job's JCT table from one known JCT and ReB's predicted
// differences (§3.3, §4.3) into table: JCT at 0, theta, ..., cap cores, with cap =
// (len(table) - 1)·theta. jctAtReference is the JCT on reference cores; differences[i] is
// JCT((i+1)·theta) - JCT((i+2)·theta), how much the JCT falls when the job gets theta more
// cores (negative past its optimum), len(table) - 2 of them. The table is summed outward from
// the reference; table[0] is +Inf (the job waits). Errors, writing nothing: ErrNotPositive
// (theta 0, a table of fewer than 2 values, a JCT of 0 or less), ErrOutOfRange (a cap above
// 2^32 - 1; a reference of 0, not a multiple of theta or above the cap; a JCT above 2^60),
// ErrLengthMismatch (differences not of len(table) - 2 values), ErrNotFinite (a NaN or
// infinite JCT or difference).
func HAITableFromDifferences(theta, reference uint32, jctAtReference float64, differences, table []float64) error {
	differences = apart(differences, table)
	return check(C.fairsched_hai_table_from_differences(C.uint32_t(theta), C.uint32_t(reference),
		C.double(jctAtReference), doubles(differences), C.size_t(len(differences)),
		doubles(table), C.size_t(len(table))))
}

// HAITableFromSamples fits Ernest's model JCT(a) = a0 + a1 a + a2/a + a3 ln a (every a_i >= 0)
// to measured runs (jct[i] seconds on cores[i] cores; at least four) by non-negative least
// squares, writes its table into table (JCT at 0, theta, ..., cap cores, cap =
// (len(table) - 1)·theta, +Inf at 0) and returns {a0, a1, a2, a3}. Errors, writing nothing:
// ErrNotPositive (theta 0, a table of fewer than 2 values), ErrOutOfRange (a cap above
// 2^32 - 1), then those of PAFErnestFit for the runs, then ErrNotPositive or ErrOutOfRange
// (above 2^60) for a JCT of the table.
func HAITableFromSamples(theta uint32, cores []uint32, jct []float64, table []float64) ([4]float64, error) {
	var a [4]float64
	jct = apart(jct, table)
	err := check(C.fairsched_hai_table_from_samples(C.uint32_t(theta), uint32s(cores),
		C.size_t(len(cores)), doubles(jct), C.size_t(len(jct)), doubles(table),
		C.size_t(len(table)), doubles(a[:])))
	if err != nil {
		return [4]float64{}, err
	}
	return a, nil
}

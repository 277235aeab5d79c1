package fairsched

// #include "fairsched.h"
import "C"

import (
	"math"
	"runtime"
	"slices"
	"unsafe"
)

// PAFMethod chooses how Allocate runs Algorithm 1; both give the same allocation.
type PAFMethod uint32

const (
	// PAFLiteral moves one slot per transfer, as the paper writes Algorithm 1: the reference.
	PAFLiteral PAFMethod = C.FAIRSCHED_PAF_LITERAL
	// PAFFast selects by threshold when the curves are concave, and moves blocks otherwise.
	PAFFast PAFMethod = C.FAIRSCHED_PAF_FAST
)

// PAF is a workspace for Performance-Aware Fair allocation (Chen, Wang, Li): slots move from
// jobs that barely slow down to jobs that speed up most, starting from weighted max-min fair
// shares, while every job keeps at least alpha of the progress its fair share gives it.
//
// A job is a weight (at least 1) and a progress curve p(0..=d): p(0) = 0, finite, never
// decreasing; its length minus one is the job's demand d. A PAF holds only scratch space for up
// to its capacity of jobs; it lives in C memory: Close it when done. It is not safe for
// concurrent use. A call that fails returns one of the Err values and writes nothing.
type PAF struct {
	native *object[*C.fairsched_paf]
	// Every Allocate's curves laid end to end, and where each starts: kept between calls, so
	// that a steady caller allocates only the result (a fresh flat copy of 200 curves was most
	// of a call's time, in the garbage collector).
	points  []float64
	offsets []uint32
}

// PAFAllocation is one Allocate call's result: per job (in the order given) and in total.
type PAFAllocation struct {
	Fair, Min, PAF                   []uint32  // fair share, minAlloc, PAF allocation
	FairProgress, PAFProgress        []float64 // progress at the fair share and at the PAF allocation
	Slots, Moved                     uint64    // slots allocated; slots moved from givers to takers
	TotalFairProgress, TotalProgress float64   // total progress at the fair shares and under PAF
	LargestLoss                      float64   // the largest 1 - p(paf)/p(fair) of a job
}

// NewPAF returns a workspace for calls of up to capacity jobs.
func NewPAF(capacity uint32) (*PAF, error) {
	native, err := newObject(capacity, func(capacity C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_paf_storage_size(capacity, size)
	}, func(memory unsafe.Pointer, size C.size_t, capacity C.uint32_t, paf **C.fairsched_paf) C.fairsched_status {
		return C.fairsched_paf_init(memory, size, capacity, paf)
	})
	if err != nil {
		return nil, err
	}
	return &PAF{native: native}, nil
}

// Close frees the workspace's memory. Calls after the first return ErrClosed.
func (p *PAF) Close() error {
	return p.native.close()
}

// PAFNoCurve is the curve of a job of demand slots whose progress curve is unknown: demand+1
// NaNs. Such a job keeps exactly its fair share and takes no part in transfers (PAF paper,
// INFOCOM 2018, §IV-A); its progress in the allocation is NaN.
func PAFNoCurve(demand uint32) []float64 {
	curve := make([]float64, int(demand)+1)
	for i := range curve {
		curve[i] = math.NaN()
	}
	return curve
}

// Allocate runs Algorithm 1 for jobs with weights[j] and curves[j] sharing slots slots, with
// fairness knob alpha in [0, 1]: fair shares, minimum allocations, PAF allocations and the
// progress at each, in one C call. A job whose curve is PAFNoCurve keeps its fair share. It lays
// the curves end to end first, into buffers the PAF keeps; to allocate many times over the
// same jobs without that copy, build them once with NewPAFJobs and call AllocateJobs.
func (p *PAF) Allocate(weights []uint32, curves [][]float64, slots uint32, alpha float64, method PAFMethod) (*PAFAllocation, error) {
	return fresh(func(a *PAFAllocation) error { return p.AllocateInto(a, weights, curves, slots, alpha, method) })
}

// AllocateInto is Allocate writing its result into a (ErrNullPointer when nil): a's slices
// are reused when they have room for every job (resliced to the number of jobs) and replaced
// otherwise, so that a caller allocating again and again into one PAFAllocation allocates
// nothing once it has room. A call that fails returns its error and leaves a as it was.
func (p *PAF) AllocateInto(a *PAFAllocation, weights []uint32, curves [][]float64, slots uint32, alpha float64, method PAFMethod) error {
	switch {
	case a == nil:
		return ErrNullPointer
	case len(curves) != len(weights):
		return ErrLengthMismatch
	}
	p.offsets, p.points = flatten(p.offsets[:0], p.points[:0], curves)
	return p.allocate(a, weights, p.offsets, p.points, slots, alpha, method)
}

// PAFJobs is a set of jobs laid out once for repeated allocation (AllocateJobs): their
// weights and curves copied into C memory and each curve checked there once, with where its
// concave tail starts, so that an allocation neither copies nor checks a curve again (that
// was a third of an allocation's instructions for the benchmark's 200 jobs). Later changes to
// the slices it was built from do not reach it. It may be shared by goroutines and by PAF
// workspaces. Close frees its C memory (or the garbage collector does, once it is
// unreachable); AllocateJobs then returns ErrClosed.
//
// Jobs the library refuses are kept as Go slices instead, so that AllocateJobs returns their
// error, as Allocate would.
type PAFJobs struct {
	n      int
	native *object[*C.fairsched_paf_jobs] // nil for refused jobs
	// Refused jobs only: the weights, and the curves end to end with where each starts.
	weights, offsets []uint32
	points           []float64
	closed           bool
}

// NewPAFJobs lays out jobs with weights[j] and curves[j] (ErrLengthMismatch for slices of
// different lengths) for AllocateJobs; ErrOutOfMemory when there is no C memory for them.
func NewPAFJobs(weights []uint32, curves [][]float64) (*PAFJobs, error) {
	if len(curves) != len(weights) {
		return nil, ErrLengthMismatch
	}
	total := 0
	for _, curve := range curves {
		total += len(curve)
	}
	offsets, points := flatten(make([]uint32, 0, len(curves)+1), make([]float64, 0, total), curves)
	// newObject's capacity is unused here: the size is the jobs' and their points'.
	native, err := newObject(0, func(_ C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_paf_jobs_storage_size(C.size_t(len(weights)), C.size_t(len(points)), size)
	}, func(memory unsafe.Pointer, size C.size_t, _ C.uint32_t, jobs **C.fairsched_paf_jobs) C.fairsched_status {
		return C.fairsched_paf_jobs_init(memory, size, uint32s(weights), C.size_t(len(weights)),
			uint32s(offsets), doubles(points), C.size_t(len(points)), jobs)
	})
	switch {
	case err == nil:
		return &PAFJobs{n: len(weights), native: native}, nil
	case err == ErrOutOfMemory || err == ErrCapacityTooLarge:
		return nil, err
	}
	return &PAFJobs{n: len(weights), weights: slices.Clone(weights), offsets: offsets, points: points}, nil
}

// Len is the number of jobs.
func (j *PAFJobs) Len() int {
	return j.n
}

// Close frees the jobs' C memory. Calls after the first return ErrClosed.
func (j *PAFJobs) Close() error {
	if j.closed {
		return ErrClosed
	}
	j.closed = true
	if j.native == nil {
		j.weights, j.offsets, j.points = nil, nil, nil
		return nil
	}
	return j.native.close()
}

// AllocateJobs is Allocate over jobs laid out by NewPAFJobs: the same result, without copying
// or checking a curve (only the result is allocated). A nil jobs is ErrNullPointer, closed
// ones ErrClosed.
func (p *PAF) AllocateJobs(jobs *PAFJobs, slots uint32, alpha float64, method PAFMethod) (*PAFAllocation, error) {
	return fresh(func(a *PAFAllocation) error { return p.AllocateJobsInto(a, jobs, slots, alpha, method) })
}

// AllocateJobsInto is AllocateJobs writing its result into a, as AllocateInto does: a
// scheduler that allocates over the same jobs every interval, into the same PAFAllocation,
// allocates no Go memory at all (AllocateJobs allocates the result's five slices each call).
func (p *PAF) AllocateJobsInto(a *PAFAllocation, jobs *PAFJobs, slots uint32, alpha float64, method PAFMethod) error {
	switch {
	case a == nil || jobs == nil:
		return ErrNullPointer
	case jobs.closed:
		return ErrClosed
	case jobs.native == nil:
		return p.allocate(a, jobs.weights, jobs.offsets, jobs.points, slots, alpha, method)
	}
	out := a.sized(jobs.n)
	var totals C.fairsched_paf_totals
	err := p.native.call(func(h *C.fairsched_paf) C.fairsched_status {
		return C.fairsched_paf_allocate_jobs(h, jobs.native.handle, C.uint32_t(slots), C.double(alpha),
			C.uint32_t(method), uint32s(out.Fair), uint32s(out.Min), uint32s(out.PAF), doubles(out.FairProgress),
			doubles(out.PAFProgress), &totals)
	})
	runtime.KeepAlive(jobs)
	return a.complete(out, totals, err)
}

// fresh runs an Into method on a new PAFAllocation and returns it, or nil and the error.
func fresh(into func(*PAFAllocation) error) (*PAFAllocation, error) {
	a := new(PAFAllocation)
	if err := into(a); err != nil {
		return nil, err
	}
	return a, nil
}

// flatten appends the curves end to end to points, and to offsets 0 and where each curve
// ends.
func flatten(offsets []uint32, points []float64, curves [][]float64) ([]uint32, []float64) {
	offsets = append(offsets, 0)
	for _, curve := range curves {
		points = append(points, curve...)
		offsets = append(offsets, uint32(len(points)))
	}
	return offsets, points
}

// allocate is one fairsched_paf_allocate over flat jobs, into a.
func (p *PAF) allocate(a *PAFAllocation, weights, offsets []uint32, points []float64, slots uint32, alpha float64, method PAFMethod) error {
	n := len(weights)
	out := a.sized(n)
	weights = apart(weights, out.Fair, out.Min, out.PAF)
	var totals C.fairsched_paf_totals
	err := p.native.call(func(h *C.fairsched_paf) C.fairsched_status {
		return C.fairsched_paf_allocate(h, uint32s(weights), C.size_t(n), uint32s(offsets),
			doubles(points), C.size_t(len(points)), C.uint32_t(slots), C.double(alpha),
			C.uint32_t(method), uint32s(out.Fair), uint32s(out.Min), uint32s(out.PAF), doubles(out.FairProgress),
			doubles(out.PAFProgress), &totals)
	})
	return a.complete(out, totals, err)
}

// sized returns an allocation of n jobs for the library to write: a's slices resliced to n
// where they have room for it and share no memory with one another, new ones otherwise. a
// itself is not changed.
func (a *PAFAllocation) sized(n int) PAFAllocation {
	fair, fairProgress := resized(a.Fair, n), resized(a.FairProgress, n)
	least := separate(resized(a.Min, n), fair)
	return PAFAllocation{
		Fair: fair, Min: least, PAF: separate(resized(a.PAF, n), fair, least),
		FairProgress: fairProgress, PAFProgress: separate(resized(a.PAFProgress, n), fairProgress),
	}
}

// resized is s resliced to length n when its capacity allows, a new slice of n otherwise.
func resized[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// complete makes a the allocation out that the call returning totals and err wrote, or
// returns the call's error and leaves a as it was (a failed call writes nothing).
func (a *PAFAllocation) complete(out PAFAllocation, totals C.fairsched_paf_totals, err error) error {
	if err != nil {
		return err
	}
	*a = out
	a.Slots, a.Moved = uint64(totals.slots), uint64(totals.moved)
	a.TotalFairProgress, a.TotalProgress = float64(totals.fair_progress), float64(totals.paf_progress)
	a.LargestLoss = float64(totals.largest_loss)
	return nil
}

// Enforce decides which jobs get len(out) free slots (§IV-B): each to a job below its target,
// the one holding the fewest slots per unit of weight (smallest running[j] / weights[j], as
// Spark's fair scheduler; ties to the lower index). weights, targets and running hold one
// value per job (ErrLengthMismatch otherwise; a weight of 0 is ErrNotPositive). It writes one
// job index per slot into out and returns how many, fewer when every job reaches its target.
func (p *PAF) Enforce(weights, targets, running, out []uint32) (int, error) {
	weights, targets, running = apart(weights, out), apart(targets, out), apart(running, out)
	var assigned C.size_t
	err := p.native.call(func(h *C.fairsched_paf) C.fairsched_status {
		return C.fairsched_paf_enforce(h, uint32s(weights), C.size_t(len(weights)),
			uint32s(targets), C.size_t(len(targets)),
			uint32s(running), C.size_t(len(running)), uint32s(out), C.size_t(len(out)), &assigned)
	})
	return int(assigned), err
}

// PAFErnestFit fits Ernest's model t(x) = a0 + a1 x + a2/x + a3 ln x (every a_i >= 0) to
// samples (slots[i] slots, normalized run time runtimes[i]; ErrLengthMismatch for slices of
// different lengths) by non-negative least squares.
func PAFErnestFit(slots []uint32, runtimes []float64) ([4]float64, error) {
	var a [4]float64
	err := check(C.fairsched_paf_ernest_fit(uint32s(slots), C.size_t(len(slots)),
		doubles(runtimes), C.size_t(len(runtimes)), doubles(a[:])))
	return a, err
}

// PAFErnestTabulate writes the progress curve p(x) = 1/t(x) of an Ernest model into out, for
// x < len(out) (a job of demand len(out) - 1), never falling: past the shortest run time the
// curve stays flat.
func PAFErnestTabulate(coefficients [4]float64, out []float64) error {
	return check(C.fairsched_paf_ernest_tabulate(doubles(coefficients[:]), doubles(out),
		C.size_t(len(out))))
}

// PAFCurveCheck checks a curve p(0..=d) as Allocate does and returns the smallest k such that
// it is concave on k..=d (0: concave everywhere).
func PAFCurveCheck(points []float64) (concaveFrom uint32, err error) {
	var k C.uint32_t
	err = check(C.fairsched_paf_curve_check(doubles(points), C.size_t(len(points)), &k))
	return uint32(k), err
}

// PAFConcaveEnvelope writes the upper concave envelope of the curve points into out (of the
// same length, ErrLengthMismatch otherwise): the remedy for non-concave curves. An out that
// shares memory with points is given the envelope of a copy of points.
func PAFConcaveEnvelope(points, out []float64) error {
	points = apart(points, out)
	return check(C.fairsched_paf_concave_envelope(doubles(points), C.size_t(len(points)),
		doubles(out), C.size_t(len(out))))
}

// PAFCurveFromTasks builds a job's progress curve from its observed task durations (PAF paper,
// INFOCOM 2018, §II-A, §II-B, §V-B): the job alone on x slots, its tasks started in order on
// the slot that frees first, a slot's first task cold (its duration), its later ones warm
// (duration / warmup, the JVM warm-up factor, at least 1). It writes p(0..=d) into out
// (len(durations)+1 values, ErrLengthMismatch otherwise): p(0) = 0, p(x) the running maximum
// of the shortest JCT over the JCT on x slots, 1 from the fewest slots giving the shortest JCT
// on; and returns that shortest JCT. The slots' heap is a scratch slice it allocates. Errors:
// ErrEmpty (no task), ErrNotFinite or ErrNegative (a duration), ErrOutOfRange (durations
// summing beyond math.MaxFloat64), ErrNotFinite or ErrOutOfRange (warmup NaN, infinite or
// below 1), ErrNotPositive (every duration 0: the job takes no time); out is then unchanged.
// An out that shares memory with durations is given the curve of a copy of durations.
func PAFCurveFromTasks(durations []float64, warmup float64, out []float64) (shortest float64, err error) {
	durations = apart(durations, out)
	scratch := make([]float64, len(durations))
	var s C.double
	err = check(C.fairsched_paf_curve_from_tasks(doubles(durations), C.size_t(len(durations)),
		C.double(warmup), doubles(scratch), C.size_t(len(scratch)), doubles(out), C.size_t(len(out)), &s))
	return float64(s), err
}

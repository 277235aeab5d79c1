package fairsched

// #include "fairsched.h"
import "C"

import "unsafe"

// DRRPredictor predicts executors' demand series from their application's past runs, as
// Elasecutor's prediction module does for recurring applications (Liu, Xu: Elasecutor: Elastic
// Executor Scheduling in Data Analytics Systems, IEEE/ACM Transactions on Networking, 2021,
// §IV-C): the mean of an application's last window runs (the paper averages the latest 3), and
// the peak the application asks for until that many runs are recorded. Series of different
// lengths are averaged step by step over the runs that lasted that long: the prediction runs as
// long as the longest, and each step is the mean of the runs that reached it.
//
// Series are time-major and flat (see the package documentation), over the predictor's kinds,
// each run 1 to its steps. Applications are the caller's ids. A call that fails returns one of
// the Err values and changes nothing. A DRRPredictor lives in C memory: Close it when done. It
// is not safe for concurrent use.
type DRRPredictor struct {
	native *object[*C.fairsched_drr_predictor]
}

// DRRPrediction is what DRRPredictor.Predict wrote.
type DRRPrediction struct {
	Steps int // the steps of the series written
	Runs  int // the runs averaged: the window, or 0 when the series is the peak
}

// NewDRRPredictor returns a predictor with no application, for up to capacity applications,
// each keeping its last window runs (1 to 16) of up to steps steps (1 to 256) over kinds kinds
// (1 to 8). Errors: ErrEmpty (no kind or step), ErrCapacityFull (more than 8 kinds or 256
// steps), ErrNotPositive (a window of 0), ErrOutOfRange (a window above 16), besides the
// capacity's.
func NewDRRPredictor(capacity uint32, kinds int, window, steps uint32) (*DRRPredictor, error) {
	native, err := newObject(capacity, func(capacity C.uint32_t, size *C.size_t) C.fairsched_status {
		return C.fairsched_drr_predictor_storage_size(capacity, C.size_t(kinds), C.uint32_t(window),
			C.uint32_t(steps), size)
	}, func(memory unsafe.Pointer, size C.size_t, capacity C.uint32_t, predictor **C.fairsched_drr_predictor) C.fairsched_status {
		return C.fairsched_drr_predictor_init(memory, size, capacity, C.size_t(kinds), C.uint32_t(window),
			C.uint32_t(steps), predictor)
	})
	if err != nil {
		return nil, err
	}
	return &DRRPredictor{native: native}, nil
}

// Close frees the predictor's memory. Calls after the first return ErrClosed.
func (p *DRRPredictor) Close() error {
	return p.native.close()
}

// Record records a finished run of application id: run is the demand series one of its
// executors used. The first run of an id adds the application; once its window is full, each
// run replaces the oldest. Errors: ErrLengthMismatch (not whole steps), ErrEmpty (no step),
// ErrCapacityFull (more steps than the predictor keeps, or a new application when it holds its
// capacity of them), ErrNotFinite or ErrNegative (an amount).
func (p *DRRPredictor) Record(id uint64, run []float64) error {
	return p.native.call(func(h *C.fairsched_drr_predictor) C.fairsched_status {
		return C.fairsched_drr_predictor_record(h, C.uint64_t(id), doubles(run), C.size_t(len(run)))
	})
}

// Forget forgets application id and its runs: its next run is a first one. ErrUnknownID for
// an id not held.
func (p *DRRPredictor) Forget(id uint64) error {
	return p.native.call(func(h *C.fairsched_drr_predictor) C.fairsched_status {
		return C.fairsched_drr_predictor_forget(h, C.uint64_t(id))
	})
}

// Runs returns how many runs of application id are kept, 0 to the window (0 for an id not
// held).
func (p *DRRPredictor) Runs(id uint64) (int, error) {
	var runs C.uint32_t
	err := p.native.call(func(h *C.fairsched_drr_predictor) C.fairsched_status {
		return C.fairsched_drr_predictor_runs(h, C.uint64_t(id), &runs)
	})
	return int(runs), err
}

// Predict writes the predicted demand series of one executor of application id to
// series[:Steps*kinds]: with the window's runs recorded, their mean; otherwise peak (one amount
// per kind, finite and not negative) for steps steps (1 to the predictor's). Room for the
// predictor's steps always suffices. One C call, no allocation. Errors: ErrLengthMismatch (peak
// not of the predictor's kinds, series shorter than the prediction), ErrNotFinite or
// ErrNegative (an amount of the peak), ErrEmpty (0 steps), ErrCapacityFull (more steps than the
// predictor keeps); a failed call writes nothing.
func (p *DRRPredictor) Predict(id uint64, peak []float64, steps uint32, series []float64) (DRRPrediction, error) {
	// The library writes series while it reads peak.
	peak = apart(peak, series)
	var prediction C.fairsched_drr_prediction
	err := p.native.call(func(h *C.fairsched_drr_predictor) C.fairsched_status {
		return C.fairsched_drr_predictor_predict(h, C.uint64_t(id), doubles(peak), C.size_t(len(peak)),
			C.uint32_t(steps), doubles(series), C.size_t(len(series)), &prediction)
	})
	if err != nil {
		return DRRPrediction{}, err
	}
	return DRRPrediction{Steps: int(prediction.steps), Runs: int(prediction.runs)}, nil
}

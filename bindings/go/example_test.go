package fairsched_test

import (
	"fmt"
	"log"

	fairsched "github.com/fairsched/fairsched/bindings/go"
)

// The CFQ paper's example (Fig. 2 and 3): three slots; jobs 1 and 2 arrive at 0, job 3 at 4.
func ExampleCFQ() {
	cfq, err := fairsched.NewCFQ(8, 3, 0) // up to 8 jobs, 3 slots, clock at 0
	check(err)
	defer cfq.Close()
	free := make([]uint64, 3)
	offer := func(now float64, slots int) {
		n, err := cfq.Offer(free[:slots])
		check(err)
		fmt.Printf("t=%v: %d slots go to jobs %v\n", now, slots, free[:n])
	}

	// Job 1 has one task (9 slot-time units), job 2 has four (16 in all).
	check(cfq.Arrive(0, 1, 9, 1))
	check(cfq.Arrive(0, 2, 16, 1))
	check(cfq.SetPending(1, 1))
	check(cfq.SetPending(2, 4))
	offer(0, 3)

	// Job 3 has two tasks (8 in all); two slots free at 4 and two at 8.
	check(cfq.Arrive(4, 3, 8, 1))
	check(cfq.SetPending(3, 2))
	offer(4, 2)
	check(cfq.Complete(8, 3))
	offer(8, 2)
	check(cfq.Complete(9, 1))
	check(cfq.Complete(12, 2))

	for id := uint64(1); id <= 3; id++ {
		job, err := cfq.Job(id)
		check(err)
		fmt.Printf("job %d: completed at %v (CFQ), %v in GPS\n", id, *job.Completion, *job.GPSCompletion)
	}
	// Output:
	// t=0: 3 slots go to jobs [1 2 2]
	// t=4: 2 slots go to jobs [3 3]
	// t=8: 2 slots go to jobs [2 2]
	// job 1: completed at 9 (CFQ), 7 in GPS
	// job 2: completed at 12 (CFQ), 11 in GPS
	// job 3: completed at 8 (CFQ), 10.333333333333334 in GPS
}

// check stops the example at the first error.
func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// The PAF paper's Fig. 6: two jobs of equal weight start from 6 slots each; the job whose
// progress barely drops gives two slots to the one that gains most. Then three free slots are
// handed to the jobs furthest below their PAF allocations.
func ExamplePAF() {
	paf, err := fairsched.NewPAF(2) // up to 2 jobs per call
	check(err)
	defer paf.Close()
	flat := []float64{0, 0.25, 0.5, 0.625, 0.75, 0.8125, 0.875, 0.90625, 0.9375, 0.953125, 0.96875, 0.9765625, 0.984375}
	steep := []float64{0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.84375, 0.9375, 1, 1.0625, 1.09375, 1.125}
	a, err := paf.Allocate([]uint32{1, 1}, [][]float64{flat, steep}, 12, 0.8, fairsched.PAFFast)
	check(err)
	fmt.Printf("fair %v, minimum %v, PAF %v\n", a.Fair, a.Min, a.PAF)
	fmt.Printf("progress %v -> %v, total %.4f -> %.4f\n", a.FairProgress, a.PAFProgress, a.TotalFairProgress, a.TotalProgress)

	given := make([]uint32, 3)
	n, err := paf.Enforce(a.PAF, []uint32{4, 6}, given)
	check(err)
	fmt.Printf("free slots go to jobs %v\n", given[:n])
	// Output:
	// fair [6 6], minimum [4 5], PAF [4 8]
	// progress [0.875 0.75] -> [0.75 0.9375], total 1.6250 -> 1.6875
	// free slots go to jobs [1 1]
}

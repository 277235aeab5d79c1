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

package fairsched_test

import (
	"fmt"
	"math"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// ReB's micro-benchmark (§4.2): four identical jobs whose optimum is 40 cores share 120 cores,
// allocated in steps of 10. Then a fifth arrives.
func ExampleHAI() {
	hai, err := fairsched.NewHAI(8) // batches of up to 8 jobs
	check(err)
	defer hai.Close()
	// A job's JCT at 0, 10, ..., 60 cores: it waits without cores, is fastest on 40.
	table := []float64{math.Inf(1), 170, 100, 84, 80, 82, 87}
	batch := fairsched.HAIBatch{TotalCores: 120, Theta: 10}
	for range 4 {
		batch.Caps = append(batch.Caps, 60)
		batch.JCT = append(batch.JCT, table...)
	}
	cores, jct := make([]uint32, 4), make([]float64, 4)

	_, err = hai.ShortestJobOptimal(batch, cores, jct)
	check(err)
	fmt.Println("shortest-job-optimal:", cores, "JCT", jct)
	summary, err := hai.Allocate(batch, cores, jct)
	check(err)
	fmt.Println("HAI:", cores, "JCT", jct, "after", summary.Transfers, "transfers")

	// A fifth job arrives with no core: rebalance from the current allocation.
	batch.Caps = append(batch.Caps, 60)
	batch.JCT = append(batch.JCT, table...)
	cores, jct = append(cores, 0), append(jct, 0)
	summary, err = hai.Rebalance(batch, cores, jct)
	check(err)
	fmt.Println("arrival:", cores, "total JCT", summary.JCTSum, "after", summary.Transfers, "transfers")
	// Output:
	// shortest-job-optimal: [40 40 40 0] JCT [80 80 80 +Inf]
	// HAI: [30 30 30 30] JCT [84 84 84 84] after 3 transfers
	// arrival: [20 20 30 30 20] total JCT 468 after 2 transfers
}

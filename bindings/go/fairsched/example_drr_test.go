package fairsched_test

import (
	"fmt"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
)

// Elasecutor's scheduler wired to events: the predictor turns an application's past runs into
// its executors' demand series, each machine's timeline places them at its heartbeat, and time
// moves on. Two kinds (cores, GB) in steps of a caller-chosen length.
func ExampleDRRTimeline() {
	predictor, err := fairsched.NewDRRPredictor(64, 2, 3, 8) // the last 3 runs of up to 8 steps
	check(err)
	defer predictor.Close()
	machine, err := fairsched.NewDRRTimeline(16, []float64{8, 32}, 8) // 8 cores, 32 GB, 8 steps
	check(err)
	defer machine.Close()

	// Application 7 ran three times: a busy first step, then less.
	for _, run := range [][]float64{{4, 8, 2, 8}, {4, 10, 2, 6}, {4, 12, 2, 4, 1, 2}} {
		check(predictor.Record(7, run))
	}
	demand := make([]float64, 8*2)
	prediction, err := predictor.Predict(7, []float64{4, 12}, 8, demand)
	check(err)
	demand = demand[:prediction.Steps*2]
	fmt.Println("predicted:", demand, "from", prediction.Runs, "runs")

	// A heartbeat: application 7 wants 3 executors of that demand; two fit now.
	placements := make([]uint32, 3)
	beat, err := machine.Heartbeat(demand, []uint32{uint32(prediction.Steps)}, []uint32{3}, fairsched.MetricDRR, placements)
	check(err)
	fmt.Println("placed", beat.Placed, "executors, ids from", beat.FirstID)
	available := make([]float64, 8*2)
	check(machine.Available(available))
	fmt.Println("available:", available[:6])

	// Two steps later their busy steps are over: the third fits.
	_, err = machine.Advance(2)
	check(err)
	id, err := machine.Place(demand)
	fmt.Println("third executor:", id, err)
	// Output:
	// predicted: [4 10 2 6 1 2] from 3 runs
	// placed 2 executors, ids from 1
	// available: [0 12 4 20 6 28]
	// third executor: 3 <nil>
}

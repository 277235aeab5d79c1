package fairsched_test

import (
	"fmt"
	"log"
	"slices"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
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

// The naive profiler estimates a new job's slot-time from the tasks finished so far; once the
// job's own tasks show it is longer, Reprofile corrects it as if it had been known at arrival.
func ExampleCFQProfiler() {
	var profiler fairsched.CFQProfiler               // the zero value is empty
	check(profiler.ObserveBatch([]float64{3, 5, 4})) // three tasks finished: mean 4
	slotTime, err := profiler.Estimate(10)           // a job of 10 tasks
	check(err)

	cfq, err := fairsched.NewCFQ(8, 2, 0)
	check(err)
	defer cfq.Close()
	check(cfq.Arrive(0, 1, slotTime, 1))
	check(cfq.Reprofile(3, 1, 60)) // its tasks run 6 each
	job, err := cfq.Job(1)
	check(err)
	fmt.Println(slotTime, job.SlotTime, job.VirtualFinish)
	// Output: 40 60 60
}

// check stops the example at the first error.
func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// The QKnobler paper's Example 1: 200 CPUs and 1000 GB shared by user A, whose tasks need
// <1 CPU, 6 GB>, and user B, <1 CPU, 2 GB>. Divisible DRF equalizes their dominant shares at
// 6/11; QKnobler at ρ = 0 allocates for efficiency alone.
func ExampleQKnoblerAllocate() {
	capacity := []float64{200, 1000} // CPUs, GB
	weights := []float64{1, 1}       // A, B
	demands := []float64{1, 6 /* A */, 1, 2 /* B */}

	drf, err := fairsched.DRFDivisible(capacity, weights, demands)
	check(err)
	fmt.Printf("DRF: A %.3f tasks, B %.3f, dominant shares %.4f (6/11), φ = %.4f (11/6)\n",
		drf.Tasks[0], drf.Tasks[1], drf.Shares[0], drf.Phi)

	efficient, err := fairsched.QKnoblerAllocate(capacity, weights, demands, 0)
	check(err)
	fmt.Printf("QKnobler at ρ = 0: A %v tasks, B %v; sharing incentive from ρ = %.4f (11/12)\n",
		efficient.Whole[0], efficient.Whole[1], efficient.Summary.SharingIncentiveRho)
	// Output:
	// DRF: A 90.909 tasks, B 109.091, dominant shares 0.5455 (6/11), φ = 1.8333 (11/6)
	// QKnobler at ρ = 0: A 150 tasks, B 50; sharing incentive from ρ = 0.9167 (11/12)
}

// Example 1 with whole tasks: discrete DRF starts one task at a time for the user with the
// lowest dominant share, until no task fits.
func ExampleDRFQueue() {
	queue, err := fairsched.NewDRFQueue(8, []float64{200, 1000}) // up to 8 users; CPUs, GB
	check(err)
	defer queue.Close()
	const a, b = 1, 2
	check(queue.AddUser(a, 1, []float64{1, 6})) // weight 1, <1 CPU, 6 GB> a task
	check(queue.AddUser(b, 1, []float64{1, 2}))
	check(queue.SetPending(a, 1000))
	check(queue.SetPending(b, 1000))

	started := make([]uint64, 300)
	n, err := queue.AllocateRound([]float64{200, 1000}, started)
	check(err)
	fmt.Printf("%d tasks started\n", n)
	for _, id := range []uint64{a, b} {
		user, err := queue.User(id)
		check(err)
		fmt.Printf("user %d: %d tasks, dominant share %.3f\n", id, user.Running, user.DominantShare)
	}
	next, _, err := queue.Next()
	check(err)
	fmt.Printf("next: user %d\n", next)
	// Output:
	// 200 tasks started
	// user 1: 91 tasks, dominant share 0.546
	// user 2: 109 tasks, dominant share 0.545
	// next: user 2
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
	n, err := paf.Enforce([]uint32{1, 1}, a.PAF, []uint32{4, 6}, given)
	check(err)
	fmt.Printf("free slots go to jobs %v\n", given[:n])
	// Output:
	// fair [6 6], minimum [4 5], PAF [4 8]
	// progress [0.875 0.75] -> [0.75 0.9375], total 1.6250 -> 1.6875
	// free slots go to jobs [1 1]
}

// Elasecutor's MinFrag on one heartbeat of a machine of 4 CPUs and 8 GB over four steps, half
// of it busy until a running executor finishes at step 2: executor 0 needs all that is free
// for two steps, executor 1 one CPU for four. Executor 0 leaves nothing idle until t_run (θ =
// 0), so it goes first, and executor 1 no longer fits; scored across this machine and an idle
// one, it goes to the idle one.
func ExampleDRRMinFrag() {
	capacity := []float64{4, 8}                    // CPUs, GB
	available := []float64{2, 4, 2, 4, 4, 8, 4, 8} // step t's CPUs and GB at 2t and 2t+1
	drr, _, err := fairsched.DRRMachine(capacity, available, 2)
	check(err)
	fmt.Printf("θ(j) until t_run = 2: %v\n", drr)

	demands := []float64{2, 4, 2, 4 /* executor 0 */, 1, 0, 1, 0, 1, 0, 1, 0 /* executor 1 */}
	steps := []uint32{2, 4}
	placements := make([]uint32, len(steps))
	beat, err := fairsched.DRRMinFrag(capacity, available, 2, demands, steps, fairsched.MetricDRR, placements)
	check(err)
	fmt.Printf("placed %v; t_run %d, θ(j) %v; available %v\n", placements[:beat.Placed], beat.TRun, beat.DRR, available)

	capacities := append(slices.Clone(capacity), capacity...)
	cluster := append(slices.Clone(available), 4, 8, 4, 8, 4, 8, 4, 8)
	fits, scores := make([]bool, 2), make([]float64, 2)
	check(fairsched.DRRScoreMachines(capacities, 2, cluster, []uint32{2, 4}, demands[4:],
		fairsched.MetricDRR, fits, scores))
	fmt.Printf("executor 1: fits %v, θ(1, j) %v\n", fits, scores)
	// Output:
	// θ(j) until t_run = 2: 0.5
	// placed [0]; t_run 2, θ(j) 0; available [0 0 0 0 4 8 4 8]
	// executor 1: fits [false true], θ(1, j) [+Inf 1]
}

package fairsched_test

import (
	"fmt"
	"testing"
)

// BenchmarkDecisions measures the cost per scheduling decision through cgo when decisions are
// made k at a time, on the workload the Rust (bench/) and Java benchmarks run: 10,000 jobs
// arrive at 0 with slot-times 1 + (i·7919 mod 10007) (weight 1, id i); jobs 0..4,999 have one
// pending task each, the others wait, idle, in a FIFO. One iteration offers k slots (draining
// k jobs), then one SetPendingBatch gives a task to the k jobs at the front of the FIFO, and
// the drained jobs join its back. The backlog size is constant, so every iteration costs the
// same.
func BenchmarkDecisions(b *testing.B) {
	for _, k := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) { benchmarkDecisions(b, k) })
	}
}

func benchmarkDecisions(b *testing.B, k int) {
	const jobs = 10_000
	c := newCFQ(b, jobs, 1000, 0)
	for i := range uint64(jobs) {
		must(b, c.Arrive(0, i, float64(1+i*7919%10007), 1))
	}
	idle := make([]uint64, 0, jobs/2) // a ring: its front is at next
	for i := range uint64(jobs) {
		if i < jobs/2 {
			must(b, c.SetPending(i, 1))
		} else {
			idle = append(idle, i)
		}
	}
	next := 0
	given := make([]uint64, k)
	reentering := make([]uint64, k)
	ones := make([]uint32, k)
	for i := range ones {
		ones[i] = 1
	}

	decisions := 0
	for b.Loop() {
		n, err := c.Offer(given)
		if err != nil {
			b.Fatal(err)
		}
		// The n jobs at the front of the FIFO re-enter the backlog; the n drained take their
		// places, which are now at its back.
		for i, drained := range given[:n] {
			reentering[i], idle[next] = idle[next], drained
			next = (next + 1) % len(idle)
		}
		if err := c.SetPendingBatch(reentering[:n], ones[:n]); err != nil {
			b.Fatal(err)
		}
		decisions += n
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
}

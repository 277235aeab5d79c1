package fairsched_test

// The benchmarks of every algorithm through cgo, on exactly the workloads of the Rust criterion
// benchmarks (bench/src/*.rs, bench/benches/*.rs: same inputs, same order), so that each
// figure divided by its Rust twin's is the binding's cost. Run from bindings/go/fairsched
// (about 100 seconds; the library built by ../../../scripts/build-native --testing):
//
//	go test -tags fairschedtesting -run '^$' -bench . -count 5 ./...
//
// (-bench DRF and so on for one algorithm; -benchtime 100ms -count 1 for a quick check that
// every workload runs and agrees with Rust). FAIRSCHED_BENCH_FILTER in the environment, a
// regular expression, runs only the workloads whose Rust criterion id it matches, as
// criterion's filter and the Java harness's (scripts/bench-report runs each workload beside its
// Rust twin that way). The Rust twins: cargo bench -p fairsched-bench --bench
// <cfq|drf|paf|hai|drr>.
//
// Every benchmark first checks its answers against the Rust workload's: a checksum (FNV-1a
// over 64-bit words, see checksum) pinned in bench/tests/bindings.rs (cargo test -p
// fairsched-bench --test bindings) and in pinned below; a mismatch fails the benchmark. Besides
// Go's own lines, TestMain prints, after all benchmarks, one line per workload, exactly
//
//	fairsched-bench cgo/<Rust criterion id> <ns>
//
// <ns> being the median over the -count runs of nanoseconds per operation (testing.B's
// timing: elapsed time of the b.Loop iterations over their number); an operation is one
// decision for the CFQ batches (cfq_batch_10k/k, k decisions an iteration, as Rust's
// throughput) and one call of the binding's function or method otherwise:
//
//   - cfq_batch_10k/1, /16, /256: CFQ.Offer of k slots then SetPendingBatch of k jobs;
//   - drf_next_user/queue/10000: DRFQueue.StartNext;
//   - drf_round/queue/10000: DRFQueue.AllocateRound starting 256 tasks;
//   - qknobler_allocate/m4/10, /1000: QKnoblerAllocate at ρ = 0.5;
//   - paf_allocate_200_jobs_8000_slots/fast: PAF.AllocateJobsInto over jobs laid out once;
//   - ernest_fit/10_samples: PAFErnestFit;
//   - hai_allocate/heaps/n=50,C=200: HAI.Allocate;
//   - drr_heartbeat/min_frag/Drr: DRRMinFragExecutors over executors laid out once (with the
//     copy of the available series, as Rust);
//   - drr_timeline/heartbeat: DRRTimeline.HeartbeatExecutors over the same executors on a fresh
//     timeline (built untimed).

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/fairsched/fairsched/bindings/go/fairsched"
)

// pinned holds the checksums of the Rust workloads' answers (bench/tests/bindings.rs).
var pinned = map[string]uint64{
	"cfq_batch_10k/1":                       0x3a11_8567_9d3e_d4e1,
	"cfq_batch_10k/16":                      0x3eae_5cc3_5c42_ba91,
	"cfq_batch_10k/256":                     0x122c_1b98_ce90_daa7,
	"drf_next_user/queue/10000":             0x1fb4_4726_9073_5a75,
	"drf_round/queue/10000":                 0x969c_ed82_8caa_48a7,
	"qknobler_allocate/m4/10":               0x2bcb_3137_55f6_7d6e,
	"qknobler_allocate/m4/1000":             0xc4f9_23f8_934d_ab3d,
	"paf_allocate_200_jobs_8000_slots/fast": 0xd8e6_612e_c434_cbce,
	"ernest_fit/10_samples":                 0xe24e_a343_4fa9_5126,
	"hai_allocate/heaps/n=50,C=200":         0x9d6e_44ca_4af2_caef,
	"drr_heartbeat/min_frag/Drr":            0xe992_3146_054e_9079,
	"drr_timeline/heartbeat":                0x087a_bcff_2a46_b391,
}

// checksum is FNV-1a over 64-bit words, as bench/tests/bindings.rs computes it: each word v
// makes h = (h ^ v) · 0x100000001b3 (wrapping); a float enters as its IEEE-754 bits.
type checksum uint64

func newChecksum() checksum { return 0xcbf2_9ce4_8422_2325 }

func (h *checksum) word(v uint64) { *h = (*h ^ checksum(v)) * 0x100_0000_01b3 }

func (h *checksum) real(x float64) { h.word(math.Float64bits(x)) }

// agree fails the benchmark unless sum is the Rust workload's checksum for id.
func agree(b *testing.B, id string, sum checksum) {
	b.Helper()
	want, ok := pinned[id]
	if !ok || uint64(sum) != want {
		b.Fatalf("%s: checksum %016x, Rust's %016x (known: %v)", id, uint64(sum), want, ok)
	}
}

// filter is FAIRSCHED_BENCH_FILTER, compiled by TestMain (empty: every workload).
var filter *regexp.Regexp

// only skips the workload id unless the filter matches it.
func only(b *testing.B, id string) {
	if !filter.MatchString(id) {
		b.SkipNow()
	}
}

// results holds every run's ns per operation by Rust criterion id, in the order first run.
var results struct {
	sync.Mutex
	order []string
	runs  map[string][]float64
}

// record notes one run of workload id: ops operations in the b.Loop iterations just ended.
func record(b *testing.B, id string, ops int) {
	ns := float64(b.Elapsed().Nanoseconds()) / float64(ops)
	results.Lock()
	defer results.Unlock()
	if results.runs == nil {
		results.runs = map[string][]float64{}
	}
	if _, seen := results.runs[id]; !seen {
		results.order = append(results.order, id)
	}
	results.runs[id] = append(results.runs[id], ns)
}

// TestMain runs the tests and benchmarks, then prints the fairsched-bench lines of the
// benchmarks that ran (none without -bench).
func TestMain(m *testing.M) {
	var err error
	if filter, err = regexp.Compile(os.Getenv("FAIRSCHED_BENCH_FILTER")); err != nil {
		fmt.Fprintln(os.Stderr, "FAIRSCHED_BENCH_FILTER:", err)
		os.Exit(2)
	}
	code := m.Run()
	results.Lock()
	for _, id := range results.order {
		runs := slices.Clone(results.runs[id])
		sort.Float64s(runs)
		median := runs[len(runs)/2]
		if len(runs)%2 == 0 {
			median = (runs[len(runs)/2-1] + runs[len(runs)/2]) / 2
		}
		fmt.Printf("fairsched-bench cgo/%s %.1f\n", id, median)
	}
	results.Unlock()
	os.Exit(code)
}

// BenchmarkDecisions measures the cost per scheduling decision through cgo when decisions are
// made k at a time, on the workload the Rust (bench/, cfq_batch_10k) and Java benchmarks run:
// 10,000 jobs arrive at 0 with slot-times 1 + (i·7919 mod 10007) (weight 1, id i); jobs
// 0..4,999 have one pending task each, the others wait, idle, in a FIFO. One iteration offers
// k slots (draining k jobs), then one SetPendingBatch gives a task to the k jobs at the front
// of the FIFO, and the drained jobs join its back. The backlog size is constant, so every
// iteration costs the same. The checksum folds in the ids given by the first 1,000 iterations
// (before the timed ones).
func BenchmarkDecisions(b *testing.B) {
	for _, k := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) { benchmarkDecisions(b, k) })
	}
}

func benchmarkDecisions(b *testing.B, k int) {
	id := fmt.Sprintf("cfq_batch_10k/%d", k)
	only(b, id)
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
	step := func() int {
		n, err := c.Offer(given)
		if err != nil {
			b.Fatal(err)
		}
		// The n jobs at the front of the FIFO re-enter the backlog; the n drained take their
		// places, which are now at its back. Block copies, in at most two pieces where the ring
		// wraps, as Rust's VecDeque drains and extends (an element at a time with a division
		// for the wrap was a tenth of the iteration, work the Rust benchmark does not do).
		for done := 0; done < n; {
			piece := min(n-done, len(idle)-next)
			copy(reentering[done:done+piece], idle[next:next+piece])
			copy(idle[next:next+piece], given[done:done+piece])
			done += piece
			if next += piece; next == len(idle) {
				next = 0
			}
		}
		if err := c.SetPendingBatch(reentering[:n], ones[:n]); err != nil {
			b.Fatal(err)
		}
		return n
	}

	sum := newChecksum()
	for range 1_000 {
		for _, g := range given[:step()] {
			sum.word(g)
		}
	}
	agree(b, id, sum)

	decisions := 0
	for b.Loop() {
		decisions += step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
	record(b, id, decisions)
}

// drfInstance is bench/src/drf.rs' instance(users, kinds): user i demands 1 + (i·p_k mod 13)
// units of kind k (p = 7, 11, 13, ...) out of 1000·users of each kind, with weight 1 + i mod 4.
func drfInstance(users, kinds int) (cluster, weights, demands []float64) {
	primes := []int{7, 11, 13, 17, 19, 23, 29, 31}
	cluster = make([]float64, kinds)
	for k := range cluster {
		cluster[k] = 1000 * float64(users)
	}
	weights = make([]float64, users)
	demands = make([]float64, 0, users*kinds)
	for i := range users {
		weights[i] = float64(1 + i%4)
		for k := range kinds {
			demands = append(demands, float64(1+(i*primes[k])%13))
		}
	}
	return cluster, weights, demands
}

// busyDRFQueue is bench/src/drf.rs' busy_queue: every user active with 2^64 - 1 pending tasks.
func busyDRFQueue(b *testing.B, users int) *fairsched.DRFQueue {
	cluster, weights, demands := drfInstance(users, 4)
	q := newDRFQueue(b, uint32(users), cluster)
	for i := range users {
		must(b, q.AddUser(uint64(i), weights[i], demands[4*i:4*i+4]))
		must(b, q.SetPending(uint64(i), math.MaxUint64))
	}
	return q
}

// BenchmarkDRF: drf_next_user/queue/10000, StartNext (the next user starts a task; checksum
// over the first 10,000 users started), and drf_round/queue/10000, AllocateRound on fixed free
// resources (4,000 of each kind, always room for the 256 tasks a round starts; checksum over
// the first 100 rounds, each its count then its ids).
func BenchmarkDRF(b *testing.B) {
	const users = 10_000
	b.Run("next_user", func(b *testing.B) {
		id := "drf_next_user/queue/10000"
		only(b, id)
		q := busyDRFQueue(b, users)
		sum := newChecksum()
		for range 10_000 {
			user, ok, err := q.StartNext()
			if err != nil || !ok {
				b.Fatal(ok, err)
			}
			sum.word(user)
		}
		agree(b, id, sum)
		for b.Loop() {
			if _, _, err := q.StartNext(); err != nil {
				b.Fatal(err)
			}
		}
		record(b, id, b.N)
	})
	b.Run("round", func(b *testing.B) {
		id := "drf_round/queue/10000"
		only(b, id)
		q := busyDRFQueue(b, users)
		free := []float64{4000, 4000, 4000, 4000}
		out := make([]uint64, 256)
		sum := newChecksum()
		for range 100 {
			n, err := q.AllocateRound(free, out)
			must(b, err)
			sum.word(uint64(n))
			for _, user := range out[:n] {
				sum.word(user)
			}
		}
		agree(b, id, sum)
		for b.Loop() {
			if n, err := q.AllocateRound(free, out); err != nil || n != len(out) {
				b.Fatal(n, err)
			}
		}
		record(b, id, b.N)
	})
}

// BenchmarkQKnobler: qknobler_allocate/m4/n, QKnoblerAllocate of bench/src/drf.rs' n users
// over 4 kinds at ρ = 0.5 (checksum over every user's whole, fair and efficient tasks, then the
// efficiency).
func BenchmarkQKnobler(b *testing.B) {
	for _, n := range []int{10, 1_000} {
		b.Run(fmt.Sprintf("m4/n=%d", n), func(b *testing.B) {
			id := fmt.Sprintf("qknobler_allocate/m4/%d", n)
			only(b, id)
			cluster, weights, demands := drfInstance(n, 4)
			a, err := fairsched.QKnoblerAllocate(cluster, weights, demands, 0.5)
			must(b, err)
			sum := newChecksum()
			for i := range n {
				sum.word(a.Whole[i])
				sum.real(a.Fair[i])
				sum.real(a.Efficient[i])
			}
			sum.real(a.Summary.Efficiency)
			agree(b, id, sum)
			for b.Loop() {
				if _, err := fairsched.QKnoblerAllocate(cluster, weights, demands, 0.5); err != nil {
					b.Fatal(err)
				}
			}
			record(b, id, b.N)
		})
	}
}

// splitMix is the tests' SplitMix64 (tests/kit/src/rng.rs).
type splitMix uint64

func (s *splitMix) next() uint64 {
	*s += 0x9E37_79B9_7F4A_7C15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9
	z = (z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB
	return z ^ (z >> 31)
}

func (s *splitMix) below(n uint64) uint64 { return s.next() % n }

func (s *splitMix) unit() float64 { return float64(s.below(1<<53)) / (1 << 53) }

// BenchmarkPAF: paf_allocate_200_jobs_8000_slots/fast, PAF.AllocateJobsInto of bench/src/paf.rs' 200
// jobs (Ernest curves from SplitMix64 seeded 2017, tabulated by the library, laid out once by
// NewPAFJobs) on 8,000 slots at α = 0.9 (checksum over the totals: slots, moved, fair progress,
// PAF progress, largest loss);
// and ernest_fit/10_samples, PAFErnestFit of its ten samples (checksum over the coefficients).
func BenchmarkPAF(b *testing.B) {
	b.Run("allocate_fast", func(b *testing.B) {
		id := "paf_allocate_200_jobs_8000_slots/fast"
		only(b, id)
		const jobs = 200
		rng := splitMix(2017)
		weights := make([]uint32, jobs)
		curves := make([][]float64, jobs)
		for j := range jobs {
			demand := 1 + rng.below(200)
			weights[j] = 1 + uint32(rng.below(20))
			a1 := 0.0
			if j%2 == 1 {
				a1 = 1e-4 * rng.unit()
			}
			a0 := 0.05 + 0.3*rng.unit()
			a2 := 0.5 + 5.0*rng.unit()
			curves[j] = make([]float64, demand+1)
			must(b, fairsched.PAFErnestTabulate([4]float64{a0, a1, a2, 0}, curves[j]))
		}
		p := newPAF(b, jobs)
		// Laid out once, as a scheduler allocating over the same jobs keeps them.
		laid, err := fairsched.NewPAFJobs(weights, curves)
		must(b, err)
		// Into one allocation, as a scheduler allocating every interval keeps it (as the Rust
		// benchmark writes into the same buffers each time).
		a := new(fairsched.PAFAllocation)
		must(b, p.AllocateJobsInto(a, laid, 8_000, 0.9, fairsched.PAFFast))
		sum := newChecksum()
		sum.word(a.Slots)
		sum.word(a.Moved)
		sum.real(a.TotalFairProgress)
		sum.real(a.TotalProgress)
		sum.real(a.LargestLoss)
		agree(b, id, sum)
		for b.Loop() {
			if err := p.AllocateJobsInto(a, laid, 8_000, 0.9, fairsched.PAFFast); err != nil {
				b.Fatal(err)
			}
		}
		record(b, id, b.N)
	})
	b.Run("ernest_fit", func(b *testing.B) {
		id := "ernest_fit/10_samples"
		only(b, id)
		slots := []uint32{1, 2, 4, 6, 8, 12, 16, 24, 32, 48}
		// ernest_samples()' run times, (0.2 + 0.001x + 3/x + 0.05 ln x)(1 + e), as Rust
		// computes them (written out, so that no other ln can change a last bit).
		runtimes := []float64{
			3.23301, 1.7019242118474374, 1.0386644388268342, 0.7955879734614028,
			0.6801023563131519, 0.597970239139188, 0.5339974945703092, 0.5104422049749843,
			0.4965416111642864, 0.5091006510508486,
		}
		fit, err := fairsched.PAFErnestFit(slots, runtimes)
		must(b, err)
		sum := newChecksum()
		for _, a := range fit {
			sum.real(a)
		}
		agree(b, id, sum)
		for b.Loop() {
			if _, err := fairsched.PAFErnestFit(slots, runtimes); err != nil {
				b.Fatal(err)
			}
		}
		record(b, id, b.N)
	})
}

// BenchmarkHAI: hai_allocate/heaps/n=50,C=200, HAI.Allocate of bench/src/hai.rs' batch: job j's
// optimum is A = 10 + (j·7919 mod 51) cores, its JCT A²/a + a on a cores (+Inf on none),
// tabulated for 0..=2A cores, θ = 1 (checksum over every job's cores, then the transfers and
// the total JCT).
func BenchmarkHAI(b *testing.B) {
	const jobs, cores = 50, 200
	id := fmt.Sprintf("hai_allocate/heaps/n=%d,C=%d", jobs, cores)
	only(b, id)
	batch := fairsched.HAIBatch{TotalCores: cores, Theta: 1, Caps: make([]uint32, jobs)}
	for j := range uint32(jobs) {
		optimum := 10 + (j*7919)%51
		batch.Caps[j] = 2 * optimum
		work := float64(optimum * optimum)
		for a := range 2*optimum + 1 {
			jct := math.Inf(1)
			if a > 0 {
				jct = work/float64(a) + float64(a)
			}
			batch.JCT = append(batch.JCT, jct)
		}
	}
	h := newHAI(b, 1_000)
	allocation, jct := make([]uint32, jobs), make([]float64, jobs)
	summary, err := h.Allocate(batch, allocation, jct)
	must(b, err)
	sum := newChecksum()
	for _, c := range allocation {
		sum.word(uint64(c))
	}
	sum.word(uint64(summary.Transfers))
	sum.real(summary.JCTSum)
	agree(b, id, sum)
	for b.Loop() {
		if _, err := h.Allocate(batch, allocation, jct); err != nil {
			b.Fatal(err)
		}
	}
	record(b, id, b.N)
}

// The DRR workloads' machine (bench/src/drr.rs): 16 cores, 64 GB, 10 Gbps, 500 MB/s over 64
// steps, t_run 40.
var benchDRRCapacity = []float64{16, 64, 10, 500}

const benchDRRHorizon, benchDRRTRun = 64, 40

// lcg is bench/src/drr.rs' 64-bit LCG, numbers in [0, 1).
type lcg uint64

func (l *lcg) next() float64 {
	*l = *l*6364136223846793005 + 1442695040888963407
	return float64(uint64(*l)>>11) / (1 << 53)
}

// drrMachine is machine(seed): between 40% and 100% of each capacity at every step.
func drrMachine(seed uint64) []float64 {
	rng := lcg(seed)
	available := make([]float64, benchDRRHorizon*len(benchDRRCapacity))
	for i := range available {
		available[i] = benchDRRCapacity[i%len(benchDRRCapacity)] * (0.4 + 0.6*rng.next())
	}
	return available
}

// drrExecutors is executors(n, seed): n series back to back, and their steps.
func drrExecutors(n int, seed uint64) (demands []float64, steps []uint32) {
	rng := lcg(seed)
	steps = make([]uint32, n)
	total := 0
	for i := range steps {
		steps[i] = 16 + uint32(rng.next()*49.0)
		total += int(steps[i])
	}
	demands = make([]float64, total*len(benchDRRCapacity))
	for i := range demands {
		demands[i] = benchDRRCapacity[i%len(benchDRRCapacity)] * (0.02 + 0.15*rng.next())
	}
	return demands, steps
}

// freshTimelines is how many timelines drr_timeline/heartbeat builds (untimed) before each run of
// that many timed heartbeats, as Rust's FRESH (bench/benches/drr.rs): few enough to stay in
// cache (each holds 133 KB), as a scheduler's one live timeline of a machine does.
const freshTimelines = 4

// BenchmarkDRR: drr_heartbeat/min_frag/Drr, the available series copied back (timed, as in
// Rust) then DRRMinFragExecutors of 100 pending executors laid out once (NewDRRExecutors, as
// Rust checks its Executors once) under MetricDRR (checksum over the count placed, the
// placements, t_run and θ after); and drr_timeline/heartbeat, DRRTimeline.HeartbeatExecutors
// of the same executors on a fresh timeline of the machine (room for 64 executors, one running
// until t_run that leaves machine(1) available before it ends; the timelines built
// freshTimelines at a time with the timer stopped, as Rust's iter_batched; checksum over the
// count placed, the placements, the first id, t_run and θ).
func BenchmarkDRR(b *testing.B) {
	given := drrMachine(1)
	demands, steps := drrExecutors(100, 2)
	placements := make([]uint32, len(steps))
	pending, err := fairsched.NewDRRExecutors(demands, steps, len(benchDRRCapacity))
	must(b, err)
	defer pending.Close()
	b.Run("min_frag", func(b *testing.B) {
		id := "drr_heartbeat/min_frag/Drr"
		only(b, id)
		available := slices.Clone(given)
		beat, err := fairsched.DRRMinFragExecutors(benchDRRCapacity, available, benchDRRTRun, pending,
			fairsched.MetricDRR, placements)
		must(b, err)
		sum := newChecksum()
		sum.word(uint64(beat.Placed))
		for _, p := range placements[:beat.Placed] {
			sum.word(uint64(p))
		}
		sum.word(uint64(beat.TRun))
		sum.real(beat.DRR)
		agree(b, id, sum)
		for b.Loop() {
			copy(available, given)
			if _, err := fairsched.DRRMinFragExecutors(benchDRRCapacity, available, benchDRRTRun, pending,
				fairsched.MetricDRR, placements); err != nil {
				b.Fatal(err)
			}
		}
		record(b, id, b.N)
	})
	b.Run("timeline_heartbeat", func(b *testing.B) {
		id := "drr_timeline/heartbeat"
		only(b, id)
		running := make([]float64, benchDRRTRun*len(benchDRRCapacity))
		for i := range running {
			running[i] = max(benchDRRCapacity[i%len(benchDRRCapacity)]-given[i], 0)
		}
		counts := make([]uint32, len(steps))
		for i := range counts {
			counts[i] = 1
		}
		busy := func() *fairsched.DRRTimeline {
			t, err := fairsched.NewDRRTimeline(64, benchDRRCapacity, benchDRRHorizon)
			must(b, err)
			_, err = t.Place(running)
			must(b, err)
			return t
		}
		fresh := make([]*fairsched.DRRTimeline, 0, freshTimelines)
		closeAll := func() {
			for _, t := range fresh {
				must(b, t.Close())
			}
			fresh = fresh[:0]
		}
		defer closeAll()

		fresh = append(fresh, busy())
		beat, err := fresh[0].HeartbeatExecutors(pending, counts, fairsched.MetricDRR, placements)
		must(b, err)
		closeAll()
		sum := newChecksum()
		sum.word(uint64(beat.Placed))
		for _, p := range placements[:beat.Placed] {
			sum.word(uint64(p))
		}
		sum.word(beat.FirstID)
		sum.word(uint64(beat.TRun))
		sum.real(beat.DRR)
		agree(b, id, sum)

		next := 0
		for b.Loop() {
			if next == len(fresh) {
				b.StopTimer()
				closeAll()
				for range cap(fresh) {
					fresh = append(fresh, busy())
				}
				next = 0
				b.StartTimer()
			}
			if _, err := fresh[next].HeartbeatExecutors(pending, counts, fairsched.MetricDRR,
				placements); err != nil {
				b.Fatal(err)
			}
			next++
		}
		record(b, id, b.N)
	})
}

package kube

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	configv1 "k8s.io/kube-scheduler/config/v1"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// drfPlugins enables the DRF queue sort in place of PrioritySort.
func drfPlugins() *configv1.Plugins {
	return &configv1.Plugins{MultiPoint: configv1.PluginSet{
		Enabled:  []configv1.Plugin{{Name: DRFSortName}},
		Disabled: []configv1.Plugin{{Name: "PrioritySort"}},
	}}
}

const gib = float64(1 << 30)

// example1Pods: user A (label queue "A") asks <1 CPU, 4 GiB> a task, user B (the namespace's
// own queue, no label) <3 CPU, 1 GiB>; n of each, A's created first.
func example1Pods(n int) []*v1.Pod {
	return twoQueues(n, n, rl("cpu", "1", "memory", "4Gi"), rl("cpu", "3", "memory", "1Gi"))
}

// twoQueues returns na pods of queue A (by label) requesting a, then nb pods of queue B (the
// namespace) requesting b, created in that order.
func twoQueues(na, nb int, a, b v1.ResourceList) []*v1.Pod {
	var pods []*v1.Pod
	for i := 0; i < na; i++ {
		p := pod(fmt.Sprintf("a-%d", i), "", i, a, nil)
		p.Labels = map[string]string{QueueLabel: "A"}
		pods = append(pods, p)
	}
	for i := 0; i < nb; i++ {
		pods = append(pods, pod(fmt.Sprintf("b-%d", i), "", na+i, b, nil))
	}
	return pods
}

// runExample1 fills the <9 CPU, 18 GiB> node of the DRF paper's example: see fill.
func runExample1(t *testing.T, plugins *configv1.Plugins, pods []*v1.Pod) []string {
	t.Helper()
	return fill(t, plugins, rl("cpu", "9", "memory", "18Gi"), pods, 5)
}

// fill puts the pods behind a blocker filling a node of capacity res, frees it, and returns the
// `bound` pods bound once every other pod has been tried and found unschedulable (a binding
// more fails the test).
func fill(t *testing.T, plugins *configv1.Plugins, res v1.ResourceList, pods []*v1.Pod, bound int) []string {
	t.Helper()
	blocker := pod("blocker", "", -10, res, nil)
	blocker.Spec.NodeName = "n1"
	nodeRes := res.DeepCopy()
	nodeRes[v1.ResourcePods] = resource.MustParse("1000")
	c := newCluster(t, plugins, []*v1.Node{node("n1", nodeRes)}, append([]*v1.Pod{blocker}, pods...))
	c.waitUnschedulable(len(pods))
	c.deletePod("blocker")
	var order []string
	for len(order) < bound {
		name, nodeName, _ := strings.Cut(c.nextBinding(), "=")
		if nodeName != "n1" {
			t.Fatalf("bound to %q", nodeName)
		}
		order = append(order, name)
	}
	// Nothing else fits: the other pods are tried and parked.
	c.waitUnschedulable(len(pods) - len(order))
	select {
	case b := <-c.bindings:
		t.Fatalf("a binding more: %s (after %v)", b, order)
	case <-time.After(200 * time.Millisecond):
	}
	return order
}

func count(order []string, prefix string) int {
	n := 0
	for _, name := range order {
		if strings.HasPrefix(name, prefix) {
			n++
		}
	}
	return n
}

// TestDRFExample1InScheduler: DRF's example as pods. Cluster <9 CPU, 18 GiB>; A's task
// <1, 4 GiB> has dominant share δ_A = 4/18 = 2/9 (memory), B's <3, 1 GiB> δ_B = 3/9 = 1/3
// (cpu). Progressive filling: A and B at 0 (tie), A at 2/9, B at 1/3, A at 4/9, then A and B
// both at 2/3: <9 CPU, 14 GiB> is taken and neither fits. DRF's allocation: A 3 tasks, B 2
// (dominant shares 2/3 each). The pod keys s_q(k) = k·δ_q/w_q give the binding order
// {a-0, b-0}, a-1, b-1, a-2; under PrioritySort (creation order, A first) A gets 4 pods, B 1.
func TestDRFExample1InScheduler(t *testing.T) {
	cluster := []float64{9000, 18 * gib}
	demands := []float64{1000, 4 * gib, 3000, 1 * gib}
	// The core's answers: divisible DRF and discrete DRF (AllocateRound) on the free node.
	drf, err := fairsched.DRFDivisible(cluster, []float64{1, 1}, demands)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(drf.Tasks[0]-3) > 1e-9 || math.Abs(drf.Tasks[1]-2) > 1e-9 {
		t.Fatalf("DRFDivisible: %v", drf.Tasks)
	}
	if perUser := discreteDRF(t, cluster, [][]float64{demands[:2], demands[2:]}, 6); perUser[0] != 3 || perUser[1] != 2 {
		t.Fatalf("AllocateRound: %v", perUser)
	}

	// The real scheduler with FairschedDRF; the plugin instance is kept to read its core.
	var plugin *DRFSort
	clusterRegistry = func() frameworkruntime.Registry {
		r := Registry()
		r[DRFSortName] = func(ctx context.Context, o runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			pl, err := NewDRFSort(ctx, o, h)
			if err == nil {
				plugin = pl.(*DRFSort)
			}
			return pl, err
		}
		return r
	}
	defer func() { clusterRegistry = Registry }()
	pods := example1Pods(6)
	order := runExample1(t, drfPlugins(), pods)
	// Binding cycles run asynchronously, so the bindings may be recorded in another order
	// than the scheduling cycles took the pods: the set is checked here, the order by keys.
	t.Logf("FairschedDRF's bindings: %v", order)
	bound := append([]string(nil), order...)
	sort.Strings(bound)
	if strings.Join(bound, ",") != "a-0,a-1,a-2,b-0,b-1" {
		t.Fatalf("bound %v, want a-0, a-1, a-2, b-0, b-1 (A 3, B 2)", order)
	}
	sort.Slice(pods, func(i, j int) bool {
		a, b := plugin.keyOf(pods[i]), plugin.keyOf(pods[j])
		return a.less(&b)
	})
	var byKey []string
	for _, x := range pods[:5] {
		byKey = append(byKey, x.Name)
	}
	first := append([]string(nil), byKey[:2]...)
	sort.Strings(first)
	if strings.Join(first, ",") != "a-0,b-0" || strings.Join(byKey[2:], ",") != "a-1,b-1,a-2" {
		t.Fatalf("order by key %v, want {a-0, b-0}, a-1, b-1, a-2", byKey)
	}
	// The core's state, kept by the informer events: A 3 running, B 2, dominant shares 2/3.
	for name, want := range map[string]uint64{"label/A": 3, "namespace/" + ns: 2} {
		var info fairsched.DRFUserInfo
		deadline := time.Now().Add(10 * time.Second)
		for {
			var ok bool
			info, ok = plugin.QueueInfo(name)
			if ok && info.Running == want && info.Pending == 6-want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("queue %s: %+v (ok %v), want %d running", name, info, ok, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if math.Abs(info.DominantShare-2.0/3) > 1e-9 {
			t.Fatalf("queue %s: dominant share %v", name, info.DominantShare)
		}
	}

	// The default PrioritySort on the same cluster binds another set.
	clusterRegistry = Registry
	def := runExample1(t, nil, example1Pods(6))
	t.Logf("PrioritySort's bindings: %v", def)
	if count(def, "a-") == 3 && count(def, "b-") == 2 {
		t.Fatalf("PrioritySort gave DRF's allocation too: %v", def)
	}
}

// TestDRFKeys checks the keys without a scheduler: fixed per pod, weighted, interleaving
// queues as progressive filling does, and the core's counts following bindings and
// deletions.
func TestDRFKeys(t *testing.T) {
	p := newDRFSort(context.Background(), nil)
	// No node yet: pods are not ranked (class 1), by creation.
	early := pod("early", "", 0, rl("cpu", "1"), nil)
	if k := p.podSeen(early, true); k.class != 1 {
		t.Fatalf("key before any node: %+v", k)
	}
	p.podDeleted(early)
	p.nodeSeen(node("n1", rl("cpu", "10", "memory", "10Gi")))
	mk := func(name, queue string, seq int, cpu string, weight string) *v1.Pod {
		var ann map[string]string
		if weight != "" {
			ann = map[string]string{QueueWeightAnnotation: weight}
		}
		x := pod(name, "", seq, rl("cpu", cpu, "memory", "1Gi"), ann)
		x.Labels = map[string]string{QueueLabel: queue}
		return x
	}
	x1 := mk("x1", "x", 1, "1", "2") // δ = 1/10, weight 2: shares 0, 0.05, 0.1
	x2 := mk("x2", "x", 2, "1", "bogus")
	x3 := mk("x3", "x", 3, "1", "")
	y1 := mk("y1", "y", 4, "2", "") // δ = 2/10: 0, 0.2
	y2 := mk("y2", "y", 5, "2", "")
	for _, x := range []*v1.Pod{x1, x2, x3, y1, y2} {
		p.podSeen(x, true)
	}
	want := map[string]float64{"x1": 0, "x2": 0.05, "x3": 0.1, "y1": 0, "y2": 0.2}
	for name, share := range want {
		k := p.keyOf(pod(name, "", 0, nil, nil))
		if k.class != 0 || math.Abs(k.share-share) > 1e-12 {
			t.Fatalf("%s: %+v, want share %v", name, k, share)
		}
	}
	pods := []*v1.Pod{y2, x3, y1, x2, x1}
	sort.Slice(pods, func(i, j int) bool { a, b := p.keyOf(pods[i]), p.keyOf(pods[j]); return a.less(&b) })
	var names []string
	for _, x := range pods {
		names = append(names, x.Name)
	}
	if got := strings.Join(names, ","); got != "x1,y1,x2,x3,y2" {
		t.Fatalf("order %s", got)
	}
	// Binding x1 moves the core's state, not the keys.
	b := x1.DeepCopy()
	b.Spec.NodeName = "n1"
	p.podSeen(b, true)
	if k := p.keyOf(x2); math.Abs(k.share-0.05) > 1e-12 {
		t.Fatalf("x2's key moved: %+v", k)
	}
	info, _ := p.QueueInfo("label/x")
	if info.Running != 1 || info.Pending != 2 || math.Abs(info.WeightedShare-0.05) > 1e-12 {
		t.Fatalf("queue x: %+v", info)
	}
	// A later pod of x is the share the queue will have then: 3 tasks ahead (1 running, 2
	// pending) · 0.1 / 2.
	x4 := mk("x4", "x", 6, "1", "")
	if k := p.podSeen(x4, true); math.Abs(k.share-0.15) > 1e-12 {
		t.Fatalf("x4: %+v", k)
	}
	// A resize keeps the counts in the new core; deletions finish tasks and remove queues.
	p.nodeSeen(node("n2", rl("cpu", "10", "memory", "10Gi")))
	info, _ = p.QueueInfo("label/x")
	if info.Running != 1 || info.Pending != 3 || math.Abs(info.TaskShare-0.05) > 1e-12 {
		t.Fatalf("queue x after resize: %+v", info)
	}
	p.podDeleted(b)
	for _, x := range []*v1.Pod{x2, x3, x4} {
		p.podDeleted(x)
	}
	if _, ok := p.QueueInfo("label/x"); ok {
		t.Fatal("queue x still in the core")
	}
	if k := p.keyOf(x2); math.Abs(k.share-0.05) > 1e-12 {
		t.Fatalf("x2's tombstone key: %+v", k)
	}
	if w, msg := parseQueueWeight(x2); w != 1 || msg == "" {
		t.Fatalf("bogus weight: %v %q", w, msg)
	}
}

// TestQKnoblerExample1InScheduler: the QKnobler paper's Example 1 (§4) as pods, the case the
// core's discrete DRF is checked on (tests/drf_paper.rs): <200 CPU, 1000 GiB>, user A's tasks
// <1 CPU, 6 GiB>, user B's <1 CPU, 2 GiB>, more pending than fit. Progressive filling of whole
// tasks gives A 91 and B 109 (the core's AllocateRound); the real scheduler with FairschedDRF
// binds exactly that many of each and then parks the rest; with PrioritySort, 150 and 50.
func TestQKnoblerExample1InScheduler(t *testing.T) {
	cluster := []float64{200_000, 1000 * gib}
	perUser := discreteDRF(t, cluster, [][]float64{{1000, 6 * gib}, {1000, 2 * gib}}, 150)
	if perUser[0] != 91 || perUser[1] != 109 {
		t.Fatalf("AllocateRound: A %d, B %d", perUser[0], perUser[1])
	}
	pods := twoQueues(150, 150, rl("cpu", "1", "memory", "6Gi"), rl("cpu", "1", "memory", "2Gi"))
	order := fill(t, drfPlugins(), rl("cpu", "200", "memory", "1000Gi"), pods, 200)
	if a, b := count(order, "a-"), count(order, "b-"); a != 91 || b != 109 {
		t.Fatalf("bound A %d, B %d, want 91 and 109", a, b)
	}
	// Under the default PrioritySort (queue time order) A's 150 pods all fit first and B gets
	// what is left: 150 and 50.
	pods = twoQueues(150, 150, rl("cpu", "1", "memory", "6Gi"), rl("cpu", "1", "memory", "2Gi"))
	order = fill(t, nil, rl("cpu", "200", "memory", "1000Gi"), pods, 200)
	if a, b := count(order, "a-"), count(order, "b-"); a != 150 || b != 50 {
		t.Fatalf("PrioritySort bound A %d, B %d, want 150 and 50", a, b)
	}
}

// discreteDRF is the core's answer on a free cluster: users of weight 1 with these per-task
// demands, each with `pending` tasks, filled by AllocateRound; the tasks started per user.
func discreteDRF(t *testing.T, cluster []float64, demands [][]float64, pending uint64) []int {
	t.Helper()
	q, err := fairsched.NewDRFQueue(uint32(len(demands)), cluster)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for id, demand := range demands {
		if err := q.AddUser(uint64(id), 1, demand); err != nil {
			t.Fatal(err)
		}
		if err := q.SetPending(uint64(id), pending); err != nil {
			t.Fatal(err)
		}
	}
	out := make([]uint64, uint64(len(demands))*pending)
	n, err := q.AllocateRound(cluster, out)
	if err != nil {
		t.Fatal(err)
	}
	perUser := make([]int, len(demands))
	for _, id := range out[:n] {
		perUser[id]++
	}
	return perUser
}

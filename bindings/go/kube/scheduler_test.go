package kube

import (
	"context"
	"strings"
	"testing"
	"time"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	configv1 "k8s.io/kube-scheduler/config/v1"
)

// runOneAtATime puts the pods on a one-node cluster with room for one pod (1 CPU, each pod
// requesting 1), behind a bound blocker pod so that every pod is queued before the first
// decision; then frees the node and, after each binding, deletes the bound pod once every
// other pending pod has been tried again. It returns the pods in binding order.
func runOneAtATime(t *testing.T, pods []*v1.Pod) ([]string, *cluster) {
	return runOneAtATimeWith(t, cfqPlugins(), pods)
}

func runOneAtATimeWith(t *testing.T, plugins *configv1.Plugins, pods []*v1.Pod) ([]string, *cluster) {
	t.Helper()
	blocker := pod("blocker", "", -10, rl("cpu", "1"), nil)
	blocker.Spec.NodeName = "n1"
	c := newCluster(t, plugins, []*v1.Node{node("n1", rl("cpu", "1", "memory", "1Gi"))},
		append([]*v1.Pod{blocker}, pods...))
	c.waitUnschedulable(len(pods))
	c.deletePod("blocker")
	var order []string
	for i := range pods {
		b := c.nextBinding()
		name, nodeName, _ := strings.Cut(b, "=")
		if nodeName != "n1" {
			t.Fatalf("bound to %q", nodeName)
		}
		order = append(order, name)
		c.waitUnschedulable(len(pods) - 1 - i)
		c.deletePod(name)
	}
	return order, c
}

// TestCFQOrderInScheduler: five pods of four jobs, created in the opposite order of their
// virtual finish times, bind in CFQ's order.
//
// Hand-checked: one slot (one node, 1 CPU); the jobs arrive within microseconds of each other
// with V ≈ 0, so F = L/w: c 100/1 = 100, d 500/4 = 125, b 200/1 = 200, a 300/1 = 300. Job c's
// two pods keep the smallest F, so both go first, in creation order. Creation order (and so
// PrioritySort's order) is a, b, d, c-2, c-1.
func TestCFQOrderInScheduler(t *testing.T) {
	job := func(L, w string) map[string]string {
		return map[string]string{SlotTimeAnnotation: L, WeightAnnotation: w}
	}
	pods := []*v1.Pod{
		pod("a", "a", 0, rl("cpu", "1"), job("300", "1")),
		pod("b", "b", 1, rl("cpu", "1"), job("200", "1")),
		pod("d", "d", 2, rl("cpu", "1"), job("500", "4")),
		pod("c-2", "c", 4, rl("cpu", "1"), job("100", "1")),
		pod("c-1", "c", 3, rl("cpu", "1"), job("100", "1")),
	}
	order, _ := runOneAtATime(t, pods)
	want := []string{"c-1", "c-2", "d", "b", "a"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("binding order %v, want %v", order, want)
	}
	// The same cluster under the default PrioritySort (equal priorities: queue time order)
	// gives another order, so the one above is the plugin's doing.
	pods = []*v1.Pod{
		pod("a", "a", 0, rl("cpu", "1"), job("300", "1")),
		pod("b", "b", 1, rl("cpu", "1"), job("200", "1")),
		pod("d", "d", 2, rl("cpu", "1"), job("500", "4")),
		pod("c-2", "c", 4, rl("cpu", "1"), job("100", "1")),
		pod("c-1", "c", 3, rl("cpu", "1"), job("100", "1")),
	}
	if order, _ := runOneAtATimeWith(t, nil, pods); strings.Join(order, ",") == strings.Join(want, ",") {
		t.Fatalf("PrioritySort gave CFQ's order %v too", order)
	} else {
		t.Logf("PrioritySort's order: %v", order)
	}
}

// TestMalformedAnnotations: malformed annotations give a Warning event and the defaults
// (slot-time 60 s, weight 1), so the job is ordered by F = 60; the scheduler goes on.
func TestMalformedAnnotations(t *testing.T) {
	pods := []*v1.Pod{
		pod("bad", "bad", 0, rl("cpu", "1"), map[string]string{SlotTimeAnnotation: "NaN", WeightAnnotation: "-3"}),
		pod("worse", "worse", 1, rl("cpu", "1"), map[string]string{SlotTimeAnnotation: "1e999", WeightAnnotation: "x"}),
		pod("late", "late", 2, rl("cpu", "1"), map[string]string{SlotTimeAnnotation: "90"}),
		pod("short", "short", 3, rl("cpu", "1"), map[string]string{SlotTimeAnnotation: "10"}),
		pod("nolabel", "", 4, rl("cpu", "1"), map[string]string{SlotTimeAnnotation: "30"}),
	}
	order, c := runOneAtATime(t, pods)
	// short 10, nolabel 30, then bad and worse at the default 60 by arrival (which is
	// microseconds apart, either way; checked as a set), late 90.
	got := strings.Join(order, ",")
	if got != "short,nolabel,bad,worse,late" && got != "short,nolabel,worse,bad,late" {
		t.Fatalf("binding order %v", order)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		list, err := c.client.EventsV1().Events(ns).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		warned := map[string]int{}
		for _, e := range list.Items {
			if e.Reason == ReasonBadAnnotation && e.Type == v1.EventTypeWarning {
				warned[e.Regarding.Name]++
			}
		}
		if warned["bad"] > 0 && warned["worse"] > 0 && warned["late"] == 0 && warned["short"] == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("warning events by pod: %v", warned)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestParseAnnotations checks the fallbacks without a scheduler.
func TestParseAnnotations(t *testing.T) {
	for _, tc := range []struct {
		slot, weight string
		wantL        float64
		wantW        uint32
		warn         bool
	}{
		{"12.5", "3", 12.5, 3, false},
		{"0", "0", DefaultSlotTime, DefaultWeight, true},
		{"-1", "1.5", DefaultSlotTime, DefaultWeight, true},
		{"inf", "99999999999", DefaultSlotTime, DefaultWeight, true},
		{"2e18", "", DefaultSlotTime, DefaultWeight, true},
	} {
		p := pod("p", "j", 0, nil, map[string]string{SlotTimeAnnotation: tc.slot, WeightAnnotation: tc.weight})
		L, m1 := parseSlotTime(p)
		w, m2 := parseWeight(p)
		if L != tc.wantL || w != tc.wantW || (m1 != "" || m2 != "") != tc.warn {
			t.Errorf("%q %q: %v %v %q %q", tc.slot, tc.weight, L, w, m1, m2)
		}
	}
}

// TestDRRPlacementInScheduler: the pod lands on the node with the smallest θ, computed by the
// core over cpu, memory and an extended resource.
//
// Hand-checked, the pod requesting 1 CPU, 4 GiB and 1 example.com/gpu:
//   - n1: 4 CPU, 4 GiB, 1 gpu: leaves 3/4 of its CPU idle, θ = 0.75
//   - n2: 2 CPU, 8 GiB, 2 gpu: leaves 1/2 of each, θ = 0.5
//   - n3: 8 CPU, 64 GiB, 8 gpu: θ = 0.9375 (the default LeastAllocated scoring's favourite)
//   - n4: 1 CPU, 4 GiB, no gpu: infeasible
//
// so n2.
func TestDRRPlacementInScheduler(t *testing.T) {
	nodes := []*v1.Node{
		node("n1", rl("cpu", "4", "memory", "4Gi", "example.com/gpu", "1")),
		node("n2", rl("cpu", "2", "memory", "8Gi", "example.com/gpu", "2")),
		node("n3", rl("cpu", "8", "memory", "64Gi", "example.com/gpu", "8")),
		node("n4", rl("cpu", "1", "memory", "4Gi")),
	}
	// The core's own answer, one call over the three feasible nodes.
	gi := float64(1 << 30)
	fits, thetas := make([]bool, 3), make([]float64, 3)
	caps := []float64{4000, 4 * gi, 1, 2000, 8 * gi, 2, 8000, 64 * gi, 8}
	if err := fairsched.DRRScoreMachines(caps, 3, caps, []uint32{1, 1, 1}, []float64{1000, 4 * gi, 1},
		fairsched.MetricDRR, fits, thetas); err != nil {
		t.Fatal(err)
	}
	if thetas[0] != 0.75 || thetas[1] != 0.5 || thetas[2] != 0.9375 {
		t.Fatalf("θ = %v", thetas)
	}
	c := newCluster(t, drrPlugins(), nodes,
		[]*v1.Pod{pod("p", "", 0, rl("cpu", "1", "memory", "4Gi", "example.com/gpu", "1"), nil)})
	if b := c.nextBinding(); b != "p=n2" {
		t.Fatalf("bound %s, want p=n2", b)
	}
}

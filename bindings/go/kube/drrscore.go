package kube

import (
	"context"
	"math"
	"sort"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
)

// DRRScoreName is the name of the Score plugin in a scheduler configuration.
const DRRScoreName = "FairschedDRR"

const (
	drrStateKey fwk.StateKey = DRRScoreName
	// maxKinds is the core's limit of resource kinds.
	maxKinds = 8
	// The scheduler's defaults for a container that requests no cpu or memory (its NonZero
	// requests), so that every pod has a demand.
	defaultMilliCPU = 100
	defaultMemory   = 200 * 1024 * 1024
)

// DRRScore is the Score plugin: it scores a pod on every feasible node in one native call
// (fairsched.DRRScoreMachines, MetricDRR) in PreScore, over cpu, memory and every extended
// resource the pod requests. θ, the dominant remaining resource, is the largest share of any
// kind a node would leave idle with the pod on it; a node gets (1 - θ) · MaxNodeScore, so the
// tightest fit across all kinds wins (Elasecutor's MinFrag). Nodes have no demand forecast
// here: each is one step of horizon, its available amounts the allocatable minus the requested.
type DRRScore struct{}

var (
	_ fwk.PreScorePlugin = (*DRRScore)(nil)
	_ fwk.ScorePlugin    = (*DRRScore)(nil)
)

// NewDRRScore is the plugin's factory.
func NewDRRScore(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return &DRRScore{}, nil
}

// Name returns the plugin's name.
func (*DRRScore) Name() string { return DRRScoreName }

type drrState struct {
	scores map[string]int64
}

func (s *drrState) Clone() fwk.StateData { return s }

// podDemand returns the pod's resource kinds and its demand of each: cpu (millicores), memory
// (bytes), then its extended resources in name order (at most 6; the core takes 8 kinds).
func podDemand(pod *v1.Pod) ([]v1.ResourceName, []float64) {
	reqs := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	cpu, mem := reqs.Cpu().MilliValue(), reqs.Memory().Value()
	if cpu == 0 {
		cpu = defaultMilliCPU
	}
	if mem == 0 {
		mem = defaultMemory
	}
	names := []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory}
	demand := []float64{float64(cpu), float64(mem)}
	var extended []v1.ResourceName
	for name, q := range reqs {
		if name != v1.ResourceCPU && name != v1.ResourceMemory && name != v1.ResourceEphemeralStorage &&
			name != v1.ResourcePods && q.Value() > 0 {
			extended = append(extended, name)
		}
	}
	sort.Slice(extended, func(i, j int) bool { return extended[i] < extended[j] })
	if len(extended) > maxKinds-2 {
		klog.InfoS("fairsched: a pod requests more extended resources than the core scores; the last ones by name are left out",
			"pod", klog.KObj(pod), "scored", maxKinds)
		extended = extended[:maxKinds-2]
	}
	for _, name := range extended {
		q := reqs[name]
		names = append(names, name)
		demand = append(demand, float64(q.Value()))
	}
	return names, demand
}

func amount(r fwk.Resource, name v1.ResourceName) int64 {
	switch name {
	case v1.ResourceCPU:
		return r.GetMilliCPU()
	case v1.ResourceMemory:
		return r.GetMemory()
	}
	return r.GetScalarResources()[name]
}

// PreScore scores the pod on all the feasible nodes in one call to the core.
func (*DRRScore) PreScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) *fwk.Status {
	if len(nodes) == 0 {
		return fwk.NewStatus(fwk.Skip)
	}
	names, demand := podDemand(pod)
	kinds := len(names)
	capacities := make([]float64, 0, len(nodes)*kinds)
	available := make([]float64, 0, len(nodes)*kinds)
	tRuns := make([]uint32, len(nodes))
	for i, n := range nodes {
		alloc, used := n.GetAllocatable(), n.GetRequested()
		for _, name := range names {
			c, a := amount(alloc, name), amount(alloc, name)-amount(used, name)
			if c <= 0 {
				c, a = 1, 0 // no such resource: the pod does not fit (scored worst)
			}
			if a < 0 {
				a = 0
			}
			capacities = append(capacities, float64(c))
			available = append(available, float64(a))
		}
		tRuns[i] = 1
	}
	fits := make([]bool, len(nodes))
	thetas := make([]float64, len(nodes))
	if err := fairsched.DRRScoreMachines(capacities, kinds, available, tRuns, demand, fairsched.MetricDRR, fits, thetas); err != nil {
		// The pod is placed by the other score plugins alone.
		klog.FromContext(ctx).Info("fairsched: the DRR core refused to score the pod; skipping this plugin for it",
			"pod", klog.KObj(pod), "err", err)
		return fwk.NewStatus(fwk.Skip)
	}
	s := &drrState{scores: make(map[string]int64, len(nodes))}
	for i, n := range nodes {
		var score int64
		if fits[i] && !math.IsNaN(thetas[i]) && !math.IsInf(thetas[i], 0) {
			theta := math.Min(math.Max(thetas[i], 0), 1)
			score = int64(math.Round((1 - theta) * float64(fwk.MaxNodeScore)))
		}
		s.scores[n.Node().Name] = score
	}
	state.Write(drrStateKey, s)
	return nil
}

// Score returns the score PreScore computed for the node.
func (*DRRScore) Score(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	data, err := state.Read(drrStateKey)
	if err != nil {
		return 0, fwk.AsStatus(err)
	}
	s, ok := data.(*drrState)
	if !ok {
		return 0, fwk.NewStatus(fwk.Error, "fairsched: unexpected cycle state")
	}
	return s.scores[nodeInfo.Node().Name], nil
}

// ScoreExtensions returns nil: scores are already within [0, MaxNodeScore].
func (*DRRScore) ScoreExtensions() fwk.ScoreExtensions { return nil }

package kube

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	configv1 "k8s.io/kube-scheduler/config/v1"
	fwk "k8s.io/kube-scheduler/framework"
	schedapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
)

const (
	benchNodes = 100
	benchPods  = 1000
	benchJobs  = 50
)

func benchCluster() ([]*v1.Node, []*v1.Pod) {
	nodes := make([]*v1.Node, benchNodes)
	for i := range nodes {
		// Nodes of two shapes, so that scorers have something to choose.
		if i%2 == 0 {
			nodes[i] = node(fmt.Sprintf("n%03d", i), rl("cpu", "32", "memory", "64Gi"))
		} else {
			nodes[i] = node(fmt.Sprintf("n%03d", i), rl("cpu", "16", "memory", "128Gi"))
		}
	}
	pods := make([]*v1.Pod, benchPods)
	for i := range pods {
		job := strconv.Itoa(i % benchJobs)
		pods[i] = pod(fmt.Sprintf("p%05d", i), job, i, rl("cpu", strconv.Itoa(1+i%3), "memory", strconv.Itoa(1+i%5)+"Gi"),
			map[string]string{SlotTimeAnnotation: strconv.Itoa(10 + (i%benchJobs)*7919%1000), WeightAnnotation: strconv.Itoa(1 + i%3)})
	}
	return nodes, pods
}

// BenchmarkScheduling runs the real scheduler over a fake cluster of 100 nodes until its 1,000
// pods are bound, with the defaults (PrioritySort, NodeResourcesFit and the other default
// scorers) and with the fairsched plugins (FairschedCFQ instead of PrioritySort, FairschedDRR
// as the only scorer). It reports pods/s.
func BenchmarkScheduling(b *testing.B) {
	for _, tc := range []struct {
		name    string
		plugins *configv1.Plugins
	}{
		{"default", nil},
		{"fairsched", &configv1.Plugins{
			MultiPoint: configv1.PluginSet{
				Enabled:  []configv1.Plugin{{Name: CFQSortName}},
				Disabled: []configv1.Plugin{{Name: "PrioritySort"}},
			},
			PreScore: configv1.PluginSet{Enabled: []configv1.Plugin{{Name: DRRScoreName}}},
			Score: configv1.PluginSet{
				Disabled: []configv1.Plugin{{Name: "*"}},
				Enabled:  []configv1.Plugin{{Name: DRRScoreName, Weight: i32Ptr(1)}},
			},
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				nodes, pods := benchCluster()
				start := time.Now()
				b.StartTimer()
				c := newCluster(b, tc.plugins, nodes, pods)
				for range pods {
					c.nextBinding()
				}
				b.StopTimer()
				total += time.Since(start)
				c.cancel()
				b.StartTimer()
			}
			b.ReportMetric(float64(benchPods*b.N)/total.Seconds(), "pods/s")
		})
	}
}

// BenchmarkLess compares two queued pods of different jobs, as the scheduling queue's heap does.
func BenchmarkLess(b *testing.B) {
	_, pods := benchCluster()
	infos := make([]fwk.QueuedEntityInfo, len(pods))
	for i, p := range pods {
		pi, err := framework.NewPodInfo(p)
		if err != nil {
			b.Fatal(err)
		}
		infos[i] = &framework.QueuedPodInfo{PodInfo: pi, QueueingParams: framework.QueueingParams{Timestamp: time.Now()}}
	}
	prio, _ := queuesort.New(context.Background(), nil, nil)
	cfq, err := newCFQSort(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range pods {
		cfq.podSeen(p)
	}
	for _, tc := range []struct {
		name string
		less func(a, b fwk.QueuedEntityInfo) bool
	}{
		{"PrioritySort", prio.(fwk.QueueSortPlugin).Less},
		{"FairschedCFQ", cfq.Less},
	} {
		b.Run(tc.name, func(b *testing.B) {
			n := len(infos)
			for i := 0; i < b.N; i++ {
				tc.less(infos[i%n], infos[(i*7+1)%n])
			}
		})
	}
}

// BenchmarkScoreCycle scores one pod on 100 nodes (PreScore, then Score on each node), as one
// scheduling cycle does: NodeResourcesFit (LeastAllocated, the default) against FairschedDRR.
func BenchmarkScoreCycle(b *testing.B) {
	nodes, pods := benchCluster()
	infos := make([]fwk.NodeInfo, len(nodes))
	for i, n := range nodes {
		ni := framework.NewNodeInfo()
		ni.SetNode(n)
		infos[i] = ni
	}
	ctx := context.Background()
	fit, err := noderesources.NewFit(ctx, &schedapi.NodeResourcesFitArgs{ScoringStrategy: &schedapi.ScoringStrategy{
		Type:      schedapi.LeastAllocated,
		Resources: []schedapi.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}},
	}}, nil, plfeature.Features{})
	if err != nil {
		b.Fatal(err)
	}
	drr := &DRRScore{}
	for _, tc := range []struct {
		name  string
		pre   fwk.PreScorePlugin
		score fwk.ScorePlugin
	}{
		{"NodeResourcesFit", fit.(fwk.PreScorePlugin), fit.(fwk.ScorePlugin)},
		{"FairschedDRR", drr, drr},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p := pods[i%len(pods)]
				state := framework.NewCycleState()
				if s := tc.pre.PreScore(ctx, state, p, infos); !s.IsSuccess() {
					b.Fatal(s)
				}
				for _, n := range infos {
					if _, s := tc.score.Score(ctx, state, p, n); !s.IsSuccess() {
						b.Fatal(s)
					}
				}
			}
		})
	}
}

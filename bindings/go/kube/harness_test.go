package kube

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	schedapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/profile"
)

const ns = "default"

// clusterRegistry is the out-of-tree registry newCluster gives the scheduler (a test may wrap
// it to reach a plugin instance; tests do not run in parallel).
var clusterRegistry = Registry

// cluster is a real kube-scheduler over a fake clientset, with a reactor recording every
// binding (the Binding subresource) and checking that no node is over-committed.
type cluster struct {
	t        testing.TB
	client   *fake.Clientset
	sched    *scheduler.Scheduler
	cancel   context.CancelFunc
	bindings chan string // "pod=node", in binding order

	mu         sync.Mutex
	alloc      map[string]v1.ResourceList // node -> allocatable
	used       map[string]map[v1.ResourceName]int64
	podNode    map[string]string // pod name -> node
	podReqs    map[string]v1.ResourceList
	overcommit []string
}

// profileConfig returns the internal profile built from a versioned one, defaulted as the
// kube-scheduler binary defaults a configuration file.
func profileConfig(t testing.TB, plugins *configv1.Plugins) schedapi.KubeSchedulerProfile {
	t.Helper()
	versioned := configv1.KubeSchedulerConfiguration{
		Profiles: []configv1.KubeSchedulerProfile{{SchedulerName: strPtr(v1.DefaultSchedulerName), Plugins: plugins}},
	}
	scheme.Scheme.Default(&versioned)
	var cfg schedapi.KubeSchedulerConfiguration
	if err := scheme.Scheme.Convert(&versioned, &cfg, nil); err != nil {
		t.Fatal(err)
	}
	return cfg.Profiles[0]
}

func strPtr(s string) *string { return &s }
func i32Ptr(i int32) *int32   { return &i }

// cfqPlugins enables the CFQ queue sort in place of PrioritySort.
func cfqPlugins() *configv1.Plugins {
	return &configv1.Plugins{MultiPoint: configv1.PluginSet{
		Enabled:  []configv1.Plugin{{Name: CFQSortName}},
		Disabled: []configv1.Plugin{{Name: "PrioritySort"}},
	}}
}

// drrPlugins makes the DRR score plugin the only scorer.
func drrPlugins() *configv1.Plugins {
	return &configv1.Plugins{
		PreScore: configv1.PluginSet{Enabled: []configv1.Plugin{{Name: DRRScoreName}}},
		Score: configv1.PluginSet{
			Disabled: []configv1.Plugin{{Name: "*"}},
			Enabled:  []configv1.Plugin{{Name: DRRScoreName, Weight: i32Ptr(1)}},
		},
	}
}

func node(name string, res v1.ResourceList) *v1.Node {
	if _, ok := res[v1.ResourcePods]; !ok {
		res = res.DeepCopy()
		res[v1.ResourcePods] = resource.MustParse("110")
	}
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("node-" + name)},
		Status: v1.NodeStatus{Capacity: res, Allocatable: res,
			Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}},
	}
}

func rl(kv ...string) v1.ResourceList {
	out := v1.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[v1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

var created = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// pod returns a pending pod of job (none when empty) with annotations, requesting req.
func pod(name, job string, seq int, req v1.ResourceList, annotations map[string]string) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: ns, UID: types.UID("uid-" + name),
			CreationTimestamp: metav1.NewTime(created.Add(time.Duration(seq) * time.Second)),
			Annotations:       annotations,
		},
		Spec: v1.PodSpec{
			SchedulerName: v1.DefaultSchedulerName,
			Containers:    []v1.Container{{Name: "c", Image: "x", Resources: v1.ResourceRequirements{Requests: req}}},
		},
	}
	if job != "" {
		p.Labels = map[string]string{JobLabel: job}
	}
	return p
}

func newCluster(t testing.TB, plugins *configv1.Plugins, nodes []*v1.Node, pods []*v1.Pod) *cluster {
	t.Helper()
	c := &cluster{
		t: t, bindings: make(chan string, 100000), alloc: map[string]v1.ResourceList{},
		used: map[string]map[v1.ResourceName]int64{}, podNode: map[string]string{}, podReqs: map[string]v1.ResourceList{},
	}
	var objects []runtimeObject
	for _, n := range nodes {
		c.alloc[n.Name] = n.Status.Allocatable
		c.used[n.Name] = map[v1.ResourceName]int64{}
		objects = append(objects, n)
	}
	for _, p := range pods {
		c.podReqs[p.Name] = p.Spec.Containers[0].Resources.Requests
		if p.Spec.NodeName != "" {
			c.account(p.Name, p.Spec.NodeName, 1)
		}
		objects = append(objects, p)
	}
	c.client = fake.NewClientset(toObjects(objects)...)
	c.client.PrependReactor("create", "pods", c.bind)
	c.client.PrependReactor("delete", "pods", c.deleted)

	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	factory := informers.NewSharedInformerFactory(c.client, 0)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: c.client.EventsV1()})
	broadcaster.StartRecordingToSink(ctx.Done())
	sched, err := scheduler.New(ctx, c.client, factory, nil, profile.NewRecorderFactory(broadcaster),
		scheduler.WithProfiles(profileConfig(t, plugins)),
		scheduler.WithFrameworkOutOfTreeRegistry(clusterRegistry()),
		scheduler.WithPodInitialBackoffSeconds(0),
		scheduler.WithPodMaxBackoffSeconds(0),
	)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	c.sched = sched
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	// As kube-scheduler's own server does: the scheduler's event handlers must have seen every
	// object (the bound blocker pod among them) before the first scheduling cycle, or a pod
	// can be placed on a node the scheduler's cache still thinks empty.
	if err := sched.WaitForHandlersSync(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	go sched.Run(ctx)
	t.Cleanup(func() {
		cancel()
		broadcaster.Shutdown()
		factory.Shutdown()
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.overcommit) > 0 {
			t.Errorf("over-committed: %v", c.overcommit)
		}
	})
	return c
}

// account adds (sign 1) or removes (-1) a pod's requests on a node, recording over-commitment.
func (c *cluster) account(podName, nodeName string, sign int64) {
	if sign > 0 {
		c.podNode[podName] = nodeName
	} else {
		delete(c.podNode, podName)
	}
	for name, q := range c.podReqs[podName] {
		v := q.MilliValue()
		c.used[nodeName][name] += sign * v
		limit := c.alloc[nodeName][name]
		if c.used[nodeName][name] > limit.MilliValue() {
			c.overcommit = append(c.overcommit, fmt.Sprintf("%s on %s: %s", podName, nodeName, name))
		}
	}
}

// bind handles the Binding subresource as the API server does: the pod gets spec.nodeName.
func (c *cluster) bind(action clienttesting.Action) (bool, runtimeObject, error) {
	create, ok := action.(clienttesting.CreateAction)
	if !ok || action.GetSubresource() != "binding" {
		return false, nil, nil
	}
	b := create.GetObject().(*v1.Binding)
	gvr := v1.SchemeGroupVersion.WithResource("pods")
	obj, err := c.client.Tracker().Get(gvr, b.Namespace, b.Name)
	if err != nil {
		return true, nil, err
	}
	p := obj.(*v1.Pod).DeepCopy()
	if p.Spec.NodeName != "" {
		return true, nil, fmt.Errorf("pod %s already bound", p.Name)
	}
	p.Spec.NodeName = b.Target.Name
	c.mu.Lock()
	c.account(p.Name, b.Target.Name, 1)
	c.mu.Unlock()
	if err := c.client.Tracker().Update(gvr, p, b.Namespace); err != nil {
		return true, nil, err
	}
	c.bindings <- p.Name + "=" + b.Target.Name
	return true, b, nil
}

func (c *cluster) deleted(action clienttesting.Action) (bool, runtimeObject, error) {
	d := action.(clienttesting.DeleteAction)
	c.mu.Lock()
	if n, ok := c.podNode[d.GetName()]; ok {
		c.account(d.GetName(), n, -1)
	}
	c.mu.Unlock()
	return false, nil, nil
}

func (c *cluster) deletePod(name string) {
	c.t.Helper()
	if err := c.client.CoreV1().Pods(ns).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		c.t.Fatal(err)
	}
}

var summaryRE = regexp.MustCompile(`activeQ:(\d+); backoffQ:(\d+); unschedulableEntities:(\d+)`)

// waitUnschedulable waits until n pods wait in the unschedulable pool and none is active or
// backing off: every pending pod has been tried and none is in flight.
func (c *cluster) waitUnschedulable(n int) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var summary string
	for time.Now().Before(deadline) {
		_, summary = c.sched.SchedulingQueue.PendingPods()
		if m := summaryRE.FindStringSubmatch(summary); m != nil && m[1] == "0" && m[2] == "0" && m[3] == strconv.Itoa(n) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.t.Fatalf("waiting for %d unschedulable pods: %s", n, summary)
}

func (c *cluster) nextBinding() string {
	c.t.Helper()
	select {
	case b := <-c.bindings:
		return b
	case <-time.After(30 * time.Second):
		c.t.Fatal("no binding within 30 s")
		return ""
	}
}

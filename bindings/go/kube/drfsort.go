package kube

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	fairsched "github.com/fairsched/fairsched/bindings/go/fairsched"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
)

const (
	// DRFSortName is the name of the DRF QueueSort plugin in a scheduler configuration.
	DRFSortName = "FairschedDRF"

	// QueueLabel names a pod's DRF queue; a pod without it belongs to its namespace's queue.
	// A label value is one queue across namespaces.
	QueueLabel = "fairsched.dev/queue"
	// QueueWeightAnnotation is a queue's weight, a positive decimal number up to 2^20 (1 when
	// absent). The first pod of a queue seen gives it.
	QueueWeightAnnotation = "fairsched.dev/queue-weight"

	// DefaultQueueWeight is the weight of a queue whose annotation is absent or malformed.
	DefaultQueueWeight = 1.0

	// nodeSyncWait bounds how long a pod's first sight waits for the node handler's initial
	// list (so that its key is computed over the whole cluster).
	nodeSyncWait = 30 * time.Second
)

// drfKey is what Less compares: fixed when the pod is first seen, never changed while the pod
// exists (see the README: why Less is a strict weak order).
type drfKey struct {
	class uint8   // 0: ranked by the core; 1: not ranked (no node yet, or the core refused the queue)
	share float64 // the queue's weighted dominant share when this pod is its next task
	queue uint64  // the queue's id, unique for the plugin's life
	pod   podOrder
}

func (a *drfKey) less(b *drfKey) bool {
	switch {
	case a.class != b.class:
		return a.class < b.class
	case a.share != b.share:
		return a.share < b.share
	case a.queue != b.queue:
		return a.queue < b.queue
	}
	return a.pod.less(&b.pod)
}

// drfQueue is one queue's accounting; the core holds the same counts while inCore.
type drfQueue struct {
	id      uint64
	name    string
	weight  float64
	demand  [2]float64 // one task: cpu (millicores), memory (bytes), from the first pod seen
	pending uint64
	running uint64
	inCore  bool
}

type drfPod struct {
	q     *drfQueue
	bound bool
	key   drfKey
}

// DRFSort is the QueueSort plugin ordering pending pods by weighted DRF across queues (see
// the README). Its state is a fairsched.DRFQueue (one user per queue) over the cluster's
// allocatable cpu and memory, kept by the scheduler's informer events.
type DRFSort struct {
	mu      sync.RWMutex
	core    *fairsched.DRFQueue // nil while no node is known
	cluster [2]float64
	nextID  uint64
	queues  map[string]*drfQueue
	pods    map[types.UID]*drfPod
	gone    tombstones[drfKey]
	nodes   map[string][2]float64
	handle  fwk.Handle
	ctx     context.Context
	// nodesSynced reports whether the node handler has seen the informer's initial list.
	nodesSynced func() bool
	nowFunc     func() time.Time
}

var (
	_ fwk.QueueSortPlugin  = (*DRFSort)(nil)
	_ fwk.PreEnqueuePlugin = (*DRFSort)(nil)
)

// NewDRFSort is the plugin's factory: it registers the pod and node event handlers on the
// handle's SharedInformerFactory; the core's queue is created when the first node is seen.
func NewDRFSort(ctx context.Context, _ runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
	p := newDRFSort(ctx, h)
	handlers := informerHandlers{
		podSeen: func(obj any) { p.podSeen(obj, true) }, podDeleted: p.podDeleted,
		nodeSeen: p.nodeSeen, nodeDeleted: p.nodeDeleted,
	}
	reg, err := handlers.register(h)
	if err != nil {
		return nil, err
	}
	if reg != nil {
		p.nodesSynced = reg.HasSynced
	}
	go func() {
		<-ctx.Done()
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.core != nil {
			_ = p.core.Close()
			p.core = nil
		}
	}()
	return p, nil
}

func newDRFSort(ctx context.Context, h fwk.Handle) *DRFSort {
	return &DRFSort{
		queues: map[string]*drfQueue{}, pods: map[types.UID]*drfPod{}, gone: tombstones[drfKey]{},
		nodes: map[string][2]float64{}, handle: h, ctx: ctx, nowFunc: time.Now,
	}
}

// Name returns the plugin's name.
func (p *DRFSort) Name() string { return DRFSortName }

// Less orders two queued entities by their keys; it only reads keys fixed at first sight.
func (p *DRFSort) Less(a, b fwk.QueuedEntityInfo) bool {
	return entityLess(a, b, func(pa, pb *v1.Pod) bool {
		ka, kb := p.keyOf(pa), p.keyOf(pb)
		return ka.less(&kb)
	})
}

// PreEnqueue records the pod before the queue orders it; it never gates a pod.
func (p *DRFSort) PreEnqueue(_ context.Context, pod *v1.Pod) *fwk.Status {
	p.podSeen(pod, true)
	return nil
}

func (p *DRFSort) keyOf(pod *v1.Pod) drfKey {
	p.mu.RLock()
	if s, ok := p.pods[pod.UID]; ok {
		k := s.key
		p.mu.RUnlock()
		return k
	}
	if t, ok := p.gone[pod.UID]; ok {
		p.mu.RUnlock()
		return t.key
	}
	p.mu.RUnlock()
	// Not seen (PreEnqueue makes this impossible in the scheduler): recorded now, without
	// waiting for the nodes, since Less must not block.
	return p.podSeen(pod, false)
}

func queueName(pod *v1.Pod) string {
	if v, ok := pod.Labels[QueueLabel]; ok && v != "" {
		return "label/" + v
	}
	return "namespace/" + pod.Namespace
}

// parseQueueWeight reads the queue-weight annotation: absent gives the default silently,
// malformed the default and a message.
func parseQueueWeight(pod *v1.Pod) (float64, string) {
	s, ok := pod.Annotations[QueueWeightAnnotation]
	if !ok {
		return DefaultQueueWeight, ""
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > maxWeight {
		return DefaultQueueWeight, fmt.Sprintf("annotation %s=%q is not a positive number up to 2^20; using %g",
			QueueWeightAnnotation, s, DefaultQueueWeight)
	}
	return v, ""
}

// waitNodes waits (without the lock) until the node handler has seen the initial node list,
// so that the first keys are computed over the whole cluster.
func (p *DRFSort) waitNodes() {
	if p.nodesSynced == nil || p.nodesSynced() {
		return
	}
	deadline := time.Now().Add(nodeSyncWait)
	for !p.nodesSynced() && time.Now().Before(deadline) {
		if p.ctx != nil && p.ctx.Err() != nil {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// podSeen records a pod added or updated and returns its key.
func (p *DRFSort) podSeen(obj any, wait bool) drfKey {
	pod, ok := obj.(*v1.Pod)
	if !ok || pod == nil {
		return drfKey{class: 2}
	}
	if wait {
		p.mu.RLock()
		_, known := p.pods[pod.UID]
		p.mu.RUnlock()
		if !known {
			p.waitNodes()
		}
	}
	var warnings []warning
	p.mu.Lock()
	k := p.podSeenLocked(pod, &warnings)
	p.mu.Unlock()
	warn(p.handle, DRFSortName, pod, warnings)
	return k
}

func (p *DRFSort) podSeenLocked(pod *v1.Pod, warnings *[]warning) drfKey {
	bound := pod.Spec.NodeName != ""
	if s, ok := p.pods[pod.UID]; ok {
		if isTerminal(pod) {
			p.forgetLocked(pod.UID, s)
			return s.key
		}
		if bound && !s.bound {
			s.bound = true
			q := s.q
			q.pending--
			q.running++
			if q.inCore {
				if err := p.core.TasksStarted(q.id, 1); err != nil {
					klog.ErrorS(err, "fairsched: recording a started task in the DRF core", "queue", q.name)
				}
			}
		}
		return s.key
	}
	k := drfKey{class: 1, share: math.MaxFloat64, pod: podOrderOf(pod)}
	if isTerminal(pod) {
		return k
	}
	name := queueName(pod)
	q, ok := p.queues[name]
	if !ok {
		q = p.addQueue(pod, name, warnings)
	}
	k.queue = q.id
	if q.inCore && !bound {
		// The share the queue will have when this pod is its next task: every task running
		// and every pending pod seen before this one started, none finished.
		if info, err := p.core.User(q.id); err == nil && info.Weight > 0 {
			k.class = 0
			k.share = float64(info.Running+info.Pending) * info.TaskShare / info.Weight
		}
	}
	p.pods[pod.UID] = &drfPod{q: q, bound: bound, key: k}
	if bound {
		q.running++
		if q.inCore {
			// TasksStarted also takes one pending task off: give the core the count back.
			err := p.core.TasksStarted(q.id, 1)
			if err == nil {
				err = p.core.SetPending(q.id, q.pending)
			}
			if err != nil {
				klog.ErrorS(err, "fairsched: recording a running task in the DRF core", "queue", q.name)
			}
		}
	} else {
		q.pending++
		if q.inCore {
			if err := p.core.SetPending(q.id, q.pending); err != nil {
				klog.ErrorS(err, "fairsched: setting a queue's pending pods in the DRF core", "queue", q.name)
			}
		}
	}
	return k
}

// addQueue makes a new queue, a user of the core when it has one. Called with mu held.
func (p *DRFSort) addQueue(pod *v1.Pod, name string, warnings *[]warning) *drfQueue {
	weight, msg := parseQueueWeight(pod)
	if msg != "" {
		*warnings = append(*warnings, warning{ReasonBadAnnotation, msg})
	}
	_, demand := podDemand(pod)
	p.nextID++
	q := &drfQueue{id: p.nextID, name: name, weight: weight, demand: [2]float64{demand[0], demand[1]}}
	if p.core != nil {
		if err := p.core.AddUser(q.id, q.weight, q.demand[:]); err != nil {
			*warnings = append(*warnings, warning{ReasonCoreRefused,
				fmt.Sprintf("the DRF core refused queue %s (%v): its pods are ordered after every ranked pod", name, err)})
		} else {
			q.inCore = true
		}
	}
	p.queues[name] = q
	return q
}

func (p *DRFSort) podDeleted(obj any) {
	pod, ok := deleted[v1.Pod](obj)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.pods[pod.UID]; ok {
		p.forgetLocked(pod.UID, s)
	}
}

// forgetLocked forgets a pod (keeping its key a while for the queue) and updates its queue's
// counts; a queue with no pod left is removed. Called with mu held.
func (p *DRFSort) forgetLocked(uid types.UID, s *drfPod) {
	delete(p.pods, uid)
	p.gone.keep(uid, s.key, p.nowFunc())
	q := s.q
	var err error
	if s.bound {
		q.running--
		if q.inCore {
			err = p.core.TasksFinished(q.id, 1)
		}
	} else {
		q.pending--
		if q.inCore {
			err = p.core.SetPending(q.id, q.pending)
		}
	}
	if err != nil {
		klog.ErrorS(err, "fairsched: updating a queue in the DRF core", "queue", q.name)
	}
	if q.pending == 0 && q.running == 0 {
		if q.inCore {
			if err := p.core.RemoveUser(q.id); err != nil {
				klog.ErrorS(err, "fairsched: removing a queue from the DRF core", "queue", q.name)
			}
		}
		delete(p.queues, q.name)
	}
}

func (p *DRFSort) nodeSeen(obj any) {
	node, ok := obj.(*v1.Node)
	if !ok {
		return
	}
	a := node.Status.Allocatable
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nodes[node.Name] = [2]float64{float64(a.Cpu().MilliValue()), float64(a.Memory().Value())}
	p.resizeLocked()
}

func (p *DRFSort) nodeDeleted(obj any) {
	node, ok := deleted[v1.Node](obj)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.nodes, node.Name)
	p.resizeLocked()
}

// resizeLocked gives the core the cluster's allocatable cpu and memory. The core's cluster is
// fixed at creation, so a changed cluster gets a new core holding every queue (weight, task
// demand, running and pending) as before. Called with mu held.
func (p *DRFSort) resizeLocked() {
	var total [2]float64
	for _, r := range p.nodes {
		total[0] += r[0]
		total[1] += r[1]
	}
	if total == p.cluster && (p.core != nil || total[0] <= 0 || total[1] <= 0) {
		return
	}
	if p.core != nil {
		_ = p.core.Close()
		p.core = nil
	}
	p.cluster = total
	for _, q := range p.queues {
		q.inCore = false
	}
	if total[0] <= 0 || total[1] <= 0 {
		return
	}
	core, err := fairsched.NewDRFQueue(capacity, total[:])
	if err != nil {
		klog.ErrorS(err, "fairsched: creating the DRF core", "cluster", total)
		return
	}
	p.core = core
	for _, q := range p.queues {
		if err := core.AddUser(q.id, q.weight, q.demand[:]); err != nil {
			klog.ErrorS(err, "fairsched: adding a queue to the DRF core", "queue", q.name)
			continue
		}
		if q.running > 0 {
			err = core.TasksStarted(q.id, q.running)
		}
		if err == nil {
			err = core.SetPending(q.id, q.pending)
		}
		if err != nil {
			klog.ErrorS(err, "fairsched: restoring a queue in the DRF core", "queue", q.name)
		}
		q.inCore = true
	}
}

// QueueInfo returns what the core knows about a queue, named "namespace/<ns>" or
// "label/<value>", for tests and diagnostics.
func (p *DRFSort) QueueInfo(name string) (fairsched.DRFUserInfo, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	q, ok := p.queues[name]
	if !ok || !q.inCore || p.core == nil {
		return fairsched.DRFUserInfo{}, false
	}
	info, err := p.core.User(q.id)
	return info, err == nil
}

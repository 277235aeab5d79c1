// Package kube is a set of kube-scheduler plugins whose decisions come from the fairsched core
// through its Go binding: CFQSort, a QueueSort plugin ordering pending pods by CFQ (Cluster Fair
// Queueing) across jobs; DRFSort, a QueueSort plugin ordering them by weighted DRF across
// queues; and DRRScore, a Score plugin placing pods by Elasecutor's dominant remaining resource
// over cpu, memory and extended resources. Register them with the scheduler's
// out-of-tree registry (Registry, or app.WithPlugin in a kube-scheduler binary: see cmd/).
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
	// CFQSortName is the name of the QueueSort plugin in a scheduler configuration.
	CFQSortName = "FairschedCFQ"

	// JobLabel names a pod's job: the pods of one namespace sharing its value are one job. A
	// pod without it is a job of its own.
	JobLabel = "fairsched.dev/job"
	// SlotTimeAnnotation is a job's slot-time, its task run times summed on one slot, in
	// seconds (a positive decimal number). The first pod of a job seen gives it.
	SlotTimeAnnotation = "fairsched.dev/slot-time"
	// WeightAnnotation is a job's weight, a positive integer (1 when absent).
	WeightAnnotation = "fairsched.dev/weight"

	// DefaultSlotTime is the slot-time of a job whose annotation is absent or malformed.
	DefaultSlotTime = 60.0
	// DefaultWeight is the weight of a job whose annotation is absent or malformed.
	DefaultWeight = 1
	// maxWeight keeps weights within what the core takes (a uint32) and far from overflow.
	maxWeight = 1 << 20
	// maxSlotTime is the core's bound on slot-times (2^60).
	maxSlotTime = 1 << 60
	// capacity is how many jobs the core's memory holds (about 128 bytes each).
	capacity = 1 << 16

	// ReasonBadAnnotation is the reason of the Warning event a malformed annotation gives.
	ReasonBadAnnotation = "FairschedBadAnnotation"
	// ReasonCoreRefused is the reason of the Warning event when the core refused a job (its
	// capacity is full): the job is ordered after every job the core holds.
	ReasonCoreRefused = "FairschedCoreRefused"

	// tombstoneTTL is how long the key of a deleted pod is kept for Less (see tombstones).
	tombstoneTTL = 5 * time.Minute
)

// key is what Less compares: fixed when the pod is first seen, never changed while the pod
// exists (see the README: why Less is a strict weak order).
type key struct {
	class   uint8   // 0: a job the core holds; 1: a job it refused (ordered last)
	finish  float64 // the job's virtual finish time F, finite
	arrival float64 // the job's arrival (seconds since the plugin started)
	job     uint64  // the job's id, unique for the plugin's life
	pod     podOrder
}

func (a *key) less(b *key) bool {
	switch {
	case a.class != b.class:
		return a.class < b.class
	case a.finish != b.finish:
		return a.finish < b.finish
	case a.arrival != b.arrival:
		return a.arrival < b.arrival
	case a.job != b.job:
		return a.job < b.job
	}
	return a.pod.less(&b.pod)
}

// job is one job's accounting.
type job struct {
	id      uint64
	name    string // namespace/label value, or pod/namespace/uid for a pod without the label
	key     key    // the job part of its pods' keys
	pending uint32 // pods not bound
	running uint32 // pods bound
	inCore  bool
}

// podState is what the plugin knows about one pod.
type podState struct {
	job   *job
	bound bool
	key   key
}

// CFQSort is the QueueSort plugin: pending pods are ordered by their job's CFQ virtual finish
// time F (then the job's arrival, its id, the pod's creation time and name). It also
// implements PreEnqueue, only to learn of a pod before the queue compares it (it never gates).
//
// Its state is a fairsched.CFQ kept by the scheduler's informer events: a job arrives when its
// first pod is seen, its pending count follows its pods' bindings and deletions, it is removed
// when its last pod is gone, and the slot count follows the nodes (one slot per allocatable
// CPU core, at least one a node).
type CFQSort struct {
	mu      sync.RWMutex
	cfq     *fairsched.CFQ
	start   time.Time
	last    float64
	nextID  uint64
	jobs    map[string]*job
	pods    map[types.UID]*podState
	gone    tombstones[key]
	nodes   map[string]uint32
	slots   uint32
	handle  fwk.Handle
	nowFunc func() time.Time
}

var (
	_ fwk.QueueSortPlugin  = (*CFQSort)(nil)
	_ fwk.PreEnqueuePlugin = (*CFQSort)(nil)
)

// NewCFQSort is the plugin's factory: it creates the core's CFQ and registers the pod and node
// event handlers on the handle's SharedInformerFactory.
func NewCFQSort(ctx context.Context, _ runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
	p, err := newCFQSort(h)
	if err != nil {
		return nil, err
	}
	handlers := informerHandlers{
		podSeen: func(obj any) { p.podSeen(obj) }, podDeleted: p.podDeleted,
		nodeSeen: p.nodeSeen, nodeDeleted: p.nodeDeleted,
	}
	if _, err := handlers.register(h); err != nil {
		return nil, err
	}
	go func() {
		<-ctx.Done()
		p.mu.Lock()
		defer p.mu.Unlock()
		_ = p.cfq.Close()
	}()
	return p, nil
}

func newCFQSort(h fwk.Handle) (*CFQSort, error) {
	cfq, err := fairsched.NewCFQ(capacity, 1, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CFQSortName, err)
	}
	return &CFQSort{
		cfq: cfq, start: time.Now(), jobs: map[string]*job{}, pods: map[types.UID]*podState{},
		gone: tombstones[key]{}, nodes: map[string]uint32{}, slots: 1, handle: h,
		nowFunc: time.Now,
	}, nil
}

// Name returns the plugin's name.
func (p *CFQSort) Name() string { return CFQSortName }

// Less orders two queued entities by their keys. It only reads: the keys were fixed when the
// pods were first seen (PreEnqueue runs before a pod enters the queue).
func (p *CFQSort) Less(a, b fwk.QueuedEntityInfo) bool {
	return entityLess(a, b, func(pa, pb *v1.Pod) bool {
		ka, kb := p.keyOf(pa), p.keyOf(pb)
		return ka.less(&kb)
	})
}

// PreEnqueue records the pod (and its job's arrival) before the queue orders it; it never
// gates a pod.
func (p *CFQSort) PreEnqueue(_ context.Context, pod *v1.Pod) *fwk.Status {
	p.podSeen(pod)
	return nil
}

// keyOf returns the pod's key: the one recorded, else (a pod the plugin has not seen, which
// PreEnqueue makes impossible in the scheduler) the one it gets on being recorded now.
func (p *CFQSort) keyOf(pod *v1.Pod) key {
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
	return p.podSeen(pod)
}

// now returns seconds since the plugin started, never decreasing. Called with mu held.
func (p *CFQSort) now() float64 {
	t := p.nowFunc().Sub(p.start).Seconds()
	if t < p.last {
		t = p.last
	}
	p.last = t
	return t
}

func jobName(pod *v1.Pod) string {
	if v, ok := pod.Labels[JobLabel]; ok && v != "" {
		return pod.Namespace + "/" + v
	}
	return "pod/" + pod.Namespace + "/" + string(pod.UID)
}

// parseSlotTime reads the slot-time annotation: absent gives the default silently, malformed
// gives the default and a message.
func parseSlotTime(pod *v1.Pod) (float64, string) {
	s, ok := pod.Annotations[SlotTimeAnnotation]
	if !ok {
		return DefaultSlotTime, ""
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > maxSlotTime {
		return DefaultSlotTime, fmt.Sprintf("annotation %s=%q is not a positive number of seconds up to 2^60; using %g",
			SlotTimeAnnotation, s, DefaultSlotTime)
	}
	return v, ""
}

func parseWeight(pod *v1.Pod) (uint32, string) {
	s, ok := pod.Annotations[WeightAnnotation]
	if !ok {
		return DefaultWeight, ""
	}
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
	if err != nil || v == 0 || v > maxWeight {
		return DefaultWeight, fmt.Sprintf("annotation %s=%q is not an integer from 1 to %d; using %d",
			WeightAnnotation, s, maxWeight, DefaultWeight)
	}
	return uint32(v), ""
}

// podSeen records a pod added or updated (and its job's arrival if new) and returns its key.
func (p *CFQSort) podSeen(obj any) key {
	pod, ok := obj.(*v1.Pod)
	if !ok || pod == nil {
		return key{class: 2}
	}
	var warnings []warning
	p.mu.Lock()
	k := p.podSeenLocked(pod, &warnings)
	p.mu.Unlock()
	warn(p.handle, CFQSortName, pod, warnings)
	return k
}

func (p *CFQSort) podSeenLocked(pod *v1.Pod, warnings *[]warning) key {
	bound := pod.Spec.NodeName != ""
	if s, ok := p.pods[pod.UID]; ok {
		if isTerminal(pod) {
			// A pod that succeeded or failed frees its slot as a deleted one does.
			p.forgetLocked(pod.UID, s)
			return s.key
		}
		if bound && !s.bound {
			s.bound = true
			p.setPending(s.job, s.job.pending-1, s.job.running+1)
		}
		return s.key
	}
	if isTerminal(pod) {
		// A finished pod seen for the first time takes no part.
		return key{class: 1, finish: math.MaxFloat64, pod: podOrderOf(pod)}
	}
	name := jobName(pod)
	j, ok := p.jobs[name]
	if !ok {
		j = p.arrive(pod, name, warnings)
	}
	k := j.key
	k.pod = podOrderOf(pod)
	p.pods[pod.UID] = &podState{job: j, bound: bound, key: k}
	if bound {
		p.setPending(j, j.pending, j.running+1)
	} else {
		p.setPending(j, j.pending+1, j.running)
	}
	return k
}

func isTerminal(pod *v1.Pod) bool {
	return pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed
}

// arrive makes a new job arrive in the core. Called with mu held.
func (p *CFQSort) arrive(pod *v1.Pod, name string, warnings *[]warning) *job {
	slotTime, msg := parseSlotTime(pod)
	if msg != "" {
		*warnings = append(*warnings, warning{ReasonBadAnnotation, msg})
	}
	weight, msg := parseWeight(pod)
	if msg != "" {
		*warnings = append(*warnings, warning{ReasonBadAnnotation, msg})
	}
	p.nextID++
	j := &job{id: p.nextID, name: name}
	now := p.now()
	err := p.cfq.Arrive(now, j.id, slotTime, weight)
	if err == fairsched.ErrCapacityFull {
		// Rows of removed jobs are reclaimed as GPS completes them.
		if err = p.cfq.Advance(now); err == nil {
			err = p.cfq.Arrive(now, j.id, slotTime, weight)
		}
	}
	if err == nil {
		var info fairsched.CFQJobInfo
		if info, err = p.cfq.Job(j.id); err == nil {
			j.inCore = true
			j.key = key{finish: info.VirtualFinish, arrival: info.Arrival, job: j.id}
		}
	}
	if err != nil {
		*warnings = append(*warnings, warning{ReasonCoreRefused,
			fmt.Sprintf("the CFQ core refused job %s (%v): it is ordered after every job the core holds", name, err)})
		j.key = key{class: 1, finish: 0, arrival: now, job: j.id}
	}
	p.jobs[name] = j
	return j
}

// setPending updates a job's counts and the core's backlog; a job with no pod left is removed
// from the core. Called with mu held.
func (p *CFQSort) setPending(j *job, pending, running uint32) {
	j.pending, j.running = pending, running
	if !j.inCore {
		if pending == 0 && running == 0 {
			delete(p.jobs, j.name)
		}
		return
	}
	if pending == 0 && running == 0 {
		if err := p.cfq.Remove(p.now(), j.id); err != nil {
			klog.ErrorS(err, "fairsched: removing a job from the CFQ core", "job", j.name)
		}
		delete(p.jobs, j.name)
		return
	}
	if err := p.cfq.SetPending(j.id, pending); err != nil {
		klog.ErrorS(err, "fairsched: setting a job's pending pods in the CFQ core", "job", j.name)
	}
}

// podDeleted forgets a pod; its key stays readable for a while for the queue.
func (p *CFQSort) podDeleted(obj any) {
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

// forgetLocked forgets a pod, keeping its key for a while. Called with mu held.
func (p *CFQSort) forgetLocked(uid types.UID, s *podState) {
	delete(p.pods, uid)
	p.gone.keep(uid, s.key, p.nowFunc())
	if s.bound {
		p.setPending(s.job, s.job.pending, s.job.running-1)
	} else {
		p.setPending(s.job, s.job.pending-1, s.job.running)
	}
}

func nodeSlots(node *v1.Node) uint32 {
	cpu := node.Status.Allocatable.Cpu().MilliValue() / 1000
	if cpu < 1 {
		return 1
	}
	if cpu > math.MaxUint32/1024 {
		return math.MaxUint32 / 1024
	}
	return uint32(cpu)
}

func (p *CFQSort) nodeSeen(obj any) {
	node, ok := obj.(*v1.Node)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nodes[node.Name] = nodeSlots(node)
	p.resize()
}

func (p *CFQSort) nodeDeleted(obj any) {
	node, ok := deleted[v1.Node](obj)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.nodes, node.Name)
	p.resize()
}

// resize gives GPS the cluster's slot count. Called with mu held.
func (p *CFQSort) resize() {
	var total uint64
	for _, s := range p.nodes {
		total += uint64(s)
	}
	if total < 1 {
		total = 1
	}
	if total > math.MaxUint32 {
		total = math.MaxUint32
	}
	if uint32(total) == p.slots {
		return
	}
	if err := p.cfq.SetSlots(p.now(), uint32(total)); err != nil {
		klog.ErrorS(err, "fairsched: setting the CFQ core's slots", "slots", total)
		return
	}
	p.slots = uint32(total)
}

// Peek returns the name of the job the core's CFQ would give the next slot to (the backlogged
// job with the smallest F), for tests and diagnostics.
func (p *CFQSort) Peek() (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	id, ok, err := p.cfq.Peek()
	if err != nil || !ok {
		return "", false
	}
	for name, j := range p.jobs {
		if j.id == id {
			return name, true
		}
	}
	return "", false
}

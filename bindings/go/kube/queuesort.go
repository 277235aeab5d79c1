package kube

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
)

// What the QueueSort plugins (FairschedCFQ, FairschedDRF) share: the informer wiring, the
// order of queued entities that are not pods, the keys of deleted pods, and warnings.

// podOrder is the last part of every key: a pod's creation time, then namespace/name, then
// UID, which is unique, so keys that end with it are totally ordered.
type podOrder struct {
	created int64  // Unix nanoseconds
	name    string // namespace/name
	uid     types.UID
}

func podOrderOf(pod *v1.Pod) podOrder {
	return podOrder{created: pod.CreationTimestamp.UnixNano(), name: pod.Namespace + "/" + pod.Name, uid: pod.UID}
}

func (a *podOrder) less(b *podOrder) bool {
	switch {
	case a.created != b.created:
		return a.created < b.created
	case a.name != b.name:
		return a.name < b.name
	}
	return a.uid < b.uid
}

// informerHandlers are a plugin's reactions to the scheduler's pod and node events.
type informerHandlers struct {
	podSeen, podDeleted, nodeSeen, nodeDeleted func(obj any)
}

// register adds the handlers to the handle's shared informers (none without a factory) and
// returns the node handler's registration, whose HasSynced tells when the initial node list
// has been seen.
func (h informerHandlers) register(handle fwk.Handle) (cache.ResourceEventHandlerRegistration, error) {
	if handle == nil || handle.SharedInformerFactory() == nil {
		return nil, nil
	}
	factory := handle.SharedInformerFactory()
	if _, err := factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    h.podSeen,
		UpdateFunc: func(_, obj any) { h.podSeen(obj) },
		DeleteFunc: h.podDeleted,
	}); err != nil {
		return nil, err
	}
	return factory.Core().V1().Nodes().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    h.nodeSeen,
		UpdateFunc: func(_, obj any) { h.nodeSeen(obj) },
		DeleteFunc: h.nodeDeleted,
	})
}

// deleted returns the object of a delete event, unwrapping the informer's tombstone.
func deleted[T any](obj any) (*T, bool) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	x, ok := obj.(*T)
	return x, ok && x != nil
}

// entityLess orders two queued entities: pods by podLess; an entity without a pod (a pod group
// with no unscheduled pod) after every pod, by queue timestamp.
func entityLess(a, b fwk.QueuedEntityInfo, podLess func(pa, pb *v1.Pod) bool) bool {
	pa, pb := entityPod(a), entityPod(b)
	switch {
	case pa != nil && pb != nil:
		return podLess(pa, pb)
	case pa != nil || pb != nil:
		return pa != nil
	}
	return a.GetTimestamp().Before(b.GetTimestamp())
}

func entityPod(e fwk.QueuedEntityInfo) *v1.Pod {
	switch x := e.(type) {
	case interface{ GetPod() *v1.Pod }:
		return x.GetPod()
	case interface{ GetUnscheduledPods() []*v1.Pod }:
		if pods := x.GetUnscheduledPods(); len(pods) > 0 {
			return pods[0]
		}
	}
	return nil
}

// tombstones keep the keys of deleted pods for tombstoneTTL: the scheduler removes a deleted
// pod from its queue when its own handler sees the deletion, which may come after a plugin's,
// and Less must still answer for it meanwhile.
type tombstones[K any] map[types.UID]tombstone[K]

type tombstone[K any] struct {
	key  K
	when time.Time
}

// keep records a deleted pod's key at now and drops the keys older than tombstoneTTL.
func (t tombstones[K]) keep(uid types.UID, k K, now time.Time) {
	for u, old := range t {
		if now.Sub(old.when) > tombstoneTTL {
			delete(t, u)
		}
	}
	t[uid] = tombstone[K]{key: k, when: now}
}

// warning is a Warning event to record on a pod once the plugin's lock is released.
type warning struct{ reason, msg string }

// warn logs each warning about the pod and records it as a Warning event.
func warn(handle fwk.Handle, plugin string, pod *v1.Pod, warnings []warning) {
	for _, w := range warnings {
		klog.InfoS("fairsched: "+w.msg, "plugin", plugin, "pod", klog.KObj(pod), "reason", w.reason)
		if handle != nil {
			if r := handle.EventRecorder(); r != nil {
				r.Eventf(pod, nil, v1.EventTypeWarning, w.reason, "Scheduling", w.msg)
			}
		}
	}
}

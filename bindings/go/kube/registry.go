package kube

import (
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// Registry returns the out-of-tree registry holding the three plugins, for scheduler.New's
// WithFrameworkOutOfTreeRegistry.
func Registry() frameworkruntime.Registry {
	return frameworkruntime.Registry{
		CFQSortName:  NewCFQSort,
		DRFSortName:  NewDRFSort,
		DRRScoreName: NewDRRScore,
	}
}

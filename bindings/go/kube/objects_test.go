package kube

import "k8s.io/apimachinery/pkg/runtime"

type runtimeObject = runtime.Object

func toObjects(o []runtimeObject) []runtime.Object { return o }

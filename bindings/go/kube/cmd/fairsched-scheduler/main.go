// Command fairsched-scheduler is the real kube-scheduler (its own app command, k8s.io/kubernetes
// v1.37.2) with the fairsched plugins registered: FairschedCFQ and FairschedDRF (QueueSort, one at a time) and FairschedDRR
// (PreScore and Score). Enable them in a KubeSchedulerConfiguration passed with --config (see
// ../../README.md).
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register" // for JSON log format registration
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version" // for version metric registration
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/fairsched/fairsched/bindings/go/kube"
)

func main() {
	command := app.NewSchedulerCommand(
		app.WithPlugin(kube.CFQSortName, kube.NewCFQSort),
		app.WithPlugin(kube.DRFSortName, kube.NewDRFSort),
		app.WithPlugin(kube.DRRScoreName, kube.NewDRRScore),
	)
	os.Exit(cli.Run(command))
}

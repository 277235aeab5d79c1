module github.com/fairsched/fairsched/bindings/go/fairsched

go 1.24

module github.com/fairsched/fairsched/bindings/go

go 1.24

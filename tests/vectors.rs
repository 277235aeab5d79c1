//! Runs the shared vectors of tests/vectors/ (format in tests/vectors/README.md) through the
//! Rust API. JUnit and go test run the same files through the C ABI.

use fairsched::cfq::{Borrowed, Cfq, Profiler, Stats};
use fairsched::drf::{Divisible, DrfQueue, Users};
use fairsched::hai::{self, Batch, Hai};
use fairsched::qknobler::heterogeneous::{average_demand, choose, ActiveUsers, Branch};
use fairsched::qknobler::{allocate, Allocation};
use fairsched::Error;
use fairsched_testkit::memory::{CfqMemory, DrfMemory, Memory};
use fairsched_testkit::paf_outputs;
use serde_json::{json, Value};

fn float(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "nan" => f64::NAN,
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        _ => v.as_f64().unwrap_or_else(|| panic!("not a float: {v}")),
    }
}

fn id(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("not an id: {s}")),
        _ => v.as_u64().unwrap_or_else(|| panic!("not an id: {v}")),
    }
}

fn uint(v: &Value) -> u32 {
    u32::try_from(v.as_u64().expect("an unsigned integer")).expect("fits u32")
}

fn status_name(result: Result<(), Error>) -> &'static str {
    match result {
        Ok(()) => "ok",
        Err(Error::NotFinite) => "not_finite",
        Err(Error::NotPositive) => "not_positive",
        Err(Error::UnknownId) => "unknown_id",
        Err(Error::DuplicateId) => "duplicate_id",
        Err(Error::TimeWentBackwards) => "time_went_backwards",
        Err(Error::CapacityFull) => "capacity_full",
        Err(Error::CapacityTooLarge) => "capacity_too_large",
        Err(Error::OutOfRange) => "out_of_range",
        Err(Error::JobCompleted) => "job_completed",
        Err(Error::LengthMismatch) => "length_mismatch",
        Err(Error::Negative) => "negative",
        Err(Error::Empty) => "empty",
        Err(Error::NotMonotone) => "not_monotone",
        Err(Error::Underdetermined) => "underdetermined",
        Err(Error::DoesNotFit) => "does_not_fit",
        Err(other) => panic!("no vector name for {other:?}"),
    }
}

/// Whether `got` is `wanted`: numbers bit for bit, arrays element by element.
fn same(wanted: &Value, got: &Value) -> bool {
    match (wanted, got) {
        (Value::Array(w), Value::Array(g)) => {
            w.len() == g.len() && w.iter().zip(g).all(|(w, g)| same(w, g))
        }
        (Value::Null, _) | (_, Value::Null) | (Value::Bool(_), _) => wanted == got,
        _ => float(wanted).to_bits() == float(got).to_bits(),
    }
}

/// Compares `actual` with every field `expect` names.
fn check_fields(context: &str, expect: &Value, actual: &Value) {
    for (field, wanted) in expect.as_object().expect("expect is an object") {
        let got = &actual[field];
        assert!(
            same(wanted, got),
            "{context}: {field} expected {wanted}, got {got}"
        );
    }
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array of numbers")
        .iter()
        .map(float)
        .collect()
}

fn stats_value(stats: Stats) -> Value {
    json!({
        "now": stats.now, "virtual_time": stats.virtual_time, "slots": stats.slots,
        "capacity": stats.capacity, "jobs": stats.jobs, "backlogged": stats.backlogged,
        "gps_active": stats.gps_active, "rows_in_use": stats.rows_in_use,
    })
}

fn run_step(
    cfq: &mut Cfq<Borrowed<'_>>,
    profiler: &mut Profiler,
    step: &Value,
    context: &str,
) -> Result<(), Error> {
    let f = |name: &str| float(&step[name]);
    match step["op"].as_str().expect("op") {
        "advance" => cfq.advance(f("now")),
        "reprofile" => cfq.reprofile(f("now"), id(&step["id"]), f("slot_time")),
        "profiler_observe" => match step.get("duration") {
            Some(duration) => profiler.observe(float(duration)),
            None => profiler.observe_batch(&floats(&step["durations"])),
        },
        "profiler_estimate" => profiler.estimate(id(&step["tasks"])).map(|estimate| {
            assert_eq!(
                estimate.to_bits(),
                f("expect").to_bits(),
                "{context}: {estimate}"
            );
        }),
        "set_slots" => cfq.set_slots(f("now"), uint(&step["slots"])),
        "arrive" => cfq.arrive(
            f("now"),
            id(&step["id"]),
            f("slot_time"),
            uint(&step["weight"]),
        ),
        "set_pending" => cfq.set_pending(id(&step["id"]), uint(&step["pending"])),
        "set_pending_batch" => {
            let ids: Vec<u64> = step["ids"]
                .as_array()
                .expect("ids")
                .iter()
                .map(id)
                .collect();
            let pending: Vec<u32> = step["pending"]
                .as_array()
                .expect("pending")
                .iter()
                .map(uint)
                .collect();
            cfq.set_pending_batch(&ids, &pending)
        }
        "offer" => {
            let mut out = vec![0; step["slots"].as_u64().expect("slots") as usize];
            let n = cfq.offer(&mut out);
            let expected: Vec<u64> = step["expect_ids"]
                .as_array()
                .expect("expect_ids")
                .iter()
                .map(id)
                .collect();
            assert_eq!(out[..n], expected[..], "{context}");
            Ok(())
        }
        "peek" => {
            let expected = (!step["expect_id"].is_null()).then(|| id(&step["expect_id"]));
            assert_eq!(cfq.peek(), expected, "{context}");
            Ok(())
        }
        "complete" => cfq.complete(f("now"), id(&step["id"])),
        "remove" => cfq.remove(f("now"), id(&step["id"])),
        "job" => cfq.job(id(&step["id"])).map(|job| {
            let actual = json!({
                "virtual_finish": job.virtual_finish, "arrival": job.arrival,
                "slot_time": job.slot_time, "weight": job.weight,
                "pending_tasks": job.pending_tasks, "backlogged": job.backlogged,
                "gps_completion": job.gps_completion, "completion": job.completion,
            });
            check_fields(context, &step["expect"], &actual);
        }),
        "gps_estimate" => cfq.gps_completion_estimate(id(&step["id"])).map(|t| {
            assert_eq!(t.to_bits(), f("expect").to_bits(), "{context}: {t}");
        }),
        "stats" => {
            check_fields(context, &step["expect"], &stats_value(cfq.stats()));
            Ok(())
        }
        other => panic!("{context}: unknown op {other}"),
    }
}

#[test]
fn cfq_vectors() {
    let text = include_str!("vectors/cfq.json");
    let vectors: Value = serde_json::from_str(text).expect("valid JSON");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 10);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let capacity = case["capacity"].as_u64().expect("capacity") as usize;
        let mut memory = CfqMemory::new(capacity);
        let built = memory.cfq(uint(&case["slots"]), float(&case["start_time"]));
        let init_status = case["init_status"].as_str().unwrap_or("ok");
        let mut cfq = match built {
            Ok(cfq) => cfq,
            Err(error) => {
                assert_eq!(status_name(Err(error)), init_status, "{name}: init");
                continue;
            }
        };
        assert_eq!(init_status, "ok", "{name}: init should have failed");
        let mut profiler = Profiler::new();
        for (index, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
            let context = format!("{name} step {index} {step}");
            let before = (cfq.stats(), profiler);
            let status = status_name(run_step(&mut cfq, &mut profiler, step, &context));
            let wanted = step["status"].as_str().unwrap_or("ok");
            assert_eq!(status, wanted, "{context}");
            if wanted != "ok" {
                assert_eq!(
                    (cfq.stats(), profiler),
                    before,
                    "{context}: a failed call changed the state"
                );
            }
        }
    }
}

type Queue<'a> = DrfQueue<fairsched::drf::Borrowed<'a>>;

fn queue_step(queue: &mut Queue<'_>, step: &Value, context: &str) -> Result<(), Error> {
    let user = || id(&step["id"]);
    let count = |name: &str| step[name].as_u64().expect("a count");
    let mut out = vec![0u64; step["slots"].as_u64().unwrap_or(0) as usize];
    let check_started = |out: &[u64], n: usize| {
        if let Some(expected) = step.get("expect_ids") {
            let expected: Vec<u64> = expected.as_array().expect("ids").iter().map(id).collect();
            assert_eq!(out[..n], expected[..], "{context}");
        }
        if let Some(counts) = step.get("expect_counts") {
            for (user, wanted) in counts.as_object().expect("counts") {
                let got = out[..n]
                    .iter()
                    .filter(|&&id| id.to_string() == *user)
                    .count();
                assert_eq!(
                    got as u64,
                    wanted.as_u64().expect("a count"),
                    "{context}: user {user}"
                );
            }
            let total: u64 = counts
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.as_u64().unwrap())
                .sum();
            assert_eq!(n as u64, total, "{context}");
        }
    };
    match step["op"].as_str().expect("op") {
        "add_user" => queue.add_user(user(), float(&step["weight"]), &floats(&step["demand"])),
        "remove_user" => queue.remove_user(user()),
        "set_pending" => queue.set_pending(user(), count("pending")),
        "tasks_started" => queue.tasks_started(user(), count("count")),
        "tasks_finished" => queue.tasks_finished(user(), count("count")),
        "next" => {
            let expected = (!step["expect_id"].is_null()).then(|| id(&step["expect_id"]));
            assert_eq!(queue.next(), expected, "{context}");
            Ok(())
        }
        "user" => queue.user(user()).map(|u| {
            let actual = json!({
                "running": u.running, "pending": u.pending, "weight": u.weight,
                "dominant_share": u.dominant_share, "weighted_share": u.weighted_share,
            });
            check_fields(context, &step["expect"], &actual);
        }),
        "stats" => {
            let actual = json!({"users": queue.len(), "active": queue.active(), "kinds": queue.cluster().kinds()});
            check_fields(context, &step["expect"], &actual);
            Ok(())
        }
        "allocate_round" => queue
            .allocate_round(&floats(&step["free"]), &mut out)
            .map(|n| check_started(&out, n)),
        "qknobler_round" => queue
            .qknobler_round(
                float(&step["rho"]),
                &floats(&step["machine"]),
                &floats(&step["idle"]),
                &mut out,
            )
            .map(|round| {
                check_started(&out, round.started);
                assert_eq!(
                    Some(round.fairness as u64),
                    step["expect_fairness"].as_u64(),
                    "{context}"
                );
            }),
        other => panic!("{context}: unknown op {other}"),
    }
}

/// Every user's state, to compare before and after a failed step.
fn users_state(queue: &Queue<'_>) -> Vec<Option<fairsched::drf::UserInfo>> {
    (0..100).map(|id| queue.user(id).ok()).collect()
}

fn run_queue_case(case: &Value, name: &str) {
    let mut memory = DrfMemory::for_users(case["users"].as_u64().expect("users") as usize);
    let init_status = case["init_status"].as_str().unwrap_or("ok");
    let mut queue = match memory.queue(&floats(&case["capacity"])) {
        Ok(queue) => queue,
        Err(error) => {
            assert_eq!(status_name(Err(error)), init_status, "{name}: init");
            return;
        }
    };
    assert_eq!(init_status, "ok", "{name}: init should have failed");
    for (index, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
        let context = format!("{name} step {index} {step}");
        let before = (users_state(&queue), queue.len(), queue.active());
        let status = status_name(queue_step(&mut queue, step, &context));
        let wanted = step["status"].as_str().unwrap_or("ok");
        assert_eq!(status, wanted, "{context}");
        if wanted != "ok" {
            assert_eq!(
                (users_state(&queue), queue.len(), queue.active()),
                before,
                "{context}: changed state"
            );
        }
    }
}

fn run_allocation_case(case: &Value, name: &str) {
    let (capacity, weights, demands) = (
        floats(&case["capacity"]),
        floats(&case["weights"]),
        floats(&case["demands"]),
    );
    let wanted = case["status"].as_str().unwrap_or("ok");
    let result = Users::new(&capacity, &weights, &demands).and_then(|users| {
        let n = users.len();
        if case["type"] == "divisible" {
            let drf = Divisible::of(&users);
            let (mut tasks, mut shares) = (vec![0.0; n], vec![0.0; n]);
            drf.write(&users, &mut tasks, &mut shares)?;
            Ok(json!({"phi": drf.phi, "tasks": tasks, "shares": shares}))
        } else {
            let (mut fair, mut efficient, mut whole) = (vec![0.0; n], vec![0.0; n], vec![0u64; n]);
            let summary = allocate(
                &users,
                float(&case["rho"]),
                Allocation {
                    fair: &mut fair,
                    efficient: &mut efficient,
                    whole: &mut whole,
                },
            )?;
            Ok(json!({
                "fair": fair, "efficient": efficient, "whole": whole, "phi": summary.phi,
                "theta": summary.theta, "sharing_incentive_rho": summary.sharing_incentive_rho,
                "efficiency": summary.efficiency, "residual": summary.residual.as_slice(),
            }))
        }
    });
    match result {
        Ok(actual) => {
            assert_eq!(wanted, "ok", "{name}");
            check_fields(name, &case["expect"], &actual);
        }
        Err(error) => assert_eq!(status_name(Err(error)), wanted, "{name}"),
    }
}

/// Checks a case of drf.json without state: its `status`, and on success its `expect`.
fn check_outcome(name: &str, case: &Value, result: Result<Value, Error>) {
    let wanted = case["status"].as_str().unwrap_or("ok");
    match result {
        Ok(actual) => {
            assert_eq!(wanted, "ok", "{name}");
            check_fields(name, &case["expect"], &actual);
        }
        Err(error) => assert_eq!(status_name(Err(error)), wanted, "{name}"),
    }
}

/// An `average_demand` case: §6.1 C2's estimate of a user's average task demand. A failed
/// call must leave the output untouched.
fn run_average_demand_case(case: &Value, name: &str) {
    let idle = floats(&case["idle"]);
    let mut out = vec![-1.0; idle.len()];
    let result = average_demand(
        &idle,
        &floats(&case["running_sum"]),
        id(&case["running"]),
        &floats(&case["pending"]),
        &mut out,
    );
    if result.is_err() {
        assert!(out.iter().all(|&x| x == -1.0), "{name}: wrote {out:?}");
    }
    let result = result.map(|e| json!({"average": out, "counted": e.counted}));
    check_outcome(name, case, result);
}

/// A `qknobler_choose` case: Algorithm 1's decision with heterogeneous tasks.
fn run_choose_case(case: &Value, name: &str) {
    let (weights, allocated, max_shares, next) = (
        floats(&case["weights"]),
        floats(&case["allocated"]),
        floats(&case["max_shares"]),
        floats(&case["next"]),
    );
    let users = ActiveUsers {
        weights: &weights,
        allocated: &allocated,
        max_shares: &max_shares,
        next: &next,
    };
    let result = choose(
        float(&case["rho"]),
        &floats(&case["cluster"]),
        &floats(&case["machine"]),
        &floats(&case["idle"]),
        users,
    )
    .map(|choice| match choice {
        Some(c) => json!({"found": true, "user": c.user, "fairness": c.branch == Branch::Fairness}),
        None => json!({"found": false}),
    });
    check_outcome(name, case, result);
}

#[test]
fn drf_vectors() {
    let vectors: Value =
        serde_json::from_str(include_str!("vectors/drf.json")).expect("valid JSON");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 30);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        match case["type"].as_str().expect("type") {
            "queue" => run_queue_case(case, name),
            "average_demand" => run_average_demand_case(case, name),
            "qknobler_choose" => run_choose_case(case, name),
            _ => run_allocation_case(case, name),
        }
    }
}

fn uints(v: &Value) -> Vec<u32> {
    v.as_array().expect("an array").iter().map(uint).collect()
}

fn same_floats(context: &str, field: &str, expected: &[f64], got: &[f64]) {
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(expected), bits(got), "{context}: {field} {got:?}");
}

/// A PAF workspace on the heap.
fn paf_workspace(
    memory: &mut Memory<fairsched::paf::Bracket, { fairsched::paf::HEAPS }>,
) -> fairsched::Result<fairsched::paf::Paf<fairsched::paf::Borrowed<'_>>> {
    fairsched::paf::Paf::with_storage(memory.storage())
}

/// Runs one case of paf.json; returns its status.
fn run_paf_case(case: &Value, name: &str) -> Result<(), Error> {
    use fairsched::paf::{curve, ernest, profile, Ernest, FlatJobs, Method};
    let capacity = case["capacity"].as_u64().unwrap_or(0) as usize;
    let mut memory = Memory::new(capacity);
    match case["op"].as_str().expect("op") {
        "allocate" => {
            let weights = uints(&case["weights"]);
            let curves: Vec<Vec<f64>> = case["curves"]
                .as_array()
                .expect("curves")
                .iter()
                .map(floats)
                .collect();
            let mut offsets = vec![0u32];
            for c in &curves {
                offsets.push(offsets.last().unwrap() + c.len() as u32);
            }
            let points: Vec<f64> = curves.concat();
            let mut paf = paf_workspace(&mut memory)?;
            let jobs = FlatJobs::new(&weights, &offsets, &points)?;
            let n = weights.len();
            let expect = &case["expect"];
            for method in [Method::Literal, Method::Fast] {
                let context = format!("{name} ({method:?})");
                let mut out = paf_outputs::Outputs::filled(n, 0, 0.0);
                let t = paf.allocate(
                    &jobs,
                    uint(&case["slots"]),
                    float(&case["alpha"]),
                    method,
                    out.allocation(),
                )?;
                assert_eq!(out.fair, uints(&expect["fair"]), "{context}: fair");
                assert_eq!(out.min, uints(&expect["min"]), "{context}: min");
                assert_eq!(out.paf, uints(&expect["paf"]), "{context}: paf");
                same_floats(
                    &context,
                    "fair_progress",
                    &floats(&expect["fair_progress"]),
                    &out.fair_progress,
                );
                same_floats(
                    &context,
                    "paf_progress",
                    &floats(&expect["paf_progress"]),
                    &out.paf_progress,
                );
                assert_eq!(
                    (t.slots, t.moved),
                    (
                        expect["slots"].as_u64().unwrap(),
                        expect["moved"].as_u64().unwrap()
                    ),
                    "{context}"
                );
                let totals = [t.fair_progress, t.paf_progress, t.largest_loss];
                let wanted = ["total_fair_progress", "total_paf_progress", "largest_loss"]
                    .map(|f| float(&expect[f]));
                same_floats(&context, "totals", &wanted, &totals);
            }
            Ok(())
        }
        "enforce" => {
            let mut paf = paf_workspace(&mut memory)?;
            let mut out = vec![u32::MAX; case["slots"].as_u64().unwrap() as usize];
            let given = paf.enforce(
                &uints(&case["weights"]),
                &uints(&case["targets"]),
                &uints(&case["running"]),
                &mut out,
            )?;
            assert_eq!(out[..given], uints(&case["expect_jobs"])[..], "{name}");
            Ok(())
        }
        "ernest_fit" => {
            let model = ernest::fit(&uints(&case["slots"]), &floats(&case["runtimes"]))?;
            let tolerance = float(&case["tolerance"]);
            for (got, want) in model.coefficients().iter().zip(floats(&case["expect"])) {
                assert!(
                    (got - want).abs() <= tolerance,
                    "{name}: {:?}",
                    model.coefficients()
                );
            }
            Ok(())
        }
        "ernest_tabulate" => {
            let a = floats(&case["coefficients"]);
            let mut out = vec![f64::NAN; case["points"].as_u64().unwrap() as usize];
            Ernest::new([a[0], a[1], a[2], a[3]])?.tabulate(&mut out)?;
            same_floats(name, "points", &floats(&case["expect"]), &out);
            Ok(())
        }
        "curve_check" => {
            let points = floats(&case["points"]);
            let c = fairsched::paf::Curve::new(&points)?;
            assert_eq!(
                u64::from(c.concave_from()),
                case["expect_concave_from"].as_u64().unwrap(),
                "{name}"
            );
            Ok(())
        }
        "concave_envelope" => {
            let points = floats(&case["points"]);
            let mut out = vec![f64::NAN; points.len()];
            curve::concave_envelope(&points, &mut out)?;
            same_floats(name, "points", &floats(&case["expect"]), &out);
            Ok(())
        }
        "curve_from_tasks" => {
            let durations = floats(&case["durations"]);
            let points = case["points"]
                .as_u64()
                .map_or(durations.len() + 1, |n| n as usize);
            let mut out = vec![-1.0; points];
            let mut scratch = vec![0.0; durations.len()];
            let result = profile::curve_from_tasks(
                &durations,
                float(&case["warmup"]),
                &mut scratch,
                &mut out,
            );
            let Ok(shortest) = result else {
                assert!(out.iter().all(|&p| p == -1.0), "{name}: out written");
                return result.map(|_| ());
            };
            let expect = &case["expect"];
            same_floats(name, "points", &floats(&expect["points"]), &out);
            same_floats(name, "shortest", &[float(&expect["shortest"])], &[shortest]);
            Ok(())
        }
        other => panic!("{name}: unknown op {other}"),
    }
}

#[test]
fn paf_vectors() {
    let vectors: Value =
        serde_json::from_str(include_str!("vectors/paf.json")).expect("valid JSON");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 30);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let status = status_name(run_paf_case(case, name));
        assert_eq!(status, case["status"].as_str().unwrap_or("ok"), "{name}");
    }
}

/// A float for the expected JSON: the vector strings for infinities (JSON has no number for
/// them).
fn float_value(x: f64) -> Value {
    match x {
        f64::INFINITY => json!("inf"),
        f64::NEG_INFINITY => json!("-inf"),
        _ => json!(x),
    }
}

/// One DRR case through the Rust API: its outputs as JSON, or the error, with the inputs
/// given in place checked unchanged on error.
fn run_drr_case(case: &Value) -> Result<Value, Error> {
    use fairsched::drr::*;
    // The vectors give a metric by its C code (`FAIRSCHED_DRR_METRIC_*`).
    let metric = || match uint(&case["metric"]) {
        0 => Ok(Metric::Drr),
        1 => Ok(Metric::Trc),
        2 => Ok(Metric::Tetris),
        _ => Err(Error::OutOfRange),
    };
    match case["type"].as_str().expect("type") {
        "machine" => {
            let (capacity, available) = (floats(&case["capacity"]), floats(&case["available"]));
            let machine = Machine::new(&capacity, &available, uint(&case["t_run"]))?;
            Ok(json!({"drr": machine.drr(), "trc": machine.trc()}))
        }
        "min_frag" => {
            let given = floats(&case["available"]);
            let mut available = given.clone();
            let (demands, steps) = (floats(&case["demands"]), uints(&case["steps"]));
            let mut placements = vec![u32::MAX; steps.len()];
            let kinds = case["capacity"].as_array().expect("capacity").len();
            let result = Executors::new(&demands, &steps, kinds).and_then(|pending| {
                let (capacity, t_run) = (floats(&case["capacity"]), uint(&case["t_run"]));
                min_frag(
                    &capacity,
                    &mut available,
                    t_run,
                    &pending,
                    metric()?,
                    &mut placements,
                )
            });
            let Ok(beat) = result else {
                assert_eq!(available, given, "a failed heartbeat changed the series");
                return Err(result.unwrap_err());
            };
            placements.truncate(beat.placed);
            Ok(
                json!({"placements": placements, "t_run": beat.t_run, "drr": beat.drr,
                      "available": available}),
            )
        }
        "score_machines" => {
            let kinds = case["kinds"].as_u64().expect("kinds") as usize;
            let (capacities, available) = (floats(&case["capacities"]), floats(&case["available"]));
            let t_runs = uints(&case["t_runs"]);
            let machines = Machines::new(&capacities, kinds, &available, &t_runs)?;
            let demand = floats(&case["demand"]);
            let executor = Executor::new(&demand, kinds)?;
            let (mut fits, mut scores) = (vec![false; t_runs.len()], vec![0.0; t_runs.len()]);
            score_machines(&machines, &executor, metric()?, &mut fits, &mut scores)?;
            let scores: Vec<Value> = scores.into_iter().map(float_value).collect();
            Ok(json!({"fits": fits, "scores": scores}))
        }
        "reprovision_due" => {
            let (elapsed, expected) = (floats(&case["elapsed"]), floats(&case["expected"]));
            let due_len = case
                .get("due_len")
                .map_or(elapsed.len(), |n| n.as_u64().expect("due_len") as usize);
            let mut due = vec![true; due_len];
            let result = reprovision_due(&elapsed, &expected, float(&case["rho"]), &mut due);
            let Ok(count) = result else {
                assert!(due.iter().all(|&d| d), "a failed trigger wrote its flags");
                return Err(result.unwrap_err());
            };
            Ok(json!({"due": due, "count": count}))
        }
        "reprovision" => {
            let given = floats(&case["remaining"]);
            let mut remaining = given.clone();
            let kinds = case["kinds"].as_u64().expect("kinds") as usize;
            let (observed, predicted) = (floats(&case["observed"]), floats(&case["predicted"]));
            if let Err(error) = reprovision(&mut remaining, kinds, &observed, &predicted) {
                assert_eq!(
                    remaining, given,
                    "a failed reprovisioning changed the series"
                );
                return Err(error);
            }
            Ok(json!({"remaining": remaining}))
        }
        other => panic!("unknown DRR case type {other}"),
    }
}

/// Whether `got` is the u64 `wanted` (a number or a decimal string, as ids are written).
fn same_u64(wanted: &Value, got: u64) -> bool {
    id(wanted) == got
}

/// Compares the fields `expect` names with `actual`: those in `integers` as u64 (ids, steps,
/// counts), the others as floats, bit for bit.
fn check_mixed(context: &str, expect: &Value, actual: &Value, integers: &[&str]) {
    for (field, wanted) in expect.as_object().expect("expect is an object") {
        let got = &actual[field];
        let equal = if integers.contains(&field.as_str()) {
            same_u64(wanted, got.as_u64().expect("an integer"))
        } else {
            same(wanted, got)
        };
        assert!(equal, "{context}: {field} expected {wanted}, got {got}");
    }
}

/// A DRR metric by its C code (`FAIRSCHED_DRR_METRIC_*`), as the C ABI decodes it.
fn drr_metric(code: u32) -> Result<fairsched::drr::Metric, Error> {
    use fairsched::drr::Metric;
    [Metric::Drr, Metric::Trc, Metric::Tetris]
        .get(code as usize)
        .copied()
        .ok_or(Error::OutOfRange)
}

/// A timeline's state as the vectors name it.
fn timeline_state<S: fairsched::table::Storage<fairsched::drr::timeline::ExecutorRow, 0>>(
    t: &fairsched::drr::Timeline<S>,
) -> Value {
    let stats = t.stats();
    json!({"now": stats.now, "next_id": stats.next_id, "running": stats.running,
           "capacity": stats.capacity, "horizon": stats.horizon, "t_run": stats.t_run,
           "kinds": stats.kinds, "drr": stats.drr, "trc": stats.trc,
           "available": t.available()})
}

/// One step of a `timeline` case.
fn timeline_step<S: fairsched::table::Storage<fairsched::drr::timeline::ExecutorRow, 0>>(
    t: &mut fairsched::drr::Timeline<S>,
    step: &Value,
    context: &str,
) -> Result<(), Error> {
    use fairsched::drr::{Executor, Executors};
    let kinds = t.machine().kinds();
    match step["op"].as_str().expect("op") {
        "advance" => {
            let finished = t.advance(id(&step["by"]))?;
            assert_eq!(
                Some(finished as u64),
                step["expect_finished"].as_u64(),
                "{context}"
            );
        }
        "place" => {
            let demand = floats(&step["demand"]);
            let got = Executor::new(&demand, kinds).and_then(|e| t.place(&e))?;
            assert!(same_u64(&step["expect_id"], got), "{context}: id {got}");
        }
        "release" => t.release(id(&step["id"]))?,
        "reprovision" => {
            let (observed, predicted) = (floats(&step["observed"]), floats(&step["predicted"]));
            t.reprovision(id(&step["id"]), &observed, &predicted)?;
        }
        "heartbeat" => {
            let slots = step["slots"].as_u64().expect("slots") as usize;
            let mut placements = vec![u32::MAX; slots];
            let result = drr_metric(uint(&step["metric"])).and_then(|metric| {
                let (demands, steps) = (floats(&step["demands"]), uints(&step["steps"]));
                let pending = Executors::new(&demands, &steps, kinds)?;
                t.heartbeat(&pending, &uints(&step["counts"]), metric, &mut placements)
            });
            let Ok(placed) = result else {
                assert!(placements.iter().all(|&p| p == u32::MAX), "{context}");
                return Err(result.unwrap_err());
            };
            placements.truncate(placed.placed);
            let actual = json!({"placements": placements, "first_id": placed.first_id,
                                "t_run": placed.t_run, "drr": placed.drr});
            check_mixed(context, &step["expect"], &actual, &["first_id", "t_run"]);
        }
        "stats" => {
            let integers = [
                "now", "next_id", "running", "capacity", "horizon", "t_run", "kinds",
            ];
            check_mixed(context, &step["expect"], &timeline_state(t), &integers);
        }
        "available" => {
            same_floats(
                context,
                "available",
                &floats(&step["expect"]),
                t.available(),
            );
        }
        other => panic!("{context}: unknown timeline op {other}"),
    }
    Ok(())
}

/// A `timeline` case: the timeline built, then each step, a failed one leaving the state as
/// it was.
fn run_timeline_case(case: &Value, name: &str) {
    use fairsched::drr::timeline::{self, ExecutorRow, HEAPS};
    use fairsched::drr::Timeline;
    let capacity = case["capacity"].as_u64().expect("capacity") as usize;
    let (machine, horizon) = (floats(&case["machine"]), uint(&case["horizon"]));
    let amounts = timeline::amounts(capacity, horizon as usize, machine.len());
    let mut memory = Memory::<ExecutorRow, HEAPS>::with_amounts(capacity, amounts);
    let built = Timeline::with_storage(memory.storage_with_amounts(), &machine, horizon);
    let wanted = case["init_status"].as_str().unwrap_or("ok");
    assert_eq!(
        status_name(built.as_ref().map(drop).map_err(|e| *e)),
        wanted,
        "{name}"
    );
    let Ok(mut t) = built else { return };
    for (k, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
        let context = format!("{name}, step {k}");
        let before = timeline_state(&t);
        let result = timeline_step(&mut t, step, &context);
        let wanted = step["status"].as_str().unwrap_or("ok");
        assert_eq!(status_name(result), wanted, "{context}");
        if result.is_err() {
            assert_eq!(
                timeline_state(&t),
                before,
                "{context}: a failed call changed it"
            );
        }
    }
}

/// What a failed predictor call must leave as it was: the applications and the runs of every
/// id the case names.
fn predictor_state<S: fairsched::table::Storage<fairsched::drr::predictor::ApplicationRow, 0>>(
    p: &fairsched::drr::Predictor<S>,
    ids: &[u64],
) -> Vec<usize> {
    let runs = ids.iter().map(|&id| p.runs(id));
    std::iter::once(p.applications()).chain(runs).collect()
}

/// One step of a `predictor` case.
fn predictor_step<S: fairsched::table::Storage<fairsched::drr::predictor::ApplicationRow, 0>>(
    p: &mut fairsched::drr::Predictor<S>,
    step: &Value,
    context: &str,
) -> Result<(), Error> {
    let id = id(&step["id"]);
    match step["op"].as_str().expect("op") {
        "record" => p.record(id, &floats(&step["run"]))?,
        "forget" => p.forget(id)?,
        "runs" => assert_eq!(
            Some(p.runs(id) as u64),
            step["expect"].as_u64(),
            "{context}"
        ),
        "predict" => {
            let room = step.get("room").map_or(p.steps() * p.kinds(), |n| {
                n.as_u64().expect("room") as usize
            });
            let mut out = vec![-1.0; room];
            let peak = floats(&step["peak"]);
            let result = p.predict(id, &peak, uint(&step["peak_steps"]), &mut out);
            let Ok(prediction) = result else {
                same_floats(context, "unwritten", &vec![-1.0; room], &out);
                return Err(result.unwrap_err());
            };
            out.truncate(prediction.steps * p.kinds());
            let actual = json!({"series": out, "runs": prediction.runs});
            check_mixed(context, &step["expect"], &actual, &["runs"]);
        }
        other => panic!("{context}: unknown predictor op {other}"),
    }
    Ok(())
}

/// A `predictor` case, as a `timeline` case.
fn run_predictor_case(case: &Value, name: &str) {
    use fairsched::drr::predictor::{self, ApplicationRow, HEAPS};
    use fairsched::drr::Predictor;
    let count = |field: &str| case[field].as_u64().expect(field) as usize;
    let (capacity, kinds, window, steps) = (
        count("capacity"),
        count("kinds"),
        count("window"),
        count("max_steps"),
    );
    let amounts = predictor::amounts(capacity, window, steps, kinds);
    let mut memory = Memory::<ApplicationRow, HEAPS>::with_amounts(capacity, amounts);
    let built = Predictor::with_storage(
        memory.storage_with_amounts(),
        kinds,
        window as u32,
        steps as u32,
    );
    let wanted = case["init_status"].as_str().unwrap_or("ok");
    assert_eq!(
        status_name(built.as_ref().map(drop).map_err(|e| *e)),
        wanted,
        "{name}"
    );
    let Ok(mut p) = built else { return };
    let all = case["steps"].as_array().expect("steps");
    let ids: Vec<u64> = all.iter().map(|step| id(&step["id"])).collect();
    for (k, step) in all.iter().enumerate() {
        let context = format!("{name}, step {k}");
        let before = predictor_state(&p, &ids);
        let result = predictor_step(&mut p, step, &context);
        let wanted = step["status"].as_str().unwrap_or("ok");
        assert_eq!(status_name(result), wanted, "{context}");
        if result.is_err() {
            assert_eq!(
                predictor_state(&p, &ids),
                before,
                "{context}: a failed call changed it"
            );
        }
    }
}

#[test]
fn drr_vectors() {
    let vectors: Value =
        serde_json::from_str(include_str!("vectors/drr.json")).expect("valid JSON");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 60);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        match case["type"].as_str() {
            Some("timeline") => {
                run_timeline_case(case, name);
                continue;
            }
            Some("predictor") => {
                run_predictor_case(case, name);
                continue;
            }
            _ => {}
        }
        let wanted = case["status"].as_str().unwrap_or("ok");
        match run_drr_case(case) {
            Ok(actual) => {
                assert_eq!(wanted, "ok", "{name}");
                check_fields(name, &case["expect"], &actual);
            }
            Err(error) => assert_eq!(status_name(Err(error)), wanted, "{name}"),
        }
    }
}

/// Runs one case of hai.json: the call, then its outputs (or, when it fails, that it wrote
/// nothing).
fn run_hai_case(case: &Value) {
    let name = case["name"].as_str().expect("name");
    if case["method"]
        .as_str()
        .is_some_and(|method| method.starts_with("table_from_"))
    {
        return run_hai_table_case(name, case);
    }
    let caps = uints(&case["caps"]);
    let jct = floats(&case["jct"]);
    let n = caps.len();
    let given = case.get("cores").map_or_else(|| vec![0; n], uints);
    let jct_out_len = case
        .get("jct_out_len")
        .map_or(n, |v| v.as_u64().expect("length") as usize);
    let max_jobs = case["max_jobs"].as_u64().expect("max_jobs") as usize;
    let mut memory = Memory::<hai::JobRow, { hai::HEAPS }>::new(max_jobs);
    let batch = Batch {
        capacity: uint(&case["capacity"]),
        theta: uint(&case["theta"]),
        caps: &caps,
        jct: &jct,
    };
    let mut cores = given.clone();
    let mut jct_out = vec![-1.0; jct_out_len];
    let result = Hai::with_storage(memory.storage()).and_then(|mut hai| {
        match case["method"].as_str().expect("method") {
            "shortest_job_optimal" => hai.shortest_job_optimal(&batch, &mut cores, &mut jct_out),
            "allocate" => hai.allocate(&batch, &mut cores, &mut jct_out),
            "rebalance" => hai.rebalance(&batch, &mut cores, &mut jct_out),
            other => panic!("{name}: unknown method {other}"),
        }
    });
    let wanted = case["status"].as_str().unwrap_or("ok");
    assert_eq!(status_name(result.map(drop)), wanted, "{name}");
    let Ok(summary) = result else {
        assert_eq!(cores, given, "{name}: a failed call wrote its cores");
        same_floats(
            name,
            "JCTs after a failed call",
            &vec![-1.0; jct_out_len],
            &jct_out,
        );
        return;
    };
    let expect = &case["expect"];
    assert_eq!(cores, uints(&expect["cores"]), "{name}: cores");
    same_floats(name, "jct", &floats(&expect["jct"]), &jct_out);
    let sums = [summary.jct_sum_start, summary.jct_sum];
    let expected = [float(&expect["jct_sum_start"]), float(&expect["jct_sum"])];
    same_floats(name, "sums", &expected, &sums);
    assert_eq!(summary.transfers, uint(&expect["transfers"]), "{name}");
}

/// Runs one table case of hai.json (`table_from_differences`, `table_from_samples`): the table,
/// and a fit's coefficients, or when the call fails, that it wrote no table.
fn run_hai_table_case(name: &str, case: &Value) {
    let theta = uint(&case["theta"]);
    let len = case["table_len"].as_u64().expect("table_len") as usize;
    let mut table = vec![-1.0; len];
    let mut coefficients = [-1.0; 4];
    let result = match case["method"].as_str().expect("method") {
        "table_from_differences" => hai::table_from_differences(
            theta,
            uint(&case["reference"]),
            float(&case["jct_at_reference"]),
            &floats(&case["differences"]),
            &mut table,
        ),
        "table_from_samples" => hai::table_from_samples(
            &uints(&case["sample_cores"]),
            &floats(&case["sample_jct"]),
            theta,
            &mut table,
        )
        .map(|model| coefficients = model.coefficients()),
        other => panic!("{name}: unknown method {other}"),
    };
    assert_eq!(
        status_name(result),
        case["status"].as_str().unwrap_or("ok"),
        "{name}"
    );
    if result.is_err() {
        same_floats(name, "table after a failed call", &vec![-1.0; len], &table);
        return;
    }
    let expect = &case["expect"];
    same_floats(name, "table", &floats(&expect["table"]), &table);
    if let Some(expected) = expect.get("coefficients") {
        same_floats(name, "coefficients", &floats(expected), &coefficients);
    }
}

#[test]
fn hai_vectors() {
    let vectors: Value = serde_json::from_str(include_str!("vectors/hai.json")).expect("JSON");
    let cases = vectors["cases"].as_array().expect("cases");
    assert!(cases.len() >= 30);
    cases.iter().for_each(run_hai_case);
}

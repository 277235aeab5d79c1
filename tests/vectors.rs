//! Runs the shared vectors of tests/vectors/ (format in tests/vectors/README.md) through the
//! Rust API. JUnit and go test run the same files through the C ABI.

#[path = "support/memory.rs"]
mod memory;
#[path = "support/paf_outputs.rs"]
mod paf_outputs;

use fairsched::cfq::{Borrowed, Cfq, Stats};
use fairsched::Error;
use memory::Memory;
use serde_json::Value;

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
        Err(other) => panic!("no vector name for {other:?}"),
    }
}

/// Compares `actual` with every field `expect` names.
fn check_fields(context: &str, expect: &Value, actual: &Value) {
    for (field, wanted) in expect.as_object().expect("expect is an object") {
        let got = &actual[field];
        let same = match (wanted, got) {
            (Value::Null, _) | (_, Value::Null) | (Value::Bool(_), _) => wanted == got,
            _ => float(wanted).to_bits() == float(got).to_bits(),
        };
        assert!(same, "{context}: {field} expected {wanted}, got {got}");
    }
}

fn stats_value(stats: Stats) -> Value {
    serde_json::json!({
        "now": stats.now, "virtual_time": stats.virtual_time, "slots": stats.slots,
        "capacity": stats.capacity, "jobs": stats.jobs, "backlogged": stats.backlogged,
        "gps_active": stats.gps_active, "rows_in_use": stats.rows_in_use,
    })
}

fn run_step(cfq: &mut Cfq<Borrowed<'_>>, step: &Value, context: &str) -> Result<(), Error> {
    let f = |name: &str| float(&step[name]);
    match step["op"].as_str().expect("op") {
        "advance" => cfq.advance(f("now")),
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
            let actual = serde_json::json!({
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
        let mut memory = Memory::new(capacity);
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
        for (index, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
            let context = format!("{name} step {index} {step}");
            let before = cfq.stats();
            let status = status_name(run_step(&mut cfq, step, &context));
            let wanted = step["status"].as_str().unwrap_or("ok");
            assert_eq!(status, wanted, "{context}");
            if wanted != "ok" {
                assert_eq!(
                    cfq.stats(),
                    before,
                    "{context}: a failed call changed the state"
                );
            }
        }
    }
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(float).collect()
}

fn uints(v: &Value) -> Vec<u32> {
    v.as_array().expect("an array").iter().map(uint).collect()
}

fn same_floats(context: &str, field: &str, expected: &[f64], got: &[f64]) {
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(expected), bits(got), "{context}: {field} {got:?}");
}

/// A PAF workspace of `capacity` jobs on the heap.
fn paf_workspace(
    memory: &mut (
        Vec<u32>,
        Vec<fairsched::paf::Bracket>,
        Vec<fairsched::heap::HeapSlot>,
    ),
) -> fairsched::Result<fairsched::paf::Paf<fairsched::paf::Borrowed<'_>>> {
    let (order, brackets, heaps) = memory;
    fairsched::paf::Paf::with_storage(fairsched::paf::Borrowed::new(order, brackets, heaps)?)
}

/// Runs one case of paf.json; returns its status.
fn run_paf_case(case: &Value, name: &str) -> Result<(), Error> {
    use fairsched::paf::{curve, ernest, Ernest, FlatJobs, Method};
    let capacity = case["capacity"].as_u64().unwrap_or(0) as usize;
    let mut memory = (
        vec![0; capacity],
        vec![fairsched::paf::Bracket::EMPTY; capacity],
        vec![fairsched::heap::HeapSlot::VACANT; 2 * capacity],
    );
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
            let given =
                paf.enforce(&uints(&case["targets"]), &uints(&case["running"]), &mut out)?;
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

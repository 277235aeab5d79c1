//! Runs the shared vectors of tests/vectors/ (format in tests/vectors/README.md) through the
//! Rust API. JUnit and go test run the same files through the C ABI.

#[path = "support/memory.rs"]
mod memory;

use fairsched::cfq::{Borrowed, Cfq, Stats};
use fairsched::Error;
use memory::CfqMemory;
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

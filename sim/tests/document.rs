//! What a command prints, as data: CSV and JSON escape what they hold and keep every figure,
//! the summary lines group a subject's comparisons, and the text is the parts' in order.

use fairsched_sim::document::{
    identifier, summary_lines, Comparison, Document, Format, Part, Table, Value,
};

/// Two tables with different columns, holding what CSV and JSON must escape or keep exactly.
fn document() -> Document {
    let first = Table {
        name: "first".to_owned(),
        title: "one, \"quoted\"".to_owned(),
        context: vec![("slots", 40u32.into())],
        rows: vec![
            vec![
                ("policy", "a, b \"c\"\nd".into()),
                ("mean", 1.5.into()),
                ("bin", Value::Null),
            ],
            vec![
                ("policy", "tab\there \\ \u{1}é".into()),
                ("mean", f64::NAN.into()),
                ("bin", Some(2.0).into()),
            ],
        ],
    };
    let second = Table {
        name: "second".to_owned(),
        title: "two".to_owned(),
        context: Vec::new(),
        rows: vec![vec![("seed", u64::MAX.into()), ("mean", (-0.25).into())]],
    };
    let comparison = Comparison::new(
        "first",
        Some("40_slots"),
        ("a", "A"),
        ("b", "B"),
        ("mean", "mean"),
        -0.125,
    )
    .with_paper(Some(-0.2));
    Document::new(
        "test",
        "a test".to_owned(),
        vec![("seed", 7u64.into()), ("path", Value::Null)],
        vec![
            Part::summarized(first, vec![comparison], "first table\n".to_owned()),
            Part::summarized(second, Vec::new(), "second table\n".to_owned()),
        ],
        "legend\n",
    )
}

#[test]
fn csv_has_every_key_as_a_column_and_quotes_what_needs_it() {
    assert_eq!(
        document().render(Format::Csv),
        "table,slots,policy,mean,bin,seed\n\
         first,40,\"a, b \"\"c\"\"\nd\",1.5,,\n\
         first,40,tab\there \\ \u{1}é,,2,\n\
         second,,,-0.25,,18446744073709551615\n"
    );
}

#[test]
fn json_holds_every_figure_and_escapes_strings() {
    let text = document().render(Format::Json);
    assert!(text.ends_with("}\n"));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["command"], "test");
    assert_eq!(json["parameters"]["seed"], 7);
    assert!(json["parameters"]["path"].is_null());
    let first = &json["tables"][0];
    assert_eq!(first["title"], "one, \"quoted\"");
    assert_eq!(first["context"]["slots"], 40);
    assert_eq!(first["rows"][0]["policy"], "a, b \"c\"\nd");
    assert_eq!(first["rows"][1]["policy"], "tab\there \\ \u{1}é");
    // NaN has no JSON number: null, as a missing figure.
    assert!(first["rows"][1]["mean"].is_null());
    assert!(first["rows"][0]["bin"].is_null());
    assert_eq!(first["rows"][1]["bin"], 2.0);
    assert_eq!(json["tables"][1]["rows"][0]["seed"], u64::MAX);
    let comparison = &json["comparisons"][0];
    assert_eq!(comparison["name"], "a_vs_b.mean@40_slots");
    assert_eq!(comparison["table"], "first");
    assert_eq!(comparison["subject"], "A");
    assert_eq!(comparison["baseline"], "B");
    assert_eq!(comparison["measure"], "mean");
    assert_eq!(comparison["value"], -0.125);
    assert_eq!(comparison["paper"], -0.2);
    assert_eq!(json["comparisons"].as_array().unwrap().len(), 1);
}

/// The parts' text in order, each summarized, a blank line between, the footer last.
#[test]
fn the_text_is_the_parts_then_the_footer() {
    assert_eq!(
        document().render(Format::Text),
        "first table\n\nA against B: mean -12.5%\n\nsecond table\n\nlegend\n"
    );
}

#[test]
fn summary_lines_group_a_subjects_comparisons() {
    let compare = |subject: &str, baseline: &str, measure: &str, value: f64| {
        Comparison::new(
            "t",
            None,
            (subject, subject),
            (baseline, baseline),
            (measure, measure),
            value,
        )
    };
    let lines = summary_lines(&[
        compare("CFQ", "FAIR", "mean", -0.352),
        compare("CFQ", "FAIR", "p95", -0.12),
        compare("CFQ", "SRPT", "mean", 0.001),
        compare("naive", "CFQ", "mean", f64::INFINITY),
    ]);
    assert_eq!(
        lines,
        "CFQ against FAIR: mean -35.2%, p95 -12.0%; against SRPT: mean +0.1%\n\
         naive against CFQ: mean -\n"
    );
    assert_eq!(summary_lines(&[]), "");
    assert_eq!(compare("a", "b", "m", 0.0).name, "a_vs_b.m");
}

#[test]
fn identifiers_keep_letters_digits_and_dots() {
    for (label, id) in [
        ("Tetris (peak)", "tetris_peak"),
        ("Tetris, series", "tetris_series"),
        ("MinFrag DRR", "minfrag_drr"),
        ("QKnobler ρ=0.5", "qknobler_0.5"),
        ("shortest-job-optimal", "shortest_job_optimal"),
        ("load 0.9", "load_0.9"),
    ] {
        assert_eq!(identifier(label), id);
    }
}

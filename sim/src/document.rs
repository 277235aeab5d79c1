//! What a command prints, as data: its title, the parameters of the run, tables of named
//! figures and the comparisons drawn from them. People read the command's own text (its tables
//! as it lays them out, each followed by its comparisons' summary lines); programs read the
//! same figures, unrounded, as CSV or JSON, laid out alike for every command.
//!
//! **JSON**: one object.
//!
//! ```text
//! {"command": "replay",                  the command that ran
//!  "title": "...",                       what was compared, as the text says it
//!  "parameters": {"seed": 1, ...},       the run's settings, defaults included
//!  "tables": [{"name": "load_0.9",       a name that stays the same from run to run
//!              "title": "...",           the table's heading in the text
//!              "context": {...},         figures of the whole table (slots, offered load...)
//!              "rows": [{...}, ...]}],   a row per line of the text table: named fields,
//!                                        unrounded numbers, null where the text shows "-"
//!  "comparisons": [{"name": "cfq_vs_fair.mean_response@load_0.9",
//!                   "table": "load_0.9",  the table whose rows are compared
//!                   "subject": "CFQ", "baseline": "FAIR", "measure": "mean response time",
//!                   "value": -0.049,      subject / baseline - 1: -0.049 is 4.9% lower
//!                   "paper": null}]}      the paper's figure for it, where it gives one
//! ```
//!
//! A comparison's name is `subject_vs_baseline.measure`, then `@scope` when the document
//! compares the same rows in several places (a table, a cluster size, a batch size); names are
//! unique within a document. Numbers that are not finite (a ratio to 0) are `null`.
//!
//! **CSV**: a header line, then a line per row of every table: the table's name, the table's
//! context, then the row's fields. A column is a key, in the order keys first appear; a table
//! without a key leaves its cell empty, so every line has the header's columns. Fields holding
//! a comma, a quote or a line break are quoted. The comparisons are in the text and JSON only.

use std::fmt::Write;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The command's own tables, with summary lines.
    Text,
    /// A header, then a line per table row.
    Csv,
    /// One object (module documentation).
    Json,
}

/// A figure or a label.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Nothing to show (the text's "-").
    Null,
    /// A measurement (`null` in JSON, empty in CSV when it is not finite).
    Number(f64),
    /// A count, a seed or a size: exact however large.
    Integer(u64),
    /// A name.
    Text(String),
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Number(x)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Integer(n)
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Self {
        Value::Integer(n.into())
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Self {
        Value::Integer(n as u64)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::Text(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::Text(text)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Self {
        value.map_or(Value::Null, Into::into)
    }
}

/// Named values, in order.
pub type Fields = Vec<(&'static str, Value)>;

/// `values` under their `keys`, in order (a figure per resource kind, say).
pub fn fields(keys: &[&'static str], values: &[f64]) -> Fields {
    keys.iter()
        .zip(values)
        .map(|(&key, &x)| (key, x.into()))
        .collect()
}

/// One table of a document.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The table's stable name (CSV's `table` column, a comparison's `table`).
    pub name: String,
    /// Its heading in the text.
    pub title: String,
    /// Figures of the whole table.
    pub context: Fields,
    /// A row per line of the text table.
    pub rows: Vec<Fields>,
}

/// Two rows of a table compared on one measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// `subject_vs_baseline.measure[@scope]`, unique within the document.
    pub name: String,
    /// The name of the table whose rows are compared.
    pub table: String,
    /// The row compared, as the text names it.
    pub subject: String,
    /// The row it is compared against.
    pub baseline: String,
    /// What is compared, as the text names it.
    pub measure: String,
    /// `subject / baseline - 1`.
    pub value: f64,
    /// The paper's figure for the same comparison, when it gives one.
    pub paper: Option<f64>,
}

/// A side of a comparison or its measure: the identifier its name uses, and the label the text
/// uses.
pub type Label<'a> = (&'a str, &'a str);

impl Comparison {
    /// `subject` against `baseline` on `measure` in `table`, at `scope` when the document
    /// compares the same rows in several places, `value` being `subject / baseline - 1`.
    pub fn new(
        table: &str,
        scope: Option<&str>,
        subject: Label<'_>,
        baseline: Label<'_>,
        measure: Label<'_>,
        value: f64,
    ) -> Self {
        let mut name = format!("{}_vs_{}.{}", subject.0, baseline.0, measure.0);
        if let Some(scope) = scope {
            let _ = write!(name, "@{scope}");
        }
        Comparison {
            name,
            table: table.to_owned(),
            subject: subject.1.to_owned(),
            baseline: baseline.1.to_owned(),
            measure: measure.1.to_owned(),
            value,
            paper: None,
        }
    }

    /// The same, with the paper's figure.
    pub fn with_paper(self, paper: Option<f64>) -> Self {
        Comparison { paper, ..self }
    }
}

/// The identifier of `label` in a comparison's name: its ASCII letters (in lower case), digits
/// and dots, every run of anything else one `_` (`Tetris (peak)`: `tetris_peak`).
pub fn identifier(label: &str) -> String {
    let mut id = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('_') {
            id.push('_');
        }
    }
    id.trim_end_matches('_').to_owned()
}

/// A figure rows of type `T` are compared on: the identifier a comparison's name uses, the
/// label the text uses, and the figure of a row.
pub type Measure<T> = (&'static str, &'static str, fn(&T) -> f64);

/// `ours / theirs - 1`: how much higher (positive) or lower (negative) `ours` is.
pub fn change(ours: f64, theirs: f64) -> f64 {
    ours / theirs - 1.0
}

/// A relative change as the text shows it: `-4.9%`, `+0.0%`, or `-` when it is not finite.
fn percent(change: f64) -> String {
    if change.is_finite() {
        format!("{:+.1}%", change * 100.0)
    } else {
        "-".to_owned()
    }
}

/// The summary lines of `comparisons`, in order: one per subject, each baseline once,
/// `CFQ against FAIR: mean response time -4.9%, p95 -1.7%; against SRPT: ...`.
pub fn summary_lines(comparisons: &[Comparison]) -> String {
    let mut out = String::new();
    let mut previous: Option<&Comparison> = None;
    for c in comparisons {
        match previous {
            Some(p) if p.subject == c.subject && p.baseline == c.baseline => out.push_str(", "),
            Some(p) if p.subject == c.subject => {
                let _ = write!(out, "; against {}: ", c.baseline);
            }
            _ => {
                if previous.is_some() {
                    out.push('\n');
                }
                let _ = write!(out, "{} against {}: ", c.subject, c.baseline);
            }
        }
        let _ = write!(out, "{} {}", c.measure, percent(c.value));
        previous = Some(c);
    }
    if previous.is_some() {
        out.push('\n');
    }
    out
}

/// A table of a document with the comparisons drawn from it and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The table.
    pub table: Table,
    /// The comparisons of its rows.
    pub comparisons: Vec<Comparison>,
    /// The table as the text shows it.
    pub text: String,
}

impl Part {
    /// `table`, shown as `text` followed by the summary lines of `comparisons`.
    pub fn summarized(table: Table, comparisons: Vec<Comparison>, text: String) -> Self {
        let mut text = text;
        if !comparisons.is_empty() {
            text.push('\n');
            text.push_str(&summary_lines(&comparisons));
        }
        Part {
            table,
            comparisons,
            text,
        }
    }
}

/// What a command prints.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The command that ran.
    pub command: &'static str,
    /// What was compared.
    pub title: String,
    /// The run's settings.
    pub parameters: Fields,
    /// The tables.
    pub tables: Vec<Table>,
    /// The comparisons drawn from the tables.
    pub comparisons: Vec<Comparison>,
    /// The text for people: the command's tables as it lays them out, with summary lines.
    pub text: String,
}

impl Document {
    /// The document of `command` comparing `title` with `parameters`: its parts in order, then
    /// `footer` (a legend; none when empty) in the text.
    pub fn new(
        command: &'static str,
        title: String,
        parameters: Fields,
        parts: Vec<Part>,
        footer: &str,
    ) -> Self {
        let texts: Vec<&str> = parts.iter().map(|part| part.text.as_str()).collect();
        let mut text = texts.join("\n");
        if !footer.is_empty() {
            text.push('\n');
            text.push_str(footer);
        }
        let mut tables = Vec::with_capacity(parts.len());
        let mut comparisons = Vec::new();
        for part in parts {
            tables.push(part.table);
            comparisons.extend(part.comparisons);
        }
        Document {
            command,
            title,
            parameters,
            tables,
            comparisons,
            text,
        }
    }

    /// The document in `format`, ending with a newline.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text.clone(),
            Format::Csv => self.csv(),
            Format::Json => self.json(),
        }
    }

    fn csv(&self) -> String {
        let mut columns: Vec<&str> = vec!["table"];
        for table in &self.tables {
            let keys = table.rows.iter().flatten().map(|(key, _)| *key);
            for key in table.context.iter().map(|(key, _)| *key).chain(keys) {
                if !columns.contains(&key) {
                    columns.push(key);
                }
            }
        }
        let mut out = columns.join(",");
        out.push('\n');
        for table in &self.tables {
            for row in &table.rows {
                let cell = |column: &str| {
                    if column == "table" {
                        return csv_field(&table.name);
                    }
                    let value = row
                        .iter()
                        .chain(&table.context)
                        .find(|(key, _)| *key == column)
                        .map(|(_, value)| value);
                    match value {
                        Some(Value::Number(x)) if x.is_finite() => x.to_string(),
                        Some(Value::Integer(n)) => n.to_string(),
                        Some(Value::Text(text)) => csv_field(text),
                        Some(Value::Number(_) | Value::Null) | None => String::new(),
                    }
                };
                let cells: Vec<String> = columns.iter().map(|column| cell(column)).collect();
                out.push_str(&cells.join(","));
                out.push('\n');
            }
        }
        out
    }

    fn json(&self) -> String {
        let tables: Vec<String> = self
            .tables
            .iter()
            .map(|table| {
                let rows: Vec<String> = table.rows.iter().map(|row| json_object(row)).collect();
                format!(
                    "{{\"name\":{},\"title\":{},\"context\":{},\"rows\":[{}]}}",
                    json_string(&table.name),
                    json_string(&table.title),
                    json_object(&table.context),
                    rows.join(",")
                )
            })
            .collect();
        let comparisons: Vec<String> = self
            .comparisons
            .iter()
            .map(|c| {
                json_object(&[
                    ("name", c.name.as_str().into()),
                    ("table", c.table.as_str().into()),
                    ("subject", c.subject.as_str().into()),
                    ("baseline", c.baseline.as_str().into()),
                    ("measure", c.measure.as_str().into()),
                    ("value", c.value.into()),
                    ("paper", c.paper.into()),
                ])
            })
            .collect();
        format!(
            "{{\"command\":{},\"title\":{},\"parameters\":{},\"tables\":[{}],\"comparisons\":[{}]}}\n",
            json_string(self.command),
            json_string(&self.title),
            json_object(&self.parameters),
            tables.join(","),
            comparisons.join(",")
        )
    }
}

/// A JSON object of `fields`.
fn json_object(fields: &[(&str, Value)]) -> String {
    let members: Vec<String> = fields
        .iter()
        .map(|(key, value)| {
            let value = match value {
                Value::Number(x) if x.is_finite() => x.to_string(),
                Value::Integer(n) => n.to_string(),
                Value::Text(text) => json_string(text),
                Value::Number(_) | Value::Null => "null".to_owned(),
            };
            format!("{}:{value}", json_string(key))
        })
        .collect();
    format!("{{{}}}", members.join(","))
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

//! A sweep's table: a header and rows of text, as its CSV has them (written
//! by `sweep`, read back by `--merge`, drawn by `sweep_plot`).

use std::path::Path;

use super::{CliError, short};

/// A number as the table and the plot's ticks show it: `0.3`, not
/// `0.30000000000000004`; six decimals from 1e-3 to 1e6, else [`short`].
pub fn readable(v: f64) -> String {
    if v != 0.0 && (1e-3..1e6).contains(&v.abs()) {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        short(v)
    }
}

/// The table: a header and rows of text, as the CSV has them.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The CSV text (fields with a comma or a quote quoted).
    pub fn csv(&self) -> String {
        let field = |f: &String| {
            if f.contains([',', '"', '\n']) { format!("\"{}\"", f.replace('"', "\"\"")) } else { f.clone() }
        };
        let line = |r: &Vec<String>| r.iter().map(field).collect::<Vec<_>>().join(",");
        let mut out = line(&self.header);
        out.push('\n');
        for r in &self.rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        out
    }

    /// Reads a CSV this module wrote.
    pub fn read(path: &Path) -> Result<Table, CliError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| CliError::Output { path: path.into(), error: e.to_string() })?;
        let mut lines = text.lines().map(split_csv);
        let header =
            lines.next().ok_or_else(|| CliError::Output { path: path.into(), error: "an empty file".into() })?;
        Ok(Table { header, rows: lines.collect() })
    }
}

fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut cur, mut quoted, mut chars) = (String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

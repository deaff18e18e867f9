//! The summary printed on the terminal: the same tables, a few columns, aligned.

use super::results::Results;
use super::table::{Cells, Table};

/// A readable summary of the results.
pub fn summary_text(results: &Results) -> String {
    let mut out = format!(
        "{}  ({}, seed {}, {} trials; 95% intervals, exact values in parentheses)\n\n",
        results.title,
        results.system,
        results.seed,
        thousands(results.trials)
    );
    if results.interrupted {
        out = format!("{}\n{out}", super::interrupted_note(results));
    }
    let s = &results.summary;
    let mut rows = vec![row(&[
        "attack",
        "roll",
        "miss",
        "P(hit)",
        "P(crit)",
        "mean damage",
    ])];
    for i in 0..s.rows() {
        rows.push(vec![
            attack_label(s, i),
            versus(s, i),
            format!("{}%", int(s, "miss_chance", i)),
            estimate(s, "p_hit", i),
            estimate(s, "p_crit", i),
            estimate(s, "mean_damage", i),
        ]);
    }
    out += &aligned(&rows);
    let r = &results.rounds;
    if r.rows() > 0 {
        let mut rows = vec![row(&[
            "target",
            "round",
            "P(down)",
            "P(dead)",
            "mean damage taken",
        ])];
        for i in 0..r.rows() {
            rows.push(vec![
                text(r, "target", i),
                int(r, "round", i).to_string(),
                estimate(r, "p_down", i),
                estimate(r, "p_dead", i),
                estimate(r, "mean_damage", i),
            ]);
        }
        out += "\n";
        out += &aligned(&rows);
    }
    for note in results.rule_notes.iter().chain(&results.exact_notes) {
        out += &format!("\nnote: {note}\n");
    }
    out
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

fn aligned(rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(cell, &w)| format!("{cell}{}", " ".repeat(w - cell.chars().count())))
            .collect();
        out += cells.join("  ").trim_end();
        out += "\n";
    }
    out
}

/// `Fighter (F) → Ogre (O): longsword #1`: a row of the summary (or sweep) table.
pub(super) fn attack_label(t: &Table, row: usize) -> String {
    format!(
        "{} → {}: {} #{}",
        text(t, "attacker", row),
        text(t, "target", row),
        text(t, "attack", row),
        int(t, "index", row)
    )
}

/// `+7 vs AC 18` for an attack roll, `reflex +6 vs DC 15 (failure half, success none)`
/// for an area attack's save.
pub(super) fn versus(t: &Table, row: usize) -> String {
    let save = text(t, "save", row);
    if save.is_empty() {
        format!(
            "{:+} vs AC {}",
            int(t, "effective_bonus", row),
            int(t, "effective_ac", row)
        )
    } else {
        save
    }
}

pub(super) fn text(t: &Table, name: &str, row: usize) -> String {
    match t.column(name) {
        Some(Cells::Text(v)) => v[row].clone(),
        _ => String::new(),
    }
}

pub(super) fn int(t: &Table, name: &str, row: usize) -> i64 {
    match t.column(name) {
        Some(Cells::Int(v)) => v[row],
        _ => 0,
    }
}

pub(super) fn float(t: &Table, name: &str, row: usize) -> Option<f64> {
    match t.column(name) {
        Some(Cells::Float(v)) => v[row],
        _ => None,
    }
}

/// `0.4012 ±0.0010 (0.4000)`: point, half-width of the interval, exact value if known.
fn estimate(t: &Table, name: &str, row: usize) -> String {
    let mut s = interval(t, name, row);
    if let Some(exact) = exact(t, name, row) {
        s += &format!(" ({exact})");
    }
    s
}

/// `0.4012 ±0.0010`: the point estimate and the half-width of its 95% interval.
pub(super) fn interval(t: &Table, name: &str, row: usize) -> String {
    let point = float(t, name, row).unwrap_or(f64::NAN);
    let lo = float(t, &format!("{name}_lo"), row).unwrap_or(point);
    let hi = float(t, &format!("{name}_hi"), row).unwrap_or(point);
    format!("{point:.4} ±{:.4}", (hi - lo) / 2.0)
}

/// `0.4000`: the exact value of `name`, where it was computed.
pub(super) fn exact(t: &Table, name: &str, row: usize) -> Option<String> {
    float(t, &format!("exact_{name}"), row).map(|v| format!("{v:.4}"))
}

/// 1000000 → "1,000,000".
pub(super) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}

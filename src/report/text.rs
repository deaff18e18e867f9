//! The summary printed on the terminal: the same rows, a few of their figures, aligned.

use super::results::Results;
use super::rows::AttackRow;
use crate::stats::Estimate;

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
    let mut rows = vec![row(&[
        "attack",
        "roll",
        "miss",
        "P(hit)",
        "P(crit)",
        "mean damage",
    ])];
    for attack in &results.summary {
        rows.push(vec![
            attack_label(attack),
            versus(attack),
            format!("{}%", attack.miss_chance),
            estimate(&attack.p_hit),
            estimate(&attack.p_crit),
            estimate(&attack.mean_damage),
        ]);
    }
    out += &aligned(&rows);
    if !results.rounds.is_empty() {
        let mut rows = vec![row(&[
            "target",
            "round",
            "P(down)",
            "P(dead)",
            "mean damage taken",
        ])];
        for round in &results.rounds {
            rows.push(vec![
                round.target.clone(),
                round.round.to_string(),
                estimate(&round.p_down),
                estimate(&round.p_dead),
                estimate(&round.mean_damage),
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

/// `Fighter (F) → Ogre (O): longsword #1`: an attack of the summary (or sweep) table.
pub(super) fn attack_label(attack: &AttackRow) -> String {
    format!(
        "{} → {}: {} #{}",
        attack.attacker, attack.target, attack.attack, attack.index
    )
}

/// `+7 vs AC 18` for an attack roll, `reflex +6 vs DC 15 (failure half, success none)`
/// for an area attack's save.
pub(super) fn versus(attack: &AttackRow) -> String {
    match &attack.save {
        Some(save) => save.clone(),
        None => format!("{:+} vs AC {}", attack.effective_bonus, attack.effective_ac),
    }
}

/// `0.4012 ±0.0010 (0.4000)`: point, half-width of the interval, exact value if known.
fn estimate(e: &Estimate) -> String {
    let mut s = interval(e);
    if let Some(exact) = exact(e) {
        s += &format!(" ({exact})");
    }
    s
}

/// `0.4012 ±0.0010`: the point estimate and the half-width of its 95% interval.
pub(super) fn interval(e: &Estimate) -> String {
    format!("{:.4} ±{:.4}", e.point, e.half_width())
}

/// `0.4000`: the exact value, where it was computed.
pub(super) fn exact(e: &Estimate) -> Option<String> {
    e.exact.map(|v| format!("{v:.4}"))
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

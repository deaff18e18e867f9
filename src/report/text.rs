//! The summary printed on the terminal: the same rows, a few of their figures, aligned.

use super::charts::SweepAxis;
use super::fight_rows::{FIGHT_ATTACKS, FightReport, NOBODY, UNDECIDED};
use super::figures::SweepDrawing;
use super::heatmap_rows::{Heatmap, SquareValue};
use super::results::Results;
use super::rows::AttackRow;
use super::variants::{BASELINE, VARIANTS_COMPARED, comparison_lines};
use crate::encounter::Status;
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
    if !results.variants.is_empty() {
        out += &format!("{VARIANTS_COMPARED}:\n");
        for line in comparison_lines(&results.variants) {
            out += &line;
            out.push('\n');
        }
        out += &format!("\nThe experiment as written ({BASELINE}), in full:\n\n");
    }
    if let Some(fight) = &results.fight {
        out += &fight_text(fight);
        if results.summary.is_empty() {
            return out + &notes(results);
        }
        out += &format!("\n{FIGHT_ATTACKS}:\n");
    }
    let mut rows = vec![row(&["attack", "roll", "P(hit)", "P(crit)", "mean damage"])];
    let (shown, rare): (Vec<&AttackRow>, Vec<&AttackRow>) = (results.summary.iter())
        .partition(|a| !a.situational || a.made.saturating_mul(100) >= results.trials);
    for attack in shown {
        rows.push(vec![
            attack_label(attack),
            roll(attack),
            estimate(&attack.p_hit),
            estimate(&attack.p_crit),
            estimate(&attack.mean_damage),
        ]);
    }
    out += &aligned(&rows);
    if !rare.is_empty() {
        out += &format!(
            "({} more attacks, made in rarer situations fewer than once per 100 trials, are in summary.csv and the report)\n",
            rare.len()
        );
    }
    if !results.rounds.is_empty() && results.fight.is_none() {
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
    out + &sweep_text(results) + &heatmap_text(results) + &notes(results)
}

/// Most sweep values and attacks the terminal and the report show as a table; the sweep
/// tables hold them all.
const SWEEP_SHOWN: usize = 8;

/// The tables that hold the sweep's points, then [`sweep_rows`].
fn sweep_text(results: &Results) -> String {
    let Some(sweep) = results.sweep.as_ref() else {
        return String::new();
    };
    let tables: Vec<String> = (sweep.tables.iter())
        .map(|t| format!("{}.csv", t.name))
        .collect();
    let mut out = format!("\nSweep (every point in {}):\n", tables.join(", "));
    if let Some(drawing) = super::figures::sweep_input(results) {
        out += &aligned(&sweep_rows(&drawing));
    }
    out
}

/// The sweep chart as a table: a header (`P(hit) at FIELD`, then the values shown) and
/// a row per series shown, at most [`SWEEP_SHOWN`] values (evenly spaced, the first and
/// the last among them) and series; the sweep tables hold them all.
pub(super) fn sweep_rows(drawing: &SweepDrawing) -> Vec<Vec<String>> {
    let chart = &drawing.chart;
    let labels: Vec<String> = match &chart.x {
        SweepAxis::Numeric(v) => v.iter().map(|x| x.to_string()).collect(),
        SweepAxis::Categories(v) => v.clone(),
    };
    let n = labels.len();
    let shown: Vec<usize> = match n {
        0..=SWEEP_SHOWN => (0..n).collect(),
        _ => (0..SWEEP_SHOWN)
            .map(|i| i * (n - 1) / (SWEEP_SHOWN - 1))
            .collect(),
    };
    let mut header = vec![format!("P(hit) at {}", chart.x_label)];
    header.extend(shown.iter().map(|&i| labels[i].clone()));
    let mut rows = vec![header];
    for series in chart.series.iter().take(SWEEP_SHOWN) {
        let mut cells = vec![series.label.clone()];
        cells.extend(shown.iter().map(|&i| {
            (series.points.get(i).copied().flatten())
                .map_or_else(|| "-".to_string(), |e| format!("{:.4}", e.point))
        }));
        rows.push(cells);
    }
    rows
}

/// Squares the heatmap names in the terminal and the report: the highest, then the
/// lowest.
const HEATMAP_SHOWN: usize = 3;

/// `Heatmap (heatmap.csv): P(down) of Ogre (O) with Rogue (R) on a square (column, row):
/// highest 0.6990 at (4, 4), …; lowest 0.2290 at (1, 1)`.
fn heatmap_text(results: &Results) -> String {
    let Some(heatmap) = &results.heatmap else {
        return String::new();
    };
    format!(
        "\nHeatmap (heatmap.csv): {} with {} on a square (column, row): {}\n",
        heatmap.label,
        heatmap.mover,
        heatmap_extremes(heatmap)
    )
}

/// `highest 0.6990 at (4, 4), …; lowest 0.2290 at (1, 1)`, or that no square has the
/// figure.
pub(super) fn heatmap_extremes(heatmap: &Heatmap) -> String {
    let (highest, lowest) = heatmap.extremes(HEATMAP_SHOWN);
    if highest.is_empty() {
        return "no square where it is defined".into();
    }
    let at = |&(x, y, value): &SquareValue| format!("{value:.4} at ({x}, {y})");
    let mut out = format!(
        "highest {}",
        highest.iter().map(at).collect::<Vec<_>>().join(", ")
    );
    if let Some(lowest) = lowest {
        out += &format!("; lowest {}", at(&lowest));
    }
    out
}

fn notes(results: &Results) -> String {
    (results.rule_notes.iter().chain(&results.exact_notes))
        .map(|note| format!("\nnote: {note}\n"))
        .collect()
}

/// The fight first: who wins, how long it lasts, what each side risks, and every
/// combatant's status at the end.
fn fight_text(fight: &FightReport) -> String {
    let mut out = format!(
        "{}\n\nWho wins (within {} rounds):\n",
        fight.verdict(),
        fight.rounds
    );
    let mut rows = vec![row(&[
        "side",
        "P(won)",
        "P(a member down)",
        "P(a member dead)",
    ])];
    for side in &fight.sides {
        rows.push(vec![
            side.side.clone(),
            estimate(&side.p_won),
            estimate(&side.p_lost_member_down),
            estimate(&side.p_lost_member_dead),
        ]);
    }
    for other in [NOBODY, UNDECIDED] {
        if let Some(r) = fight
            .at_end(other)
            .filter(|r| r.p_won.point > 0.0 || r.p_won.exact.is_some_and(|e| e > 0.0))
        {
            rows.push(vec![
                format!("({other})"),
                estimate(&r.p_won),
                String::new(),
                String::new(),
            ]);
        }
    }
    out += &aligned(&rows);
    out += "\nHow long it lasts:\n";
    let mut rows = vec![row(&["ends in round", "P"])];
    for length in &fight.length {
        rows.push(vec![length.round.to_string(), estimate(&length.p_ended)]);
    }
    if let Some(r) = fight.at_end(UNDECIDED) {
        rows.push(vec![
            format!("not by round {}", fight.rounds),
            estimate(&r.p_won),
        ]);
    }
    out += &aligned(&rows);
    out += &format!("\nEach combatant at the end of round {}:\n", fight.rounds);
    let mut rows = vec![row(&[
        "combatant",
        "side",
        "P(down)",
        "P(dead)",
        "damage taken",
        "damage dealt",
    ])];
    for c in fight.combatants.iter().filter(|c| c.round == fight.rounds) {
        rows.push(vec![
            c.combatant.clone(),
            c.side.clone(),
            estimate(&c.p_down()),
            estimate(&c.status[Status::Dead as usize]),
            estimate(&c.mean_damage_taken),
            estimate(&c.mean_damage_dealt),
        ]);
    }
    out += &aligned(&rows);
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
        None => format!(
            "{:+} vs {} {}",
            attack.effective_bonus, attack.armor, attack.effective_ac
        ),
    }
}

/// `+3 vs AC 21, soft cover, into melee -4, 20% miss chance`: the roll and what changed
/// it; `(plan)` marks what the plan line set in place of the map, and what it took away
/// is named too (`no cover (plan)`).
pub(super) fn roll(attack: &AttackRow) -> String {
    let set = attack.set_by_plan;
    let by_plan = |part: &str, set: bool| match set {
        true => format!("{part} (plan)"),
        false => part.to_string(),
    };
    let mut parts = vec![versus(attack)];
    match attack.flanking {
        true => parts.push(by_plan("flanking", set.flanking)),
        false if set.flanking => parts.push(by_plan("no flanking", true)),
        false => {}
    }
    match attack.cover.as_str() {
        "none" | "" if set.cover => parts.push(by_plan("no cover", true)),
        "none" | "" => {}
        "cover" => parts.push(by_plan("cover", set.cover)),
        level => parts.push(by_plan(&format!("{level} cover"), set.cover)),
    }
    for (penalty, why) in [
        (attack.range_penalty, "range"),
        (attack.into_melee, "into melee"),
    ] {
        if penalty != 0 {
            parts.push(format!("{why} {penalty:+}"));
        }
    }
    match attack.miss_chance {
        0 if set.concealment => parts.push(by_plan("no miss chance", true)),
        0 => {}
        miss => parts.push(by_plan(&format!("{miss}% miss chance"), set.concealment)),
    }
    if let Some((right, candidates)) = attack.square_guess.split_once('/')
        && right != candidates
    {
        parts.push(format!("square guessed, {right} in {candidates}"));
    }
    parts.join(", ")
}

/// `0.4012 ±0.0010 (0.4000)`: point, the interval's reach (see [`interval`]), exact value if
/// known.
pub(super) fn estimate(e: &Estimate) -> String {
    let mut s = interval(e);
    if let Some(exact) = exact(e) {
        s += &format!(" ({exact})");
    }
    s
}

/// `0.4012 ±0.0010`: the point estimate and how far its 95% interval reaches either side
/// of it (the half-width); `0.0010 +0.0046/−0.0008` where the interval is lopsided (see
/// [`is_lopsided`]) and the reaches differ at four decimals, each written out. A Wilson
/// interval near 0 or 1 is, and its half-width would read as reaching below 0 or above 1.
pub(super) fn interval(e: &Estimate) -> String {
    let (above, below) = (e.hi - e.point, e.point - e.lo);
    let (above_shown, below_shown) = (format!("{above:.4}"), format!("{below:.4}"));
    if is_lopsided(above, below) && above_shown != below_shown {
        format!("{:.4} +{above_shown}/−{below_shown}", e.point)
    } else {
        format!("{:.4} ±{:.4}", e.point, e.half_width())
    }
}

/// Whether an interval reaching `above` and `below` its point is lopsided enough to show
/// both: they differ by more than a tenth of the longer (not merely in the rounding of a
/// nearly symmetric Wilson interval, as at a million trials away from 0 and 1).
/// Reaches that are not both finite and at least 0 (a point outside its interval) never
/// are: the half-width is shown.
fn is_lopsided(above: f64, below: f64) -> bool {
    let reach = |r: f64| r.is_finite() && r >= 0.0;
    reach(above) && reach(below) && (above - below).abs() > above.max(below) / 10.0
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

    /// Wilson intervals by hand (z = 1.959964): 500 of 1,000 gives [0.469070, 0.530930],
    /// 0.030930 either side; 1 of 1,000 gives [0.000177, 0.005643], 0.004643 above 0.001
    /// and 0.000823 below; 999 of 1,000 the mirror image; 0 of 1,000,000 gives [0,
    /// 0.0000038], which rounds to 0 on both sides.
    #[test]
    fn intervals_show_each_reach_where_they_are_lopsided() {
        let shown = |k, n| interval(&Estimate::proportion(k, n));
        assert_eq!(shown(500, 1000), "0.5000 ±0.0309");
        assert_eq!(shown(1, 1000), "0.0010 +0.0046/−0.0008");
        assert_eq!(shown(999, 1000), "0.9990 +0.0008/−0.0046");
        assert_eq!(shown(0, 1_000_000), "0.0000 ±0.0000");
        // 2,000 of 10,000: Wilson [0.192276, 0.207954], 0.007954 above and 0.007724
        // below, 3% apart: the half-width 0.007839, though the reaches round apart
        // (0.0080 and 0.0077).
        assert_eq!(shown(2000, 10_000), "0.2000 ±0.0078");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}

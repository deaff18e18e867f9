//! Results + inputs + charts → the content of `report.html` and `summary.md`, with every
//! number formatted here, so the templates in [`super::charts`] hold no logic.

use super::charts::{Chart, PageSection, PageTable, ReportInput, SectionContent};
use super::fight_rows::{FIGHT_ATTACKS, FightReport, NOBODY, UNDECIDED};
use super::figures::{DAMAGE_DRAWN_FROM, Figures, MAX_SWEEP_CHART_SERIES, group};
use super::inputs::Inputs;
use super::results::Results;
use super::rows::{AttackRow, DamageRow, RoundRow};
use super::text::{attack_label, exact, heatmap_extremes, interval, roll, sweep_rows, thousands};
use super::variants::{BASELINE, best_variant, by_headline_figure, difference_text};
use crate::encounter::Status;
use crate::stats::Estimate;

/// Damage values less likely than this (simulated and exact) are left out of the
/// report's damage table; `damage.csv` keeps every value.
const DAMAGE_SHOWN_FROM: f64 = 0.0005;

/// Shown where an exact value was not computed.
const NOT_COMPUTED: &str = "—";

/// Shown for the simulated figures of an attack no trial made.
const NOT_MADE: &str = "not made";

/// The printable report: a fight's verdict on a page of its own; the map (a plan's),
/// the fight's charts, tables, charts, notes and the rule readings; the experiment file
/// in an appendix.
pub(super) fn report(results: &Results, inputs: &Inputs, figures: &Figures) -> ReportInput {
    let mut sections = Vec::new();
    let mut verdict = comparison_sections(results);
    if let Some(chart) = &figures.variants {
        verdict.push(section("Chart: the variants compared", svg(chart)));
    }
    if let Some(chart) = &figures.moves {
        verdict.push(section(
            "Map: where the variants move creatures",
            svg(chart),
        ));
    }
    match &results.fight {
        Some(fight) => {
            verdict.extend(verdict_sections(fight));
            if let Some(map) = &figures.map {
                verdict.push(section("The map, with everyone where they start", svg(map)));
            }
            let charts = [
                ("Chart: who has won by each round", &figures.wins),
                (
                    "Chart: each combatant down and dead by round",
                    &figures.rounds,
                ),
                ("Chart: how long the fight lasts", &figures.length),
            ];
            for (heading, chart) in charts {
                if let Some(chart) = chart {
                    sections.push(section(heading, svg(chart)));
                }
            }
            // Among the fight's charts: after the tables, whose last rows may end a page
            // near its top, a chart that does not fit below them would leave it blank.
            sections.extend(damage_chart(figures));
            sections.extend(tables(results));
        }
        None => {
            if let Some(map) = &figures.map {
                sections.push(section("Map", svg(map)));
            }
            sections.extend(tables(results));
            if let Some(chart) = &figures.rounds {
                sections.push(section("Chart: down and dead by round", svg(chart)));
            }
            sections.extend(damage_chart(figures));
        }
    }
    let mut notes = notes(results);
    if figures.damage.is_some() {
        notes.push(format!(
            "The damage chart does not draw values less likely than 1/{} of a panel's highest \
             bar (they would be under half a pixel tall).",
            (1.0 / DAMAGE_DRAWN_FROM).round()
        ));
    }
    if results.fight.as_ref().is_some_and(FightReport::is_exact) && !results.damage.is_empty() {
        notes.push(
            "Each combatant's total damage taken is simulated only: the exact fight follows hit \
             points, which dying takes too, not the damage attacks dealt."
                .into(),
        );
    }
    if let (Some(chart), Some(heatmap)) = (&figures.heatmap, &results.heatmap) {
        let heading = format!(
            "Chart: {}, with {} on each square (heatmap.csv)",
            heatmap.label, heatmap.mover
        );
        sections.push(section(&heading, svg(chart)));
    }
    if let Some(sweep) = &figures.sweep {
        let heading = format!("Chart: P(hit) against {}", sweep.field);
        sections.push(section(&heading, svg(&sweep.chart)));
        sections.extend(sweep_table(results));
        if sweep.unchanged > 0 {
            let attacks = if sweep.unchanged == 1 {
                "attack"
            } else {
                "attacks"
            };
            notes.push(format!(
                "The sweep chart leaves out the {} {attacks} whose roll is the same at every \
                 sweep point; sweep.csv holds every row.",
                sweep.unchanged
            ));
        }
        if sweep.not_drawn > 0 {
            notes.push(format!(
                "The sweep chart draws {} series (those of the first {MAX_SWEEP_CHART_SERIES} in \
                 table order it keeps) and leaves out the other {}; sweep.csv holds every row.",
                sweep.drawn, sweep.not_drawn
            ));
        }
        let (drawn, values) = sweep.values;
        if drawn < values {
            notes.push(format!(
                "The sweep chart draws {drawn} of the {values} values of {} (evenly spaced, \
                 the first and the last among them); sweep.csv holds every row.",
                sweep.field
            ));
        }
    }
    let (damage, damage_note) = damage_tables(&results.damage);
    // A fight tallies every combatant, a plan only its targets.
    let group = match results.fight {
        Some(_) => "Total damage taken, per combatant",
        None => "Total damage taken, per target",
    };
    for (target, table) in damage {
        let heading = format!("Total damage taken: {target}");
        sections.push(PageSection {
            group: Some(group),
            ..section(&heading, SectionContent::Table(table))
        });
    }
    notes.extend(damage_note);
    notes.push(
        "Every number, with the ends of each interval, is in the CSV files beside this report."
            .into(),
    );
    sections.push(section("Notes", SectionContent::Notes(notes)));
    ReportInput {
        verdict,
        sections,
        rule_readings: inputs.rule_readings.clone(),
        appendix: vec![section(
            &format!("Appendix: the experiment file, {}", inputs.file),
            SectionContent::Preformatted(inputs.text.clone()),
        )],
        ..header(results)
    }
}

/// The chart of each target's total damage taken, on pages of its own when it has more
/// panels than one page holds.
fn damage_chart(figures: &Figures) -> Option<PageSection> {
    let chart = figures.damage.as_ref()?;
    let content = match figures.damage_pages.is_empty() {
        true => svg(chart),
        false => SectionContent::Svg(figures.damage_pages.clone()),
    };
    Some(section("Chart: total damage taken", content))
}

/// The short Markdown version: a fight's verdict, the tables and the notes.
pub(super) fn summary(results: &Results) -> ReportInput {
    let mut sections = comparison_sections(results);
    sections.extend(results.fight.iter().flat_map(verdict_sections));
    sections.extend(tables(results));
    sections.extend(sweep_table(results));
    let mut notes = notes(results);
    notes.push(
        "Charts, the damage distribution and the inputs are in report.html; every number is \
         in the CSV files."
            .into(),
    );
    sections.push(section("Notes", SectionContent::Notes(notes)));
    ReportInput {
        sections,
        ..header(results)
    }
}

/// The sweep chart's P(hit) at some of its values, as the terminal shows it (see
/// [`sweep_rows`]), when the experiment sweeps.
fn sweep_table(results: &Results) -> Option<PageSection> {
    let drawing = super::figures::sweep_input(results)?;
    let mut rows = sweep_rows(&drawing);
    let header = rows.remove(0);
    let table = PageTable {
        numeric_columns: (1..header.len()).collect(),
        header,
        rows,
    };
    let heading = format!(
        "P(hit) against {}, at some of its values",
        drawing.chart.x_label
    );
    Some(section(&heading, SectionContent::Table(table)))
}

/// Title, system, seed, trials and version.
fn header(results: &Results) -> ReportInput {
    ReportInput {
        title: results.title.clone(),
        system: results.system.clone(),
        seed: results.seed.to_string(),
        trials: thousands(results.trials),
        version: env!("CARGO_PKG_VERSION").to_string(),
        ..ReportInput::default()
    }
}

/// The variants compared, when there are any: per headline figure, every variant's
/// value and its difference to the baseline from the paired trials.
fn comparison_sections(results: &Results) -> Vec<PageSection> {
    if results.variants.is_empty() {
        return Vec::new();
    }
    let mut rows = Vec::new();
    for (figure, of_figure) in by_headline_figure(&results.variants) {
        let best = best_variant(&of_figure);
        for (i, row) in of_figure.iter().enumerate() {
            let [value, value_exact] = measure(&row.value);
            let (difference, difference_exact) = if row.variant == BASELINE {
                (String::new(), String::new())
            } else {
                (
                    difference_text(&row.diff),
                    (row.diff.exact).map_or_else(|| NOT_COMPUTED.into(), |x| format!("{x:+.4}")),
                )
            };
            let name = if best == Some(row.variant.as_str()) {
                format!("{} (best)", row.variant)
            } else {
                row.variant.clone()
            };
            let shown_figure = if i == 0 {
                figure.to_string()
            } else {
                String::new()
            };
            rows.push(vec![
                shown_figure,
                name,
                value,
                value_exact,
                difference,
                difference_exact,
            ]);
        }
    }
    let header = [
        "figure",
        "variant",
        "value",
        "exact",
        "difference to the baseline",
        "exact",
    ];
    vec![
        section(
            "Variants compared",
            SectionContent::Paragraph(
                "Every variant ran on the same random numbers as the experiment as written (the \
                 baseline), trial by trial, so each difference is measured on paired trials and \
                 its 95% interval is far narrower than two separate runs would give. * marks a \
                 difference whose interval excludes 0; best marks the best value for the first \
                 side (a plan: for the attackers) among the differences marked *, on the \
                 figures that are its goals: not a line's damage or the fight's length, nor \
                 another side's chance to win, which undecided fights lower too. variants.csv \
                 holds every figure."
                    .into(),
            ),
        ),
        section(
            "The variants, figure by figure",
            SectionContent::Table(page_table(&header, 2, rows)),
        ),
    ]
}

fn section(heading: &str, content: SectionContent) -> PageSection {
    PageSection {
        heading: heading.to_string(),
        content,
        group: None,
    }
}

fn svg(chart: &Chart) -> SectionContent {
    SectionContent::Svg(vec![chart.svg.clone()])
}

/// The fight's tables first, when there is one; then the attacks table (in a fight, the
/// attacks it made), and the down/dead table when some target has hit points.
fn tables(results: &Results) -> impl Iterator<Item = PageSection> {
    let fight = results.fight.iter().flat_map(fight_tables);
    let attacks = (!results.summary.is_empty()).then(|| {
        let heading = match results.fight {
            Some(_) => FIGHT_ATTACKS,
            None => "Attacks",
        };
        section(
            heading,
            SectionContent::Table(attacks_table(&results.summary)),
        )
    });
    let rounds = (!results.rounds.is_empty() && results.fight.is_none()).then(|| {
        section(
            "Down and dead by round",
            SectionContent::Table(rounds_table(&results.rounds)),
        )
    });
    fight.chain(attacks).chain(rounds)
}

/// A fight at a glance: who wins and how soon, and each combatant's chance to be down
/// and to be dead when it is over.
fn verdict_sections(fight: &FightReport) -> Vec<PageSection> {
    let rows = measure_rows(
        &(fight.combatants.iter())
            .filter(|c| c.round == fight.rounds)
            .collect::<Vec<_>>(),
        |c| vec![c.combatant.clone(), c.side.clone()],
        |c| [c.p_down(), c.status[Status::Dead as usize]],
    );
    let table = page_table(
        &["combatant", "side", "P(down)", "exact", "P(dead)", "exact"],
        2,
        rows,
    );
    vec![
        section("Verdict", SectionContent::Paragraph(fight.verdict())),
        section(
            &format!(
                "Each combatant when the fight is over (at the latest, round {})",
                fight.rounds
            ),
            SectionContent::Table(table),
        ),
    ]
}

/// Who wins, how long the fight lasts, and every combatant by round.
fn fight_tables(fight: &FightReport) -> Vec<PageSection> {
    let mut sides = measure_rows(
        &fight.sides,
        |s| vec![s.side.clone()],
        |s| [s.p_won, s.p_lost_member_down, s.p_lost_member_dead],
    );
    for other in [NOBODY, UNDECIDED] {
        if let Some(r) = fight.at_end(other).filter(|r| r.p_won.point > 0.0) {
            let mut cells = vec![format!("({other})")];
            cells.extend(measure(&r.p_won));
            sides.push(cells);
        }
    }
    let won = page_table(
        &[
            "side",
            "P(won)",
            "exact",
            "P(a member down)",
            "exact",
            "P(a member dead)",
            "exact",
        ],
        1,
        sides,
    );
    let length = page_table(
        &["ends in round", "P", "exact"],
        1,
        measure_rows(
            &fight.length,
            |l| vec![l.round.to_string()],
            |l| [l.p_ended],
        ),
    );
    let combatants = page_table(
        &[
            "combatant",
            "round",
            "P(down)",
            "exact",
            "P(dead)",
            "exact",
            "damage taken",
            "exact",
            "damage dealt",
            "exact",
        ],
        1,
        measure_rows(
            &fight.combatants,
            |c| vec![c.combatant.clone(), c.round.to_string()],
            |c| {
                [
                    c.p_down(),
                    c.status[Status::Dead as usize],
                    c.mean_damage_taken,
                    c.mean_damage_dealt,
                ]
            },
        ),
    );
    vec![
        section(
            &format!("Who wins (within {} rounds)", fight.rounds),
            SectionContent::Table(won),
        ),
        section("How long the fight lasts", SectionContent::Table(length)),
        section(
            "Each combatant by round (combatants.csv has every status)",
            SectionContent::Table(combatants),
        ),
    ]
}

fn notes(results: &Results) -> Vec<String> {
    let mut notes = vec![format!(
        "±h: the 95% interval reaches h either side of the estimate (Wilson for probabilities, \
         normal for means); near 0 or 1 a Wilson interval is lopsided, shown as +above/−below; \
         “exact” is the value computed without simulation ({NOT_COMPUTED} where it was not)."
    )];
    if results.interrupted {
        notes.insert(0, super::interrupted_note(results));
    }
    if let Some(heatmap) = &results.heatmap {
        notes.push(format!(
            "Heatmap (heatmap.csv): {} with {} on a square (column, row, from 0 at the top \
             left): {}.",
            heatmap.label,
            heatmap.mover,
            heatmap_extremes(heatmap)
        ));
    }
    let attacks = &results.summary;
    if attacks.iter().any(|a| a.made == 0) {
        notes.push(format!(
            "“{NOT_MADE}”: no trial made the attack (the situation it needs, such as its \
             target down, never arose), so it has no simulated figures; its exact figures \
             are what it would do if made."
        ));
    }
    if attacks.iter().any(|a| a.save.is_some()) {
        notes.push(
            "Area attacks roll no attack: their P(hit) is the probability that the save fails, \
             and their mean damage includes what a successful save still takes."
                .to_string(),
        );
    }
    for (attack, covering) in (attacks.iter()).filter_map(|a| Some((a, a.covering.as_ref()?))) {
        let [p, exact_p] = measure(&covering.p_hit);
        let [damage, _] = measure(&covering.mean_damage);
        notes.push(format!(
            "{}: the shot strikes {} instead ({}) with probability {p} (exact {exact_p}), \
             for {damage} damage per attack on average.",
            attack_label(attack),
            covering.creature,
            covering.why
        ));
    }
    notes.extend(results.rule_notes.iter().cloned());
    notes.extend(results.exact_notes.iter().cloned());
    notes
}

/// An estimate and its exact value, as two cells.
fn measure(e: &Estimate) -> [String; 2] {
    [interval(e), exact(e).unwrap_or_else(|| NOT_COMPUTED.into())]
}

/// A table with `numeric` columns from the first right-aligned header onwards.
fn page_table(header: &[&str], numeric_from: usize, rows: Vec<Vec<String>>) -> PageTable {
    PageTable {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
        numeric_columns: (numeric_from..header.len()).collect(),
    }
}

fn attacks_table(attacks: &[AttackRow]) -> PageTable {
    let leading = |a: &AttackRow| vec![attack_label(a), roll(a), thousands(a.made)];
    page_table(
        &[
            "attack",
            "roll",
            "made",
            "P(hit)",
            "exact",
            "P(crit)",
            "exact",
            "mean damage",
            "exact",
        ],
        2,
        measure_rows(attacks, leading, |a| [a.p_hit, a.p_crit, a.mean_damage])
            .into_iter()
            .zip(attacks)
            .map(|(mut row, attack)| {
                // No trial made it: no simulated figures, only the exact ones.
                if attack.made == 0 {
                    for cell in [3, 5, 7] {
                        row[cell] = NOT_MADE.into();
                    }
                }
                row
            })
            .collect(),
    )
}

fn rounds_table(rounds: &[RoundRow]) -> PageTable {
    let leading = |r: &RoundRow| vec![r.target.clone(), r.round.to_string()];
    page_table(
        &[
            "target",
            "round",
            "P(down)",
            "exact",
            "P(dead)",
            "exact",
            "mean damage taken",
            "exact",
        ],
        1,
        measure_rows(rounds, leading, |r| [r.p_down, r.p_dead, r.mean_damage]),
    )
}

/// One table row per row: its `leading` cells, then each of its `measures`' estimate and
/// exact value.
fn measure_rows<R, const N: usize>(
    rows: &[R],
    leading: impl Fn(&R) -> Vec<String>,
    measures: impl Fn(&R) -> [Estimate; N],
) -> Vec<Vec<String>> {
    rows.iter()
        .map(|row| {
            let mut cells = leading(row);
            for e in measures(row) {
                cells.extend(measure(&e));
            }
            cells
        })
        .collect()
}

/// Most (damage, probability, exact) blocks set side by side in a damage table.
const DAMAGE_BLOCKS: usize = 3;

/// One table per target of the damage values likely enough to matter, folded into
/// blocks side by side, and a note on what was left out.
fn damage_tables(damage: &[DamageRow]) -> (Vec<(String, PageTable)>, Option<String>) {
    let likely = |row: &DamageRow| {
        let e = row.probability;
        e.point.max(e.exact.unwrap_or(0.0)) >= DAMAGE_SHOWN_FROM
    };
    let shown = damage.iter().filter(|row| likely(row)).count();
    let tables = group(damage.iter().map(|row| (row.target.clone(), row)))
        .into_iter()
        .map(|(target, rows)| {
            let cells = rows
                .into_iter()
                .filter(|row| likely(row))
                .map(|row| {
                    let [p, exact] = measure(&row.probability);
                    [row.damage.to_string(), p, exact]
                })
                .collect();
            (target, folded(cells))
        })
        .collect();
    let note = (shown < damage.len()).then(|| {
        format!(
            "The damage tables show the {shown} of {} damage values with a probability of at \
             least {DAMAGE_SHOWN_FROM}; damage.csv holds them all.",
            damage.len()
        )
    });
    (tables, note)
}

/// Rows of three cells laid out in up to [`DAMAGE_BLOCKS`] blocks side by side, read
/// down each block, then across.
fn folded(rows: Vec<[String; 3]>) -> PageTable {
    let blocks = rows.len().div_ceil(10).clamp(1, DAMAGE_BLOCKS);
    let height = rows.len().div_ceil(blocks);
    let mut out = vec![Vec::new(); height];
    for (i, row) in rows.into_iter().enumerate() {
        out[i % height].extend(row);
    }
    let header = ["damage", "probability", "exact"].repeat(blocks);
    page_table(&header, 0, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::SetByPlan;

    /// The roll names the armor class rolled against and every modifier a reader could
    /// not tell from the map: a Starfinder laser's `EAC`, the level called plain "cover"
    /// said once, range and shooting into melee with their penalties, a square guessed.
    #[test]
    fn the_roll_says_what_changed_it() {
        let mut row = AttackRow::example("A", "T", 0.5);
        (row.effective_bonus, row.effective_ac, row.armor) = (5, 14, "EAC");
        assert_eq!(roll(&row), "+5 vs EAC 14");
        (row.cover, row.flanking, row.armor) = ("cover".into(), true, "AC");
        (row.range_penalty, row.into_melee, row.miss_chance) = (-2, -4, 20);
        assert_eq!(
            roll(&row),
            "+5 vs AC 14, flanking, cover, range -2, into melee -4, 20% miss chance"
        );
        row.cover = "soft".into();
        assert!(roll(&row).contains(", soft cover, "));
        // The plan line set them where the map would have decided.
        row.set_by_plan = SetByPlan {
            cover: true,
            concealment: true,
            flanking: true,
        };
        assert_eq!(
            roll(&row),
            "+5 vs AC 14, flanking (plan), soft cover (plan), range -2, into melee -4, 20% miss chance (plan)"
        );
        (row.cover, row.flanking, row.miss_chance) = ("none".into(), false, 0);
        assert_eq!(
            roll(&row),
            "+5 vs AC 14, no flanking (plan), no cover (plan), range -2, into melee -4, no miss chance (plan)"
        );
        // An unseen target's square guessed among 9: a hit lands 1 time in 9.
        (row.set_by_plan, row.miss_chance) = (SetByPlan::default(), 50);
        row.square_guess = "1/9".into();
        assert_eq!(
            roll(&row),
            "+5 vs AC 14, range -2, into melee -4, 50% miss chance, square guessed, 1 in 9"
        );
    }

    fn rows(n: usize) -> Vec<[String; 3]> {
        (0..n)
            .map(|i| [i.to_string(), format!("p{i}"), format!("e{i}")])
            .collect()
    }

    #[test]
    fn long_damage_tables_fold_into_blocks_read_down_then_across() {
        let table = folded(rows(25));
        assert_eq!(table.header.len(), 9);
        assert_eq!(table.rows.len(), 9);
        assert_eq!(table.rows[0][0], "0");
        assert_eq!(table.rows[0][3], "9");
        assert_eq!(table.rows[0][6], "18");
        assert_eq!(table.rows[8], ["8", "p8", "e8", "17", "p17", "e17"]);
        assert_eq!(table.numeric_columns, (0..9).collect::<Vec<_>>());
        let short = folded(rows(5));
        assert_eq!((short.header.len(), short.rows.len()), (3, 5));
        assert!(folded(Vec::new()).rows.is_empty());
    }

    #[test]
    fn unlikely_damage_values_are_left_out_with_a_note() {
        let row = |target: &str, damage, point, exact| DamageRow {
            target: target.to_string(),
            damage,
            probability: Estimate {
                point,
                lo: point,
                hi: point,
                exact,
            },
        };
        let rows = [
            row("O", 0, 0.5, Some(0.5)),
            row("O", 1, 0.0001, Some(0.0001)),
            row("O", 2, 0.0, Some(0.0006)),
            row("F", 0, 1.0, None),
        ];
        let (tables, note) = damage_tables(&rows);
        let damages: Vec<(&str, Vec<&str>)> = tables
            .iter()
            .map(|(target, table)| {
                let column: Vec<&str> = table.rows.iter().map(|r| r[0].as_str()).collect();
                (target.as_str(), column)
            })
            .collect();
        assert_eq!(damages, [("O", vec!["0", "2"]), ("F", vec!["0"])]);
        assert_eq!(tables[1].1.rows[0][2], NOT_COMPUTED);
        assert!(
            note.unwrap()
                .starts_with("The damage tables show the 3 of 4 damage values")
        );
    }
}

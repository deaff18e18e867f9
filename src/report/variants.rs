//! `variants.csv` and the comparison table: every variant's figures beside the
//! baseline's, each difference estimated from the paired trials (SPEC §7).

use crate::encounter::{ExactFight, Fight, Status};
use crate::engine::{Figure, PairedTally};
use crate::exact::Exact;
use crate::plan::Plan;
use crate::stats::Estimate;

use super::table::{Column, Row};

/// The name the experiment as written goes by.
pub const BASELINE: &str = "baseline";

/// The comparison's heading.
pub const VARIANTS_COMPARED: &str = "Variants compared on the same random numbers (value and its 95% interval; difference to the baseline [95% interval], * when it excludes 0; exact values in parentheses)";

/// `variants.csv`: one figure of one variant (the baseline's rows first).
#[derive(Debug, Clone, PartialEq)]
pub struct VariantRow {
    /// The variant's name (`baseline` for the experiment as written).
    pub variant: String,
    /// What is measured, e.g. `P(party wins)`.
    pub figure: String,
    /// Shown in the comparison table, not only in the file.
    pub headline: bool,
    /// Which way is better for the first side (fights) or the attackers (plans); `None`
    /// where the figure is not a goal of theirs, so no variant is called best on it: a
    /// fight's length, another side's chance to win (undecided fights lower it too), and
    /// damage dealt by an attacker or a plan line (a variant that keeps a target up
    /// longer gives more of it).
    pub higher_is_better: Option<bool>,
    /// The figure in this variant.
    pub value: Estimate,
    /// The variant minus the baseline, from the paired trials (exact: the exact values'
    /// difference).
    pub diff: Estimate,
}

impl Row for VariantRow {
    const NAME: &'static str = "variants";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::text("variant", |r: &Self| r.variant.clone()),
            Column::text("figure", |r: &Self| r.figure.clone()),
        ];
        columns.extend(Column::estimates(&[
            ("value", |r: &Self| r.value),
            ("diff", |r: &Self| r.diff),
        ]));
        columns
    }
}

/// What a figure is called and how it reads for one kind of experiment.
pub trait Figures {
    /// The figure's name in the table, e.g. `P(Ogre (O) down by round 2)`.
    fn label(&self, figure: Figure) -> String;
    /// Whether the comparison table shows it (the file has every figure).
    fn headline(&self, figure: Figure) -> bool;
    /// Which way is better, see [`VariantRow::higher_is_better`].
    fn higher_is_better(&self, figure: Figure) -> Option<bool>;
}

/// A plan's figures: its targets', from the attackers' side.
pub struct PlanFigures<'a>(pub &'a Plan);

impl Figures for PlanFigures<'_> {
    fn label(&self, figure: Figure) -> String {
        let target = |t: usize| &self.0.targets()[t].label;
        match figure {
            Figure::TargetDown { target: t, round } => {
                format!("P({} down by round {round})", target(t))
            }
            Figure::TargetDead { target: t, round } => {
                format!("P({} dead by round {round})", target(t))
            }
            Figure::TargetDamage { target: t, round } => {
                format!("mean damage to {} by round {round}", target(t))
            }
            Figure::LineDamage { line } => {
                let l = &self.0.lines()[line];
                let rounds = self.0.rounds();
                format!(
                    "mean damage by {} → {}: {} in {rounds} round{}",
                    l.attacker,
                    target(l.target.index()),
                    l.attack,
                    if rounds == 1 { "" } else { "s" }
                )
            }
            other => format!("{other:?}"),
        }
    }

    fn headline(&self, figure: Figure) -> bool {
        let last = self.0.rounds() as usize;
        matches!(
            figure,
            Figure::TargetDown { round, .. } | Figure::TargetDamage { round, .. } if round == last
        ) || matches!(figure, Figure::LineDamage { .. })
    }

    fn higher_is_better(&self, figure: Figure) -> Option<bool> {
        match figure {
            Figure::LineDamage { .. } => None,
            _ => Some(true),
        }
    }
}

/// A fight's figures, better or worse for its first side.
pub struct FightFigures<'a>(pub &'a Fight);

impl Figures for FightFigures<'_> {
    fn label(&self, figure: Figure) -> String {
        let fight = self.0;
        match figure {
            Figure::SideWon { side } => format!("P(win: {})", fight.sides[side]),
            Figure::FightLength => "mean fight length (rounds)".into(),
            Figure::SideLostDown { side } => format!("P(a member down: {})", fight.sides[side]),
            Figure::SideLostDead { side } => format!("P(a member dead: {})", fight.sides[side]),
            Figure::FighterDown { fighter, round } => {
                format!("P({} down at round {round})", fight.fighters[fighter].label)
            }
            Figure::FighterDead { fighter, round } => {
                format!("P({} dead at round {round})", fight.fighters[fighter].label)
            }
            Figure::DamageDealt { fighter } => {
                format!("mean damage dealt by {}", fight.fighters[fighter].label)
            }
            other => format!("{other:?}"),
        }
    }

    fn headline(&self, figure: Figure) -> bool {
        matches!(
            figure,
            Figure::SideWon { .. }
                | Figure::FightLength
                | Figure::SideLostDown { .. }
                | Figure::SideLostDead { .. }
        )
    }

    fn higher_is_better(&self, figure: Figure) -> Option<bool> {
        let first = |side: usize| side == 0;
        match figure {
            Figure::SideWon { side } => first(side).then_some(true),
            Figure::SideLostDown { side } | Figure::SideLostDead { side } => Some(!first(side)),
            Figure::FighterDown { fighter, .. } | Figure::FighterDead { fighter, .. } => {
                Some(!first(self.0.fighters[fighter].side))
            }
            _ => None,
        }
    }
}

/// The exact value of `plan`'s figure, where the exact engine reached its target. A
/// line's damage is exact where none of its attacks can be skipped (its target never
/// dies, its attacker, when attacked too, never goes down) or made in another situation
/// (its target never down, nor all its partners or allies, nor the creature struck
/// instead): each slot is made once
/// every `period` rounds, with its outcome table's mean damage.
pub fn plan_exact(plan: &Plan, exact: &Exact, figure: Figure) -> Option<f64> {
    let round = |target: usize, round: usize| {
        exact.targets[target]
            .as_ref()
            .ok()
            .map(|t| t.rounds[round - 1])
    };
    match figure {
        Figure::TargetDown { target, round: r } => round(target, r).map(|x| x.p_down),
        Figure::TargetDead { target, round: r } => round(target, r).map(|x| x.p_dead),
        Figure::TargetDamage { target, round: r } => round(target, r).map(|x| x.mean_damage),
        Figure::LineDamage { line } => {
            let last = plan.rounds() as usize;
            let never = |target: usize, of: fn(&crate::exact::RoundExact) -> f64| {
                round(target, last).is_some_and(|x| of(&x) == 0.0)
            };
            // Each attack is made as the map stands whenever no place of the line can
            // see its situation change: its target never down, or never all of its
            // partners, or of its allies, nor the creature it may strike instead.
            let any_never = |who: &[crate::plan::TargetId]| {
                who.is_empty() || who.iter().any(|t| never(t.index(), |x| x.p_down))
            };
            let places =
                (plan.places().iter()).filter(|p| plan.slots()[p.first()].line.index() == line);
            let as_drawn = places.clone().all(|p| {
                let slot = &plan.slots()[p.first()];
                let struck = slot.covering.filter(|_| p.struck_down);
                (!p.target_down || never(slot.target.index(), |x| x.p_down))
                    && any_never(&p.partners)
                    && any_never(&p.allies)
                    && struck.is_none_or(|c| never(c.index(), |x| x.p_down))
            });
            if !as_drawn {
                return None;
            }
            places
                .map(|p| (p.first(), &plan.slots()[p.first()]))
                .map(|(s, slot)| {
                    let made = plan.rounds() / slot.period.max(1);
                    let unskipped = never(slot.target.index(), |x| x.p_dead)
                        && (slot.attacker).is_none_or(|a| never(a.index(), |x| x.p_down));
                    let mean = exact.slots[s].as_ref().map(|e| e.mean_damage);
                    mean.filter(|_| unskipped).map(|m| f64::from(made) * m)
                })
                .sum()
        }
        _ => None,
    }
}

/// The exact value of a fight's figure.
pub fn fight_exact(exact: &ExactFight, figure: Figure) -> Option<f64> {
    let last = exact.won.len();
    match figure {
        Figure::SideWon { side } => Some(exact.won[last - 1][side]),
        Figure::FightLength => {
            let ended: f64 = exact.ended_in.iter().sum();
            let by_round: f64 = (1..)
                .zip(&exact.ended_in)
                .map(|(r, p)| f64::from(r) * p)
                .sum();
            Some(by_round + last as f64 * (1.0 - ended))
        }
        Figure::SideLostDown { side } => Some(exact.lost_down[side]),
        Figure::SideLostDead { side } => Some(exact.lost_dead[side]),
        Figure::FighterDown { fighter, round } => {
            Some(1.0 - exact.status[round - 1][fighter][Status::Up as usize])
        }
        Figure::FighterDead { fighter, round } => {
            Some(exact.status[round - 1][fighter][Status::Dead as usize])
        }
        Figure::DamageDealt { fighter } => Some(exact.dealt[last - 1][fighter]),
        _ => None,
    }
}

/// Every variant's rows: `names`, `exact` (per model, per figure) and `is_baseline` (per
/// model: its plan and fight are the baseline's) with the baseline first, in the paired
/// run's figure order. Only a model that is the baseline differs by exactly 0 with a
/// zero-wide interval; any other's difference has the interval its trials allow (see
/// [`PairedTally::difference`]), which no run of trials can shrink to nothing.
pub fn variant_rows<T>(
    names: &[String],
    described: &dyn Figures,
    paired: &PairedTally<T>,
    exact: &[Vec<Option<f64>>],
    is_baseline: &[bool],
) -> Vec<VariantRow> {
    let mut rows = Vec::new();
    for (model, name) in names.iter().enumerate() {
        for (f, &figure) in paired.figures().iter().enumerate() {
            let exact_value = exact[model][f];
            let exact_diff = exact_value.zip(exact[0][f]).map(|(v, b)| v - b);
            rows.push(VariantRow {
                variant: name.clone(),
                figure: described.label(figure),
                headline: described.headline(figure),
                higher_is_better: described.higher_is_better(figure),
                value: paired
                    .value(model, f, figure.is_chance())
                    .with_exact(exact_value),
                diff: match is_baseline[model] {
                    true => Estimate::ZERO,
                    false => paired.difference(model, f, figure.is_chance()),
                }
                .with_exact(exact_diff),
            });
        }
    }
    rows
}

/// The headline figures in table order, each with its rows (the baseline's first).
pub fn by_headline_figure(rows: &[VariantRow]) -> Vec<(&str, Vec<&VariantRow>)> {
    let mut figures: Vec<(&str, Vec<&VariantRow>)> = Vec::new();
    for row in rows.iter().filter(|r| r.headline) {
        match figures.iter_mut().find(|(figure, _)| *figure == row.figure) {
            Some((_, of_figure)) => of_figure.push(row),
            None => figures.push((&row.figure, vec![row])),
        }
    }
    figures
}

/// The comparison as the terminal and summary.md show it: per headline figure, each
/// variant's value and its difference to the baseline; `*` marks a difference whose
/// interval excludes 0, `best` the best value.
pub fn comparison_lines(rows: &[VariantRow]) -> Vec<String> {
    let mut lines = Vec::new();
    let width = rows
        .iter()
        .map(|r| r.variant.chars().count())
        .max()
        .unwrap_or(8);
    for (figure, of_figure) in by_headline_figure(rows) {
        lines.push(format!("{figure}:"));
        let best = best_variant(&of_figure);
        for row in &of_figure {
            let mut line = format!(
                "  {:<width$}  {}",
                row.variant,
                super::text::estimate(&row.value)
            );
            if row.variant != BASELINE {
                let exact = (row.diff.exact).map_or(String::new(), |x| format!(" ({x:+.4})"));
                line += &format!("   {}{exact}", difference_text(&row.diff));
            }
            if best == Some(row.variant.as_str()) {
                line += "   best";
            }
            lines.push(line);
        }
    }
    lines
}

/// The variant with the best value of one figure, when one is better than the baseline
/// by a difference whose interval excludes 0.
pub fn best_variant<'a>(rows: &[&'a VariantRow]) -> Option<&'a str> {
    let higher = rows.first()?.higher_is_better?;
    let better = |r: &&&VariantRow| {
        if higher {
            r.diff.lo > 0.0
        } else {
            r.diff.hi < 0.0
        }
    };
    let key = |r: &&&VariantRow| {
        if higher {
            r.value.point
        } else {
            -r.value.point
        }
    };
    rows.iter()
        .filter(better)
        .max_by(|a, b| key(a).total_cmp(&key(b)))
        .map(|r| r.variant.as_str())
}

/// Whether a difference's interval excludes 0.
pub fn significant(diff: &Estimate) -> bool {
    diff.lo > 0.0 || diff.hi < 0.0
}

/// `+0.1469 [+0.1453, +0.1485] *`: a difference, its interval, and `*` when the interval
/// excludes 0 (an end just below 0 keeps its sign, `-0.0000`, which says so).
pub fn difference_text(d: &Estimate) -> String {
    let mark = if significant(d) { " *" } else { "" };
    format!("{:+.4} [{:+.4}, {:+.4}]{mark}", d.point, d.lo, d.hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of `variant` whose value is `value` and whose difference to the baseline
    /// reaches from `lo` to `hi`.
    fn row(
        variant: &str,
        higher_is_better: Option<bool>,
        value: f64,
        (lo, hi): (f64, f64),
    ) -> VariantRow {
        let at = |point: f64, lo: f64, hi: f64| Estimate {
            point,
            lo,
            hi,
            exact: None,
        };
        VariantRow {
            variant: variant.into(),
            figure: "P(win: party)".into(),
            headline: true,
            higher_is_better,
            value: at(value, value - 0.01, value + 0.01),
            diff: at((lo + hi) / 2.0, lo, hi),
        }
    }

    /// Best is the best value among the differences whose interval excludes 0, the way
    /// the figure is better; none on a figure that is no goal (`higher_is_better` None),
    /// and none when no difference excludes 0.
    #[test]
    fn best_is_the_best_significant_value_on_a_goal() {
        for (higher, expected) in [
            (Some(true), Some("flank")),
            (Some(false), Some("hide")),
            (None, None),
        ] {
            let rows = [
                row(BASELINE, higher, 0.50, (0.0, 0.0)),
                row("flank", higher, 0.70, (0.19, 0.21)),
                row("power", higher, 0.80, (-0.01, 0.61)),
                row("hide", higher, 0.30, (-0.21, -0.19)),
            ];
            let refs: Vec<&VariantRow> = rows.iter().collect();
            assert_eq!(best_variant(&refs), expected, "{higher:?}");
        }
        let unsure = [
            row(BASELINE, Some(true), 0.5, (0.0, 0.0)),
            row("power", Some(true), 0.8, (-0.01, 0.61)),
        ];
        assert_eq!(best_variant(&unsure.iter().collect::<Vec<_>>()), None);
    }
}

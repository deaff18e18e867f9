//! The rows of SPEC §3's tables (summary, rounds, damage), built from plan + tally +
//! exact: each figure an [`Estimate`] with its interval and exact value. Each row type
//! names its columns once, in its [`Row`] implementation.

use super::table::{Column, Row};
use crate::attack::Resolution;
use crate::engine::{SlotFigures, Tally};
use crate::exact::{Exact, SlotExact};
use crate::plan::{Plan, SetByPlan, StruckInstead, TargetId};
use crate::stats::Estimate;

/// One attack of the plan (a plan line's attack, per iterative): a row of `summary.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackRow {
    pub attacker: String,
    pub target: String,
    pub attack: String,
    /// Which of the line's attacks this is, from 1.
    pub index: usize,
    /// The attack's bonus as written, before this line's modifiers.
    pub bonus: i32,
    /// The cover level's key (`none`, `soft`, …).
    pub cover: String,
    /// The target's concealment, in percent.
    pub concealment: u8,
    pub flanking: bool,
    /// What the plan line set in place of what the map says (shown in the roll, not a
    /// column: `cover`, `concealment` and `flanking` hold the values).
    pub set_by_plan: SetByPlan,
    pub attack_mod: i32,
    /// The range increments' and shooting into melee's penalties, inside `attack_mod`.
    pub range_penalty: i32,
    pub into_melee: i32,
    pub ac_mod: i32,
    pub effective_bonus: i32,
    pub effective_ac: i32,
    /// What the roll is against, as tables name it: `AC`, `Defense`, `EAC` or `KAC`.
    pub armor: &'static str,
    /// The miss chance rolled after a hit, in percent.
    pub miss_chance: u8,
    /// Attacks made in the trials (an attack is not made once its target is dead).
    pub made: u64,
    /// Made only in a situation the map does not show (its target down, its flanking
    /// partners down…), in place of the attack as the map stands.
    pub situational: bool,
    pub p_hit: Estimate,
    pub p_crit: Estimate,
    pub mean_damage: Estimate,
    /// How often the attacker guesses the square of a target it cannot see: `right/candidates`.
    pub square_guess: String,
    /// An area attack's save, described; `None` for an attack roll.
    pub save: Option<String>,
    /// The creature struck instead of the target when the shot strikes the cover (d20
    /// Modern), with how often and for how much damage per attack.
    pub covering: Option<Covering>,
}

/// A creature an attack may strike instead of its target, and how it fares.
#[derive(Debug, Clone, PartialEq)]
pub struct Covering {
    pub creature: String,
    /// Why the attack may strike it (`it gives the soft cover`), for the report's notes.
    pub why: &'static str,
    /// P(the attack strikes it).
    pub p_hit: Estimate,
    /// Its mean damage per attack made.
    pub mean_damage: Estimate,
}

impl Row for AttackRow {
    const NAME: &'static str = "summary";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::text("attacker", |r: &Self| r.attacker.clone()),
            Column::text("target", |r: &Self| r.target.clone()),
            Column::text("attack", |r: &Self| r.attack.clone()),
            Column::int("index", |r: &Self| r.index as i64),
            Column::int("bonus", |r: &Self| i64::from(r.bonus)),
            Column::text("cover", |r: &Self| r.cover.clone()),
            Column::int("concealment", |r: &Self| i64::from(r.concealment)),
            Column::bool("flanking", |r: &Self| r.flanking),
            Column::int("attack_mod", |r: &Self| i64::from(r.attack_mod)),
            Column::int("ac_mod", |r: &Self| i64::from(r.ac_mod)),
            Column::int("effective_bonus", |r: &Self| i64::from(r.effective_bonus)),
            Column::int("effective_ac", |r: &Self| i64::from(r.effective_ac)),
            Column::int("miss_chance", |r: &Self| i64::from(r.miss_chance)),
            Column::int("trials", |r: &Self| r.made as i64),
        ];
        columns.extend(Column::estimates(&[
            ("p_hit", |r: &Self| r.p_hit),
            ("p_crit", |r: &Self| r.p_crit),
            ("mean_damage", |r: &Self| r.mean_damage),
        ]));
        columns.extend([
            Column::text("square_guess", |r: &Self| r.square_guess.clone()),
            Column::text("save", |r: &Self| r.save.clone().unwrap_or_default()),
            Column::text("covering", |r: &Self| {
                (r.covering.as_ref()).map_or_else(String::new, |c| c.creature.clone())
            }),
        ]);
        columns.extend(Column::optional_estimates(&[
            ("p_cover_hit", |r: &Self| Some(r.covering.as_ref()?.p_hit)),
            ("cover_mean_damage", |r: &Self| {
                Some(r.covering.as_ref()?.mean_damage)
            }),
        ]));
        columns
    }
}

/// One target in one round, when the target has hit points or covers another: a row of
/// `rounds.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundRow {
    pub target: String,
    /// From 1.
    pub round: usize,
    /// Down by the end of the round.
    pub p_down: Estimate,
    /// Dead by the end of the round.
    pub p_dead: Estimate,
    /// Damage taken by the end of the round.
    pub mean_damage: Estimate,
}

impl Row for RoundRow {
    const NAME: &'static str = "rounds";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::text("target", |r: &Self| r.target.clone()),
            Column::int("round", |r: &Self| r.round as i64),
        ];
        columns.extend(Column::estimates(&[
            ("p_down", |r: &Self| r.p_down),
            ("p_dead", |r: &Self| r.p_dead),
            ("mean_damage", |r: &Self| r.mean_damage),
        ]));
        columns
    }
}

/// How likely a target is to take one total of damage over the whole run: a row of
/// `damage.csv` (only totals that happened or that the exact engine finds possible).
#[derive(Debug, Clone, PartialEq)]
pub struct DamageRow {
    pub target: String,
    pub damage: usize,
    pub probability: Estimate,
}

impl Row for DamageRow {
    const NAME: &'static str = "damage";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::text("target", |r: &Self| r.target.clone()),
            Column::int("damage", |r: &Self| r.damage as i64),
        ];
        columns.extend(Column::estimates(&[("probability", |r: &Self| {
            r.probability
        })]));
        columns
    }
}

/// One row per attack of the plan.
pub(super) fn attack_rows(plan: &Plan, tally: &Tally, exact: &Exact) -> Vec<AttackRow> {
    (exact.slots.iter().enumerate())
        .map(|(i, slot_exact)| attack_row(plan, i, tally.slot(plan, i), *slot_exact))
        .collect()
}

/// The row of `plan`'s slot `slot`: its situation, and `figures` beside `exact`.
pub(super) fn attack_row(
    plan: &Plan,
    slot: usize,
    figures: SlotFigures,
    exact: Option<SlotExact>,
) -> AttackRow {
    let label = |target: TargetId| plan.target(target).label.clone();
    let slot = &plan.slots()[slot];
    let line = plan.line(slot.line);
    let modifiers = slot.modifiers(plan);
    let guess = slot.profile.guess;
    // A coup de grace is its own row beside the same weapon's rolled attacks.
    let coup_de_grace = match slot.profile.resolution {
        Resolution::CoupDeGrace { .. } => " (coup de grace)",
        _ => "",
    };
    AttackRow {
        attacker: line.attacker.clone(),
        target: label(slot.target),
        attack: line.attack.clone() + coup_de_grace + &slot.assumes.label(),
        index: slot.index + 1,
        bonus: slot.base_bonus,
        cover: modifiers.cover.key().to_string(),
        concealment: modifiers.concealment,
        flanking: modifiers.flanking,
        set_by_plan: modifiers.set_by_plan,
        attack_mod: modifiers.attack_mod,
        range_penalty: modifiers.range_penalty,
        into_melee: modifiers.into_melee,
        ac_mod: modifiers.ac_mod,
        effective_bonus: slot.profile.bonus,
        effective_ac: slot.profile.ac,
        armor: line.armor,
        miss_chance: slot.profile.miss_chance,
        made: figures.made(),
        situational: !slot.assumes.is_nothing(),
        p_hit: figures.hit().estimate().with_exact(exact.map(|e| e.p_hit)),
        p_crit: figures
            .crit()
            .estimate()
            .with_exact(exact.map(|e| e.p_crit)),
        mean_damage: (figures.damage().estimate()).with_exact(exact.map(|e| e.mean_damage)),
        square_guess: format!("{}/{}", guess.right, guess.candidates),
        save: modifiers.save.map(|s| s.describe()),
        covering: slot.covering.map(|covering| Covering {
            creature: label(covering),
            why: line.struck_instead.map_or("", StruckInstead::why),
            p_hit: (figures.struck().estimate()).with_exact(exact.map(|e| e.p_struck)),
            mean_damage: (figures.struck_damage().estimate())
                .with_exact(exact.map(|e| e.mean_struck_damage)),
        }),
    }
}

/// One row per round of each target that has hit points or covers another.
pub(super) fn round_rows(plan: &Plan, tally: &Tally, exact: &Exact) -> Vec<RoundRow> {
    plan.target_ids()
        .filter(|&target| {
            plan.target(target).down_at.is_some()
                || plan.slots().iter().any(|s| s.covering == Some(target))
        })
        .flat_map(|target| (0..plan.rounds() as usize).map(move |round| (target, round)))
        .map(|(target, round)| {
            let counted = tally.round(target, round);
            let exact = exact.target(target).ok().map(|e| e.rounds[round]);
            RoundRow {
                target: plan.target(target).label.clone(),
                round: round + 1,
                p_down: counted.down.estimate().with_exact(exact.map(|e| e.p_down)),
                p_dead: counted.dead.estimate().with_exact(exact.map(|e| e.p_dead)),
                mean_damage: counted
                    .damage
                    .estimate()
                    .with_exact(exact.map(|e| e.mean_damage)),
            }
        })
        .collect()
}

/// One row per total of damage a target took in some trial or may take by the exact
/// figures.
pub(super) fn damage_rows(plan: &Plan, tally: &Tally, exact: &Exact) -> Vec<DamageRow> {
    let mut rows = Vec::new();
    for (target, planned) in plan.target_ids().zip(plan.targets()) {
        let exact_probs = exact.target(target).ok().map(|e| &e.damage);
        for (damage, taken) in tally.damage_taken(target).enumerate() {
            let exact = exact_probs.and_then(|p| p.get(damage).copied());
            if taken.successes > 0 || exact.is_some_and(|p| p > 0.0) {
                rows.push(DamageRow {
                    target: planned.label.clone(),
                    damage,
                    probability: taken.estimate().with_exact(exact),
                });
            }
        }
    }
    rows
}

#[cfg(test)]
impl AttackRow {
    /// `attacker`'s sword attack on `target`, hitting with probability `p_hit` (±0.01, no
    /// exact value), its roll +0 vs AC 0 and its other figures zero.
    pub(super) fn example(attacker: &str, target: &str, p_hit: f64) -> Self {
        let zero = Estimate::proportion(0, 0);
        Self {
            attacker: attacker.into(),
            target: target.into(),
            attack: "sword".into(),
            index: 1,
            bonus: 0,
            cover: "none".into(),
            concealment: 0,
            flanking: false,
            set_by_plan: SetByPlan::default(),
            attack_mod: 0,
            range_penalty: 0,
            into_melee: 0,
            ac_mod: 0,
            effective_bonus: 0,
            effective_ac: 0,
            armor: "AC",
            miss_chance: 0,
            made: 0,
            situational: false,
            p_hit: Estimate {
                point: p_hit,
                lo: p_hit - 0.01,
                hi: p_hit + 0.01,
                exact: None,
            },
            p_crit: zero,
            mean_damage: zero,
            square_guess: "1/1".into(),
            save: None,
            covering: None,
        }
    }
}

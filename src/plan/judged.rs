//! What planning judged of each plan line of a file — the map's verdicts with the lines that
//! decided them, range and shooting into melee, the overrides — carried beside the plan to
//! `d20odds check`, the report's map and the heatmap, so none of them judges geometry again.

use crate::error::InputError;
use crate::map::Square;
use crate::rules::RuleSet;
use crate::scenario::{AttackKind, Battlefield, Combatant, CombatantId, PlanLine, Scenario};
use crate::situation::{self, RangeVerdict};
use crate::verdict::{LineVerdict, line_verdict};

use super::{LineId, Plan};

/// A scenario planned: the plan the engines run and, per plan line of the file in order,
/// what planning judged of it.
#[derive(Debug, Clone)]
pub struct Planned {
    /// What the engines run: the lines that could be made.
    pub plan: Plan,
    /// Per plan line of the file, in file order, what planning judged of it.
    pub lines: Vec<LineSituation>,
    /// The combatant behind each of the plan's targets, in the order of their ids.
    pub combatants: Vec<CombatantId>,
}

/// The most squares [`Planned::unused_improved_cover`] names.
const IMPROVED_SQUARES_NAMED: usize = 6;

impl Planned {
    /// A note when the map has squares the legend marks `improved` (arrow slits, gun
    /// ports) and none of them stands on a line that decides the cover of an attack made
    /// (its cover not set by its plan line, not a spread): a user who drew one expects it
    /// to count, and the figures alone do not say it does not. `of_plan_lines`: the lines
    /// planned are a file's plan lines, whose cover lines `d20odds check` shows.
    pub fn unused_improved_cover(
        &self,
        field: &Battlefield,
        of_plan_lines: bool,
    ) -> Option<String> {
        let counted = |l: &&LineSituation| l.made.is_ok() && !l.overridden.cover;
        let used = (self
            .lines
            .iter()
            .filter(counted)
            .filter_map(|l| l.map.as_ref()))
        .any(|map| !map.verdict.spread && map.verdict.cover_lines.tally.improved);
        if used {
            return None;
        }
        let grid = &field.grid;
        let squares: Vec<String> = (0..grid.height() as i32)
            .flat_map(|y| (0..grid.width() as i32).map(move |x| Square { x, y }))
            .filter(|&square| grid.terrain(square).improved)
            .map(|square| format!("({},{})", square.x, square.y))
            .collect();
        if squares.is_empty() {
            return None;
        }
        let mut at = squares[..squares.len().min(IMPROVED_SQUARES_NAMED)].join(", ");
        if squares.len() > IMPROVED_SQUARES_NAMED {
            at.push_str(", …");
        }
        let (squares, block, they_give) = match squares.len() {
            1 => ("square", "blocks", "it gives"),
            _ => ("squares", "block", "they give"),
        };
        let shown = match of_plan_lines {
            true => " (`d20odds check` shows each plan line's cover lines)",
            false => "",
        };
        Some(format!(
            "The map's `improved` {squares} at {at} {block} none of the lines that decide an attack's cover in this experiment, so no attack gets the cover {they_give}{shown}."
        ))
    }

    /// The planned scenario, or the first plan line that cannot be made.
    pub fn all_made(mut self) -> Result<Planned, InputError> {
        match self.lines.iter().position(|l| l.made.is_err()) {
            Some(i) => Err(self.lines.swap_remove(i).made.expect_err("refused")),
            None => Ok(self),
        }
    }
}

/// A combatant as the reports name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub token: char,
}

impl Named {
    pub(super) fn of(combatant: &Combatant) -> Named {
        Named {
            name: combatant.name.clone(),
            token: combatant.token,
        }
    }
}

/// The plan line keys the file sets, which the map's verdicts then do not decide.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overridden {
    pub cover: bool,
    pub concealment: bool,
    pub flanking: bool,
    pub attack_mod: bool,
    pub ac_mod: bool,
}

impl Overridden {
    /// The keys set, in the file format's order.
    pub fn names(&self) -> Vec<&'static str> {
        [
            ("cover", self.cover),
            ("concealment", self.concealment),
            ("flanking", self.flanking),
            ("attack_mod", self.attack_mod),
            ("ac_mod", self.ac_mod),
        ]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect()
    }
}

/// One plan line of the file as planning judged it.
#[derive(Debug, Clone)]
pub struct LineSituation {
    /// Who attacks.
    pub attacker: Named,
    /// Whom it attacks.
    pub target: Named,
    /// The attack's name.
    pub attack: String,
    /// Melee, ranged or area.
    pub kind: AttackKind,
    /// Which keys the plan line sets itself.
    pub overridden: Overridden,
    /// The map's verdicts; `None` without a map.
    pub map: Option<MapSituation>,
    /// The creature the target is grappling with (d20 Modern).
    pub grappling_with: Option<Named>,
    /// The plan line it became, or why it cannot be made.
    pub made: Result<LineId, InputError>,
}

impl LineSituation {
    pub(super) fn new(
        scenario: &Scenario,
        line: &PlanLine,
        map: Option<MapSituation>,
        made: Result<LineId, InputError>,
    ) -> LineSituation {
        let attacker = scenario.combatant(line.attacker);
        let target = scenario.combatant(line.target);
        let attack = &attacker.attacks[line.attack];
        let o = &line.overrides;
        LineSituation {
            attacker: Named::of(attacker),
            target: Named::of(target),
            attack: attack.name.clone(),
            kind: attack.kind,
            overridden: Overridden {
                cover: o.cover.is_some(),
                concealment: o.concealment.is_some(),
                flanking: o.flanking.is_some(),
                attack_mod: o.attack_mod.is_some(),
                ac_mod: o.ac_mod.is_some(),
            },
            map,
            grappling_with: target
                .grappling_with
                .map(|c| Named::of(scenario.combatant(c))),
            made,
        }
    }
}

/// What the map says about one plan line, with the lines that decided it and the
/// creatures it names.
#[derive(Debug, Clone)]
pub struct MapSituation {
    pub verdict: LineVerdict,
    pub flanking_partner: Option<Named>,
    /// The creature giving soft cover.
    pub covering: Option<Named>,
    /// A ranged attack's range increment, or why the target is beyond its range.
    pub range: Result<Option<RangeVerdict>, String>,
    /// A ranged attack's ally engaged in melee with the target.
    pub into_melee: Option<IntoMelee>,
}

/// Shooting into melee: the ally engaged with the target (the first, if several), every
/// one of them, and the penalty after Precise Shot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntoMelee {
    pub ally: Named,
    pub allies: Vec<CombatantId>,
    pub penalty: i32,
}

impl MapSituation {
    /// The map's verdicts on one plan line, judged once for everything that shows them.
    pub(super) fn judge(
        scenario: &Scenario,
        field: &Battlefield,
        rules: &RuleSet,
        line: &PlanLine,
    ) -> MapSituation {
        let attacker = scenario.combatant(line.attacker);
        let attack = &attacker.attacks[line.attack];
        let verdict = line_verdict(scenario, field, rules, line);
        let named = |c: CombatantId| Named::of(scenario.combatant(c));
        let allies = match attack.kind {
            AttackKind::Ranged => situation::engaged_allies(scenario, field, rules, line),
            _ => Vec::new(),
        };
        let into_melee = allies.first().map(|&ally| IntoMelee {
            ally: named(ally),
            allies: allies.clone(),
            penalty: situation::into_melee_penalty(rules, attacker, attack),
        });
        MapSituation {
            flanking_partner: verdict.flanking.map(|f| named(f.partner)),
            covering: verdict.covering.map(named),
            range: situation::range(rules, attack, verdict.distance_ft),
            into_melee,
            verdict,
        }
    }
}

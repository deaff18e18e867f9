//! A scenario's plan line → its attack, defence and situation, the map's verdicts filled in
//! where the plan does not override them.

use crate::attack::SquareGuess;
use crate::damage::massive_check;
use crate::error::InputError;
use crate::rules::{Condition, RuleSet};
use crate::scenario::{
    Action, ArmorClass, Attack, AttackKind, Combatant, CombatantId, PlanLine, Scenario,
};
use crate::situation::{self, Perception};
use crate::verdict::LineVerdict;

use super::{
    Covering, Grappler, LineAttack, LineDefence, MapSituation, SetByPlan, Situation, TargetId,
};

/// What [`PlanBuilder::add_line`](super::PlanBuilder::add_line) takes for one plan line.
type LineParts = (LineAttack, LineDefence, Situation);

/// One plan line's attack, defence and situation — the map's verdicts (`map`, judged once
/// by the caller) filled in where the plan does not override them — for a target at index
/// `target` of the plan's targets. A target grappling another creature (d20 Modern)
/// brings, against a ranged attack, the same line drawn to that creature, which becomes a
/// target too; the defence carries it only when an attack roll may strike it (a coup de
/// grace is delivered to one helpless creature, not rolled at a pair).
pub(super) fn line_parts(
    scenario: &Scenario,
    line: &PlanLine,
    map: Option<&MapSituation>,
    target: TargetId,
    target_of: &mut dyn FnMut(CombatantId) -> TargetId,
) -> Result<LineParts, InputError> {
    let (attack, mut defence, situation) =
        single_line_parts(scenario, line, map, target, target_of)?;
    let kind = scenario.combatant(line.attacker).attacks[line.attack].kind;
    let grappler = scenario
        .combatant(line.target)
        .grappling_with
        .filter(|_| kind == AttackKind::Ranged);
    if let Some(partner) = grappler {
        let to_partner = PlanLine {
            target: partner,
            ..line.clone()
        };
        let rules = scenario.system.rules();
        let partner_map = (scenario.battlefield.as_ref())
            .map(|field| MapSituation::judge(scenario, field, rules, &to_partner));
        let index = target_of(partner);
        let (_, partner_defence, partner_situation) = single_line_parts(
            scenario,
            &to_partner,
            partner_map.as_ref(),
            index,
            target_of,
        )?;
        let c = scenario.combatant(partner);
        defence.grappling = (line.action != Action::CoupDeGrace).then(|| {
            Box::new(Grappler {
                label: c.label(),
                defence: partner_defence,
                situation: partner_situation,
            })
        });
    }
    Ok((attack, defence, situation))
}

/// [`line_parts`] for the line's own target alone.
fn single_line_parts(
    scenario: &Scenario,
    line: &PlanLine,
    map: Option<&MapSituation>,
    target: TargetId,
    target_of: &mut dyn FnMut(CombatantId) -> TargetId,
) -> Result<LineParts, InputError> {
    let rules = scenario.system.rules();
    let attacker = scenario.combatant(line.attacker);
    let defender = scenario.combatant(line.target);
    let attack = &attacker.attacks[line.attack];
    let o = &line.overrides;
    let mut situation = Situation {
        cover: o.cover,
        concealment: None,
        flanking: o.flanking,
        attack_mod: o.attack_mod,
        ac_mod: o.ac_mod,
        ..Situation::default()
    };
    let mut grounds = (attacker.elevation, defender.elevation);
    let mut seen = Sighting::without_map(defender);
    if let Some(map) = map {
        situation.set_by_plan = SetByPlan {
            cover: o.cover.is_some(),
            concealment: o.concealment.is_some(),
            flanking: o.flanking.is_some(),
        };
        if let Some(sighting) = fill_from_map(scenario, line, map, &mut situation, target_of)? {
            seen = sighting;
        }
        grounds = (map.verdict.attacker_ground, map.verdict.target_ground);
    }
    let mut perception = Perception::default();
    if attack.kind != AttackKind::Area {
        perception = situation::perceive(rules, attacker, defender, seen.distance_ft);
        let (miss_chance, total) = seen.with(rules, defender, perception);
        let pinpointed =
            perception.blindsense || line.pinpointed.unwrap_or(perception.unseen.is_none());
        if total && !pinpointed {
            situation.guess = Some(seen.guess);
        }
        situation.concealment = o.concealment.or(Some(miss_chance));
        situation.perception = perception;
    } else {
        situation.concealment = o.concealment;
    }
    Ok((
        line_attack(rules, line, attacker, attack, grounds.0, perception),
        line_defence(rules, target, defender, attack, grounds.1),
        situation,
    ))
}

/// Fills in what the map decides and the plan does not override, after refusing a line
/// the map makes impossible (out of reach, beyond an area's radius or the weapon's
/// range). Returns what the attacker sees of the target, for attacks that roll.
fn fill_from_map(
    scenario: &Scenario,
    line: &PlanLine,
    map: &MapSituation,
    situation: &mut Situation,
    target_of: &mut dyn FnMut(CombatantId) -> TargetId,
) -> Result<Option<Sighting>, InputError> {
    let rules = scenario.system.rules();
    let attack = &scenario.combatant(line.attacker).attacks[line.attack];
    let v = &map.verdict;
    check_reach(scenario, line, v, attack)?;
    check_radius(scenario, line, v, attack)?;
    let mut seen = None;
    if attack.kind != AttackKind::Area {
        seen = Some(Sighting {
            miss_chance: v.concealment,
            total: v.concealment_lines.total,
            guess: v.guess,
            distance_ft: Some(v.distance_ft),
        });
        let range = (map.range.clone()).map_err(|m| scenario.source.error(line.span.clone(), m))?;
        situation.range_penalty = range.map_or(0, |r| r.penalty);
        situation.into_melee = match line.overrides.into_melee {
            Some(false) => 0,
            _ => map.into_melee.as_ref().map_or(0, |m| m.penalty),
        };
    }
    situation.adjacent = v.adjacent;
    situation.cover = situation.cover.or(Some(v.cover));
    situation.flanking = situation.flanking.or(Some(v.flanking.is_some()));
    if line.overrides.cover.is_none()
        && rules.striking_the_cover
        && let Some(c) = v.covering
    {
        let covering = scenario.combatant(c);
        let (defense, dex) = covering_defense(rules, covering);
        situation.covering = Some(Covering {
            target: target_of(c),
            defense,
            dex,
            dr: covering.dr,
            massive: massive_check(rules, covering.con, covering.fort),
        });
    }
    situation.distance_ft = Some(v.distance_ft);
    Ok(seen)
}

/// The Defense, and the Dex bonus within it, of a creature giving cover against a roll
/// that may strike it: a helpless one (unconscious, or down in the situation planned) has
/// the system's helpless Defense, base + size, with no Dex bonus to save it.
fn covering_defense(rules: &RuleSet, covering: &Combatant) -> (i32, i32) {
    match rules.helpless_defense(covering.size) {
        Some(helpless) if covering.is_helpless(rules) => (helpless, 0),
        _ => (covering.ac, covering.dex),
    }
}

/// The attack side of a plan line: the routine its action makes, from the attacker's
/// ground, with the attacker's conditions but its invisibility when the target sees it.
fn line_attack(
    rules: &RuleSet,
    line: &PlanLine,
    attacker: &Combatant,
    attack: &Attack,
    elevation: i32,
    perception: Perception,
) -> LineAttack {
    let mut conditions = conditions_of(rules, &attacker.conditions);
    if perception.seen_by_target {
        conditions.retain(|c| !c.unseen);
    }
    let bonuses = match line.action {
        Action::Single => attack.bonus[..1].to_vec(),
        Action::Full => attack.bonus.clone(),
        Action::CoupDeGrace => attack.bonus[..1].to_vec(),
    };
    LineAttack {
        attacker: attacker.label(),
        name: attack.name.clone(),
        melee: attack.kind == AttackKind::Melee,
        bonuses,
        damage: attack.damage.clone(),
        extra_damage: attack.extra_damage.clone(),
        precision: attack.precision.clone(),
        bypass_dr: attack.bypass_dr,
        crit: attack.crit,
        conditions,
        crossbow: attack.crossbow,
        elevation,
        coup_de_grace: (line.action == Action::CoupDeGrace).then_some(attacker.level),
        area: line.area,
    }
}

/// The defending side of a plan line: the armor class the attack targets, on the
/// defender's ground.
fn line_defence(
    rules: &RuleSet,
    target: TargetId,
    defender: &Combatant,
    attack: &Attack,
    elevation: i32,
) -> LineDefence {
    LineDefence {
        target,
        ac: match attack.vs {
            ArmorClass::Eac => defender.eac,
            ArmorClass::Kac => defender.kac,
        },
        armor: rules.armor_classes.name(attack.vs == ArmorClass::Eac),
        dex: defender.dex,
        size: defender.size,
        immune_to_crits: defender.immune_to_crits,
        immune_to_precision: defender.immune_to_precision,
        dr: defender.dr,
        con: defender.con,
        conditions: conditions_of(rules, &defender.conditions),
        elevation,
        fort: defender.fort,
        reflex: defender.reflex,
        will: defender.will,
        evasion: defender.evasion,
        grappling: None,
    }
}

/// What the map says the attacker sees of the target, before its senses and the
/// target's own concealment.
struct Sighting {
    miss_chance: u8,
    total: bool,
    /// The squares to guess among under total concealment.
    guess: SquareGuess,
    /// `None` without a map.
    distance_ft: Option<i64>,
}

impl Sighting {
    /// Without a map nothing conceals the target but itself; a guess is among its own
    /// squares and the ring around them.
    fn without_map(defender: &Combatant) -> Sighting {
        let side = defender.size.row().squares.max(1) as u32;
        Sighting {
            miss_chance: 0,
            total: false,
            guess: SquareGuess {
                right: side * side,
                candidates: (side + 2) * (side + 2),
            },
            distance_ft: None,
        }
    }

    /// The miss chance and whether it is total, once the attacker's senses and the
    /// target's own concealment are known: blindsight ignores all of it, an unseen target
    /// has total concealment, the highest miss chance counts.
    fn with(&self, rules: &RuleSet, defender: &Combatant, perception: Perception) -> (u8, bool) {
        if perception.blindsight {
            return (0, false);
        }
        let unseen = perception.unseen.is_some();
        let miss = self.miss_chance.max(defender.concealment).max(if unseen {
            rules.total_concealment
        } else {
            0
        });
        (miss, self.total || unseen)
    }
}

/// Melee must reach its target, and a coup de grace with a ranged weapon needs the
/// attacker adjacent (RULES.md §5): both are input errors at the plan line.
fn check_reach(
    scenario: &Scenario,
    line: &PlanLine,
    verdict: &LineVerdict,
    attack: &Attack,
) -> Result<(), InputError> {
    let attacker = scenario.combatant(line.attacker);
    let target = scenario.combatant(line.target);
    if let Some(reach) = verdict.reach
        && !reach.threatens
    {
        let why = if reach.reach_weapon && verdict.adjacent {
            "a reach weapon cannot strike an adjacent creature; move one of them on the map, \
             or attack with a weapon without `reach_weapon`"
                .to_string()
        } else {
            format!(
                "its reach is {} ft and `{}` is {} ft away; move it on the map or set the attack's `reach`",
                reach.feet, target.token, verdict.distance_ft
            )
        };
        return Err(scenario.source.error(
            line.span.clone(),
            format!(
                "`{}` cannot reach `{}` with `{}`: {why}",
                attacker.token, target.token, attack.name
            ),
        ));
    }
    if line.action == Action::CoupDeGrace && attack.kind == AttackKind::Ranged && !verdict.adjacent
    {
        return Err(scenario.source.error(
            line.span.clone(),
            format!(
                "a coup de grace with a ranged weapon needs `{}` adjacent to `{}` on the map",
                attacker.token, target.token
            ),
        ));
    }
    Ok(())
}

/// An area with a radius reaches only targets that far from its origin: a target beyond
/// it is an input error at the plan line (and a refused square on a heatmap).
fn check_radius(
    scenario: &Scenario,
    line: &PlanLine,
    verdict: &LineVerdict,
    attack: &Attack,
) -> Result<(), InputError> {
    match (attack.radius, verdict.origin_distance_ft) {
        (Some(radius), Some(feet)) if feet > i64::from(radius) => Err(scenario.source.error(
            line.span.clone(),
            format!(
                "`{}` is {feet} ft from the origin of `{}`, beyond its {radius}-ft radius: move the origin or leave the target out",
                scenario.combatant(line.target).token, attack.name
            ),
        )),
        _ => Ok(()),
    }
}

/// The system's condition entries for validated names.
fn conditions_of(rules: &RuleSet, names: &[&str]) -> Vec<&'static Condition> {
    names.iter().filter_map(|n| rules.condition(n)).collect()
}

//! What an attacker faces beyond the map's cover lines: a target it cannot see (invisible,
//! or the attacker blinded) and the senses that find it anyway, range increments, and
//! shooting into a melee where an ally fights (RULES.md §3.6, §10).
//!
//! Architecture Invariant: rule numbers come from [`crate::rules`], distances and threat
//! from [`crate::map`]; this module only joins them for one plan line.

use crate::rules::{RangeSense, RuleSet};
use crate::scenario::{
    Attack, AttackKind, Battlefield, Combatant, CombatantId, PlanLine, Scenario,
};
use crate::verdict::threatens;

/// Why an attacker cannot see its target at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unseen {
    /// The target is invisible.
    Invisible,
    /// The attacker is blinded.
    Blinded,
}

impl Unseen {
    pub fn describe(self) -> &'static str {
        match self {
            Unseen::Invisible => "the target is invisible",
            Unseen::Blinded => "the attacker is blinded",
        }
    }
}

/// What the attacker perceives of the target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Perception {
    /// The target cannot be seen: it has total concealment.
    pub unseen: Option<Unseen>,
    /// The attacker's blindsight reaches the target: no concealment applies.
    pub blindsight: bool,
    /// The attacker's blindsense reaches the target: its square is known.
    pub blindsense: bool,
    /// The attacker is invisible but the target's blindsight reaches it: its
    /// invisibility gives it nothing against this target.
    pub seen_by_target: bool,
}

/// A creature's senses with a range, in feet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RangeSenses {
    pub blindsight: Option<i32>,
    pub blindsense: Option<i32>,
}

impl RangeSenses {
    /// The range of one sense.
    pub fn range(&self, sense: RangeSense) -> Option<i32> {
        match sense {
            RangeSense::Blindsight => self.blindsight,
            RangeSense::Blindsense => self.blindsense,
        }
    }
}

/// What `attacker` perceives of `target` at `distance_ft` (`None` without a map: the
/// senses are taken to reach).
pub fn perceive(
    rules: &RuleSet,
    attacker: &Combatant,
    target: &Combatant,
    distance_ft: Option<i64>,
) -> Perception {
    let has = |c: &Combatant, flag: fn(&crate::rules::Condition) -> bool| {
        c.conditions
            .iter()
            .any(|name| rules.condition(name).is_some_and(flag))
    };
    let unseen = if has(target, |c| c.unseen) {
        Some(Unseen::Invisible)
    } else if has(attacker, |c| c.sightless) {
        Some(Unseen::Blinded)
    } else {
        None
    };
    // Whether `whose` sense reaches the other creature.
    let reaches = |whose: &Combatant, sense| {
        (whose.range_senses.range(sense))
            .is_some_and(|feet| distance_ft.is_none_or(|d| d <= i64::from(feet)))
    };
    Perception {
        unseen,
        blindsight: reaches(attacker, RangeSense::Blindsight),
        blindsense: reaches(attacker, RangeSense::Blindsense),
        seen_by_target: has(attacker, |c| c.unseen) && reaches(target, RangeSense::Blindsight),
    }
}

/// A ranged attack's distance in range increments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeVerdict {
    pub distance_ft: i64,
    pub increment_ft: i32,
    /// 1 = the first increment.
    pub increment: i64,
    /// Added to the attack roll.
    pub penalty: i32,
}

/// The range penalty of a ranged attack with a range increment, or why the target is out
/// of range.
pub fn range(
    rules: &RuleSet,
    attack: &Attack,
    distance_ft: i64,
) -> Result<Option<RangeVerdict>, String> {
    if attack.kind != AttackKind::Ranged || attack.range_increment == 0 {
        return Ok(None);
    }
    let increment = crate::rules::RangedRule::increment(distance_ft, attack.range_increment);
    let max = rules.ranged.max_for(attack.thrown);
    if increment > i64::from(max) {
        return Err(format!(
            "the target is {distance_ft} ft away, beyond `{}`'s range: {max} range increments of {} ft, the most a {} weapon has ({} ft)",
            attack.name,
            attack.range_increment,
            if attack.thrown {
                "thrown"
            } else {
                "projectile"
            },
            i64::from(max) * i64::from(attack.range_increment)
        ));
    }
    Ok(Some(RangeVerdict {
        distance_ft,
        increment_ft: attack.range_increment,
        increment,
        penalty: rules.ranged.per_increment * (increment - 1) as i32,
    }))
}

/// The allies of the attacker engaged in melee with the target, in file order: they are
/// enemies and either threatens the other (reach and line of effect); a helpless ally
/// does not count.
pub fn engaged_allies(
    scenario: &Scenario,
    field: &Battlefield,
    rules: &RuleSet,
    line: &PlanLine,
) -> Vec<CombatantId> {
    let attacker = scenario.combatant(line.attacker);
    let target = scenario.combatant(line.target);
    let to = field.space(line.target);
    scenario
        .combatant_ids()
        .zip(&scenario.combatants)
        .filter_map(|(i, ally)| {
            let counts = i != line.attacker
                && i != line.target
                && ally.side == attacker.side
                && ally.side != target.side;
            let from = field.space(i);
            (counts
                && !ally.is_helpless(rules)
                && (threatens(field, rules, ally, from, to)
                    || threatens(field, rules, target, to, from)))
            .then_some(i)
        })
        .collect()
}

/// The penalty for shooting at a target engaged with an ally, after Precise Shot.
pub fn into_melee_penalty(rules: &RuleSet, attacker: &Combatant, attack: &Attack) -> i32 {
    if attack.kind == AttackKind::Ranged && !attacker.precise_shot {
        rules.ranged.into_melee
    } else {
        0
    }
}

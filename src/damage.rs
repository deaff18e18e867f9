//! What a hit deals against one target, fixed when the plan is made (RULES.md §10): the
//! attack's extra dice, its precision dice where they apply, and the target's massive-
//! damage check. The engines only see the resulting [`AttackProfile`](crate::attack::AttackProfile)
//! numbers.

use crate::attack::MassiveCheck;
use crate::dice::Dice;
use crate::plan::{LineAttack, LineDefence};
use crate::rules::RuleSet;

/// Why a line's precision dice apply, as the plan folds them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrecisionContext {
    /// The attacker flanks the target (melee only).
    pub flanking: bool,
    /// The target is denied its Dex bonus against the attack, or flat-footed (Starfinder).
    pub denied_dex: bool,
    /// Map distance in feet; `None` without a map (the line is taken to be in range).
    pub distance_ft: Option<i64>,
    /// The target has concealment from the attack (a miss chance).
    pub concealed: bool,
}

/// Whether the attack's precision dice are rolled against this target: a coup de grace,
/// a flanked target, or one denied its Dex bonus, within the system's range for ranged
/// attacks and, where the system says so, without concealment; never against a creature
/// immune to them.
pub fn precision_applies(
    rules: &RuleSet,
    attack: &LineAttack,
    defence: &LineDefence,
    why: PrecisionContext,
) -> bool {
    let Some(rule) = rules.injury.precision else {
        return false;
    };
    if attack.precision.is_zero()
        || defence.immune_to_precision
        || (rule.crit_immune_ignores && defence.immune_to_crits)
    {
        return false;
    }
    if attack.coup_de_grace.is_some() {
        return true;
    }
    let in_range = attack.melee
        || match (rule.ranged_within_ft, why.distance_ft) {
            (Some(most), Some(distance)) => distance <= most,
            _ => true,
        };
    let seen_well = !(rule.concealment_blocks && why.concealed);
    in_range && seen_well && (why.flanking || why.denied_dex)
}

/// The dice a hit adds without multiplying them: the attack's extra damage, and its
/// precision dice when they apply.
pub fn unmultiplied_dice(attack: &LineAttack, precision: bool) -> Dice {
    if precision {
        attack.extra_damage.plus(&attack.precision)
    } else {
        attack.extra_damage.clone()
    }
}

/// A creature's massive-damage check in a system that has one, when its Con score is
/// known.
pub fn massive_check(rules: &RuleSet, con: Option<i64>, fort: i32) -> Option<MassiveCheck> {
    let rule = rules.injury.massive_damage?;
    Some(MassiveCheck {
        over: con?,
        fort,
        dc: rule.dc,
    })
}

//! Conditions as data: what each does to attack rolls and AC in one system.

/// How a defender's condition treats its Dex modifier (RULES.md §0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DexRule {
    Keep,
    /// A positive Dex modifier (and dodge bonuses) no longer count.
    LoseBonus,
    /// The Dex contribution becomes −5 ("Dex treated as 0").
    Minus5,
}

/// One condition's numbers in one system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Condition {
    pub name: &'static str,
    /// Added to the attack rolls of a creature with the condition: melee, ranged.
    pub attack: (i32, i32),
    /// Added to the AC of a creature with the condition, against melee, ranged attacks.
    pub ac: (i32, i32),
    pub dex: DexRule,
    /// Added to the creature's Dex modifier before its Dex rule applies (PF1 entangled
    /// and grappled: −4 Dex is −2), so that losing the Dex bonus drops only what is left.
    pub dex_change: i32,
    /// Added to attack rolls made against the creature: melee, ranged (SF helpless +4 melee).
    pub attacked: (i32, i32),
    /// What the creature's attacks do to its target's Dex (PF1 invisible: the target
    /// loses its Dex bonus).
    pub target_dex: DexRule,
    /// The creature is flat-footed without losing its Dex (Starfinder): it takes the
    /// system's [`RuleSet::flat_footed_ac`](super::RuleSet::flat_footed_ac) once, however
    /// many of its conditions make it flat-footed, and precision dice apply against it as
    /// against a creature denied its Dex bonus.
    pub flat_footed: bool,
    /// The creature's targets count as flat-footed against it (Starfinder, unseen).
    pub target_flat_footed: bool,
    /// The creature can be the target of a coup de grace.
    pub helpless: bool,
    /// The creature cannot attack with ranged weapons (crossbows excepted).
    pub no_ranged: bool,
    /// Conditions whose numbers this one replaces when both are listed (SF pinned).
    pub replaces: &'static [&'static str],
    /// Attacks against the creature face total concealment (invisible).
    pub unseen: bool,
    /// Every creature the creature attacks has total concealment (blinded).
    pub sightless: bool,
    /// The ranged `ac` entry does not apply when the attacker is adjacent (d20 Modern
    /// footnote 1: prone, sitting, kneeling).
    pub ranged_ac_needs_distance: bool,
}

impl Condition {
    /// A condition with no effect, to be filled in with struct update syntax.
    pub const NONE: Condition = Condition {
        name: "",
        attack: (0, 0),
        ac: (0, 0),
        dex: DexRule::Keep,
        dex_change: 0,
        attacked: (0, 0),
        target_dex: DexRule::Keep,
        flat_footed: false,
        target_flat_footed: false,
        helpless: false,
        no_ranged: false,
        replaces: &[],
        unseen: false,
        sightless: false,
        ranged_ac_needs_distance: false,
    };
}

/// The combined effect of a creature's conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConditionEffect {
    pub attack: i32,
    pub ac: i32,
    pub attacked: i32,
    pub dex: DexRule,
    /// The sum of the conditions' [`Condition::dex_change`].
    pub dex_change: i32,
    /// The ranged AC bonus of a posture (d20 Modern prone, sitting, kneeling) inside
    /// `ac`, which may instead raise cover by one degree (Ambiguity 15).
    pub posture_ac: i32,
    /// Flat-footed by a condition that keeps Dex (Starfinder).
    pub flat_footed: bool,
    pub helpless: bool,
    pub no_ranged: bool,
}

/// Adds the listed conditions for one kind of attack: different conditions add up, a
/// replaced one is dropped, and the harshest Dex rule wins. `adjacent` drops the ranged
/// AC entries that need distance.
pub fn combine(conditions: &[&Condition], melee: bool, adjacent: bool) -> ConditionEffect {
    let pick = |pair: (i32, i32)| if melee { pair.0 } else { pair.1 };
    let active = conditions.iter().filter(|c| {
        !conditions
            .iter()
            .any(|other| other.replaces.contains(&c.name))
    });
    let mut effect = ConditionEffect {
        attack: 0,
        ac: 0,
        attacked: 0,
        dex: DexRule::Keep,
        dex_change: 0,
        posture_ac: 0,
        flat_footed: false,
        helpless: false,
        no_ranged: false,
    };
    for c in active {
        effect.attack += pick(c.attack);
        if melee || !adjacent || !c.ranged_ac_needs_distance {
            effect.ac += pick(c.ac);
            if !melee && c.ranged_ac_needs_distance {
                effect.posture_ac += c.ac.1;
            }
        }
        effect.dex_change += c.dex_change;
        effect.attacked += pick(c.attacked);
        effect.dex = effect.dex.max(c.dex);
        effect.helpless |= c.helpless;
        effect.flat_footed |= c.flat_footed;
        effect.no_ranged |= c.no_ranged;
    }
    effect
}

/// The AC change a Dex rule makes for a creature whose `ac` includes `dex`, once its Dex
/// modifier has changed by `change`: a bonus lost is what is left of it, a penalty stays,
/// and "Dex treated as 0" is −5 whatever the modifier was.
pub fn dex_adjustment(rule: DexRule, dex: i32, change: i32) -> i32 {
    let now = dex + change;
    change
        + match rule {
            DexRule::Keep => 0,
            DexRule::LoseBonus => -now.max(0),
            DexRule::Minus5 => -now - 5,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dex_rules() {
        assert_eq!(dex_adjustment(DexRule::LoseBonus, 3, 0), -3);
        assert_eq!(dex_adjustment(DexRule::LoseBonus, -1, 0), 0);
        assert_eq!(dex_adjustment(DexRule::Minus5, 2, 0), -7);
        assert_eq!(dex_adjustment(DexRule::Minus5, 0, 0), -5);
    }

    /// PF1 entangled (−4 Dex: the modifier −2) with Dex +3: alone −2 AC; flat-footed too,
    /// the +1 left is lost, −3 in all (not −2 − 3); helpless, Dex counts as −5, −8 in all
    /// (not −2 − 8). With Dex +1 and flat-footed, the −1 left still counts: −2.
    #[test]
    fn a_dex_change_comes_before_the_dex_rule() {
        assert_eq!(dex_adjustment(DexRule::Keep, 3, -2), -2);
        assert_eq!(dex_adjustment(DexRule::LoseBonus, 3, -2), -3);
        assert_eq!(dex_adjustment(DexRule::Minus5, 3, -2), -8);
        assert_eq!(dex_adjustment(DexRule::LoseBonus, 1, -2), -2);
    }

    #[test]
    fn replaced_conditions_do_not_count() {
        let grappled = Condition {
            name: "grappled",
            ac: (-2, -2),
            ..Condition::NONE
        };
        let pinned = Condition {
            name: "pinned",
            ac: (-6, -6),
            replaces: &["grappled"],
            ..Condition::NONE
        };
        assert_eq!(combine(&[&grappled, &pinned], true, true).ac, -6);
        assert_eq!(combine(&[&grappled], true, true).ac, -2);
    }

    #[test]
    fn ranged_ac_that_needs_distance_is_dropped_next_to_the_attacker() {
        let prone = Condition {
            name: "prone",
            ac: (-4, 4),
            ranged_ac_needs_distance: true,
            ..Condition::NONE
        };
        assert_eq!(combine(&[&prone], false, false).ac, 4);
        assert_eq!(combine(&[&prone], false, true).ac, 0);
        assert_eq!(combine(&[&prone], true, true).ac, -4);
    }
}

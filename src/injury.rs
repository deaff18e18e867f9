//! What damage does to a target (RULES.md §9): its thresholds in damage taken, set from the
//! system's rules, and [`Target::take`], the one step both engines apply after every
//! outcome, so the exact and the simulated figures follow the same rules by construction.
//!
//! ```
//! use d20odds::{Target, Vitals};
//! use d20odds::SystemId;
//! // Starfinder: 10 Stamina, 12 HP and Resolve. Down once 22 damage is taken; a hit that
//! // leaves 12 or more past 0 HP kills.
//! let vitals = Vitals { hp: Some(12), con: None, stamina: 10, resolve: true };
//! let t = Target::for_system(SystemId::Starfinder.rules(), "envoy".into(), vitals);
//! assert_eq!(t.take(0, 25, false), (25, false));
//! assert_eq!(t.take(0, 34, false), (34, true));
//! assert_eq!(t.take(25, 11, false), (36, false), "11 past 0 HP is not its 12 HP");
//! ```

use crate::rules::{DeathRule, RuleSet};

/// A creature that is attacked, with its thresholds in damage taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `Name (T)`, as tables and reports name the creature.
    pub label: String,
    /// Down once damage taken reaches this (its hp; Starfinder: Stamina + HP); `None`
    /// never goes down.
    pub down_at: Option<i64>,
    /// Dead once damage taken reaches this; `None`: never from accumulated damage.
    pub dead_at: Option<i64>,
    /// Starfinder, a creature with Resolve: dies when one hit leaves at least this much
    /// damage past 0 HP (its maximum HP).
    pub overflow_kills: Option<i64>,
    /// d20 Modern: damage taken after a failed massive-damage save, at the least (−1 hp).
    pub dropped_to: Option<i64>,
    /// At exactly `down_at` it is disabled and still acts once (see [`Acting`]).
    pub disabled_at_zero: bool,
}

/// What a creature that is also attacked can do on its turn (RULES.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acting {
    /// Able to act: it makes all its attacks.
    Acts,
    /// Disabled (exactly 0 hp): one attack, then [`Target::after_disabled_action`].
    Disabled,
    /// Down or dead: no action.
    Down,
}

/// A [`Target`]'s thresholds in damage taken as plain numbers, where "never" is the
/// number no total reaches (`i64::MAX`, or `i64::MIN` for a floor): the rules of
/// [`Target::take`] and [`Target::acting`] are written here once, without a branch on
/// which thresholds the creature has, since both engines apply them at every attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    /// d20 Modern: damage taken after a failed massive-damage save, at the least.
    dropped_to: i64,
    /// Dead once damage taken reaches this.
    dead_at: i64,
    /// Starfinder, with Resolve: dies when one hit leaves this much past 0 HP.
    overflow_kills: i64,
    /// Damage taken at 0 hp (0 HP in Starfinder).
    zero: i64,
    /// No longer acts from this damage taken on ([`Target::out_at`]).
    out_at: i64,
    /// Disabled, still acting once, at exactly this damage taken.
    disabled_at: i64,
}

impl Thresholds {
    /// A creature never down nor dead, whatever it takes (what fills an engine's row of
    /// thresholds past the last target).
    pub const NEVER_DOWN: Thresholds = Thresholds {
        dropped_to: i64::MIN,
        dead_at: i64::MAX,
        overflow_kills: i64::MAX,
        zero: 0,
        out_at: i64::MAX,
        disabled_at: i64::MIN,
    };

    /// Damage taken and whether dead after `damage` more, with `taken` already taken;
    /// `dropped`: a failed massive-damage save.
    #[inline(always)]
    pub fn take(self, taken: i64, damage: i64, dropped: bool) -> (i64, bool) {
        let added = taken + damage;
        let after = if dropped {
            added.max(self.dropped_to)
        } else {
            added
        };
        let past_threshold = after >= self.dead_at;
        let overflow = after - taken.max(self.zero) >= self.overflow_kills;
        (after, past_threshold | overflow)
    }

    /// [`Target::after_disabled_action`]: the action costs 1 hp.
    #[inline(always)]
    pub fn after_disabled_action(self, taken: i64) -> (i64, bool) {
        self.take(taken, 1, false)
    }

    /// What it can do on its turn with `taken` damage taken, `dead` or not.
    #[inline(always)]
    pub fn acting(self, taken: i64, dead: bool) -> Acting {
        if dead || taken >= self.out_at {
            Acting::Down
        } else if taken == self.disabled_at {
            Acting::Disabled
        } else {
            Acting::Acts
        }
    }
}

/// The numbers of a combatant that decide when it goes down and dies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vitals {
    /// Hit points; `None` for a creature that is never downed by damage.
    pub hp: Option<i64>,
    /// Con score.
    pub con: Option<i64>,
    /// Starfinder Stamina Points, lost before Hit Points.
    pub stamina: i64,
    /// Starfinder: the creature has Resolve Points (a player character or a major NPC).
    pub resolve: bool,
}

impl Target {
    /// Pathfinder thresholds from hit points and an optional Con score: down at 0 hp,
    /// dead at −Con (at 0 without a Con score).
    pub fn new(label: String, hp: Option<i64>, con: Option<i64>) -> Target {
        Target {
            label,
            down_at: hp,
            dead_at: hp.map(|hp| hp + con.unwrap_or(0)),
            overflow_kills: None,
            dropped_to: None,
            disabled_at_zero: true,
        }
    }

    /// Thresholds by the system's rules.
    pub fn for_system(rules: &RuleSet, label: String, vitals: Vitals) -> Target {
        let injury = rules.injury;
        let hp = vitals.hp;
        let dropped_to = match (injury.massive_damage, vitals.con, hp) {
            (Some(massive), Some(_), Some(hp)) => Some(hp - massive.drop_to_hp),
            _ => None,
        };
        match injury.death {
            DeathRule::NegativeCon => Target::new(label, hp, vitals.con),
            DeathRule::NegativeFixed(below) => Target {
                label,
                down_at: hp,
                dead_at: hp.map(|hp| hp + below),
                overflow_kills: None,
                dropped_to,
                disabled_at_zero: injury.disabled_at_zero,
            },
            DeathRule::StaminaAndResolve => {
                let zero_hp = hp.map(|hp| hp + vitals.stamina);
                Target {
                    label,
                    down_at: zero_hp,
                    dead_at: zero_hp.filter(|_| !vitals.resolve),
                    overflow_kills: hp.filter(|_| vitals.resolve),
                    dropped_to,
                    disabled_at_zero: injury.disabled_at_zero,
                }
            }
        }
    }

    /// Damage taken and whether the target is dead after an outcome dealing `damage` to
    /// it with `taken` already taken; `dropped`: it failed a massive-damage save.
    #[inline(always)]
    pub fn take(&self, taken: i64, damage: i64, dropped: bool) -> (i64, bool) {
        self.thresholds().take(taken, damage, dropped)
    }

    /// What it can do on its turn with `taken` damage taken.
    pub fn acting(&self, taken: i64, dead: bool) -> Acting {
        self.thresholds().acting(taken, dead)
    }

    /// Its thresholds as plain numbers, for an engine's inner loop.
    #[inline(always)]
    pub fn thresholds(&self) -> Thresholds {
        let overflow = self.overflow_kills.filter(|_| self.down_at.is_some());
        Thresholds {
            dropped_to: self.dropped_to.unwrap_or(i64::MIN),
            dead_at: self.dead_at.unwrap_or(i64::MAX),
            overflow_kills: overflow.unwrap_or(i64::MAX),
            zero: self.down_at.unwrap_or(0),
            out_at: self.out_at().unwrap_or(i64::MAX),
            disabled_at: match self.disabled_at_zero {
                true => self.down_at.unwrap_or(i64::MIN),
                false => i64::MIN,
            },
        }
    }

    /// The damage taken from which it no longer acts ([`Acting::Down`], as
    /// [`Target::acting`] tells): past 0 hp where 0 hp disables, else at it; `None`: never
    /// down.
    pub fn out_at(&self) -> Option<i64> {
        (self.down_at).map(|at| at.saturating_add(i64::from(self.disabled_at_zero)))
    }

    /// Whether some damage taken leaves it down and alive (unconscious, so helpless):
    /// not a creature dead once down, nor one never down.
    pub fn can_lie_helpless(&self) -> bool {
        let Some(out) = self.out_at() else {
            return false;
        };
        self.dead_at.is_none_or(|dead| out < dead)
    }

    /// Damage taken and whether it is dead after the action a disabled creature took:
    /// it costs 1 hp (RULES.md §9), which leaves it dying.
    pub fn after_disabled_action(&self, taken: i64) -> (i64, bool) {
        self.thresholds().after_disabled_action(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::SystemId;

    fn target(system: SystemId, vitals: Vitals) -> Target {
        Target::for_system(system.rules(), "T".into(), vitals)
    }

    const VITALS: Vitals = Vitals {
        hp: Some(20),
        con: Some(12),
        stamina: 0,
        resolve: false,
    };

    /// The row filler is the thresholds of a creature without hit points: it takes
    /// 1,000,000 damage and acts on.
    #[test]
    fn never_down_is_a_creature_without_hit_points() {
        let none = Target::new("T".into(), None, None);
        assert_eq!(none.thresholds(), Thresholds::NEVER_DOWN);
        let never = Thresholds::NEVER_DOWN;
        assert_eq!(never.take(0, 1_000_000, true), (1_000_000, false));
        assert_eq!(never.acting(1_000_000, false), Acting::Acts);
    }

    #[test]
    fn thresholds_per_system() {
        let pf1 = target(SystemId::Pf1, VITALS);
        assert_eq!((pf1.down_at, pf1.dead_at), (Some(20), Some(32)));
        let d20m = target(SystemId::D20Modern, VITALS);
        assert_eq!((d20m.down_at, d20m.dead_at), (Some(20), Some(30)));
        assert_eq!(d20m.dropped_to, Some(21), "-1 hp");
        let no_con = target(
            SystemId::D20Modern,
            Vitals {
                con: None,
                ..VITALS
            },
        );
        assert_eq!((no_con.dead_at, no_con.dropped_to), (Some(30), None));
        let monster = target(
            SystemId::Starfinder,
            Vitals {
                con: None,
                stamina: 5,
                ..VITALS
            },
        );
        assert_eq!((monster.down_at, monster.dead_at), (Some(25), Some(25)));
    }

    /// 20 hp, Con 12: able to act below 20 damage, disabled at exactly 20 (pf1 and d20
    /// Modern; the action then costs 1 hp: 21 taken, dying, alive), down past it. Starfinder
    /// has no disabled state: down at exactly 0 HP.
    #[test]
    fn who_acts_by_damage_taken() {
        let pf1 = target(SystemId::Pf1, VITALS);
        assert_eq!(pf1.acting(19, false), Acting::Acts);
        assert_eq!(pf1.acting(20, false), Acting::Disabled);
        assert_eq!(pf1.after_disabled_action(20), (21, false));
        assert_eq!(pf1.acting(21, false), Acting::Down);
        assert_eq!(pf1.acting(0, true), Acting::Down);
        let d20m = target(SystemId::D20Modern, VITALS);
        assert_eq!(d20m.acting(20, false), Acting::Disabled);
        let sf = target(SystemId::Starfinder, VITALS);
        assert_eq!(sf.acting(19, false), Acting::Acts);
        assert_eq!(sf.acting(20, false), Acting::Down);
        let construct = target(
            SystemId::Pf1,
            Vitals {
                con: None,
                ..VITALS
            },
        );
        assert_eq!(
            construct.take(0, 20, false),
            (20, true),
            "destroyed at 0 hp"
        );
    }

    #[test]
    fn a_drop_never_lowers_damage_taken() {
        let d20m = target(SystemId::D20Modern, VITALS);
        assert_eq!(d20m.take(0, 13, true), (21, false));
        assert_eq!(d20m.take(10, 15, true), (25, false));
        assert_eq!(d20m.take(0, 13, false), (13, false));
        assert_eq!(d20m.take(21, 9, false), (30, true));
    }

    #[test]
    fn starfinder_overflow_counts_one_hit_past_zero() {
        let pc = target(
            SystemId::Starfinder,
            Vitals {
                con: None,
                stamina: 10,
                resolve: true,
                ..VITALS
            },
        );
        assert_eq!(pc.take(0, 49, false), (49, false));
        assert_eq!(pc.take(0, 50, false), (50, true));
        assert_eq!(pc.take(35, 19, false), (54, false));
        assert_eq!(pc.take(35, 20, false), (55, true), "already at 0 HP");
    }
}

//! One attack (SPEC §5): its numbers, its exact outcome distribution, and the same attack
//! rolled die by die.
//!
//! An attack's result never depends on the target's state, only on the numbers fixed by the
//! plan, so its whole distribution of outcomes is known in advance. The engine can draw from
//! that distribution in one step (see [`crate::engine`]) or roll it out as a table would;
//! both are checked against the exact values computed here.
//!
//! ```
//! use d20odds::AttackProfile;
//! let attack = AttackProfile::pf1(7, 18, "1d8+3".parse().unwrap(), "19-20/x2".parse().unwrap(), 20);
//! let outcomes = attack.outcomes().unwrap();
//! assert!((outcomes.p_hit() - 0.4).abs() < 1e-12);
//! assert!((outcomes.p_crit() - 0.04).abs() < 1e-12);
//! assert!((outcomes.mean_damage() - 3.3).abs() < 1e-12);
//! ```

mod layout;
mod outcomes;
mod roll;
#[cfg(test)]
mod tests;

pub(crate) use layout::OutcomeEffect;
pub use layout::OutcomeLayout;
pub use outcomes::OutcomeTable;

use crate::dice::{CritSpec, Dice};
use crate::rules::{CdgDc, CritRule, MissChanceTiming, RuleSet};

/// Largest damage expression (in elementary additions) the exact distribution is computed
/// for; beyond it the exact columns stay empty and the engine rolls dice.
pub const MAX_EXACT_DICE_COST: u64 = 20_000_000;

/// The numbers of one attack roll once every modifier is known.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackProfile {
    /// Attack bonus with every modifier applied.
    pub bonus: i32,
    /// Armor class with every modifier applied.
    pub ac: i32,
    /// Weapon damage: multiplied on a critical hit.
    pub damage: Dice,
    /// Dice added to every hit and never multiplied (precision and extra damage dice).
    pub extra: Dice,
    /// The target's damage reduction, subtracted from each hit's total (never below 0).
    pub dr: i64,
    /// d20 Modern massive damage: the target's save against a single large hit.
    pub massive: Option<MassiveCheck>,
    /// Threat range and multiplier of a critical hit.
    pub crit: CritSpec,
    /// False against creatures immune to critical hits.
    pub crits_possible: bool,
    /// How the system confirms a critical hit.
    pub crit_rule: CritRule,
    /// Miss chance in percent (0 to 100).
    pub miss_chance: u8,
    /// Whether the miss chance is rolled before or after the attack roll.
    pub miss_chance_timing: MissChanceTiming,
    /// Damage a hit deals at the least, whatever the penalties.
    pub min_damage: i64,
    /// An attack roll, a coup de grace or an area effect's save.
    pub resolution: Resolution,
    /// Against a target with total concealment whose square is not pinpointed, the
    /// attacker strikes one of `candidates` squares, `right` of which are the target's;
    /// a wrong square is an automatic miss, before any roll (RULES.md §3.6).
    pub guess: SquareGuess,
    /// A creature in the line gives the cover and may be struck instead (d20 Modern).
    pub cover_strike: Option<CoverStrike>,
    /// The target is grappling with another creature, and a ranged attack strikes one of
    /// the two at random (d20 Modern): the same attack against the other one, whose
    /// outcomes are "struck" outcomes. The plan never gives such an attack a
    /// `cover_strike`, so "struck" always means one creature.
    pub grappling_partner: Option<Box<AttackProfile>>,
}

/// A massive-damage check (d20 Modern, RULES.md §9): an outcome dealing more than `over`
/// forces a Fort save against `dc`; a failure drops the creature to −1 hp, which is an
/// outcome of the attack ("dropped"), so the attack still depends on its profile alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MassiveCheck {
    /// The creature's Con score.
    pub over: i64,
    pub fort: i32,
    pub dc: i32,
}

impl MassiveCheck {
    /// Probability that an outcome dealing `damage` drops the creature.
    fn p_drops(self, damage: i64) -> f64 {
        if damage > self.over {
            p_save_fails(self.fort, self.dc)
        } else {
            0.0
        }
    }
}

/// The odds of attacking the right square: `right` of `candidates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SquareGuess {
    /// Squares that hold the target.
    pub right: u32,
    /// Squares the attacker chooses among (at least `right`).
    pub candidates: u32,
}

impl SquareGuess {
    /// The square is known.
    pub const KNOWN: SquareGuess = SquareGuess {
        right: 1,
        candidates: 1,
    };

    fn probability(self) -> f64 {
        f64::from(self.right) / f64::from(self.candidates.max(1))
    }
}

/// How an attack resolves: an attack roll, a coup de grace's automatic critical hit
/// followed by a save-or-die that only the defender's Fort bonus affects, or an area
/// effect's saving throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// An attack roll against AC.
    Roll,
    /// A coup de grace: an automatic critical hit, then a Fort save or die.
    CoupDeGrace {
        /// The defender's Fort save bonus.
        fort: i32,
        /// What the save-or-die's DC counts.
        dc: CdgDc,
    },
    /// Damage is rolled, then the defender saves; each result deals a portion of it.
    Save {
        /// The defender's save bonus, cover's Reflex bonus included.
        bonus: i32,
        /// The DC the save must reach.
        dc: i32,
        /// What a failed save deals.
        on_failure: Portion,
        /// What a successful save deals.
        on_success: Portion,
    },
}

/// How much of the rolled damage a save's result deals (evasion turns a half into
/// nothing, improved evasion a full into a half).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Portion {
    /// All of it.
    Full,
    /// Half, rounded down.
    Half,
    /// None of it.
    Nothing,
}

impl Portion {
    /// The damage dealt out of `damage` rolled.
    pub fn of(self, damage: i64) -> i64 {
        match self {
            Portion::Full => damage,
            Portion::Half => damage.div_euclid(2),
            Portion::Nothing => 0,
        }
    }

    /// The word for it in experiment files and tables.
    pub fn key(self) -> &'static str {
        match self {
            Portion::Full => "full",
            Portion::Half => "half",
            Portion::Nothing => "none",
        }
    }
}

/// A creature in the line gives the target cover and can be hit instead (d20 Modern,
/// RULES.md §3.1 "striking the cover").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoverStrike {
    /// The AC the cover adds to the target's.
    pub cover_ac: i32,
    /// The covering creature's Defense.
    pub defense: i32,
    /// Its positive Dex modifier: a roll that beats its Defense without it hits the
    /// original target after all.
    pub dex_bonus: i32,
    /// Its damage reduction against this attack.
    pub dr: i64,
    /// Its massive-damage check.
    pub massive: Option<MassiveCheck>,
}

/// What one attack did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Miss,
    Hit(i64),
    Crit(i64),
    /// A critical hit after which the defender failed its save and died.
    Slain(i64),
    /// The defender made its save and still took this much.
    Saved(i64),
    /// The attack struck another creature instead of the target (the one giving cover,
    /// or the target's grappling partner), for this much.
    Struck(i64),
    /// A hit, a critical hit, a saved area effect or a strike on another creature after
    /// which the creature that took the damage failed its massive-damage save (dropped to
    /// −1 hp).
    HitDropped(i64),
    CritDropped(i64),
    SavedDropped(i64),
    StruckDropped(i64),
}

impl Outcome {
    /// The damage of the outcome, whoever takes it.
    pub fn damage(self) -> i64 {
        match self {
            Outcome::Miss => 0,
            Outcome::Hit(d)
            | Outcome::Crit(d)
            | Outcome::Slain(d)
            | Outcome::Saved(d)
            | Outcome::Struck(d)
            | Outcome::HitDropped(d)
            | Outcome::CritDropped(d)
            | Outcome::SavedDropped(d)
            | Outcome::StruckDropped(d) => d,
        }
    }

    /// The same damage dealt to the creature struck instead of the target: a hit or
    /// critical hit on a grappling partner, dropped or not.
    fn struck(self) -> Outcome {
        match self {
            Outcome::Hit(d) | Outcome::Crit(d) | Outcome::Struck(d) => Outcome::Struck(d),
            Outcome::HitDropped(d) | Outcome::CritDropped(d) | Outcome::StruckDropped(d) => {
                Outcome::StruckDropped(d)
            }
            other => other,
        }
    }

    /// The same outcome with a failed massive-damage save; `None` where no save is made
    /// (a miss; a slain target is dead already).
    fn dropped(self) -> Option<Outcome> {
        match self {
            Outcome::Hit(d) => Some(Outcome::HitDropped(d)),
            Outcome::Crit(d) => Some(Outcome::CritDropped(d)),
            Outcome::Saved(d) => Some(Outcome::SavedDropped(d)),
            Outcome::Struck(d) => Some(Outcome::StruckDropped(d)),
            _ => None,
        }
    }
}

/// What a natural roll that misses the target does when a creature gives it cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CoverRoll {
    Miss,
    Struck,
    /// Only the covering creature's Dex saved it: the target is hit after all.
    TargetHit,
}

impl AttackProfile {
    /// A profile with a rule set's resolution rules.
    pub fn new(rules: &RuleSet, bonus: i32, ac: i32, damage: Dice, crit: CritSpec) -> Self {
        Self {
            bonus,
            ac,
            damage,
            extra: Dice::zero(),
            dr: 0,
            massive: None,
            crit: CritSpec {
                multiplier: rules.fixed_crit_multiplier.unwrap_or(crit.multiplier),
                ..crit
            },
            crits_possible: true,
            crit_rule: rules.crit_rule,
            miss_chance: 0,
            miss_chance_timing: rules.miss_chance_timing,
            min_damage: rules.min_damage,
            resolution: Resolution::Roll,
            guess: SquareGuess::KNOWN,
            cover_strike: None,
            grappling_partner: None,
        }
    }

    /// A Pathfinder 1e profile with a miss chance: a shorthand for examples and tests.
    pub fn pf1(bonus: i32, ac: i32, damage: Dice, crit: CritSpec, miss_chance: u8) -> Self {
        let rules = crate::rules::SystemId::Pf1.rules();
        Self {
            miss_chance,
            ..Self::new(rules, bonus, ac, damage, crit)
        }
    }

    /// The dice a hit rolls: weapon and extra dice.
    pub fn hit_dice(&self) -> Dice {
        self.damage.plus(&self.extra)
    }

    /// The dice a critical hit rolls: the weapon's `multiplier` times, the extra dice once.
    pub fn crit_dice(&self) -> Dice {
        self.damage.repeated(self.crit.multiplier).plus(&self.extra)
    }

    /// What a rolled total deals: at least the system's minimum (the "minimum 1 on a
    /// hit" belongs to the roll), then damage reduction, which may leave 0 (RULES.md §10).
    fn dealt(&self, rolled: i64, dr: i64) -> i64 {
        (rolled.max(self.min_damage) - dr).max(0)
    }

    /// The damage reduction of the creature giving cover.
    fn dr_of_cover(&self) -> i64 {
        self.cover_strike.map_or(0, |c| c.dr)
    }

    /// The massive-damage check the creature damaged by an outcome makes, if any.
    fn massive_for(&self, outcome: Outcome) -> Option<MassiveCheck> {
        match outcome {
            Outcome::Hit(_) | Outcome::Crit(_) | Outcome::Saved(_) => self.massive,
            Outcome::Struck(_) => self.cover_strike.and_then(|c| c.massive),
            _ => None,
        }
    }

    /// Whether a natural roll hits: 1 always misses, 20 always hits.
    fn roll_hits(&self, natural: i32) -> bool {
        natural == 20 || (natural != 1 && natural + self.bonus >= self.ac)
    }

    /// How many of the 20 faces hit.
    fn hitting_faces(&self) -> i32 {
        (1..=20).filter(|&n| self.roll_hits(n)).count() as i32
    }

    /// Whether a natural roll that hits threatens (confirmation rule) or is (natural-20
    /// rule) a critical hit.
    fn face_threatens(&self, natural: i32) -> bool {
        self.crits_possible
            && match self.crit_rule {
                CritRule::ConfirmationRoll => natural >= i32::from(self.crit.threat_min),
                CritRule::NaturalTwentyReachingAc => natural == 20 && 20 + self.bonus >= self.ac,
            }
    }

    /// How many of the 20 faces hit and threaten a critical hit.
    fn threatening_faces(&self) -> i32 {
        (1..=20)
            .filter(|&n| self.roll_hits(n) && self.face_threatens(n))
            .count() as i32
    }

    /// A natural roll that missed the target: did the cover take it?
    fn cover_roll(&self, natural: i32) -> CoverRoll {
        let Some(strike) = self.cover_strike else {
            return CoverRoll::Miss;
        };
        let total = natural + self.bonus;
        if natural == 1 || total < self.ac - strike.cover_ac {
            CoverRoll::Miss
        } else if total >= strike.defense {
            CoverRoll::Struck
        } else if total >= strike.defense - strike.dex_bonus {
            CoverRoll::TargetHit
        } else {
            CoverRoll::Miss
        }
    }

    /// How many of the 20 faces give each cover result.
    fn cover_faces(&self, result: CoverRoll) -> i32 {
        (1..=20)
            .filter(|&n| !self.roll_hits(n) && self.cover_roll(n) == result)
            .count() as i32
    }
}

/// A saving throw: a natural 20 always succeeds, a natural 1 always fails (RULES.md §6.2).
fn save_succeeds(natural: i32, bonus: i32, dc: i32) -> bool {
    natural == 20 || (natural != 1 && natural + bonus >= dc)
}

/// What an area effect's rolled damage does after the save: a failure deals its portion
/// as a hit, a success its portion as saved damage, or nothing at all.
fn save_outcome(saved: bool, on_failure: Portion, on_success: Portion, damage: i64) -> Outcome {
    match (saved, on_success) {
        (false, _) => Outcome::Hit(on_failure.of(damage)),
        (true, Portion::Nothing) => Outcome::Miss,
        (true, portion) => Outcome::Saved(portion.of(damage)),
    }
}

/// Probability that a save with `bonus` against `dc` fails.
fn p_save_fails(bonus: i32, dc: i32) -> f64 {
    let failing = (1..=20).filter(|&n| !save_succeeds(n, bonus, dc)).count();
    failing as f64 / 20.0
}

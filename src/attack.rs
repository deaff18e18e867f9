//! One attack (SPEC §5): its numbers, its exact outcome distribution, and the same attack
//! rolled die by die.
//!
//! An attack's result never depends on the target's state, only on the numbers fixed by the
//! plan, so its whole distribution of outcomes is known in advance. The engine can draw from
//! that distribution in one step (see [`crate::engine`]) or roll it out as a table would;
//! both are checked against the exact values computed here.
//!
//! ```
//! use d20odds::attack::AttackProfile;
//! let attack = AttackProfile::pf1(7, 18, "1d8+3".parse().unwrap(), "19-20/x2".parse().unwrap(), 20);
//! let outcomes = attack.outcomes().unwrap();
//! assert!((outcomes.p_hit() - 0.4).abs() < 1e-12);
//! assert!((outcomes.p_crit() - 0.04).abs() < 1e-12);
//! assert!((outcomes.mean_damage() - 3.3).abs() < 1e-12);
//! ```

use rand::RngExt;

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
    pub crit: CritSpec,
    /// False against creatures immune to critical hits.
    pub crits_possible: bool,
    pub crit_rule: CritRule,
    /// Miss chance in percent (0 to 100).
    pub miss_chance: u8,
    pub miss_chance_timing: MissChanceTiming,
    pub min_damage: i64,
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
    pub right: u32,
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
    Roll,
    CoupDeGrace {
        /// The defender's Fort save bonus.
        fort: i32,
        dc: CdgDc,
    },
    /// Damage is rolled, then the defender saves; each result deals a portion of it.
    Save {
        /// The defender's save bonus, cover's Reflex bonus included.
        bonus: i32,
        dc: i32,
        on_failure: Portion,
        on_success: Portion,
    },
}

/// How much of the rolled damage a save's result deals (evasion turns a half into
/// nothing, improved evasion a full into a half).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Portion {
    Full,
    /// Half, rounded down.
    Half,
    Nothing,
}

impl Portion {
    pub fn of(self, damage: i64) -> i64 {
        match self {
            Portion::Full => damage,
            Portion::Half => damage.div_euclid(2),
            Portion::Nothing => 0,
        }
    }

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

    /// Where each outcome is counted; cheap, needs no distribution.
    pub fn layout(&self) -> OutcomeLayout {
        let range = |dice: &Dice, portion: Portion, dr: i64| {
            let low = portion.of(self.dealt(dice.min(), dr));
            let high = portion.of(self.dealt(dice.max(), dr));
            Section {
                min: low,
                len: (high - low + 1) as usize,
            }
        };
        let mut sections = [Section::EMPTY; SECTIONS];
        match self.resolution {
            Resolution::Roll | Resolution::CoupDeGrace { .. } => {
                sections[HIT] = range(&self.hit_dice(), Portion::Full, self.dr);
                sections[CRIT] = range(&self.crit_dice(), Portion::Full, self.dr);
                if self.cover_strike.is_some() {
                    sections[STRUCK] = range(&self.hit_dice(), Portion::Full, self.dr_of_cover());
                }
                if matches!(self.resolution, Resolution::CoupDeGrace { .. }) && self.crits_possible
                {
                    sections[SLAIN] = sections[CRIT];
                }
            }
            Resolution::Save {
                on_failure,
                on_success,
                ..
            } => {
                sections[HIT] = range(&self.damage, on_failure, 0);
                if on_success != Portion::Nothing {
                    sections[SAVED] = range(&self.damage, on_success, 0);
                }
            }
        }
        if self.massive.is_some() {
            for (kind, dropped) in [
                (HIT, HIT_DROPPED),
                (CRIT, CRIT_DROPPED),
                (SAVED, SAVED_DROPPED),
            ] {
                sections[dropped] = sections[kind];
            }
        }
        if self.cover_strike.is_some_and(|c| c.massive.is_some()) {
            sections[STRUCK_DROPPED] = sections[STRUCK];
        }
        if let Some(partner) = &self.grappling_partner {
            let theirs = partner.layout().sections;
            sections[STRUCK] = theirs[HIT].union(theirs[CRIT]);
            sections[STRUCK_DROPPED] = theirs[HIT_DROPPED].union(theirs[CRIT_DROPPED]);
        }
        OutcomeLayout { sections }
    }

    /// Against a grappling target: half of the attacks strike it, as if it grappled no
    /// one, and half strike its partner, each outcome of which becomes a "struck" one.
    fn grapple_outcomes(&self, partner: &AttackProfile) -> Option<OutcomeTable> {
        let alone = AttackProfile {
            grappling_partner: None,
            ..self.clone()
        };
        let layout = self.layout();
        let mut table = OutcomeTable {
            layout,
            probs: vec![0.0; layout.len()],
        };
        for (own, struck) in [(alone.outcomes()?, false), (partner.outcomes()?, true)] {
            for (i, &p) in own.probs.iter().enumerate() {
                let outcome = own.layout.outcome(i);
                table.add(if struck { outcome.struck() } else { outcome }, p / 2.0);
            }
        }
        Some(table)
    }

    /// The exact outcome distribution, or `None` when the damage expression is too large
    /// to convolve (see [`MAX_EXACT_DICE_COST`]).
    pub fn outcomes(&self) -> Option<OutcomeTable> {
        if let Some(partner) = &self.grappling_partner {
            return self.grapple_outcomes(partner);
        }
        let crit_dice = self.crit_dice();
        if crit_dice.distribution_cost() > MAX_EXACT_DICE_COST {
            return None;
        }
        let layout = self.layout();
        let mut table = OutcomeTable {
            layout,
            probs: vec![0.0; layout.len()],
        };
        let dealt = |dice: &Dice, dr: i64| {
            dice.distribution()
                .clamped_below(self.min_damage)
                .reduced_by(dr)
        };
        let hit = dealt(&self.hit_dice(), self.dr);
        match self.resolution {
            Resolution::CoupDeGrace { fort, dc } => {
                let crit = dealt(&crit_dice, self.dr);
                if self.crits_possible {
                    for (d, p) in crit.iter() {
                        let fails = p_save_fails(fort, dc.value(d));
                        table.add(Outcome::Crit(d), p * (1.0 - fails));
                        table.add(Outcome::Slain(d), p * fails);
                    }
                } else {
                    for (d, p) in hit.iter() {
                        table.add(Outcome::Hit(d), p);
                    }
                }
            }
            Resolution::Save {
                bonus,
                dc,
                on_failure,
                on_success,
            } => {
                let fails = p_save_fails(bonus, dc);
                let hit = dealt(&self.damage, 0);
                for (d, p) in hit.iter() {
                    table.add(save_outcome(false, on_failure, on_success, d), p * fails);
                    table.add(
                        save_outcome(true, on_failure, on_success, d),
                        p * (1.0 - fails),
                    );
                }
            }
            Resolution::Roll => {
                let crit = dealt(&crit_dice, self.dr);
                let struck = dealt(&self.hit_dice(), self.dr_of_cover());
                let guessed = self.guess.probability();
                let concealed = f64::from(self.miss_chance) / 100.0;
                let keep = (1.0 - concealed) * guessed;
                let faces = |n: i32| f64::from(n) / 20.0;
                let p_roll_hit =
                    faces(self.hitting_faces() + self.cover_faces(CoverRoll::TargetHit));
                let p_threat = faces(self.threatening_faces());
                let p_crit = match self.crit_rule {
                    CritRule::ConfirmationRoll => p_threat * faces(self.hitting_faces()),
                    CritRule::NaturalTwentyReachingAc => p_threat,
                } * keep;
                let p_hit = p_roll_hit * keep - p_crit;
                let p_struck = faces(self.cover_faces(CoverRoll::Struck))
                    * guessed
                    * match self.miss_chance_timing {
                        MissChanceTiming::BeforeAttack => 1.0 - concealed,
                        MissChanceTiming::AfterHit => 1.0,
                    };
                for (d, p) in hit.iter() {
                    table.add(Outcome::Hit(d), p * p_hit);
                }
                if p_struck > 0.0 {
                    for (d, p) in struck.iter() {
                        table.add(Outcome::Struck(d), p * p_struck);
                    }
                }
                for (d, p) in crit.iter() {
                    table.add(Outcome::Crit(d), p * p_crit);
                }
            }
        }
        table.split_dropped(self);
        table.probs[0] = (1.0 - table.probs[1..].iter().sum::<f64>()).max(0.0);
        Some(table)
    }

    /// One attack rolled as at the table, in the system's order: which of a grappling pair
    /// it strikes, d% (before or after the attack roll), d20, confirmation d20, damage
    /// dice; then the massive-damage save of the creature it damaged, if it must make one.
    pub fn roll<R: RngExt + ?Sized>(&self, rng: &mut R) -> Outcome {
        if let Some(partner) = &self.grappling_partner
            && rng.random_bool(0.5)
        {
            return partner.roll(rng).struck();
        }
        let outcome = self.roll_unchecked(rng);
        match (self.massive_for(outcome), outcome.dropped()) {
            (Some(check), Some(dropped))
                if check.over < outcome.damage()
                    && !save_succeeds(rng.random_range(1..=20), check.fort, check.dc) =>
            {
                dropped
            }
            _ => outcome,
        }
    }

    /// The attack's rolls before any massive-damage save.
    fn roll_unchecked<R: RngExt + ?Sized>(&self, rng: &mut R) -> Outcome {
        let d20 = |rng: &mut R| rng.random_range(1..=20);
        match self.resolution {
            Resolution::Roll => {}
            Resolution::CoupDeGrace { fort, dc } => {
                if !self.crits_possible {
                    return Outcome::Hit(self.roll_damage(rng));
                }
                let damage = self.roll_crit_damage(rng);
                return if save_succeeds(d20(rng), fort, dc.value(damage)) {
                    Outcome::Crit(damage)
                } else {
                    Outcome::Slain(damage)
                };
            }
            Resolution::Save {
                bonus,
                dc,
                on_failure,
                on_success,
            } => {
                let damage = self.damage.sample(rng).max(self.min_damage);
                let saved = save_succeeds(d20(rng), bonus, dc);
                return save_outcome(saved, on_failure, on_success, damage);
            }
        }
        if self.guess.right < self.guess.candidates
            && rng.random_range(0..self.guess.candidates) >= self.guess.right
        {
            return Outcome::Miss;
        }
        let concealed =
            |rng: &mut R| self.miss_chance > 0 && rng.random_range(1..=100u8) <= self.miss_chance;
        if self.miss_chance_timing == MissChanceTiming::BeforeAttack && concealed(rng) {
            return Outcome::Miss;
        }
        let natural = d20(rng);
        let crit = if self.roll_hits(natural) {
            self.face_threatens(natural)
                && match self.crit_rule {
                    CritRule::ConfirmationRoll => self.roll_hits(d20(rng)),
                    CritRule::NaturalTwentyReachingAc => true,
                }
        } else {
            match self.cover_roll(natural) {
                CoverRoll::Miss => return Outcome::Miss,
                CoverRoll::Struck => {
                    let rolled = self.hit_dice().sample(rng);
                    return Outcome::Struck(self.dealt(rolled, self.dr_of_cover()));
                }
                CoverRoll::TargetHit => false,
            }
        };
        if self.miss_chance_timing == MissChanceTiming::AfterHit && concealed(rng) {
            return Outcome::Miss;
        }
        if crit {
            Outcome::Crit(self.roll_crit_damage(rng))
        } else {
            Outcome::Hit(self.roll_damage(rng))
        }
    }

    fn roll_damage<R: RngExt + ?Sized>(&self, rng: &mut R) -> i64 {
        self.dealt(self.hit_dice().sample(rng), self.dr)
    }

    /// The weapon dice `multiplier` times, then the extra dice once.
    fn roll_crit_damage<R: RngExt + ?Sized>(&self, rng: &mut R) -> i64 {
        let weapon: i64 = (0..self.crit.multiplier)
            .map(|_| self.damage.sample(rng))
            .sum();
        self.dealt(weapon + self.extra.sample(rng), self.dr)
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

/// One kind of outcome's damage values: `len` values from `min`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Section {
    min: i64,
    len: usize,
}

impl Section {
    const EMPTY: Section = Section { min: 0, len: 0 };

    /// The smallest section holding both.
    fn union(self, other: Section) -> Section {
        match (self.len, other.len) {
            (0, _) => other,
            (_, 0) => self,
            _ => {
                let min = self.min.min(other.min);
                let end = (self.min + self.len as i64).max(other.min + other.len as i64);
                Section {
                    min,
                    len: (end - min) as usize,
                }
            }
        }
    }
}

const HIT: usize = 0;
const CRIT: usize = 1;
const SLAIN: usize = 2;
const SAVED: usize = 3;
const STRUCK: usize = 4;
const HIT_DROPPED: usize = 5;
const CRIT_DROPPED: usize = 6;
const SAVED_DROPPED: usize = 7;
const STRUCK_DROPPED: usize = 8;
const SECTIONS: usize = 9;

/// Where each outcome sits in a flat list (miss, then a section of damage values for each
/// of hit, crit, crit that also slew, saved, another creature struck, and the four with a
/// failed massive-damage save), so engines can count outcomes by index without knowing their
/// probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutcomeLayout {
    sections: [Section; SECTIONS],
}

impl OutcomeLayout {
    /// Number of distinct outcomes.
    pub fn len(&self) -> usize {
        1 + self.sections.iter().map(|s| s.len).sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    fn start(&self, kind: usize) -> usize {
        1 + self.sections[..kind].iter().map(|s| s.len).sum::<usize>()
    }

    /// The section and damage of a flat index (`None` for the miss).
    fn locate(&self, index: usize) -> Option<(usize, i64)> {
        let mut start = 1;
        for (kind, s) in self.sections.iter().enumerate() {
            if index < start + s.len && index >= start {
                return Some((kind, s.min + (index - start) as i64));
            }
            start += s.len;
        }
        None
    }

    fn kind(&self, index: usize) -> Option<usize> {
        self.locate(index).map(|(kind, _)| kind)
    }

    /// The flat index of an outcome. Damage must lie within the profile's range.
    pub fn index(&self, outcome: Outcome) -> usize {
        let (kind, d) = match outcome {
            Outcome::Miss => return 0,
            Outcome::Hit(d) => (HIT, d),
            Outcome::Crit(d) => (CRIT, d),
            Outcome::Slain(d) => (SLAIN, d),
            Outcome::Saved(d) => (SAVED, d),
            Outcome::Struck(d) => (STRUCK, d),
            Outcome::HitDropped(d) => (HIT_DROPPED, d),
            Outcome::CritDropped(d) => (CRIT_DROPPED, d),
            Outcome::SavedDropped(d) => (SAVED_DROPPED, d),
            Outcome::StruckDropped(d) => (STRUCK_DROPPED, d),
        };
        self.start(kind) + (d - self.sections[kind].min) as usize
    }

    /// The outcome at a flat index.
    pub fn outcome(&self, index: usize) -> Outcome {
        match self.locate(index) {
            None => Outcome::Miss,
            Some((HIT, d)) => Outcome::Hit(d),
            Some((CRIT, d)) => Outcome::Crit(d),
            Some((SLAIN, d)) => Outcome::Slain(d),
            Some((SAVED, d)) => Outcome::Saved(d),
            Some((STRUCK, d)) => Outcome::Struck(d),
            Some((HIT_DROPPED, d)) => Outcome::HitDropped(d),
            Some((CRIT_DROPPED, d)) => Outcome::CritDropped(d),
            Some((SAVED_DROPPED, d)) => Outcome::SavedDropped(d),
            Some((_, d)) => Outcome::StruckDropped(d),
        }
    }

    /// Damage the target takes from the outcome at an index.
    pub fn damage(&self, index: usize) -> i64 {
        match self.locate(index) {
            Some((kind, d)) if kind != STRUCK && kind != STRUCK_DROPPED => d,
            _ => 0,
        }
    }

    /// Damage the creature struck instead takes from the outcome at an index.
    pub fn struck_damage(&self, index: usize) -> i64 {
        match self.locate(index) {
            Some((STRUCK | STRUCK_DROPPED, d)) => d,
            _ => 0,
        }
    }

    /// The target failed a massive-damage save: it drops to −1 hp unless lower already.
    pub fn drops(&self, index: usize) -> bool {
        matches!(
            self.kind(index),
            Some(HIT_DROPPED | CRIT_DROPPED | SAVED_DROPPED)
        )
    }

    /// The creature giving cover failed a massive-damage save.
    pub fn struck_drops(&self, index: usize) -> bool {
        self.kind(index) == Some(STRUCK_DROPPED)
    }

    fn section_max(&self, kinds: &[usize]) -> i64 {
        kinds
            .iter()
            .map(|&k| self.sections[k])
            .filter(|s| s.len > 0)
            .map(|s| s.min + s.len as i64 - 1)
            .max()
            .unwrap_or(0)
            .max(0)
    }

    /// Largest damage any outcome deals the target.
    pub fn max_damage(&self) -> i64 {
        self.section_max(&[HIT, CRIT, SLAIN, SAVED])
    }

    /// Whether some outcome drops its creature to −1 hp (a failed massive-damage save).
    pub fn can_drop(&self) -> bool {
        [HIT_DROPPED, CRIT_DROPPED, SAVED_DROPPED, STRUCK_DROPPED]
            .iter()
            .any(|&k| self.sections[k].len > 0)
    }

    /// Largest damage any outcome deals the creature struck instead.
    pub fn max_struck_damage(&self) -> i64 {
        self.section_max(&[STRUCK, STRUCK_DROPPED])
    }

    /// The target was hit (a failed save counts as a hit).
    pub fn is_hit(&self, index: usize) -> bool {
        matches!(
            self.kind(index),
            Some(HIT | CRIT | SLAIN | HIT_DROPPED | CRIT_DROPPED)
        )
    }

    pub fn is_crit(&self, index: usize) -> bool {
        matches!(self.kind(index), Some(CRIT | SLAIN | CRIT_DROPPED))
    }

    /// The outcome kills whatever damage the target has taken (a failed coup-de-grace save).
    pub fn slays(&self, index: usize) -> bool {
        self.kind(index) == Some(SLAIN)
    }

    /// The attack struck another creature instead of the target.
    pub fn struck(&self, index: usize) -> bool {
        matches!(self.kind(index), Some(STRUCK | STRUCK_DROPPED))
    }

    /// Whether the profile can strike its cover at all.
    pub fn can_strike(&self) -> bool {
        self.sections[STRUCK].len > 0
    }
}

/// The exact probability of every outcome of one attack.
#[derive(Debug, Clone, PartialEq)]
pub struct OutcomeTable {
    pub layout: OutcomeLayout,
    /// Probability of each outcome index.
    pub probs: Vec<f64>,
}

impl OutcomeTable {
    fn add(&mut self, outcome: Outcome, p: f64) {
        let index = self.layout.index(outcome);
        self.probs[index] += p;
    }

    /// Moves the share of each damaging outcome whose creature fails its massive-damage
    /// save onto the dropped twin of that outcome.
    fn split_dropped(&mut self, profile: &AttackProfile) {
        for index in 1..self.probs.len() {
            let outcome = self.layout.outcome(index);
            let (Some(check), Some(dropped)) = (profile.massive_for(outcome), outcome.dropped())
            else {
                continue;
            };
            let moved = self.probs[index] * check.p_drops(outcome.damage());
            if moved > 0.0 {
                self.probs[index] -= moved;
                self.add(dropped, moved);
            }
        }
    }

    /// P(hit), critical hits included.
    pub fn p_hit(&self) -> f64 {
        self.sum_where(|i| self.layout.is_hit(i))
    }

    pub fn p_crit(&self) -> f64 {
        self.sum_where(|i| self.layout.is_crit(i))
    }

    /// P(another creature is struck instead of the target).
    pub fn p_struck(&self) -> f64 {
        self.sum_where(|i| self.layout.struck(i))
    }

    fn sum_where(&self, keep: impl Fn(usize) -> bool) -> f64 {
        self.probs
            .iter()
            .enumerate()
            .filter(|&(i, _)| keep(i))
            .map(|(_, p)| p)
            .fold(0.0, |a, b| a + b)
    }

    /// Mean damage the target takes.
    pub fn mean_damage(&self) -> f64 {
        self.probs
            .iter()
            .enumerate()
            .map(|(i, p)| p * self.layout.damage(i) as f64)
            .sum()
    }

    /// Mean damage the creature struck instead takes.
    pub fn mean_struck_damage(&self) -> f64 {
        self.probs
            .iter()
            .enumerate()
            .map(|(i, p)| p * self.layout.struck_damage(i) as f64)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact values are sums of products of small fractions; they must match the
    /// hand-computed fraction to rounding error, not to a statistical tolerance.
    fn assert_fraction(value: f64, numerator: i64, denominator: i64, what: &str) {
        let expected = numerator as f64 / denominator as f64;
        assert!(
            (value - expected).abs() <= 1e-12 * expected.abs().max(1.0),
            "{what}: {value} != {numerator}/{denominator}"
        );
    }

    fn check(profile: AttackProfile, hit: (i64, i64), crit: (i64, i64), mean: (i64, i64)) {
        let label = format!("{profile:?}");
        let t = profile.outcomes().unwrap();
        assert_fraction(t.p_hit(), hit.0, hit.1, &format!("p_hit {label}"));
        assert_fraction(t.p_crit(), crit.0, crit.1, &format!("p_crit {label}"));
        assert_fraction(t.mean_damage(), mean.0, mean.1, &format!("mean {label}"));
        assert_fraction(t.probs.iter().sum(), 1, 1, "total probability");
    }

    fn pf1(bonus: i32, ac: i32, damage: &str, crit: &str, miss: u8) -> AttackProfile {
        AttackProfile::pf1(
            bonus,
            ac,
            damage.parse().unwrap(),
            crit.parse().unwrap(),
            miss,
        )
    }

    #[test]
    fn hand_computed_fractions() {
        // Issue example: hit on 11+ (1/2) × 4/5 = 2/5; threat 2/20 × confirm 1/2 × 4/5 = 1/25;
        // E = (9/25)·7.5 + (1/25)·15 = 33/10.
        check(
            pf1(7, 18, "1d8+3", "19-20/x2", 20),
            (2, 5),
            (1, 25),
            (33, 10),
        );
        // Needs a natural 20: hit 1/20, confirm only on a 20: crit 1/400.
        // E = (19/400)·3.5 + (1/400)·7 = 73.5/400 = 147/800.
        check(pf1(0, 40, "1d6", "20/x2", 0), (1, 20), (1, 400), (147, 800));
        // Hits on anything but a 1 (19/20); 18-20 threat (3/20) × 19/20; ×3 of 2d6+4 (mean 33).
        // p_crit = 57/400; p_hit only = 19/20 - 57/400 = 323/400;
        // E = (323/400)·11 + (57/400)·33 = (3553 + 1881)/400 = 5434/400 = 2717/200.
        check(
            pf1(30, 10, "2d6+4", "18-20/x3", 0),
            (19, 20),
            (57, 400),
            (2717, 200),
        );
        // Minimum damage: 1d4-3 deals 1 on every hit; +5 vs 15 hits on 10+ (11/20),
        // crit 1/20 × 11/20 = 11/400; a crit rolls 2d4-6, which is 2 only on 8 (1/16), else 1.
        // E = (209/400)·1 + (11/400)·(17/16) = 3531/6400.
        check(
            pf1(5, 15, "1d4-3", "20/x2", 0),
            (11, 20),
            (11, 400),
            (3531, 6400),
        );
        // Total concealment 50%: +10 vs 20 hits 11/20 → 11/40; crit 1/20·11/20·1/2 = 11/800.
        // E = (11/40 - 11/800)·2 + (11/800)·4 = (209/800)·2 + 44/800 = 462/800 = 231/400.
        check(
            pf1(10, 20, "2", "20/x2", 50),
            (11, 40),
            (11, 800),
            (231, 400),
        );
        // The same, its square not pinpointed: 1 right square of 9 → everything × 1/9.
        let mut guessing = pf1(10, 20, "2", "20/x2", 50);
        guessing.guess = SquareGuess {
            right: 1,
            candidates: 9,
        };
        check(guessing, (11, 360), (11, 7200), (231, 3600));
    }

    #[test]
    fn crit_immune_targets_take_no_crits() {
        let mut profile = pf1(10, 15, "1d8", "19-20/x2", 0);
        profile.crits_possible = false;
        check(profile, (16, 20), (0, 1), (72, 20));
    }

    #[test]
    fn extra_dice_and_dr_are_not_multiplied() {
        // +0 against 11: hits 1/2, crits 1/40. 1d4+2 plus 1d6 never doubled, DR 5: a hit
        // deals max(1d4+1d6+2 − 5, 0) (mean 3 + 1/24 for the total of 2 that would be −1),
        // a crit 2d4+1d6+4 − 5 ≥ 1 (mean 15/2): 19/40 · 73/24 + 1/40 · 15/2 = 1567/960.
        let mut profile = pf1(0, 11, "1d4+2", "20/x2", 0);
        profile.extra = "1d6".parse().unwrap();
        profile.dr = 5;
        check(profile, (1, 2), (1, 40), (1567, 960));
    }

    #[test]
    fn a_failed_massive_damage_save_is_an_outcome() {
        // Hits 19/20 for 1d20 (crit-immune); more than Con 10 on 11..20 (1/2), Fort +4
        // against DC 15 fails on 1..10 (1/2): dropped 19/80, with the damage unchanged.
        let mut profile = pf1(100, 10, "1d20", "20/x2", 0);
        profile.crits_possible = false;
        profile.massive = Some(MassiveCheck {
            over: 10,
            fort: 4,
            dc: 15,
        });
        let table = profile.outcomes().unwrap();
        let dropped: f64 = (0..table.probs.len())
            .filter(|&i| table.layout.drops(i))
            .map(|i| table.probs[i])
            .sum();
        assert_fraction(dropped, 19, 80, "dropped");
        check(profile, (19, 20), (0, 1), (399, 40));
    }

    #[test]
    fn a_grappling_partner_takes_half_of_the_attacks_as_struck_outcomes() {
        // Half the attacks at the target: +5 vs 13 hits on 8+ (13/20), crits 1/20 · 13/20
        // → 13/40 and 13/800. Half at the partner (AC 16, DR 2): hits on 11+, struck
        // 1/2 · 1/2 = 1/4; crits (a 20 confirmed on 11+) 1/40 of its attacks. Struck
        // damage per attack: 1/2 · (19/40 · (7 − 2) + 1/40 · (14 − 2)) = 107/80.
        let mut profile = pf1(5, 13, "2d6", "20/x2", 0);
        let mut partner = pf1(5, 16, "2d6", "20/x2", 0);
        partner.dr = 2;
        profile.grappling_partner = Some(Box::new(partner));
        let table = profile.outcomes().unwrap();
        assert_fraction(table.p_struck(), 1, 4, "p_struck");
        assert_fraction(table.mean_struck_damage(), 107, 80, "struck damage");
        check(profile.clone(), (13, 40), (13, 800), (1911, 800));
        let layout = table.layout;
        assert_eq!(layout, profile.layout());
        assert_eq!(layout.max_struck_damage(), 22);
        for i in 0..layout.len() {
            assert_eq!(layout.index(layout.outcome(i)), i);
        }
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let struck = (0..20_000)
            .map(|_| profile.roll(&mut rng))
            .inspect(|&o| assert!(table.probs[layout.index(o)] > 0.0, "{o:?}"))
            .filter(|o| matches!(o, Outcome::Struck(_)))
            .count();
        assert!((4_700..5_300).contains(&struck), "{struck} struck of 20000");
    }

    #[test]
    fn outcome_indices_round_trip() {
        let profile = pf1(7, 18, "1d8+3", "19-20/x2", 20);
        let t = profile.outcomes().unwrap().layout;
        assert_eq!(t, profile.layout());
        assert_eq!(t.len(), 1 + 8 + 15);
        for i in 0..t.len() {
            assert_eq!(t.index(t.outcome(i)), i);
        }
        assert_eq!(t.outcome(1), Outcome::Hit(4));
        assert_eq!(t.outcome(9), Outcome::Crit(8));
        assert_eq!(t.max_damage(), 22);
    }

    #[test]
    fn rolled_outcomes_lie_in_the_table() {
        use rand::SeedableRng;
        let profile = pf1(7, 18, "1d8+3", "19-20/x2", 20);
        let table = profile.outcomes().unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for _ in 0..10_000 {
            let index = table.layout.index(profile.roll(&mut rng));
            assert!(table.probs[index] > 0.0);
        }
    }
}

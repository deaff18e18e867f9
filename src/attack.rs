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
    pub damage: Dice,
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
    /// The attack struck the creature giving cover, for this much.
    Struck(i64),
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

    /// The damage a critical hit rolls.
    pub fn crit_damage(&self) -> Dice {
        self.damage.repeated(self.crit.multiplier)
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
        let range = |dice: &Dice, portion: Portion| {
            let low = portion.of(dice.min().max(self.min_damage));
            let high = portion.of(dice.max().max(self.min_damage));
            Section {
                min: low,
                len: (high - low + 1) as usize,
            }
        };
        let mut sections = [Section::EMPTY; SECTIONS];
        match self.resolution {
            Resolution::Roll | Resolution::CoupDeGrace { .. } => {
                sections[HIT] = range(&self.damage, Portion::Full);
                sections[CRIT] = range(&self.crit_damage(), Portion::Full);
                if self.cover_strike.is_some() {
                    sections[STRUCK] = sections[HIT];
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
                sections[HIT] = range(&self.damage, on_failure);
                if on_success != Portion::Nothing {
                    sections[SAVED] = range(&self.damage, on_success);
                }
            }
        }
        OutcomeLayout { sections }
    }

    /// The exact outcome distribution, or `None` when the damage expression is too large
    /// to convolve (see [`MAX_EXACT_DICE_COST`]).
    pub fn outcomes(&self) -> Option<OutcomeTable> {
        let crit_dice = self.crit_damage();
        if crit_dice.distribution_cost() > MAX_EXACT_DICE_COST {
            return None;
        }
        let layout = self.layout();
        let mut table = OutcomeTable {
            layout,
            probs: vec![0.0; layout.len()],
        };
        let hit = self.damage.distribution().clamped_below(self.min_damage);
        match self.resolution {
            Resolution::CoupDeGrace { fort, dc } => {
                let crit = crit_dice.distribution().clamped_below(self.min_damage);
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
                for (d, p) in hit.iter() {
                    table.add(save_outcome(false, on_failure, on_success, d), p * fails);
                    table.add(
                        save_outcome(true, on_failure, on_success, d),
                        p * (1.0 - fails),
                    );
                }
            }
            Resolution::Roll => {
                let crit = crit_dice.distribution().clamped_below(self.min_damage);
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
                    if p_struck > 0.0 {
                        table.add(Outcome::Struck(d), p * p_struck);
                    }
                }
                for (d, p) in crit.iter() {
                    table.add(Outcome::Crit(d), p * p_crit);
                }
            }
        }
        table.probs[0] = (1.0 - table.probs[1..].iter().sum::<f64>()).max(0.0);
        Some(table)
    }

    /// One attack rolled as at the table, in the system's order: d% (before or after the
    /// attack roll), d20, confirmation d20, damage dice.
    pub fn roll<R: RngExt + ?Sized>(&self, rng: &mut R) -> Outcome {
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
                let damage = self.roll_damage(rng);
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
                CoverRoll::Struck => return Outcome::Struck(self.roll_damage(rng)),
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
        self.damage.sample(rng).max(self.min_damage)
    }

    fn roll_crit_damage<R: RngExt + ?Sized>(&self, rng: &mut R) -> i64 {
        let total: i64 = (0..self.crit.multiplier)
            .map(|_| self.damage.sample(rng))
            .sum();
        total.max(self.min_damage)
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
}

const HIT: usize = 0;
const CRIT: usize = 1;
const SLAIN: usize = 2;
const SAVED: usize = 3;
const STRUCK: usize = 4;
const SECTIONS: usize = 5;

/// Where each outcome sits in a flat list (miss, then a section of damage values for each
/// of hit, crit, crit that also slew, saved, cover struck), so engines can count outcomes
/// by index without knowing their probabilities.
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
            Some((_, d)) => Outcome::Struck(d),
        }
    }

    /// Damage the target takes from the outcome at an index.
    pub fn damage(&self, index: usize) -> i64 {
        match self.locate(index) {
            Some((kind, d)) if kind != STRUCK => d,
            _ => 0,
        }
    }

    /// Damage the creature giving cover takes from the outcome at an index.
    pub fn struck_damage(&self, index: usize) -> i64 {
        match self.locate(index) {
            Some((STRUCK, d)) => d,
            _ => 0,
        }
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

    /// Largest damage any outcome deals the creature giving cover.
    pub fn max_struck_damage(&self) -> i64 {
        self.section_max(&[STRUCK])
    }

    /// The target was hit (a failed save counts as a hit).
    pub fn is_hit(&self, index: usize) -> bool {
        matches!(self.kind(index), Some(HIT | CRIT | SLAIN))
    }

    pub fn is_crit(&self, index: usize) -> bool {
        matches!(self.kind(index), Some(CRIT | SLAIN))
    }

    /// The outcome kills whatever damage the target has taken (a failed coup-de-grace save).
    pub fn slays(&self, index: usize) -> bool {
        self.kind(index) == Some(SLAIN)
    }

    /// The attack struck the creature giving cover instead of the target.
    pub fn struck(&self, index: usize) -> bool {
        self.kind(index) == Some(STRUCK)
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

    /// P(hit), critical hits included.
    pub fn p_hit(&self) -> f64 {
        self.sum_where(|i| self.layout.is_hit(i))
    }

    pub fn p_crit(&self) -> f64 {
        self.sum_where(|i| self.layout.is_crit(i))
    }

    /// P(the creature giving cover is struck).
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

    /// Mean damage the creature giving cover takes.
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

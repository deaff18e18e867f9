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

/// How an attack resolves: an attack roll, or a coup de grace's automatic critical hit
/// followed by a save-or-die that only the defender's Fort bonus affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    Roll,
    CoupDeGrace {
        /// The defender's Fort save bonus.
        fort: i32,
        dc: CdgDc,
    },
}

/// What one attack did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Miss,
    Hit(i64),
    Crit(i64),
    /// A critical hit after which the defender failed its save and died.
    Slain(i64),
}

impl AttackProfile {
    /// A profile with a rule set's resolution rules.
    pub fn new(rules: &RuleSet, bonus: i32, ac: i32, damage: Dice, crit: CritSpec) -> Self {
        Self {
            bonus,
            ac,
            damage,
            crit,
            crits_possible: true,
            crit_rule: rules.crit_rule,
            miss_chance: 0,
            miss_chance_timing: rules.miss_chance_timing,
            min_damage: rules.min_damage,
            resolution: Resolution::Roll,
            guess: SquareGuess::KNOWN,
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

    /// Where each outcome is counted; cheap, needs no distribution.
    pub fn layout(&self) -> OutcomeLayout {
        let range = |dice: &Dice| {
            let low = dice.min().max(self.min_damage);
            (low, (dice.max().max(self.min_damage) - low + 1) as usize)
        };
        let (hit_min, hit_len) = range(&self.damage);
        let (crit_min, crit_len) = range(&self.crit_damage());
        let slain_len = match self.resolution {
            Resolution::CoupDeGrace { .. } if self.crits_possible => crit_len,
            _ => 0,
        };
        OutcomeLayout {
            hit_min,
            hit_len,
            crit_min,
            crit_len,
            slain_len,
        }
    }

    /// Probability that a coup de grace dealing `damage` is followed by a failed save.
    fn p_save_fails(fort: i32, dc: CdgDc, damage: i64) -> f64 {
        let dc = dc.value(damage);
        let failing = (1..=20).filter(|&n| !save_succeeds(n, fort, dc)).count();
        failing as f64 / 20.0
    }

    /// The exact outcome distribution, or `None` when the damage expression is too large
    /// to convolve (see [`MAX_EXACT_DICE_COST`]).
    pub fn outcomes(&self) -> Option<OutcomeTable> {
        let crit_dice = self.crit_damage();
        if crit_dice.distribution_cost() > MAX_EXACT_DICE_COST {
            return None;
        }
        let hit = self.damage.distribution().clamped_below(self.min_damage);
        let crit = crit_dice.distribution().clamped_below(self.min_damage);
        if let Resolution::CoupDeGrace { fort, dc } = self.resolution {
            return Some(if self.crits_possible {
                let fails: Vec<f64> = crit
                    .iter()
                    .map(|(d, _)| Self::p_save_fails(fort, dc, d))
                    .collect();
                OutcomeTable::from_parts(
                    0.0,
                    (hit.min, vec![0.0; hit.probs.len()]),
                    (
                        crit.min,
                        crit.probs
                            .iter()
                            .zip(&fails)
                            .map(|(p, f)| p * (1.0 - f))
                            .collect(),
                    ),
                    crit.probs.iter().zip(&fails).map(|(p, f)| p * f).collect(),
                )
            } else {
                OutcomeTable::from_parts(
                    0.0,
                    (hit.min, hit.probs),
                    (crit.min, vec![0.0; crit.probs.len()]),
                    Vec::new(),
                )
            });
        }
        let keep = (1.0 - f64::from(self.miss_chance) / 100.0) * self.guess.probability();
        let p_roll_hit = f64::from(self.hitting_faces()) / 20.0;
        let p_threat = f64::from(self.threatening_faces()) / 20.0;
        let p_crit = match self.crit_rule {
            CritRule::ConfirmationRoll => p_threat * p_roll_hit,
            CritRule::NaturalTwentyReachingAc => p_threat,
        } * keep;
        let p_hit = p_roll_hit * keep - p_crit;
        Some(OutcomeTable::from_parts(
            1.0 - p_hit - p_crit,
            (hit.min, hit.probs.iter().map(|p| p * p_hit).collect()),
            (crit.min, crit.probs.iter().map(|p| p * p_crit).collect()),
            Vec::new(),
        ))
    }

    /// One attack rolled as at the table, in the system's order: d% (before or after the
    /// attack roll), d20, confirmation d20, damage dice.
    pub fn roll<R: RngExt + ?Sized>(&self, rng: &mut R) -> Outcome {
        let d20 = |rng: &mut R| rng.random_range(1..=20);
        if let Resolution::CoupDeGrace { fort, dc } = self.resolution {
            if !self.crits_possible {
                return Outcome::Hit(self.damage.sample(rng).max(self.min_damage));
            }
            let damage = self.roll_crit_damage(rng);
            return if save_succeeds(d20(rng), fort, dc.value(damage)) {
                Outcome::Crit(damage)
            } else {
                Outcome::Slain(damage)
            };
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
        if !self.roll_hits(natural) {
            return Outcome::Miss;
        }
        let crit = self.face_threatens(natural)
            && match self.crit_rule {
                CritRule::ConfirmationRoll => self.roll_hits(d20(rng)),
                CritRule::NaturalTwentyReachingAc => true,
            };
        if self.miss_chance_timing == MissChanceTiming::AfterHit && concealed(rng) {
            return Outcome::Miss;
        }
        if crit {
            Outcome::Crit(self.roll_crit_damage(rng))
        } else {
            Outcome::Hit(self.damage.sample(rng).max(self.min_damage))
        }
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

/// Where each outcome sits in a flat list (miss, then each hit damage, then each crit
/// damage, then each crit damage that also slew), so engines can count outcomes by index
/// without knowing their probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutcomeLayout {
    hit_min: i64,
    hit_len: usize,
    crit_min: i64,
    crit_len: usize,
    slain_len: usize,
}

impl OutcomeLayout {
    /// Number of distinct outcomes.
    pub fn len(&self) -> usize {
        1 + self.hit_len + self.crit_len + self.slain_len
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The flat index of an outcome. Damage must lie within the profile's range.
    pub fn index(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Miss => 0,
            Outcome::Hit(d) => 1 + (d - self.hit_min) as usize,
            Outcome::Crit(d) => 1 + self.hit_len + (d - self.crit_min) as usize,
            Outcome::Slain(d) => 1 + self.hit_len + self.crit_len + (d - self.crit_min) as usize,
        }
    }

    /// The outcome at a flat index.
    pub fn outcome(&self, index: usize) -> Outcome {
        if index == 0 {
            Outcome::Miss
        } else if index <= self.hit_len {
            Outcome::Hit(self.hit_min + index as i64 - 1)
        } else if index <= self.hit_len + self.crit_len {
            Outcome::Crit(self.crit_min + (index - 1 - self.hit_len) as i64)
        } else {
            Outcome::Slain(self.crit_min + (index - 1 - self.hit_len - self.crit_len) as i64)
        }
    }

    /// Damage dealt by the outcome at an index.
    pub fn damage(&self, index: usize) -> i64 {
        match self.outcome(index) {
            Outcome::Miss => 0,
            Outcome::Hit(d) | Outcome::Crit(d) | Outcome::Slain(d) => d,
        }
    }

    /// Largest damage any outcome deals.
    pub fn max_damage(&self) -> i64 {
        (self.crit_min + self.crit_len as i64 - 1).max(self.hit_min + self.hit_len as i64 - 1)
    }

    pub fn is_hit(&self, index: usize) -> bool {
        index > 0
    }

    pub fn is_crit(&self, index: usize) -> bool {
        index > self.hit_len
    }

    /// The outcome kills whatever damage the target has taken (a failed coup-de-grace save).
    pub fn slays(&self, index: usize) -> bool {
        index > self.hit_len + self.crit_len
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
    /// From the probability of a miss, of each hit damage and of each crit damage (each
    /// section with its smallest damage), and of each crit damage that slew (aligned with
    /// the crit section; empty when nothing can slay).
    fn from_parts(
        miss: f64,
        (hit_min, hit): (i64, Vec<f64>),
        (crit_min, crit): (i64, Vec<f64>),
        slain: Vec<f64>,
    ) -> Self {
        let layout = OutcomeLayout {
            hit_min,
            hit_len: hit.len(),
            crit_min,
            crit_len: crit.len(),
            slain_len: slain.len(),
        };
        let mut probs = Vec::with_capacity(layout.len());
        probs.push(miss);
        probs.extend(hit);
        probs.extend(crit);
        probs.extend(slain);
        Self { layout, probs }
    }

    /// P(hit), critical hits included.
    pub fn p_hit(&self) -> f64 {
        self.probs[1..].iter().sum()
    }

    pub fn p_crit(&self) -> f64 {
        self.probs[1 + self.layout.hit_len..].iter().sum()
    }

    pub fn mean_damage(&self) -> f64 {
        self.probs
            .iter()
            .enumerate()
            .map(|(i, p)| p * self.layout.damage(i) as f64)
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

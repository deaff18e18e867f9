//! The exact distribution of one attack's outcomes.

use super::*;
use crate::dice::Distribution;

impl AttackProfile {
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
        match self.resolution {
            Resolution::CoupDeGrace { fort, dc } => {
                self.add_coup_de_grace(&mut table, &crit_dice, fort, dc);
            }
            Resolution::Save {
                bonus,
                dc,
                on_failure,
                on_success,
            } => self.add_save(&mut table, p_save_fails(bonus, dc), on_failure, on_success),
            Resolution::Roll => self.add_roll(&mut table, &crit_dice),
        }
        table.split_dropped(self);
        table.probs[0] = (1.0 - table.probs[1..].iter().sum::<f64>()).max(0.0);
        Some(table)
    }

    /// The distribution of what a roll of `dice` deals (see `dealt`).
    fn dealt_distribution(&self, dice: &Dice, dr: i64) -> Distribution {
        dice.distribution()
            .clamped_below(self.min_damage)
            .reduced_by(dr)
    }

    /// A coup de grace is a critical hit that slays when the Fort save fails; against a
    /// target immune to critical hits it is an ordinary hit.
    fn add_coup_de_grace(&self, table: &mut OutcomeTable, crit_dice: &Dice, fort: i32, dc: CdgDc) {
        if self.crits_possible {
            for (d, p) in self.dealt_distribution(crit_dice, self.dr).iter() {
                let fails = p_save_fails(fort, dc.value(d));
                table.add(Outcome::Crit(d), p * (1.0 - fails));
                table.add(Outcome::Slain(d), p * fails);
            }
        } else {
            for (d, p) in self.dealt_distribution(&self.hit_dice(), self.dr).iter() {
                table.add(Outcome::Hit(d), p);
            }
        }
    }

    /// Damage is rolled, then the save decides which portion of it is dealt.
    fn add_save(
        &self,
        table: &mut OutcomeTable,
        fails: f64,
        on_failure: Portion,
        on_success: Portion,
    ) {
        for (d, p) in self.dealt_distribution(&self.damage, 0).iter() {
            table.add(save_outcome(false, on_failure, on_success, d), p * fails);
            table.add(
                save_outcome(true, on_failure, on_success, d),
                p * (1.0 - fails),
            );
        }
    }

    /// An attack roll: the chances of a hit, a critical hit and striking the creature
    /// giving cover, each spread over its damage.
    fn add_roll(&self, table: &mut OutcomeTable, crit_dice: &Dice) {
        let chances = self.roll_chances();
        for (d, p) in self.dealt_distribution(&self.hit_dice(), self.dr).iter() {
            table.add(Outcome::Hit(d), p * chances.hit);
        }
        if chances.struck > 0.0 {
            for (d, p) in self
                .dealt_distribution(&self.hit_dice(), self.dr_of_cover())
                .iter()
            {
                table.add(Outcome::Struck(d), p * chances.struck);
            }
        }
        for (d, p) in self.dealt_distribution(crit_dice, self.dr).iter() {
            table.add(Outcome::Crit(d), p * chances.crit);
        }
    }

    /// The chances of each kind of success of an attack roll, after the target's square
    /// is guessed and concealment's miss chance is rolled.
    fn roll_chances(&self) -> RollChances {
        let guessed = self.guess.probability();
        let concealed = f64::from(self.miss_chance) / 100.0;
        let keep = (1.0 - concealed) * guessed;
        let faces = |n: i32| f64::from(n) / 20.0;
        let p_roll_hit = faces(self.hitting_faces() + self.cover_faces(CoverRoll::TargetHit));
        let p_threat = faces(self.threatening_faces());
        let crit = match self.crit_rule {
            CritRule::ConfirmationRoll => p_threat * faces(self.hitting_faces()),
            CritRule::NaturalTwentyReachingAc => p_threat,
        } * keep;
        let struck = faces(self.cover_faces(CoverRoll::Struck))
            * guessed
            * match self.miss_chance_timing {
                MissChanceTiming::BeforeAttack => 1.0 - concealed,
                MissChanceTiming::AfterHit => 1.0,
            };
        RollChances {
            hit: p_roll_hit * keep - crit,
            crit,
            struck,
        }
    }
}

/// The chances of an attack roll's successes; a critical hit is not counted as a hit.
struct RollChances {
    hit: f64,
    crit: f64,
    struck: f64,
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

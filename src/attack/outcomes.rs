//! The exact distribution of one attack's outcomes.

use super::*;

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

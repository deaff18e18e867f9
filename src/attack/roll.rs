//! One attack rolled die by die, as at the table.

use rand::RngExt;

use super::*;

impl AttackProfile {
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

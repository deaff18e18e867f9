//! Where each outcome of an attack is counted: a flat index over the sections of damage
//! values of each kind of outcome.

use super::*;

/// What one outcome does: to the target, and to a creature struck instead. Kept together
/// so that the engines apply an outcome by reading one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct OutcomeEffect {
    pub damage: i64,
    /// Kills outright (a failed coup-de-grace save).
    pub slays: bool,
    /// Failed a massive-damage save: at least −1 hp.
    pub drops: bool,
    /// Damage the creature struck instead takes.
    pub struck_damage: i64,
    /// The creature struck instead failed a massive-damage save.
    pub struck_drops: bool,
}

/// One kind of outcome's damage values: `len` values from `min`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ValueRange {
    min: i64,
    len: usize,
}

impl ValueRange {
    const EMPTY: ValueRange = ValueRange { min: 0, len: 0 };

    /// The smallest section holding both.
    fn union(self, other: ValueRange) -> ValueRange {
        match (self.len, other.len) {
            (0, _) => other,
            (_, 0) => self,
            _ => {
                let min = self.min.min(other.min);
                let end = (self.min + self.len as i64).max(other.min + other.len as i64);
                ValueRange {
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

impl AttackProfile {
    /// Where each outcome is counted; cheap, needs no distribution.
    pub fn layout(&self) -> OutcomeLayout {
        let range = |dice: &Dice, portion: Portion, dr: i64| {
            let low = portion.of(self.dealt(dice.min(), dr));
            let high = portion.of(self.dealt(dice.max(), dr));
            ValueRange {
                min: low,
                len: (high - low + 1) as usize,
            }
        };
        let mut sections = [ValueRange::EMPTY; SECTIONS];
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
}

/// Where each outcome sits in a flat list (miss, then a section of damage values for each
/// of hit, crit, crit that also slew, saved, another creature struck, and the four with a
/// failed massive-damage save), so engines can count outcomes by index without knowing their
/// probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutcomeLayout {
    sections: [ValueRange; SECTIONS],
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

    /// Every outcome's effect, by index.
    pub(crate) fn effects(&self) -> Vec<OutcomeEffect> {
        (0..self.len())
            .map(|i| OutcomeEffect {
                damage: self.damage(i),
                slays: self.slays(i),
                drops: self.drops(i),
                struck_damage: self.struck_damage(i),
                struck_drops: self.struck_drops(i),
            })
            .collect()
    }

    /// Whether the profile can strike its cover at all.
    pub fn can_strike(&self) -> bool {
        self.sections[STRUCK].len > 0
    }
}

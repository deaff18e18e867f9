//! Range increments, shooting into melee and the senses that work without sight, as data
//! per system (RULES.md §3.6, §10).

/// How distance and melee around the target change a ranged attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangedRule {
    /// Added to the attack roll per full range increment beyond the first.
    pub per_increment: i32,
    /// The most increments a projectile weapon reaches.
    pub max_increments: u32,
    /// The most increments a thrown weapon reaches.
    pub max_increments_thrown: u32,
    /// Added to a ranged attack at a target engaged in melee with an ally of the
    /// attacker (0: the system has no such penalty); Precise Shot removes it.
    pub into_melee: i32,
    /// A ranged attack at a creature grappling another (`grappling_with`) strikes one of
    /// the two at random, and the one struck loses its Dex bonus (d20 Modern's Defense
    /// Modifiers, footnote 3): the condition both grapplers have, whose Dex rule does
    /// that. `None`: the system has no such rule.
    pub random_grappler: Option<&'static str>,
}

impl RangedRule {
    /// PF1, the variant and d20 Modern: −2 per increment, 10 increments (5 thrown), −4
    /// into melee; no random grappler.
    pub const WITH_INTO_MELEE: RangedRule = RangedRule {
        per_increment: -2,
        max_increments: 10,
        max_increments_thrown: 5,
        into_melee: -4,
        random_grappler: None,
    };

    /// The increment (1 = the first) a target `distance_ft` away falls in.
    pub fn increment(distance_ft: i64, increment_ft: i32) -> i64 {
        let inc = i64::from(increment_ft.max(1));
        ((distance_ft + inc - 1) / inc).max(1)
    }

    /// The most increments an attack reaches.
    pub fn max_for(&self, thrown: bool) -> u32 {
        if thrown {
            self.max_increments_thrown
        } else {
            self.max_increments
        }
    }
}

/// A sense that finds creatures without sight, within a range in feet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeSense {
    /// Invisibility, darkness and concealment do not matter within range.
    Blindsight,
    /// Within range the square of an unseen creature is known; the miss chance stays.
    Blindsense,
}

impl RangeSense {
    pub fn key(self) -> &'static str {
        match self {
            RangeSense::Blindsight => "blindsight",
            RangeSense::Blindsense => "blindsense",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn increments_count_from_the_first() {
        // 100-ft increment: 5..=100 ft is the first, 105 the second, 1000 the tenth.
        let cases = [(5, 1), (100, 1), (105, 2), (200, 2), (205, 3), (1000, 10)];
        for (distance, increment) in cases {
            assert_eq!(
                RangedRule::increment(distance, 100),
                increment,
                "{distance} ft"
            );
        }
    }
}

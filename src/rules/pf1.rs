//! Pathfinder 1e (RULES.md §1.1, §2.1, §3, §6).

use super::{CoverBonus, CoverLevel, CritRule, MissChanceTiming, RuleSet, SystemId};

pub static PF1: RuleSet = RuleSet {
    system: SystemId::Pf1,
    name: "Pathfinder 1e",
    cover: &[
        CoverBonus {
            level: CoverLevel::None,
            ac: 0,
            reflex: 0,
            applies_to_melee: true,
        },
        CoverBonus {
            level: CoverLevel::Partial,
            ac: 2,
            reflex: 1,
            applies_to_melee: true,
        },
        CoverBonus {
            level: CoverLevel::Cover,
            ac: 4,
            reflex: 2,
            applies_to_melee: true,
        },
        CoverBonus {
            level: CoverLevel::Soft,
            ac: 4,
            reflex: 0,
            applies_to_melee: false,
        },
        CoverBonus {
            level: CoverLevel::Improved,
            ac: 8,
            reflex: 4,
            applies_to_melee: true,
        },
    ],
    flanking_bonus: 2,
    crit_rule: CritRule::ConfirmationRoll,
    miss_chance_timing: MissChanceTiming::AfterHit,
    total_concealment: 50,
    min_damage: 1,
    interpretations: &[
        "a natural 20 on the confirmation roll confirms, a natural 1 fails (RULES.md Ambiguity 16)",
        "a critical hit rolls the damage expression `multiplier` times, constants included",
        "minimum damage applies to the total of a hit, after the multiplier",
        "soft cover (a creature in the line) counts against ranged attacks only (Ambiguity 6)",
        "several concealment sources: the highest miss chance, never a sum (Ambiguity 23)",
    ],
};

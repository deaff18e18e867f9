//! Pathfinder 1e (RULES.md §1.1, §2.1, §3, §6).

use super::pf1_conditions::PF1_CONDITIONS;
use super::{
    CdgDcAdds, CoupDeGraceRule, CoverBonus, CoverLevel, CritRule, FlankPartner, MissChanceTiming,
    RuleSet, SystemId, injury,
};

pub static PF1: RuleSet = RuleSet {
    system: SystemId::Pf1,
    name: "Pathfinder 1e",
    cover: &[
        CoverBonus::new(CoverLevel::None, 0, 0, true),
        CoverBonus::new(CoverLevel::Partial, 2, 1, true),
        CoverBonus::new(CoverLevel::Cover, 4, 2, true),
        CoverBonus::new(CoverLevel::Soft, 4, 0, false),
        CoverBonus::new(CoverLevel::Improved, 8, 4, true).with_improved_evasion(),
    ],
    flanking_bonus: 2,
    flank_partner: FlankPartner::HostileToTarget,
    higher_ground: (1, 0),
    higher_ground_half_target_height: false,
    crit_rule: CritRule::ConfirmationRoll,
    fixed_crit_multiplier: None,
    miss_chance_timing: MissChanceTiming::AfterHit,
    total_concealment: 50,
    concealment_degrees: &[("concealment", 20), ("total concealment", 50)],
    min_damage: 1,
    conditions: &PF1_CONDITIONS,
    helpless_base_defense: None,
    size_ac: [8, 4, 2, 1, 0, -1, -2, -4, -8],
    coup_de_grace: CoupDeGraceRule {
        dc_base: 10,
        rounds_vs_total_concealment: 2,
        dc_adds: CdgDcAdds::DamageDealt,
        crit_immune_normal_hit: false,
    },
    cover_by_lines: [
        CoverLevel::None,
        CoverLevel::Partial,
        CoverLevel::Cover,
        CoverLevel::Cover,
        CoverLevel::Cover,
    ],
    improved_cover: CoverLevel::Improved,
    adjacent_melee_cover: CoverLevel::Cover,
    low_wall_both_creatures: false,
    adjacent_concealment_whole_space: true,
    soft_cover_needs_target_size: false,
    striking_the_cover: false,
    injury: injury::PATHFINDER,
    interpretations: &[
        "a natural 20 on the confirmation roll confirms, a natural 1 fails (RULES.md Ambiguity 16)",
        "a critical hit rolls the damage expression `multiplier` times, constants included",
        "minimum damage applies to the total of a hit, after the multiplier",
        "soft cover (a creature in the line) counts against ranged attacks only (Ambiguity 6)",
        "several concealment sources: the highest miss chance, never a sum (Ambiguity 23)",
        "helpless: Dex contribution -5 and -4 AC against melee, never also +4 to hit (Ambiguity 11)",
        "pinned: -4 AC against melee only and denied Dex, as in the table (Ambiguity 12)",
        "entangled and grappled: their Dex penalty is not applied to AC; use ac_mod if it matters",
    ],
};

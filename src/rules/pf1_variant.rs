//! The Pathfinder house-rule variant (RULES.md §1.2, §3.1, §3.2, §3.5, Ambiguity 20–22):
//! Pathfinder 1e with its own cover levels, soft cover on any attack, concealment rolled
//! before the attack and higher ground on ranged attacks too.

use super::pf1_conditions::PF1_CONDITIONS;
use super::{
    ArmorClasses, CdgDcAdds, CoupDeGraceRule, CoverBonus, CoverLevel, CritRule, FlankPartner,
    MissChanceTiming, RangeSense, RangedRule, RuleSet, SystemId, injury,
};

pub static PF1_VARIANT: RuleSet = RuleSet {
    system: SystemId::Pf1Variant,
    name: "Pathfinder 1e house-rule variant",
    cover: &[
        CoverBonus::new(CoverLevel::None, 0, 0, true),
        CoverBonus::new(CoverLevel::Cover, 4, 2, true),
        CoverBonus::new(CoverLevel::Soft, 2, 1, true),
        CoverBonus::new(CoverLevel::Improved, 8, 4, true).with_improved_evasion(),
    ],
    flanking_bonus: 2,
    flank_partner: FlankPartner::HostileToTarget,
    higher_ground: (1, 1),
    higher_ground_half_target_height: true,
    crit_rule: CritRule::ConfirmationRoll,
    fixed_crit_multiplier: None,
    miss_chance_timing: MissChanceTiming::BeforeAttack,
    total_concealment: 50,
    concealment_degrees: &[("concealment", 20), ("total concealment", 50)],
    min_damage: 1,
    conditions: &PF1_CONDITIONS,
    flat_footed_ac: 0,
    posture_may_raise_cover: false,
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
        CoverLevel::Cover,
        CoverLevel::Cover,
        CoverLevel::Improved,
        CoverLevel::Improved,
    ],
    improved_cover: CoverLevel::Improved,
    adjacent_melee_cover: CoverLevel::Cover,
    reach_uses_ranged_cover: true,
    low_obstacle_cover: CoverLevel::Cover,
    spreads_round_corners: false,
    low_wall_both_creatures: true,
    adjacent_concealment_whole_space: false,
    soft_cover_needs_target_size: false,
    striking_the_cover: false,
    ranged: RangedRule::WITH_INTO_MELEE,
    range_senses: &[RangeSense::Blindsight, RangeSense::Blindsense],
    injury: injury::PATHFINDER,
    interpretations: &[
        "a melee attack made with reach (Large natural reach or a reach weapon) judges cover as a ranged attack, even against an adjacent target",
        "cover from the 4 corner lines: 1-2 blocked lines cover, 3-4 improved; no partial level",
        "soft cover (+2 AC / +1 Reflex) applies to every attack, melee included",
        "a creature in the line gives soft cover standing or dropped (dying, stable or dead): soft cover names creatures without exception, where shooting into melee excepts an unconscious friend",
        "concealment d% is rolled before the attack roll: at or under the miss chance no attack roll is made (no natural 20, no threat)",
        "higher ground: +1 on melee and ranged attacks when the attacker stands at least half the target's height higher (Ambiguity 21)",
        "flanking partners need only be enemies of the defender (Ambiguity 10)",
        "attack and AC tables, helpless and coup de grace fall back to Pathfinder 1e (Ambiguity 20)",
    ],
    armor_classes: ArmorClasses::One("AC"),
};

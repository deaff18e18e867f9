//! d20 Modern (RULES.md §1.3, §2.3, §3.2, §3.4, §5.3, §6).

use super::conditions::{Condition, DexRule};
use super::{
    ArmorClasses, CdgDcAdds, CoupDeGraceRule, CoverBonus, CoverLevel, CritRule, FlankPartner,
    MissChanceTiming, RangeSense, RangedRule, RuleSet, SystemId, injury,
};

const HELPLESS: Condition = Condition {
    name: "helpless",
    dex: DexRule::LoseBonus,
    helpless: true,
    ..Condition::NONE
};

static CONDITIONS: [Condition; 18] = [
    Condition {
        name: "prone",
        ranged_ac_needs_distance: true,
        attack: (-4, -2),
        ac: (-4, 4),
        ..Condition::NONE
    },
    Condition {
        name: "invisible",
        attack: (2, 2),
        target_dex: DexRule::LoseBonus,
        unseen: true,
        ..Condition::NONE
    },
    Condition {
        name: "sitting",
        ranged_ac_needs_distance: true,
        ac: (-2, 2),
        ..Condition::NONE
    },
    Condition {
        name: "kneeling",
        ranged_ac_needs_distance: true,
        ac: (-2, 2),
        ..Condition::NONE
    },
    Condition {
        name: "stunned",
        ac: (-2, -2),
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "cowering",
        ac: (-2, -2),
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "blinded",
        ac: (-2, -2),
        dex: DexRule::LoseBonus,
        sightless: true,
        ..Condition::NONE
    },
    Condition {
        name: "climbing",
        ac: (-2, -2),
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "flat-footed",
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "running",
        ac: (0, 2),
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "grappling",
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "grappled",
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "pinned",
        ac: (-4, 0),
        dex: DexRule::Minus5,
        ..Condition::NONE
    },
    HELPLESS,
    Condition {
        name: "paralyzed",
        ..HELPLESS
    },
    Condition {
        name: "unconscious",
        ..HELPLESS
    },
    Condition {
        name: "asleep",
        ..HELPLESS
    },
    Condition {
        name: "bound",
        ..HELPLESS
    },
];

pub static D20MODERN: RuleSet = RuleSet {
    system: SystemId::D20Modern,
    name: "d20 Modern",
    cover: &[
        CoverBonus::new(CoverLevel::None, 0, 0, true),
        CoverBonus::new(CoverLevel::Quarter, 2, 1, true),
        CoverBonus::new(CoverLevel::Half, 4, 2, true),
        CoverBonus::new(CoverLevel::ThreeQuarters, 7, 3, true),
        CoverBonus::new(CoverLevel::NineTenths, 10, 4, true).with_improved_evasion(),
        CoverBonus::new(CoverLevel::Soft, 4, 2, true),
    ],
    flanking_bonus: 2,
    flank_partner: FlankPartner::AllyOfAttacker,
    higher_ground: (1, 0),
    higher_ground_half_target_height: false,
    crit_rule: CritRule::ConfirmationRoll,
    fixed_crit_multiplier: None,
    miss_chance_timing: MissChanceTiming::AfterHit,
    total_concealment: 50,
    concealment_degrees: &[
        ("one-quarter", 10),
        ("one-half", 20),
        ("three-quarters", 30),
        ("nine-tenths", 40),
        ("total", 50),
    ],
    min_damage: 1,
    conditions: &CONDITIONS,
    flat_footed_ac: 0,
    posture_may_raise_cover: true,
    helpless_base_defense: Some(5),
    size_ac: [8, 4, 2, 1, 0, -1, -2, -4, -8],
    coup_de_grace: CoupDeGraceRule {
        dc_base: 10,
        rounds_vs_total_concealment: 1,
        dc_adds: CdgDcAdds::DamageDealt,
        crit_immune_normal_hit: false,
    },
    cover_by_lines: [
        CoverLevel::None,
        CoverLevel::Quarter,
        CoverLevel::Half,
        CoverLevel::ThreeQuarters,
        CoverLevel::NineTenths,
    ],
    improved_cover: CoverLevel::NineTenths,
    adjacent_melee_cover: CoverLevel::Half,
    reach_uses_ranged_cover: false,
    low_obstacle_cover: CoverLevel::Quarter,
    spreads_round_corners: false,
    low_wall_both_creatures: false,
    adjacent_concealment_whole_space: true,
    soft_cover_needs_target_size: true,
    striking_the_cover: true,
    ranged: RangedRule {
        random_grappler: Some("grappling"),
        ..RangedRule::WITH_INTO_MELEE
    },
    range_senses: &[RangeSense::Blindsight],
    injury: injury::D20_MODERN,
    interpretations: &[
        "cover degrees from the 4 corner lines: 1 blocked one-quarter, 2 one-half, 3 three-quarters, 4 (with line of effect) nine-tenths",
        "a creature in the line (soft cover) is one-half cover (+4 Defense)",
        "a creature in the line gives that cover standing or dropped (dying, stable or dead): the text names creatures without exception",
        "helpless defenders have Defense 5 + size modifier against every attack (Ambiguity 14)",
        "a prone, sitting or kneeling target that has cover from a ranged attack gets the better of its posture bonus and its cover raised one degree (one-quarter to one-half, ..., three-quarters to nine-tenths), never both (Ambiguity 15)",
        "expanded threat ranges: a roll in range that does not hit is not a threat (Ambiguity 17)",
        "flanking partners must be allies of the attacker (Ambiguity 10)",
        "a natural 20 on the confirmation roll confirms, a natural 1 fails (Ambiguity 16)",
    ],
    armor_classes: ArmorClasses::One("Defense"),
};

//! Starfinder (RULES.md §1.4, §2.4, §3.2, §5.4, §6).

use super::conditions::{Condition, DexRule};
use super::{
    ArmorClasses, CdgDcAdds, CoupDeGraceRule, CoverBonus, CoverLevel, CritRule, FlankPartner,
    MissChanceTiming, RangeSense, RangedRule, RuleSet, SystemId, injury,
};

const HELPLESS: Condition = Condition {
    name: "helpless",
    dex: DexRule::Minus5,
    attacked: (4, 0),
    helpless: true,
    ..Condition::NONE
};

static CONDITIONS: [Condition; 22] = [
    Condition {
        name: "flat-footed",
        flat_footed: true,
        ..Condition::NONE
    },
    Condition {
        name: "prone",
        attack: (-4, 0),
        ac: (-4, 4),
        ..Condition::NONE
    },
    Condition {
        name: "blinded",
        flat_footed: true,
        sightless: true,
        ..Condition::NONE
    },
    Condition {
        name: "cowering",
        flat_footed: true,
        ..Condition::NONE
    },
    Condition {
        name: "stunned",
        flat_footed: true,
        ..Condition::NONE
    },
    Condition {
        name: "entangled",
        attack: (-2, -2),
        ac: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "squeezing",
        attack: (-2, -2),
        ac: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "grappled",
        attack: (-2, -2),
        ac: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "pinned",
        flat_footed: true,
        attack: (-4, -4),
        ac: (-4, -4),
        replaces: &["grappled"],
        ..Condition::NONE
    },
    HELPLESS,
    Condition {
        name: "unconscious",
        ..HELPLESS
    },
    Condition {
        name: "asleep",
        ..HELPLESS
    },
    Condition {
        name: "paralyzed",
        dex: DexRule::Minus5,
        ..Condition::NONE
    },
    Condition {
        name: "dazzled",
        attack: (-1, -1),
        ..Condition::NONE
    },
    Condition {
        name: "shaken",
        attack: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "frightened",
        attack: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "sickened",
        attack: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "off-kilter",
        flat_footed: true,
        attack: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "off-target",
        attack: (-2, -2),
        ..Condition::NONE
    },
    Condition {
        name: "fatigued",
        attack: (-1, -1),
        ac: (-1, -1),
        ..Condition::NONE
    },
    Condition {
        name: "exhausted",
        attack: (-3, -3),
        ac: (-3, -3),
        ..Condition::NONE
    },
    Condition {
        name: "invisible",
        unseen: true,
        target_flat_footed: true,
        ..Condition::NONE
    },
];

pub static STARFINDER: RuleSet = RuleSet {
    system: SystemId::Starfinder,
    name: "Starfinder",
    cover: &[
        CoverBonus::new(CoverLevel::None, 0, 0, true),
        CoverBonus::new(CoverLevel::Partial, 2, 1, true),
        CoverBonus::new(CoverLevel::Cover, 4, 2, true),
        CoverBonus::new(CoverLevel::Soft, 4, 0, false),
        CoverBonus::new(CoverLevel::Improved, 8, 4, true),
    ],
    flanking_bonus: 2,
    flank_partner: FlankPartner::HostileToTarget,
    higher_ground: (0, 0),
    higher_ground_half_target_height: false,
    crit_rule: CritRule::NaturalTwentyReachingAc,
    fixed_crit_multiplier: Some(2),
    miss_chance_timing: MissChanceTiming::AfterHit,
    total_concealment: 50,
    concealment_degrees: &[("concealment", 20), ("total concealment", 50)],
    min_damage: 1,
    conditions: &CONDITIONS,
    flat_footed_ac: -2,
    posture_may_raise_cover: false,
    helpless_base_defense: None,
    size_ac: [0; 9],
    coup_de_grace: CoupDeGraceRule {
        dc_base: 10,
        rounds_vs_total_concealment: 1,
        dc_adds: CdgDcAdds::AttackerLevel,
        crit_immune_normal_hit: true,
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
    reach_uses_ranged_cover: false,
    low_obstacle_cover: CoverLevel::Cover,
    spreads_round_corners: true,
    low_wall_both_creatures: false,
    adjacent_concealment_whole_space: true,
    soft_cover_needs_target_size: false,
    striking_the_cover: false,
    ranged: RangedRule {
        into_melee: 0,
        ..RangedRule::WITH_INTO_MELEE
    },
    range_senses: &[RangeSense::Blindsight, RangeSense::Blindsense],
    injury: injury::STARFINDER,
    interpretations: &[
        "a spread counts a target inside its radius when a square of it lies within the radius, counted from the origin to the square's far corner",
        "a critical hit is a natural 20 whose total also reaches AC; no threat ranges, no confirmation, damage rolled twice",
        "helpless: Dex counts as -5 and melee attacks get +4; not flat-footed unless its cause says so (Ambiguity 13)",
        "paralyzed is not helpless: Dex -5 only",
        "no higher-ground bonus; an unseen (invisible) attacker makes the target flat-footed, -2 AC (Ambiguity 19)",
        "pinned replaces grappled: -4 attack, -4 AC and flat-footed, -6 AC in all",
        "flat-footed is -2 AC once, however many of its sources apply (flat-footed, blinded, cowering, stunned, pinned, off-kilter, an unseen attacker)",
        "a creature in the line gives soft cover standing or dropped (dying, stable or dead): the text names creatures without exception",
    ],
    armor_classes: ArmorClasses::EnergyAndKinetic,
};

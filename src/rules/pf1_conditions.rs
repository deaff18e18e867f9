//! Pathfinder 1e conditions (RULES.md §1.1, §2.1, §5.1); the house-rule variant uses the
//! same table (RULES.md §1.2, §2.2).

use super::conditions::{Condition, DexRule};

const HELPLESS: Condition = Condition {
    name: "helpless",
    ac: (-4, 0),
    dex: DexRule::Minus5,
    helpless: true,
    ..Condition::NONE
};

pub static PF1_CONDITIONS: [Condition; 21] = [
    Condition {
        name: "dazzled",
        attack: (-1, -1),
        ..Condition::NONE
    },
    // −2 on attacks, and −4 Dex: a further −2 on ranged attacks, and the Dex modifier −2
    // before a lost Dex bonus is taken away.
    Condition {
        name: "entangled",
        attack: (-2, -4),
        dex_change: -2,
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
        name: "prone",
        attack: (-4, 0),
        ac: (-4, 4),
        no_ranged: true,
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
        name: "squeezing",
        attack: (-4, -4),
        ac: (-4, -4),
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
        name: "cowering",
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
        name: "grappling",
        ..Condition::NONE
    },
    // The condition text: −2 on attacks and −4 Dex, as entangled (RULES.md §2.1).
    Condition {
        name: "grappled",
        attack: (-2, -4),
        dex_change: -2,
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
    Condition {
        name: "kneeling",
        ac: (-2, 2),
        ..Condition::NONE
    },
    Condition {
        name: "sitting",
        ac: (-2, 2),
        ..Condition::NONE
    },
    Condition {
        name: "pinned",
        ac: (-4, 0),
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
    Condition {
        name: "stunned",
        ac: (-2, -2),
        dex: DexRule::LoseBonus,
        ..Condition::NONE
    },
];

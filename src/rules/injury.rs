//! Who goes down and who dies, and the damage rules around it, per system (RULES.md §9,
//! §10): hit-point thresholds, d20 Modern's massive damage, Starfinder's Stamina and
//! Resolve, and when precision dice apply.

/// When a creature dies from damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeathRule {
    /// Dead at −Con hit points (Pathfinder); a creature without a Con score dies at 0.
    NegativeCon,
    /// Dead at this many hit points below 0, whatever the Con (d20 Modern: 10).
    NegativeFixed(i64),
    /// Starfinder: damage takes Stamina Points first, then Hit Points. A creature with
    /// Resolve Points is down at 0 HP and dies when one hit leaves damage past 0 HP of at
    /// least its maximum HP; one without Resolve dies at 0 HP.
    StaminaAndResolve,
}

/// d20 Modern massive damage: one attack dealing more than the target's Con score forces
/// a Fort save, and a failure drops it to `drop_to_hp` (dying).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MassiveDamageRule {
    pub dc: i32,
    pub drop_to_hp: i64,
}

/// When an attack's precision dice (sneak attack, trick attack) are rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrecisionRule {
    /// A ranged attack adds them only within this many feet (Pathfinder: 30).
    pub ranged_within_ft: Option<i64>,
    /// Creatures immune to critical hits are immune to them too (Pathfinder).
    pub crit_immune_ignores: bool,
    /// Not against a target with concealment from the attack (Pathfinder: "a rogue cannot
    /// sneak attack while striking a creature with concealment").
    pub concealment_blocks: bool,
}

/// What happens on a dying creature's turn (RULES.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DyingRule {
    /// d20 + Con modifier − |hp| ≥ `dc` stabilises it (a natural 20 always does);
    /// otherwise it loses 1 hp (Pathfinder).
    ConCheck { dc: i32 },
    /// d% ≤ `percent` stabilises it; otherwise it loses 1 hp (d20 Modern).
    Percent { percent: u32 },
    /// Starfinder: with at least ¼ of its maximum Resolve Points (at least 1, at most
    /// `max_cost`) it spends them to stabilise; otherwise it loses 1 RP at the end of its
    /// turn, and dies when it has none to lose. A stable creature with RP left spends 1 on
    /// its next turn to regain 1 HP and act.
    Resolve { max_cost: i64 },
}

impl DyingRule {
    /// Starfinder: the Resolve Points it costs a creature with `max_points` to stabilise.
    pub fn stabilise_cost(max_points: i64, max_cost: i64) -> i64 {
        (max_points / 4).clamp(1, max_cost)
    }
}

/// A system's injury rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Injury {
    pub death: DeathRule,
    /// A creature at exactly 0 hp is disabled (Pathfinder, d20 Modern): on its turn it
    /// makes one attack (its first) and then takes 1 damage, which leaves it dying. Without
    /// it (Starfinder), a creature at 0 HP takes no action at all.
    pub disabled_at_zero: bool,
    pub dying: DyingRule,
    /// A combatant is flat-footed until its first turn of a fight (loses its Dex bonus to
    /// AC); Starfinder only when surprised, which d20odds does not model.
    pub flat_footed_until_first_turn: bool,
    pub massive_damage: Option<MassiveDamageRule>,
    /// `None`: the system has no precision damage (`precision` is an input error).
    pub precision: Option<PrecisionRule>,
}

pub const PATHFINDER: Injury = Injury {
    death: DeathRule::NegativeCon,
    disabled_at_zero: true,
    dying: DyingRule::ConCheck { dc: 10 },
    flat_footed_until_first_turn: true,
    massive_damage: None,
    precision: Some(PrecisionRule {
        ranged_within_ft: Some(30),
        crit_immune_ignores: true,
        concealment_blocks: true,
    }),
};

pub const D20_MODERN: Injury = Injury {
    death: DeathRule::NegativeFixed(10),
    disabled_at_zero: true,
    dying: DyingRule::Percent { percent: 10 },
    flat_footed_until_first_turn: true,
    massive_damage: Some(MassiveDamageRule {
        dc: 15,
        drop_to_hp: -1,
    }),
    precision: None,
};

pub const STARFINDER: Injury = Injury {
    death: DeathRule::StaminaAndResolve,
    disabled_at_zero: false,
    dying: DyingRule::Resolve { max_cost: 3 },
    flat_footed_until_first_turn: false,
    massive_damage: None,
    precision: Some(PrecisionRule {
        ranged_within_ft: None,
        crit_immune_ignores: false,
        concealment_blocks: false,
    }),
};

impl Injury {
    /// The rules as text, for `d20odds rules`.
    pub fn describe(&self) -> String {
        let mut out = format!(
            "Down and dead: {}\n",
            match self.death {
                DeathRule::NegativeCon =>
                    "down at 0 hp or less; dead at -Con hp (without a Con score, at 0 hp)".to_string(),
                DeathRule::NegativeFixed(below) =>
                    format!("down at 0 hp or less; dead at -{below} hp whatever the Con"),
                DeathRule::StaminaAndResolve =>
                    "damage takes Stamina Points (`stamina`) first, then Hit Points; a creature with Resolve Points (`resolve`) is down at 0 HP and dies when one hit leaves damage past 0 HP of at least its maximum HP; one without Resolve is dead at 0 HP".to_string(),
            }
        );
        out += match self.disabled_at_zero {
            true => {
                "Acting while down: a creature below 0 hp, or dead, takes no action; at exactly 0 hp it is disabled: on its turn it makes one attack (its first) and then takes 1 damage (dying)\n"
            }
            false => "Acting while down: a creature at 0 HP, or dead, takes no action\n",
        };
        out += &match self.dying {
            DyingRule::ConCheck { dc } => format!(
                "Dying (in a fight): on each of its turns after the one it dropped on, d20 + Con modifier - |hp| >= {dc} stabilises it (a natural 20 always does), otherwise it loses 1 hp\n"
            ),
            DyingRule::Percent { percent } => format!(
                "Dying (in a fight): on each of its turns, d% <= {percent} stabilises it, otherwise it loses 1 hp\n"
            ),
            DyingRule::Resolve { max_cost } => format!(
                "Dying (in a fight): on its turn a creature with Resolve Points spends 1/4 of its maximum (at least 1, at most {max_cost}) to stabilise; without enough it loses 1 RP at the end of its turn and dies when it has none to lose; a stable creature with RP left spends 1 on its next turn to regain 1 HP and act\n"
            ),
        };
        out += match self.flat_footed_until_first_turn {
            true => {
                "Initiative (in a fight): d20 + init (default: dex); ties by higher init, then at random; a combatant is flat-footed (no Dex bonus to AC) until its first turn\n"
            }
            false => {
                "Initiative (in a fight): d20 + init (default: dex); ties by higher init, then at random; nobody is flat-footed at the start (only when surprised, which d20odds does not model)\n"
            }
        };
        if let Some(m) = self.massive_damage {
            out += &format!(
                "Massive damage: one attack dealing more damage than the target's Con score (a critical hit counts once) forces a Fort DC {} save; a failure drops it to {} hp unless lower already\n",
                m.dc, m.drop_to_hp
            );
        }
        out += "Damage: `extra_damage` and `precision` dice are added to a hit and never multiplied by a critical hit; damage reduction (`dr`) is subtracted from each hit after the minimum damage, so a hit may deal 0 (`bypass_dr` ignores it; area effects are not reduced)\n";
        match self.precision {
            None => out += "Precision damage: none in this system\n",
            Some(p) => {
                out += "Precision damage: only when the attacker flanks the target or the target is denied its Dex bonus (flat-footed, helpless, blinded, an invisible attacker...)";
                if let Some(ft) = p.ranged_within_ft {
                    out += &format!(", ranged attacks only within {ft} ft");
                }
                if p.concealment_blocks {
                    out += ", never against a target with concealment from the attack";
                }
                out += ", and on a coup de grace (whose DC counts it); never against `immune_to_precision`";
                if p.crit_immune_ignores {
                    out += " or crit-immune creatures";
                }
                out += "\n";
            }
        }
        out
    }
}

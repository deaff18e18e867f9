//! The inputs of one plan line before folding: its attack, its defence and its situation
//! (what the GM or the map says), from a file or from flags alike.

use crate::attack::{MassiveCheck, SquareGuess};
use crate::dice::{CritSpec, Dice};
use crate::rules::{Condition, CoverLevel, Size};
use crate::scenario::{AreaSave, Evasion};
use crate::situation::Perception;

use super::TargetId;
use super::modifiers::SetByPlan;

/// What a GM or the map says about one attacker → target line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Situation {
    /// The square to strike must be guessed (total concealment, not pinpointed).
    pub guess: Option<SquareGuess>,
    /// Cover, when the GM or the map says; `None`: no cover.
    pub cover: Option<CoverLevel>,
    /// Miss chance in percent; `None`: none.
    pub concealment: Option<u8>,
    /// Whether the attacker flanks; `None`: it does not.
    pub flanking: Option<bool>,
    /// The GM's modifier to every attack roll.
    pub attack_mod: Option<i32>,
    /// The GM's modifier to the target's AC.
    pub ac_mod: Option<i32>,
    /// A creature in the line gives the soft cover and can be struck (d20 Modern).
    pub covering: Option<Covering>,
    /// The attacker stands next to the target (d20 Modern's posture footnote).
    pub adjacent: bool,
    /// Range increments' penalty.
    pub range_penalty: i32,
    /// Shooting into melee's penalty.
    pub into_melee: i32,
    /// Whether the attacker sees the target, and the senses that reach it.
    pub perception: Perception,
    /// Distance between attacker and target on the map, in feet.
    pub distance_ft: Option<i64>,
    /// What the plan line set in place of what the map says.
    pub set_by_plan: SetByPlan,
}

/// The creature giving soft cover, as striking the cover needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covering {
    /// It as a target of the plan.
    pub target: TargetId,
    /// Its AC or Defense against the attack.
    pub defense: i32,
    /// Its Dex modifier (included in `defense`).
    pub dex: i32,
    /// Its damage reduction.
    pub dr: i64,
    /// Its massive-damage check.
    pub massive: Option<MassiveCheck>,
}

/// The attack side of a line, independent of where it comes from (file or flags).
#[derive(Debug, Clone, PartialEq)]
pub struct LineAttack {
    /// `Name (T)`, for tables and notes.
    pub attacker: String,
    /// The attack's name.
    pub name: String,
    /// Melee rather than ranged (flanking and higher ground differ).
    pub melee: bool,
    /// The attack bonus of each attack of the routine, in order.
    pub bonuses: Vec<i32>,
    /// Weapon damage, multiplied on a critical hit.
    pub damage: Dice,
    /// Dice added to every hit, never multiplied (flaming, holy).
    pub extra_damage: Dice,
    /// Precision dice (sneak attack, trick attack): added where they apply, never
    /// multiplied.
    pub precision: Dice,
    /// Ignores the target's damage reduction.
    pub bypass_dr: bool,
    /// Threat range and multiplier.
    pub crit: CritSpec,
    /// The attacker's conditions.
    pub conditions: Vec<&'static Condition>,
    /// Usable while prone (crossbows).
    pub crossbow: bool,
    /// Feet above the floor.
    pub elevation: i32,
    /// A coup de grace, with the attacker's level (for systems whose DC uses it).
    pub coup_de_grace: Option<i32>,
    /// An area attack's save; such an attack rolls no attack.
    pub area: Option<AreaSave>,
}

/// The defending side of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineDefence {
    /// The creature attacked.
    pub target: TargetId,
    /// Armor class against this attack, Dex included.
    pub ac: i32,
    /// What tables call that armor class: `AC`, d20 Modern's `Defense`, or Starfinder's
    /// `EAC` or `KAC` ([`crate::rules::ArmorClasses`]).
    pub armor: &'static str,
    /// Dex modifier included in `ac`.
    pub dex: i32,
    /// Size, for size modifiers and soft cover.
    pub size: Size,
    /// Critical hits are normal hits against it.
    pub immune_to_crits: bool,
    /// Precision dice do not apply against it.
    pub immune_to_precision: bool,
    /// Damage reduction: subtracted from each hit.
    pub dr: i64,
    /// Con score: d20 Modern's massive-damage threshold.
    pub con: Option<i64>,
    /// The defender's conditions.
    pub conditions: Vec<&'static Condition>,
    /// Feet above the floor.
    pub elevation: i32,
    /// Fort save bonus, against a coup de grace and Fort area effects.
    pub fort: i32,
    /// Reflex save bonus, against Reflex area effects.
    pub reflex: i32,
    /// Will save bonus, against Will area effects.
    pub will: i32,
    /// Evasion against a Reflex save for half.
    pub evasion: Evasion,
    /// The creature the defender is grappling with, which a ranged attack strikes half
    /// the time instead (d20 Modern).
    pub grappling: Option<Box<Grappler>>,
}

/// The other creature of a grapple, as a ranged attack at the defender may strike it:
/// its defence and what the map says about the attacker's line to it. The plan line's
/// overrides apply to both lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grappler {
    /// `Name (T)`, for notes.
    pub label: String,
    /// The other creature's defence.
    pub defence: LineDefence,
    /// What the map says about the attacker's line to it.
    pub situation: Situation,
}

impl LineAttack {
    /// A plain attack: no conditions, on the floor.
    pub fn plain(
        attacker: &str,
        name: &str,
        melee: bool,
        bonuses: Vec<i32>,
        damage: Dice,
        crit: CritSpec,
    ) -> Self {
        Self {
            attacker: attacker.to_string(),
            name: name.to_string(),
            melee,
            bonuses,
            damage,
            extra_damage: Dice::zero(),
            precision: Dice::zero(),
            bypass_dr: false,
            crit,
            conditions: Vec::new(),
            crossbow: false,
            elevation: 0,
            coup_de_grace: None,
            area: None,
        }
    }
}

impl LineDefence {
    /// A plain Medium defender with no Dex in its AC, no conditions, on the floor.
    pub fn plain(target: TargetId, ac: i32, immune_to_crits: bool) -> Self {
        Self {
            target,
            ac,
            armor: "AC",
            dex: 0,
            size: Size::Medium,
            immune_to_crits,
            immune_to_precision: false,
            dr: 0,
            con: None,
            conditions: Vec::new(),
            elevation: 0,
            fort: 0,
            reflex: 0,
            will: 0,
            evasion: Evasion::None,
            grappling: None,
        }
    }
}

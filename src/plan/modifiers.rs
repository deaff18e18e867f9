//! The numbers a plan line ends with and what made them.

use crate::attack::{Portion, SquareGuess};
use crate::rules::CoverLevel;
use crate::scenario::SaveKind;
use crate::situation::Perception;

/// The modifiers that apply to one plan line, and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifiers {
    pub cover: CoverLevel,
    /// The cover the map gave, when the target's posture raised it one degree to `cover`
    /// instead of adding its own bonus (d20 Modern, Ambiguity 15).
    pub cover_raised_from: Option<CoverLevel>,
    /// Miss chance in percent.
    pub concealment: u8,
    pub flanking: bool,
    /// The attack's precision dice are rolled (RULES.md §10).
    pub precision: bool,
    /// Squares the attacker must choose among (1: the target's square is known).
    pub guess: SquareGuess,
    /// Total added to every attack roll of the line (flanking included).
    pub attack_mod: i32,
    /// Total added to the target's AC (cover included).
    pub ac_mod: i32,
    /// Area attacks: the save the target makes.
    pub save: Option<SaveRoll>,
    /// Range increments' penalty (inside `attack_mod`).
    pub range_penalty: i32,
    /// Shooting into melee's penalty (inside `attack_mod`).
    pub into_melee: i32,
    /// Whether the attacker sees the target, and the senses that reach it.
    pub perception: Perception,
    /// What the plan line set in place of what the map says.
    pub set_by_plan: SetByPlan,
}

/// The parts of a line's situation its `[[plan]]` table sets where there is a map that
/// would otherwise decide them, so that the roll can say the map did not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SetByPlan {
    pub cover: bool,
    pub concealment: bool,
    pub flanking: bool,
}

/// An area attack's save once every modifier is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveRoll {
    pub kind: SaveKind,
    /// The target's save bonus, cover's Reflex bonus included.
    pub bonus: i32,
    pub dc: i32,
    pub on_failure: Portion,
    pub on_success: Portion,
}

impl SaveRoll {
    /// `reflex +6 vs DC 17 (failure full, success half)`, for tables and reports.
    pub fn describe(&self) -> String {
        format!(
            "{} {:+} vs DC {} (failure {}, success {})",
            self.kind.key(),
            self.bonus,
            self.dc,
            self.on_failure.key(),
            self.on_success.key()
        )
    }
}

/// Why a roll may strike another creature than its target (d20 Modern).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StruckInstead {
    /// The creature gives the target soft cover.
    SoftCover,
    /// The target is grappling with the creature.
    GrapplingPartner,
}

impl StruckInstead {
    /// `it gives the soft cover`, for the report's notes.
    pub fn why(self) -> &'static str {
        match self {
            StruckInstead::SoftCover => "it gives the soft cover",
            StruckInstead::GrapplingPartner => "the target is grappling with it",
        }
    }
}

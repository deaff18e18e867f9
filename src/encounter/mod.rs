//! Encounters (SPEC §6): both sides fight. A [`Fight`] is the numbers of one — each
//! combatant's thresholds, orders and every attack it could make at every enemy, as
//! profiles folded by the planner — and the turn rules every engine plays through the
//! same functions ([`Fight::advance`] and the `resolve_*` steps in `turn.rs`): Monte
//! Carlo draws each pending chance (`simulate.rs`), the exact engine follows every branch
//! (`exact.rs`), so the two agree by construction on what a turn does and differ only in
//! how they weigh its chances.
//!
//! Architecture Invariant: numbers come from `plan` (profiles) and `rules` (injury,
//! dying, flat-footed); nothing here reads a map or a file.

mod build;
mod exact;
mod initiative;
mod simulate;
#[cfg(test)]
mod tests;
mod turn;

use crate::attack::AttackProfile;
use crate::injury::Target;
use crate::rules::{DyingRule, SystemId};
use crate::scenario::{Initiative, Tactic};

pub use exact::{ExactFight, exact_fight};
pub use simulate::{FightTally, simulate_fight};
pub use turn::Status;

/// One fight's numbers: everything the engines need, nothing they must look up.
#[derive(Debug, Clone)]
pub struct Fight {
    /// The experiment's title.
    pub title: String,
    /// The rule system the numbers were folded with.
    pub system: SystemId,
    /// The most rounds played.
    pub rounds: u32,
    /// How turn order is set each trial.
    pub initiative: Initiative,
    /// Every combatant, in file order.
    pub fighters: Vec<Fighter>,
    /// Side names, in order of first appearance.
    pub sides: Vec<String>,
    profiles: Vec<Profile>,
    dying: DyingRule,
    /// Attacks against a combatant that has not had a turn yet use its flat-footed profile.
    flat_footed_until_first_turn: bool,
}

/// Index of a profile in [`Fight::profiles`].
type ProfileId = usize;

/// One attack of a routine against one target: its profile while the target has not
/// acted yet (flat-footed) and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct AttackAt {
    normal: ProfileId,
    flat_footed: ProfileId,
}

/// A combatant of a fight.
#[derive(Debug, Clone)]
pub struct Fighter {
    /// `Name (T)`.
    pub label: String,
    /// Index into [`Fight::sides`].
    pub side: usize,
    /// Initiative modifier.
    pub init: i32,
    /// How it picks targets.
    pub tactic: Tactic,
    /// When it is down and dead, in damage taken.
    pub injury: Target,
    /// Con modifier (Pathfinder's dying check).
    con_modifier: i64,
    /// Starfinder: maximum Resolve Points.
    resolve: i64,
    /// Its `[[plan]]` lines, in file order.
    orders: Vec<Order>,
    /// Per attack of its own, per combatant: the attack's iteratives at that combatant,
    /// or `None` where it cannot make it (an ally, out of reach, total cover, an area).
    options: Vec<Vec<Option<Vec<AttackAt>>>>,
    /// Distance to each combatant in feet (0 without a map), for `nearest`.
    distance: Vec<i64>,
}

/// A scripted plan line: the attack, its target, and its iteratives at that target
/// (with the line's own overrides).
#[derive(Debug, Clone)]
struct Order {
    attack: usize,
    target: usize,
    iteratives: Vec<AttackAt>,
}

/// What one outcome of an attack does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Effect {
    damage: i64,
    /// Kills outright (a failed coup-de-grace save).
    slays: bool,
    /// Failed a massive-damage save: at least −1 hp.
    drops: bool,
    struck_damage: i64,
    struck_drops: bool,
}

/// One attack's numbers as the engines need them.
#[derive(Debug, Clone)]
struct Profile {
    attack: AttackProfile,
    /// Each outcome index's effect.
    effects: Vec<Effect>,
    /// Each outcome index's probability, when the exact table could be computed.
    probs: Option<Vec<f64>>,
    /// The distinct effects with their probabilities (outcomes that do the same merged),
    /// for the exact engine's branches; empty without a table.
    branches: Vec<(Effect, f64)>,
    /// Mean damage to the target, for `best`.
    expected: f64,
    /// The combatant struck instead on a "struck" outcome.
    struck: Option<usize>,
}

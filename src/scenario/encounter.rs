//! `[encounter]` and the combatant keys only a fight reads (`init`, `tactic`): the
//! [`Encounter`] settings and the checks that make a scenario a fight both sides can play
//! (SPEC §6).

use toml::Spanned;

use super::bounded::MAX_MODIFIER;
use super::raw::{RawCombatant, RawEncounter, RawExperiment};
use super::{Action, Combatant, PlanLine, Validator};
use crate::error::InputError;
use crate::rules::Keyword;

/// `[encounter]`: how turn order is set. The rounds live in [`super::Scenario::rounds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encounter {
    pub initiative: Initiative,
}

/// How the turn order of a trial is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initiative {
    /// Each trial, d20 + `init` per combatant; ties by higher `init`, then at random.
    Rolled,
    /// The order of `[[combatant]]` in the file.
    Listed,
}

/// How a combatant picks whom to attack when it has no orders or its target dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tactic {
    /// The target and attack with the most expected damage this turn.
    Best,
    /// The enemy with the least hit points left.
    Weakest,
    /// The closest enemy (ties: file order).
    Nearest,
    /// Uniformly among the enemies it can attack.
    Random,
    /// Never retarget: attacks whose target dropped are not made.
    Hold,
}

impl Keyword for Initiative {
    const WHAT: &'static str = "initiative";

    fn table() -> Vec<(&'static str, Self)> {
        vec![
            ("rolled", Initiative::Rolled),
            ("listed", Initiative::Listed),
        ]
    }
}

impl Keyword for Tactic {
    const WHAT: &'static str = "tactic";

    fn table() -> Vec<(&'static str, Self)> {
        vec![
            ("best", Tactic::Best),
            ("weakest", Tactic::Weakest),
            ("nearest", Tactic::Nearest),
            ("random", Tactic::Random),
            ("hold", Tactic::Hold),
        ]
    }
}

impl Initiative {
    /// The value's name in experiment files.
    pub fn key(self) -> &'static str {
        match self {
            Initiative::Rolled => "rolled",
            Initiative::Listed => "listed",
        }
    }
}

impl Tactic {
    /// The value's name in experiment files.
    pub fn key(self) -> &'static str {
        match self {
            Tactic::Best => "best",
            Tactic::Weakest => "weakest",
            Tactic::Nearest => "nearest",
            Tactic::Random => "random",
            Tactic::Hold => "hold",
        }
    }
}

/// A combatant's fight keys, validated: `init` (default `dex`) and `tactic`.
pub(super) struct FightKeys {
    pub init: i32,
    pub tactic: Tactic,
}

impl Validator<'_> {
    /// `[encounter]`, and the rounds the experiment plays: `rounds` at the top or in
    /// `[encounter]` (not both).
    pub(super) fn encounter(
        &self,
        raw: &RawExperiment,
        top_rounds: u32,
    ) -> Result<(Option<Encounter>, u32), InputError> {
        let Some(e) = &raw.encounter else {
            return Ok((None, top_rounds));
        };
        let RawEncounter { initiative, rounds } = e.get_ref();
        let initiative = self.keyword_or(initiative.as_ref(), Initiative::Rolled)?;
        let rounds = match (rounds, &raw.rounds) {
            (Some(_), Some(top)) => {
                return Err(self.err(
                    top.span(),
                    "`rounds` is given twice: keep it in [encounter] and remove the top-level `rounds`",
                ));
            }
            (Some(r), None) => self.rounds_value(r)?,
            (None, _) => top_rounds,
        };
        Ok((Some(Encounter { initiative }), rounds))
    }

    /// `init` and `tactic`, which only a fight reads: refused without `[encounter]`.
    pub(super) fn fight_keys(
        &self,
        c: &RawCombatant,
        encounter: bool,
    ) -> Result<FightKeys, InputError> {
        if !encounter {
            let given = (c.init.as_ref().map(Spanned::span))
                .or_else(|| c.tactic.as_ref().map(Spanned::span));
            if let Some(span) = given {
                return Err(self.err(
                    span,
                    "`init` and `tactic` are read only in a fight: add an [encounter] table, or remove the key",
                ));
            }
        }
        let init = match &c.init {
            None => c.dex,
            Some(i) if i.get_ref().abs() <= i64::from(MAX_MODIFIER) => *i.get_ref() as i32,
            Some(i) => {
                return Err(self.err(
                    i.span(),
                    format!("init must be -{MAX_MODIFIER} to {MAX_MODIFIER}"),
                ));
            }
        };
        Ok(FightKeys {
            init,
            tactic: self.keyword_or(c.tactic.as_ref(), Tactic::Best)?,
        })
    }

    /// What a fight needs of its combatants and orders: hit points for everyone, two
    /// sides, and orders the turn engine plays (attack rolls, not areas or a coup de grace).
    pub(super) fn check_fight(
        &self,
        raw: &RawExperiment,
        combatants: &[Combatant],
        plan: &[PlanLine],
    ) -> Result<(), InputError> {
        let Some(e) = &raw.encounter else {
            return Ok(());
        };
        for (c, raw_c) in combatants.iter().zip(&raw.combatants) {
            if c.hp.is_none() {
                return Err(self.err(
                    raw_c.get_ref().token.span(),
                    format!(
                        "{} needs `hp` in a fight: the fight ends when a side has no one able to act",
                        c.name
                    ),
                ));
            }
        }
        let first_side = combatants.first().map(|c| &c.side);
        if combatants.iter().all(|c| Some(&c.side) == first_side) {
            return Err(self.err(
                e.span(),
                "a fight needs two sides: give the combatants `side` names (e.g. side = \"party\" and side = \"monsters\")",
            ));
        }
        for (line, raw_line) in plan.iter().zip(&raw.plan) {
            let (attacker, target) = (
                &combatants[line.attacker.index()],
                &combatants[line.target.index()],
            );
            if attacker.side == target.side {
                return Err(self.err(
                    raw_line.get_ref().target.span(),
                    format!(
                        "in a fight a combatant attacks only enemies: `{}` and `{}` are both on side `{}`",
                        attacker.token, target.token, target.side
                    ),
                ));
            }
            let attack = &attacker.attacks[line.attack];
            if line.area.is_some() || line.action == Action::CoupDeGrace {
                return Err(self.err(
                    line.span.clone(),
                    format!(
                        "in a fight, orders are attack rolls: the {} is {}, which the turn engine does not play yet; remove the [encounter] table to tally it as a plan line",
                        attack.name,
                        if line.area.is_some() {
                            "an area attack"
                        } else {
                            "a coup de grace"
                        }
                    ),
                ));
            }
        }
        Ok(())
    }
}

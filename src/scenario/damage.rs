//! The damage and injury keys (RULES.md §9, §10): an attack's `precision`, `extra_damage`
//! and `bypass_dr`; a combatant's `dr`, `immune_to_precision`, and Starfinder's `stamina`
//! and `resolve`. Each is refused where the system or the attack would ignore it.

use toml::Spanned;

use super::Validator;
use super::raw::{RawAttack, RawCombatant};
use crate::dice::Dice;
use crate::error::InputError;
use crate::rules::{RuleSet, SystemId};

/// Most damage reduction, Stamina or Resolve a combatant may have.
pub const MAX_INJURY_NUMBER: i64 = 100_000;

/// An attack's damage keys, validated.
pub(super) struct ExtraDice {
    pub precision: Dice,
    pub extra_damage: Dice,
    pub bypass_dr: bool,
}

/// A combatant's injury keys, validated.
pub(super) struct InjuryKeys {
    pub dr: i64,
    pub immune_to_precision: bool,
    pub stamina: i64,
    /// Maximum Resolve Points (0: none).
    pub resolve_points: i64,
}

impl Validator<'_> {
    pub(super) fn extra_dice(
        &self,
        a: &RawAttack,
        area: bool,
        rules: &RuleSet,
    ) -> Result<ExtraDice, InputError> {
        if area {
            let given = [
                a.precision.as_ref().map(Spanned::span),
                a.extra_damage.as_ref().map(Spanned::span),
                a.bypass_dr.as_ref().map(Spanned::span),
            ];
            if let Some(span) = given.into_iter().flatten().next() {
                return Err(self.err(
                    span,
                    "`precision`, `extra_damage` and `bypass_dr` are for attacks that hit (melee or ranged): an area effect's damage is all in `damage`",
                ));
            }
        }
        if let Some(p) = a
            .precision
            .as_ref()
            .filter(|_| rules.injury.precision.is_none())
        {
            return Err(self.err(
                p.span(),
                format!(
                    "{} has no precision damage (sneak attack, trick attack): remove `precision` or add the dice to `extra_damage`",
                    rules.name
                ),
            ));
        }
        Ok(ExtraDice {
            precision: self.added_dice(a.precision.as_ref(), "precision")?,
            extra_damage: self.added_dice(a.extra_damage.as_ref(), "extra_damage")?,
            bypass_dr: a.bypass_dr.as_ref().is_some_and(|b| *b.get_ref()),
        })
    }

    /// Dice that add to a hit: an expression like `2d6`, never taking damage away.
    fn added_dice(&self, value: Option<&Spanned<String>>, key: &str) -> Result<Dice, InputError> {
        let Some(value) = value else {
            return Ok(Dice::zero());
        };
        let dice: Dice = self.parsed(value, key)?;
        if dice.constant < 0 {
            return Err(self.err(
                value.span(),
                format!(
                    "bad {key} `{}`: these dice add damage; a negative constant belongs in `damage`",
                    value.get_ref()
                ),
            ));
        }
        Ok(dice)
    }

    pub(super) fn injury_keys(
        &self,
        c: &RawCombatant,
        rules: &RuleSet,
    ) -> Result<InjuryKeys, InputError> {
        let starfinder = rules.system == SystemId::Starfinder;
        let number = |value: Option<&Spanned<i64>>, key: &str, least: i64| match value {
            None => Ok(None),
            Some(v) if (least..=MAX_INJURY_NUMBER).contains(v.get_ref()) => Ok(Some(*v.get_ref())),
            Some(v) => Err(self.err(
                v.span(),
                format!("{key} must be {least} to {MAX_INJURY_NUMBER}"),
            )),
        };
        if !starfinder && let Some(v) = c.stamina.as_ref().or(c.resolve.as_ref()) {
            return Err(self.err(
                v.span(),
                format!(
                    "`stamina` and `resolve` are Starfinder's; {} has hit points only (`hp`, and `con` for when it dies)",
                    rules.name
                ),
            ));
        }
        if starfinder && let Some(con) = &c.con {
            return Err(self.err(
                con.span(),
                "Starfinder does not use a Con score for death: give `stamina` (Stamina Points) and, for a creature with Resolve Points, `resolve`",
            ));
        }
        if let Some(i) = c
            .immune_to_precision
            .as_ref()
            .filter(|_| rules.injury.precision.is_none())
        {
            return Err(self.err(
                i.span(),
                format!(
                    "{} has no precision damage, so nothing is immune to it: remove `immune_to_precision`",
                    rules.name
                ),
            ));
        }
        Ok(InjuryKeys {
            dr: number(c.dr.as_ref(), "dr (damage reduction)", 0)?.unwrap_or(0),
            immune_to_precision: c.immune_to_precision.as_ref().is_some_and(|i| *i.get_ref()),
            stamina: number(c.stamina.as_ref(), "stamina (Stamina Points)", 0)?.unwrap_or(0),
            resolve_points: number(c.resolve.as_ref(), "resolve (Resolve Points)", 1)?.unwrap_or(0),
        })
    }
}

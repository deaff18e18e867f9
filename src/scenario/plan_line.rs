//! `[[plan]]`: the [`PlanLine`] type and its validation — who attacks whom with which
//! attack, the action, the GM's overrides, and an area attack's save and origin.

use std::ops::Range;

use toml::Spanned;

use super::Validator;
use super::attack::{AreaSave, Attack, AttackKind, SaveFields};
use super::battlefield::Battlefield;
use super::combatant::{Combatant, CombatantId};
use super::keyword::attack_index;
use super::raw::{RawExperiment, RawPlanLine};
use crate::error::InputError;
use crate::map::Point;
use crate::rules::{CoverLevel, RuleSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The first bonus only.
    Single,
    /// Every iterative, in order.
    Full,
    /// A full-round automatic critical hit on a helpless target, then save or die.
    CoupDeGrace,
}

/// What the GM rules for a plan line, overriding whatever the map would say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    pub cover: Option<CoverLevel>,
    pub concealment: Option<u8>,
    pub flanking: Option<bool>,
    pub attack_mod: Option<i32>,
    pub ac_mod: Option<i32>,
    /// `Some(false)`: no penalty for shooting into melee, whatever the map says. No key
    /// sets it: a fight plans its lines so for when every ally engaged with the target is
    /// down.
    pub into_melee: Option<bool>,
}

/// One line of the plan, with combatants as ids and attacks as indices.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanLine {
    pub attacker: CombatantId,
    pub target: CombatantId,
    pub attack: usize,
    pub action: Action,
    pub overrides: Overrides,
    /// Where the line is written, for errors found later (e.g. total cover).
    pub span: Range<usize>,
    /// Whether the attacker knows the square of a target with total concealment (`false`:
    /// it guesses among the squares the target could be in). Unset: an unseen target
    /// (invisible, or the attacker blinded) must be guessed, any other is known.
    pub pinpointed: Option<bool>,
    /// Area attacks: the save, with the plan line's overrides applied.
    pub area: Option<AreaSave>,
    /// Area attacks: the grid intersection the effect bursts from (`None`: it comes from
    /// the attacker, judged as a ranged attack).
    pub origin: Option<Point>,
}

impl Validator<'_> {
    /// Every plan line, in file order; a plan must have at least one unless the
    /// experiment is a fight (whose combatants then act by their tactics).
    pub(super) fn plan(
        &self,
        raw: &RawExperiment,
        combatants: &[Combatant],
        battlefield: Option<&Battlefield>,
        rules: &RuleSet,
    ) -> Result<Vec<PlanLine>, InputError> {
        let plan = raw
            .plan
            .iter()
            .map(|line| self.plan_line(line, combatants, battlefield, rules))
            .collect::<Result<Vec<_>, _>>()?;
        if plan.is_empty() && raw.encounter.is_none() {
            return Err(self.err(
                0..0,
                "the experiment has no [[plan]] line: nothing attacks; add [[plan]] with attacker, target and attack, or an [encounter] table to let the combatants fight by their tactics",
            ));
        }
        Ok(plan)
    }

    fn plan_line(
        &self,
        raw: &Spanned<RawPlanLine>,
        combatants: &[Combatant],
        battlefield: Option<&Battlefield>,
        rules: &RuleSet,
    ) -> Result<PlanLine, InputError> {
        let p = raw.get_ref();
        let (attacker, target) = self.attacker_and_target(p, combatants)?;
        let attack = attack_index(&combatants[attacker.index()], p.attack.get_ref(), "none")
            .map_err(|message| self.err(p.attack.span(), message))?;
        let action = self.keyword_or(p.action.as_ref(), Action::Single)?;
        let overrides = self.overrides(p, rules)?;
        let chosen = &combatants[attacker.index()].attacks[attack];
        if let Some(flanking) = &p.flanking
            && *flanking.get_ref()
            && chosen.kind != AttackKind::Melee
        {
            return Err(self.err(
                flanking.span(),
                format!(
                    "flanking gives a bonus to melee attacks only, and `{}` is not one: remove `flanking`",
                    chosen.name
                ),
            ));
        }
        let area = self.area_save(p, chosen, action)?;
        let origin = self.origin(p, chosen, battlefield)?;
        if origin.is_none()
            && let Some(radius) = chosen.radius
        {
            return Err(self.err(
                p.attack.span(),
                format!(
                    "`{}` has a {radius}-ft radius, measured from a point: give this plan line `origin = [x, y]`",
                    chosen.name
                ),
            ));
        }
        Ok(PlanLine {
            attacker,
            target,
            attack,
            action,
            area,
            origin,
            overrides,
            span: raw.span(),
            pinpointed: p.pinpointed,
        })
    }

    /// The attacker and the target: two combatants, the target with hit points.
    fn attacker_and_target(
        &self,
        p: &RawPlanLine,
        combatants: &[Combatant],
    ) -> Result<(CombatantId, CombatantId), InputError> {
        let attacker = self.token(&p.attacker, combatants)?;
        let target = self.token(&p.target, combatants)?;
        if attacker == target {
            return Err(self.err(p.target.span(), "a combatant cannot attack itself"));
        }
        if combatants[target.index()].hp.is_none() {
            return Err(self.err(
                p.target.span(),
                format!(
                    "target `{}` has no hp: give it `hp = …`",
                    combatants[target.index()].token
                ),
            ));
        }
        Ok((attacker, target))
    }

    /// What the GM rules for the line: cover (one of the system's levels), concealment,
    /// flanking and modifiers.
    fn overrides(&self, p: &RawPlanLine, rules: &RuleSet) -> Result<Overrides, InputError> {
        let cover = (p.cover.as_ref())
            .map(|c| (rules.cover_level(c.get_ref())).map_err(|why| self.err(c.span(), why)))
            .transpose()?;
        let concealment = match &p.concealment {
            None => None,
            Some(c) if (0..=100).contains(c.get_ref()) => Some(*c.get_ref() as u8),
            Some(c) => {
                return Err(self.err(
                    c.span(),
                    "concealment is a miss chance in percent: 0 to 100",
                ));
            }
        };
        Ok(Overrides {
            cover,
            concealment,
            flanking: p.flanking.as_ref().map(|f| *f.get_ref()),
            attack_mod: p.attack_mod,
            ac_mod: p.ac_mod,
            into_melee: None,
        })
    }

    /// An area attack's save: the attack's, with the line's `save`, `dc` and `on_save`
    /// over it; the line may give them only for an area attack, which is one action.
    fn area_save(
        &self,
        p: &RawPlanLine,
        chosen: &Attack,
        action: Action,
    ) -> Result<Option<AreaSave>, InputError> {
        let is_area = chosen.kind == AttackKind::Area;
        let SaveFields { save, dc, on_save } =
            self.save_fields(&p.save, &p.dc, &p.on_save, is_area)?;
        if !is_area {
            return Ok(None);
        }
        if let Some(a) = p.action.as_ref().filter(|_| action != Action::Single) {
            return Err(self.err(
                a.span(),
                "an area attack is one effect: use action = \"single\" (or leave it out)",
            ));
        }
        let dc = dc.or(chosen.dc).ok_or_else(|| {
            self.err(
                p.attack.span(),
                format!(
                    "area attack `{}` needs a save DC: give `dc = …` on the attack or the plan line",
                    chosen.name
                ),
            )
        })?;
        Ok(Some(AreaSave {
            save: save.unwrap_or(chosen.save),
            dc,
            on_save: on_save.unwrap_or(chosen.on_save),
        }))
    }

    /// An area attack's `origin`: a grid intersection on the map.
    fn origin(
        &self,
        p: &RawPlanLine,
        chosen: &Attack,
        battlefield: Option<&Battlefield>,
    ) -> Result<Option<Point>, InputError> {
        match &p.origin {
            None => Ok(None),
            Some(o) if chosen.kind != AttackKind::Area => {
                Err(self.err(o.span(), "`origin` is for area attacks only"))
            }
            Some(o) if battlefield.is_none() => Err(self.err(
                o.span(),
                "`origin` is a point on the map: draw a `map` or leave `origin` out",
            )),
            Some(o) => match o.get_ref()[..] {
                [x, y]
                    if battlefield.is_some_and(|b| {
                        (0..=b.grid.width() as i64).contains(&x)
                            && (0..=b.grid.height() as i64).contains(&y)
                    }) =>
                {
                    Ok(Some(Point {
                        x: x as i32,
                        y: y as i32,
                    }))
                }
                _ => Err(self.err(
                    o.span(),
                    "origin is a grid intersection `[x, y]`: two whole numbers, 0 up to the map's width and height",
                )),
            },
        }
    }
}

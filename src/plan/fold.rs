//! An attack-rolling or area line folded into effective numbers: the profiles of its attacks,
//! the modifiers that made them, and the refusals (total cover, a prone archer, a coup de
//! grace at a creature that is not helpless).

use std::ops::Range;

use crate::attack::{AttackProfile, CoverStrike, Portion, Resolution, SquareGuess};
use crate::damage::{PrecisionContext, massive_check, precision_applies, unmultiplied_dice};
use crate::rules::{
    ConditionEffect, CoverLevel, CritRule, DexRule, RuleSet, combine, dex_adjustment,
};
use crate::scenario::{AreaSave, Evasion, SaveKind};
use crate::situation::Perception;

use super::{
    Assumes, Grappler, Line, LineAttack, LineDefence, LineId, Modifiers, Place, PlanBuilder,
    SaveRoll, SetByPlan, Situation, Slot, StruckInstead, TargetId,
};

/// A line's attacks against one defender, before they become slots.
struct Rolled {
    modifiers: Modifiers,
    /// One profile per attack of the routine.
    profiles: Vec<AttackProfile>,
    /// The creature a roll may strike instead, and why.
    covering: Option<(TargetId, StruckInstead)>,
    period: u32,
}

impl PlanBuilder {
    /// Folds a line's situation into effective numbers and appends its attacks; the error
    /// says why the line cannot be made (total cover, a level the system lacks). A ranged
    /// attack roll at a grappling defender strikes it or its partner, at random, each
    /// attack: the defence carries its partner only for such a roll. `source` is the
    /// `[[plan]]` table the line comes from, if any.
    ///
    /// # Panics
    /// If the defence or its situation names a target this builder did not add.
    pub fn add_line(
        &mut self,
        rules: &RuleSet,
        attack: LineAttack,
        defence: LineDefence,
        situation: Situation,
        source: Option<Range<usize>>,
    ) -> Result<LineId, String> {
        self.check_target(defence.target);
        if let Some(covering) = situation.covering {
            self.check_target(covering.target);
        }
        if let Some(grappler) = defence.grappling.as_deref() {
            self.check_target(grappler.defence.target);
        }
        refuse_cover(rules, &attack, situation)?;
        if let Some(area) = attack.area {
            return self.add_area_line(rules, attack, &defence, situation, area, source);
        }
        let mut rolled = self.rolled(rules, &attack, &defence, situation)?;
        if let Some(grappler) = defence.grappling.as_deref() {
            self.strike_grappler(rules, &attack, grappler, &mut rolled)?;
        }
        let line = LineId(self.plan.lines.len());
        for (index, (profile, &bonus)) in
            rolled.profiles.into_iter().zip(&attack.bonuses).enumerate()
        {
            self.plan.slots.push(Slot {
                line,
                index,
                base_bonus: bonus,
                target: defence.target,
                profile,
                covering: rolled.covering.map(|(target, _)| target),
                period: rolled.period,
                attacker: None,
                assumes: Assumes::NOTHING,
                modifiers: None,
            });
            self.plan
                .places
                .push(Place::plain(self.plan.slots.len() - 1));
        }
        self.plan.lines.push(Line {
            attacker: attack.attacker,
            target: defence.target,
            attack: attack.name,
            armor: defence.armor,
            modifiers: rolled.modifiers,
            struck_instead: rolled.covering.map(|(_, why)| why),
            source,
        });
        Ok(line)
    }

    /// Half of the attacks strike the grappler instead: each profile gets the same attack
    /// roll (one shot at the pair: its bonus is the line's, range and shooting into melee
    /// included) against the grappler's AC, cover and concealment on the attacker's line
    /// to it, and a note says so. Soft cover on either line is refused: its creature
    /// could be struck instead, and one attack strikes at most one creature besides its
    /// target (here, the other grappler).
    fn strike_grappler(
        &mut self,
        rules: &RuleSet,
        attack: &LineAttack,
        grappler: &Grappler,
        rolled: &mut Rolled,
    ) -> Result<(), String> {
        let theirs = refuse_cover(rules, attack, grappler.situation)
            .and_then(|()| self.rolled(rules, attack, &grappler.defence, grappler.situation))
            .map_err(|m| {
                format!(
                    "{m} (the target is grappling with {}, whom the attack strikes half the time)",
                    grappler.label
                )
            })?;
        if rolled.modifiers.cover == CoverLevel::Soft || theirs.modifiers.cover == CoverLevel::Soft
        {
            return Err(format!(
                "{} shoots at a grappling pair with soft cover from a creature in the line: the shot strikes one of the pair at random, and d20odds strikes no third creature instead; move that creature, or give the plan line another `cover` level",
                attack.attacker
            ));
        }
        let note = format!(
            "{} with the {}: the target is grappling with {}: each attack strikes one of the two at random (1/2), the one struck losing its Dex bonus; {} is reported as the creature struck instead",
            attack.attacker, attack.name, grappler.label, grappler.label
        );
        if !self.plan.notes.contains(&note) {
            self.plan.notes.push(note);
        }
        for (profile, partner) in rolled.profiles.iter_mut().zip(theirs.profiles) {
            profile.grappling_partner = Some(Box::new(AttackProfile {
                bonus: profile.bonus,
                ..partner
            }));
        }
        rolled.covering = Some((grappler.defence.target, StruckInstead::GrapplingPartner));
        Ok(())
    }

    /// One attack-rolling line's modifiers and a profile per attack of its routine.
    fn rolled(
        &mut self,
        rules: &RuleSet,
        attack: &LineAttack,
        defence: &LineDefence,
        situation: Situation,
    ) -> Result<Rolled, String> {
        let melee = attack.melee;
        let attacker = combine(&attack.conditions, melee, situation.adjacent);
        let defender = combine(&defence.conditions, melee, situation.adjacent);
        if attacker.no_ranged && !melee && !attack.crossbow {
            return Err(format!(
                "{} is prone and cannot use a ranged weapon other than a crossbow (set `crossbow = true` on the attack if it is one)",
                attack.attacker
            ));
        }
        let concealment = situation.concealment.unwrap_or(0);
        let (resolution, period) =
            self.resolution(rules, attack, defence, defender.helpless, concealment)?;
        let sums = Sums::new(rules, attack, defence, &situation, &attacker, &defender);
        let covering = situation
            .covering
            .filter(|_| {
                rules.striking_the_cover && sums.cover == CoverLevel::Soft && sums.cover_ac > 0
            })
            .filter(|_| resolution == Resolution::Roll);
        if let Some(note) = unused_crit_note(rules, attack)
            && !self.plan.notes.contains(&note)
        {
            self.plan.notes.push(note);
        }
        let precision = precision_applies(
            rules,
            attack,
            defence,
            PrecisionContext {
                flanking: sums.flanking,
                denied_dex: sums.denied_dex,
                distance_ft: situation.distance_ft,
                concealed: concealment > 0,
            },
        );
        let modifiers = Modifiers {
            cover: sums.cover,
            cover_raised_from: sums.cover_raised_from,
            concealment,
            flanking: sums.flanking,
            precision,
            guess: situation.guess.unwrap_or(SquareGuess::KNOWN),
            attack_mod: sums.attack_mod,
            ac_mod: sums.ac_mod,
            save: None,
            range_penalty: sums.range_penalty,
            into_melee: sums.into_melee,
            perception: situation.perception,
            set_by_plan: situation.set_by_plan,
        };
        let cover_strike = covering.map(|c| CoverStrike {
            cover_ac: sums.cover_ac,
            defense: c.defense,
            dex_bonus: c.dex.max(0),
            dr: if attack.bypass_dr { 0 } else { c.dr },
            massive: c.massive,
        });
        Ok(Rolled {
            profiles: profiles(rules, attack, defence, &modifiers, resolution, cover_strike),
            modifiers,
            covering: covering.map(|c| (c.target, StruckInstead::SoftCover)),
            period,
        })
    }

    /// How the attack resolves and the rounds each attack takes: a coup de grace against
    /// total concealment takes the system's rounds (one to find the target, one to strike).
    fn resolution(
        &self,
        rules: &RuleSet,
        attack: &LineAttack,
        defence: &LineDefence,
        helpless: bool,
        concealment: u8,
    ) -> Result<(Resolution, u32), String> {
        let Some(level) = attack.coup_de_grace else {
            return Ok((Resolution::Roll, 1));
        };
        let resolution = Self::coup_de_grace(rules, attack, defence, helpless, level)?;
        let period = if concealment >= rules.total_concealment {
            rules.coup_de_grace.rounds_vs_total_concealment
        } else {
            1
        };
        if period > self.plan.rounds {
            return Err(format!(
                "{} needs {period} rounds for a coup de grace against a target with total concealment (one to find it, one to strike); set `rounds` to at least {period}",
                attack.attacker
            ));
        }
        Ok((resolution, period))
    }

    /// An area attack: no attack roll, no concealment or flanking; the target saves, with
    /// cover's Reflex bonus against a Reflex save, and evasion (its own, or improved
    /// evasion from cover) against a Reflex save for half (RULES.md §3.2).
    fn add_area_line(
        &mut self,
        rules: &RuleSet,
        attack: LineAttack,
        defence: &LineDefence,
        situation: Situation,
        area: AreaSave,
        source: Option<Range<usize>>,
    ) -> Result<LineId, String> {
        let cover = situation.cover.unwrap_or(CoverLevel::None);
        let reflex = area.save == SaveKind::Reflex;
        let cover_bonus = rules.cover_bonus(cover).filter(|_| reflex);
        let base = match area.save {
            SaveKind::Reflex => defence.reflex,
            SaveKind::Fort => defence.fort,
            SaveKind::Will => defence.will,
        };
        let bonus = base + cover_bonus.map_or(0, |c| c.reflex);
        let half_save = reflex && area.on_save == Portion::Half;
        let improved = half_save
            && (defence.evasion == Evasion::Improved
                || cover_bonus.is_some_and(|c| c.improved_evasion));
        let evades = half_save && (improved || defence.evasion == Evasion::Evasion);
        let save = SaveRoll {
            kind: area.save,
            bonus,
            dc: area.dc,
            on_failure: if improved {
                Portion::Half
            } else {
                Portion::Full
            },
            on_success: if evades {
                Portion::Nothing
            } else {
                area.on_save
            },
        };
        let mut profile = AttackProfile::new(rules, bonus, area.dc, attack.damage, attack.crit);
        profile.crits_possible = false;
        profile.massive = massive_check(rules, defence.con, defence.fort);
        profile.resolution = Resolution::Save {
            bonus,
            dc: area.dc,
            on_failure: save.on_failure,
            on_success: save.on_success,
        };
        let line = LineId(self.plan.lines.len());
        self.plan.slots.push(Slot {
            line,
            index: 0,
            base_bonus: base,
            target: defence.target,
            profile,
            covering: None,
            period: 1,
            attacker: None,
            assumes: Assumes::NOTHING,
            modifiers: None,
        });
        self.plan
            .places
            .push(Place::plain(self.plan.slots.len() - 1));
        self.plan.lines.push(Line {
            attacker: attack.attacker,
            target: defence.target,
            attack: attack.name,
            armor: defence.armor,
            modifiers: Modifiers {
                cover,
                cover_raised_from: None,
                concealment: 0,
                flanking: false,
                precision: false,
                guess: SquareGuess::KNOWN,
                attack_mod: bonus - base,
                ac_mod: 0,
                save: Some(save),
                range_penalty: 0,
                into_melee: 0,
                perception: Perception::default(),
                set_by_plan: SetByPlan::default(),
            },
            struck_instead: None,
            source,
        });
        Ok(line)
    }

    /// A coup de grace's resolution, or why it cannot be made (RULES.md §5).
    fn coup_de_grace(
        rules: &RuleSet,
        attack: &LineAttack,
        defence: &LineDefence,
        helpless: bool,
        level: i32,
    ) -> Result<Resolution, String> {
        let cdg = &rules.coup_de_grace;
        if !helpless {
            let helpless_names: Vec<&str> = rules
                .conditions
                .iter()
                .filter(|c| c.helpless)
                .map(|c| c.name)
                .collect();
            return Err(format!(
                "{} cannot deliver a coup de grace: the target is not helpless (give it one of: {})",
                attack.attacker,
                helpless_names.join(", ")
            ));
        }
        if defence.immune_to_crits && !cdg.crit_immune_normal_hit {
            return Err(format!(
                "{} cannot deliver a coup de grace: the target is immune to critical hits",
                attack.attacker
            ));
        }
        Ok(Resolution::CoupDeGrace {
            fort: defence.fort,
            dc: cdg.dc(level),
        })
    }
}

/// A line no attack can be made on: total cover, or a cover level the system lacks.
fn refuse_cover(rules: &RuleSet, attack: &LineAttack, situation: Situation) -> Result<(), String> {
    let cover = situation.cover.unwrap_or(CoverLevel::None);
    if cover == CoverLevel::Total {
        return Err(format!(
            "{} cannot attack: the target has total cover (no line of effect{})",
            attack.attacker,
            if attack.area.is_some() {
                " from the effect's origin"
            } else {
                ""
            }
        ));
    }
    rules.unknown_cover(cover).map_or(Ok(()), Err)
}

/// A crit spec the system's crit rule overrides (Starfinder: no threat range, always ×2),
/// said rather than silently ignored.
fn unused_crit_note(rules: &RuleSet, attack: &LineAttack) -> Option<String> {
    let range_unused =
        rules.crit_rule == CritRule::NaturalTwentyReachingAc && attack.crit.threat_min != 20;
    let multiplier_unused = rules
        .fixed_crit_multiplier
        .is_some_and(|m| m != attack.crit.multiplier);
    (range_unused || multiplier_unused).then(|| {
        format!(
            "{}'s {}: crit `{}` is not used in {}: a critical hit is {}",
            attack.attacker,
            attack.name,
            attack.crit,
            rules.name,
            match (rules.crit_rule, rules.fixed_crit_multiplier) {
                (CritRule::NaturalTwentyReachingAc, Some(m)) =>
                    format!("a natural 20 whose total reaches AC, damage x{m}"),
                (CritRule::NaturalTwentyReachingAc, None) =>
                    "a natural 20 whose total reaches AC".to_string(),
                (CritRule::ConfirmationRoll, Some(m)) => format!("a confirmed threat, damage x{m}"),
                (CritRule::ConfirmationRoll, None) => "a confirmed threat".to_string(),
            }
        )
    })
}

/// The sums folded into an attack-rolling line's bonus and AC, with the parts `check`
/// names.
struct Sums {
    cover: CoverLevel,
    /// The cover the map gave, when the target's posture raised it to `cover`.
    cover_raised_from: Option<CoverLevel>,
    /// Flanking counts for melee only.
    flanking: bool,
    /// Range increments' penalty (ranged only, inside `attack_mod`).
    range_penalty: i32,
    /// Shooting into melee's penalty (ranged only, inside `attack_mod`).
    into_melee: i32,
    /// Total added to every attack roll of the line.
    attack_mod: i32,
    /// Cover's AC bonus (inside `ac_mod`).
    cover_ac: i32,
    /// Total added to the target's AC.
    ac_mod: i32,
    /// The target loses its Dex bonus, for precision damage.
    denied_dex: bool,
}

impl Sums {
    fn new(
        rules: &RuleSet,
        attack: &LineAttack,
        defence: &LineDefence,
        situation: &Situation,
        attacker: &ConditionEffect,
        defender: &ConditionEffect,
    ) -> Sums {
        let melee = attack.melee;
        let mut cover = situation.cover.unwrap_or(CoverLevel::None);
        let mut cover_raised_from = None;
        let flanking = situation.flanking.unwrap_or(false) && melee;
        let (range_penalty, into_melee) = if melee {
            (0, 0)
        } else {
            (situation.range_penalty, situation.into_melee)
        };
        let attack_mod = situation.attack_mod.unwrap_or(0)
            + range_penalty
            + into_melee
            + if flanking { rules.flanking_bonus } else { 0 }
            + higher_ground_bonus(rules, attack, defence)
            + attacker.attack
            + defender.attacked;
        let target_dex = attack
            .conditions
            .iter()
            .map(|c| c.target_dex)
            .max()
            .unwrap_or(DexRule::Keep);
        // Flat-footed by its own condition or against an unseen attacker.
        let flat_footed =
            defender.flat_footed || attack.conditions.iter().any(|c| c.target_flat_footed);
        let mut cover_ac = rules.cover_ac(cover, melee);
        let mut condition_ac = condition_ac(rules, defence, defender, target_dex, flat_footed);
        // A posture's ranged bonus or the cover raised one degree, the better (Ambiguity 15).
        let raised = (rules.cover_raised_by_posture(cover))
            .filter(|_| !melee && !defender.helpless && defender.posture_ac > 0)
            .map(|raised| (raised, rules.cover_ac(raised, false)))
            .filter(|&(_, raised_ac)| raised_ac > cover_ac + defender.posture_ac);
        if let Some((raised, raised_ac)) = raised {
            cover_raised_from = Some(cover);
            (cover, cover_ac) = (raised, raised_ac);
            condition_ac -= defender.posture_ac;
        }
        Sums {
            cover,
            cover_raised_from,
            flanking,
            range_penalty,
            into_melee,
            attack_mod,
            cover_ac,
            ac_mod: situation.ac_mod.unwrap_or(0) + cover_ac + condition_ac,
            denied_dex: defender.dex.max(target_dex) >= DexRule::LoseBonus || flat_footed,
        }
    }
}

/// The AC change the conditions make: the defender's own, its Dex rule (the harshest of
/// its own and the attacker's) applied to its Dex once changed, and the system's
/// flat-footed AC once when `flat_footed`, whatever made it so; or the system's base
/// Defense of a helpless creature.
fn condition_ac(
    rules: &RuleSet,
    defence: &LineDefence,
    defender: &ConditionEffect,
    target_dex: DexRule,
    flat_footed: bool,
) -> i32 {
    match rules.helpless_defense(defence.size) {
        Some(helpless) if defender.helpless => helpless - defence.ac,
        _ => {
            let dex = dex_adjustment(
                defender.dex.max(target_dex),
                defence.dex,
                defender.dex_change,
            );
            defender.ac + dex + if flat_footed { rules.flat_footed_ac } else { 0 }
        }
    }
}

/// The system's higher-ground bonus when the attacker stands high enough above the target.
fn higher_ground_bonus(rules: &RuleSet, attack: &LineAttack, defence: &LineDefence) -> i32 {
    let above = attack.elevation - defence.elevation;
    let higher = above > 0
        && (!rules.higher_ground_half_target_height || 2 * above >= defence.size.row().squares * 5);
    match (higher, attack.melee) {
        (false, _) => 0,
        (true, true) => rules.higher_ground.0,
        (true, false) => rules.higher_ground.1,
    }
}

/// One profile per attack of the routine, each with the line's modifiers folded in.
fn profiles(
    rules: &RuleSet,
    attack: &LineAttack,
    defence: &LineDefence,
    modifiers: &Modifiers,
    resolution: Resolution,
    cover_strike: Option<CoverStrike>,
) -> Vec<AttackProfile> {
    let extra = unmultiplied_dice(attack, modifiers.precision);
    let massive = massive_check(rules, defence.con, defence.fort);
    attack
        .bonuses
        .iter()
        .map(|&bonus| {
            let mut profile = AttackProfile::new(
                rules,
                bonus + modifiers.attack_mod,
                defence.ac + modifiers.ac_mod,
                attack.damage.clone(),
                attack.crit,
            );
            profile.extra = extra.clone();
            profile.dr = if attack.bypass_dr { 0 } else { defence.dr };
            profile.massive = massive;
            // A coup de grace hits automatically: concealment only lengthens it.
            profile.miss_chance = if resolution == Resolution::Roll {
                modifiers.concealment
            } else {
                0
            };
            profile.crits_possible = !defence.immune_to_crits;
            profile.resolution = resolution;
            profile.guess = modifiers.guess;
            profile.cover_strike = cover_strike;
            profile
        })
        .collect()
}

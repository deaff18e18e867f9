//! Scenario + rule numbers → [`Plan`]: numbers only, what both engines consume.
//!
//! Everything situational (cover, concealment, flanking, GM modifiers) is folded into each
//! attack's effective bonus, AC and miss chance here, once; the engines never look at a
//! rule table or a map.

use crate::attack::{AttackProfile, CoverStrike, MassiveCheck, Portion, Resolution, SquareGuess};
use crate::damage::{PrecisionContext, massive_check, precision_applies, unmultiplied_dice};
use crate::dice::{CritSpec, Dice};
use crate::error::InputError;
pub use crate::injury::Target;
use crate::injury::Vitals;
use crate::rules::{
    Condition, CoverLevel, CritRule, DexRule, RuleSet, Size, SystemId, combine, dex_adjustment,
};
use crate::scenario::{
    Action, AreaSave, ArmorClass, AttackKind, Evasion, PlanLine, SaveKind, Scenario,
};
use crate::situation::{self, Perception};
use crate::verdict::{LineVerdict, line_verdict};

/// A fully resolved experiment.
#[derive(Debug, Clone)]
pub struct Plan {
    pub title: String,
    pub system: SystemId,
    pub rounds: u32,
    pub targets: Vec<Target>,
    pub lines: Vec<Line>,
    /// Every attack of a round, in the order they are made.
    pub slots: Vec<Slot>,
    /// What planning changed from the file as written (a crit spec the system does not
    /// use), for the summary, the report and the JSON.
    pub notes: Vec<String>,
}

/// The modifiers that apply to one plan line, and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifiers {
    pub cover: CoverLevel,
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

/// One plan line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub attacker: String,
    pub target: usize,
    pub attack: String,
    pub modifiers: Modifiers,
}

/// One attack of a line's routine (an iterative of a full attack, or the single attack).
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub line: usize,
    /// 0-based position in the routine.
    pub index: usize,
    /// The attack's own bonus before situational modifiers.
    pub base_bonus: i32,
    pub target: usize,
    pub profile: AttackProfile,
    /// The target index of the creature this attack may strike instead of its target:
    /// the one giving soft cover, or the one the target is grappling with (d20 Modern).
    pub covering: Option<usize>,
    /// Rounds each attack takes (2 for a PF1 coup de grace against a target with total
    /// concealment): it is made only at the end of every `period`-th round.
    pub period: u32,
}

/// What a GM or the map says about one attacker → target line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Situation {
    /// The square to strike must be guessed (total concealment, not pinpointed).
    pub guess: Option<SquareGuess>,
    pub cover: Option<CoverLevel>,
    pub concealment: Option<u8>,
    pub flanking: Option<bool>,
    pub attack_mod: Option<i32>,
    pub ac_mod: Option<i32>,
    /// A creature in the line gives the soft cover and can be struck (d20 Modern).
    pub covering: Option<Covering>,
    /// The attacker stands next to the target (d20 Modern's posture footnote).
    pub adjacent: bool,
    /// Range increments' penalty.
    pub range_penalty: i32,
    /// Shooting into melee's penalty.
    pub into_melee: i32,
    pub perception: Perception,
    /// Distance between attacker and target on the map, in feet.
    pub distance_ft: Option<i64>,
}

/// The creature giving soft cover, as striking the cover needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covering {
    /// Its index among the plan's targets.
    pub target: usize,
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
    pub attacker: String,
    pub name: String,
    pub melee: bool,
    pub bonuses: Vec<i32>,
    pub damage: Dice,
    /// Dice added to every hit, never multiplied (flaming, holy).
    pub extra_damage: Dice,
    /// Precision dice (sneak attack, trick attack): added where they apply, never
    /// multiplied.
    pub precision: Dice,
    /// Ignores the target's damage reduction.
    pub bypass_dr: bool,
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
    pub target: usize,
    pub ac: i32,
    /// Dex modifier included in `ac`.
    pub dex: i32,
    pub size: Size,
    pub immune_to_crits: bool,
    pub immune_to_precision: bool,
    /// Damage reduction: subtracted from each hit.
    pub dr: i64,
    /// Con score: d20 Modern's massive-damage threshold.
    pub con: Option<i64>,
    pub conditions: Vec<&'static Condition>,
    pub elevation: i32,
    /// Fort save bonus, against a coup de grace and Fort area effects.
    pub fort: i32,
    pub reflex: i32,
    pub will: i32,
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
    pub defence: LineDefence,
    pub situation: Situation,
}

/// A line's attacks against one defender, before they become slots.
struct Rolled {
    modifiers: Modifiers,
    /// One profile per attack of the routine.
    profiles: Vec<AttackProfile>,
    covering: Option<usize>,
    period: u32,
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
    pub fn plain(target: usize, ac: i32, immune_to_crits: bool) -> Self {
        Self {
            target,
            ac,
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

impl Plan {
    /// Resolves every plan line of a scenario.
    pub fn from_scenario(scenario: &Scenario) -> Result<Plan, InputError> {
        let (plan, refusals) = Self::from_scenario_skipping_refused(scenario);
        match refusals.into_iter().flatten().next() {
            Some(refusal) => Err(refusal),
            None => Ok(plan),
        }
    }

    /// Resolves the plan lines that can be made and says why the others cannot (out of
    /// reach, total cover…): a heatmap square where a line is impossible still has
    /// figures for the rest. The second value holds, per plan line, its refusal.
    pub fn from_scenario_skipping_refused(scenario: &Scenario) -> (Plan, Vec<Option<InputError>>) {
        let rules = scenario.system.rules();
        let mut targets: Vec<(usize, Target)> = Vec::new();
        let mut refusals = Vec::with_capacity(scenario.plan.len());
        let mut plan = Plan {
            title: scenario.title.clone(),
            system: scenario.system,
            rounds: scenario.rounds,
            targets: Vec::new(),
            lines: Vec::new(),
            slots: Vec::new(),
            notes: Vec::new(),
        };
        // Every line's target first, in order of first appearance (the heatmap relies on
        // it); creatures that only give cover come after.
        for line in &scenario.plan {
            target_index(&mut targets, scenario, line.target);
        }
        for line in &scenario.plan {
            let target = target_index(&mut targets, scenario, line.target);
            let mut target_of = |c| target_index(&mut targets, scenario, c);
            let added = line_parts(scenario, line, target, &mut target_of).and_then(|(a, d, s)| {
                plan.add_line(rules, a, d, s)
                    .map_err(|m| scenario.source.error(line.span.clone(), m))
            });
            refusals.push(added.err());
        }
        plan.targets = targets.into_iter().map(|(_, t)| t).collect();
        (plan, refusals)
    }

    /// An empty plan to which lines are added one by one (the `attack` command).
    pub fn empty(title: &str, system: SystemId, rounds: u32) -> Plan {
        Plan {
            title: title.to_string(),
            system,
            rounds,
            targets: Vec::new(),
            lines: Vec::new(),
            slots: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Folds a line's situation into effective numbers and appends its attacks; the error
    /// says why the line cannot be made (total cover, a level the system lacks). A ranged
    /// attack at a grappling defender strikes it or its partner, at random, each attack.
    pub fn add_line(
        &mut self,
        rules: &RuleSet,
        attack: LineAttack,
        defence: LineDefence,
        situation: Situation,
    ) -> Result<(), String> {
        refuse_cover(rules, &attack, situation)?;
        if let Some(area) = attack.area {
            return self.add_area_line(rules, attack, &defence, situation, area);
        }
        let mut rolled = self.rolled(rules, &attack, &defence, situation)?;
        // A coup de grace is delivered to one helpless creature, not rolled at a pair.
        let rolls = !attack.melee && attack.coup_de_grace.is_none();
        if let Some(grappler) = defence.grappling.as_deref().filter(|_| rolls) {
            self.strike_grappler(rules, &attack, grappler, &mut rolled)?;
        }
        let line = self.lines.len();
        for (index, (profile, &bonus)) in
            rolled.profiles.into_iter().zip(&attack.bonuses).enumerate()
        {
            self.slots.push(Slot {
                line,
                index,
                base_bonus: bonus,
                target: defence.target,
                profile,
                covering: rolled.covering,
                period: rolled.period,
            });
        }
        self.lines.push(Line {
            attacker: attack.attacker,
            target: defence.target,
            attack: attack.name,
            modifiers: rolled.modifiers,
        });
        Ok(())
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
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
        for (profile, partner) in rolled.profiles.iter_mut().zip(theirs.profiles) {
            profile.grappling_partner = Some(Box::new(AttackProfile {
                bonus: profile.bonus,
                ..partner
            }));
        }
        rolled.covering = Some(grappler.defence.target);
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
        let cover = situation.cover.unwrap_or(CoverLevel::None);
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
        let (resolution, period) = match attack.coup_de_grace {
            None => (Resolution::Roll, 1),
            Some(level) => {
                let resolution =
                    Self::coup_de_grace(rules, attack, defence, defender.helpless, level)?;
                let period = if concealment >= rules.total_concealment {
                    rules.coup_de_grace.rounds_vs_total_concealment
                } else {
                    1
                };
                if period > self.rounds {
                    return Err(format!(
                        "{} needs {period} rounds for a coup de grace against a target with total concealment (one to find it, one to strike); set `rounds` to at least {period}",
                        attack.attacker
                    ));
                }
                (resolution, period)
            }
        };
        let flanking = situation.flanking.unwrap_or(false) && melee;
        let higher_ground = if has_higher_ground(rules, attack, defence) {
            if melee {
                rules.higher_ground.0
            } else {
                rules.higher_ground.1
            }
        } else {
            0
        };
        let (range_penalty, into_melee) = if melee {
            (0, 0)
        } else {
            (situation.range_penalty, situation.into_melee)
        };
        let attack_mod = situation.attack_mod.unwrap_or(0)
            + range_penalty
            + into_melee
            + if flanking { rules.flanking_bonus } else { 0 }
            + higher_ground
            + attacker.attack
            + defender.attacked;
        let pick = |pair: (i32, i32)| if melee { pair.0 } else { pair.1 };
        let target_ac: i32 = attack.conditions.iter().map(|c| pick(c.target_ac)).sum();
        let target_dex = attack
            .conditions
            .iter()
            .map(|c| c.target_dex)
            .max()
            .unwrap_or(DexRule::Keep);
        let condition_ac = match rules.helpless_base_defense {
            Some(base) if defender.helpless => {
                base + rules.size_ac[defence.size as usize] - defence.ac
            }
            _ => {
                defender.ac + dex_adjustment(defender.dex.max(target_dex), defence.dex) + target_ac
            }
        };
        let cover_ac = rules.cover_ac(cover, melee);
        let ac_mod = situation.ac_mod.unwrap_or(0) + cover_ac + condition_ac;
        let guess = situation.guess.unwrap_or(SquareGuess::KNOWN);
        let covering = situation
            .covering
            .filter(|_| rules.striking_the_cover && cover == CoverLevel::Soft && cover_ac > 0)
            .filter(|_| resolution == Resolution::Roll);
        if let Some(note) = unused_crit_note(rules, attack)
            && !self.notes.contains(&note)
        {
            self.notes.push(note);
        }
        let denied_dex = defender.dex.max(target_dex) >= DexRule::LoseBonus
            || defender.flat_footed
            || attack.conditions.iter().any(|c| c.target_flat_footed);
        let precision = precision_applies(
            rules,
            attack,
            defence,
            PrecisionContext {
                flanking,
                denied_dex,
                distance_ft: situation.distance_ft,
            },
        );
        let extra = unmultiplied_dice(attack, precision);
        let dr_of = |dr: i64| if attack.bypass_dr { 0 } else { dr };
        let massive = massive_check(rules, defence.con, defence.fort);
        let profiles = attack
            .bonuses
            .iter()
            .map(|&bonus| {
                let mut profile = AttackProfile::new(
                    rules,
                    bonus + attack_mod,
                    defence.ac + ac_mod,
                    attack.damage.clone(),
                    attack.crit,
                );
                profile.extra = extra.clone();
                profile.dr = dr_of(defence.dr);
                profile.massive = massive;
                // A coup de grace hits automatically: concealment only lengthens it.
                profile.miss_chance = if resolution == Resolution::Roll {
                    concealment
                } else {
                    0
                };
                profile.crits_possible = !defence.immune_to_crits;
                profile.resolution = resolution;
                profile.guess = guess;
                profile.cover_strike = covering.map(|c| CoverStrike {
                    cover_ac,
                    defense: c.defense,
                    dex_bonus: c.dex.max(0),
                    dr: dr_of(c.dr),
                    massive: c.massive,
                });
                profile
            })
            .collect();
        Ok(Rolled {
            modifiers: Modifiers {
                cover,
                concealment,
                flanking,
                precision,
                guess,
                attack_mod,
                ac_mod,
                save: None,
                range_penalty,
                into_melee,
                perception: situation.perception,
            },
            profiles,
            covering: covering.map(|c| c.target),
            period,
        })
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
    ) -> Result<(), String> {
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
        let line = self.lines.len();
        self.slots.push(Slot {
            line,
            index: 0,
            base_bonus: base,
            target: defence.target,
            profile,
            covering: None,
            period: 1,
        });
        self.lines.push(Line {
            attacker: attack.attacker,
            target: defence.target,
            attack: attack.name,
            modifiers: Modifiers {
                cover,
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
            },
        });
        Ok(())
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

    /// Slots that attack one target, in order.
    pub fn slots_against(&self, target: usize) -> impl Iterator<Item = (usize, &Slot)> {
        self.slots
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.target == target)
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
    if rules.cover_bonus(cover).is_none() {
        return Err(format!("{} has no `{cover}` cover level", rules.name));
    }
    Ok(())
}

/// The plan target index of a combatant, adding it as a target when it is not one yet.
fn target_index(
    targets: &mut Vec<(usize, Target)>,
    scenario: &Scenario,
    combatant: usize,
) -> usize {
    targets
        .iter()
        .position(|(c, _)| *c == combatant)
        .unwrap_or_else(|| {
            let c = &scenario.combatants[combatant];
            let vitals = Vitals {
                hp: c.hp,
                con: c.con,
                stamina: c.stamina,
                resolve: c.resolve,
            };
            let label = format!("{} ({})", c.name, c.token);
            let rules = scenario.system.rules();
            targets.push((combatant, Target::for_system(rules, label, vitals)));
            targets.len() - 1
        })
}

/// One plan line's attack, defence and situation — the map's verdicts filled in where the
/// plan does not override them — for a target at index `target` of the plan's targets.
/// A target grappling another creature (d20 Modern) brings, against a ranged attack, the
/// same line drawn to that creature, which becomes a target too.
pub fn line_parts(
    scenario: &Scenario,
    line: &PlanLine,
    target: usize,
    target_of: &mut dyn FnMut(usize) -> usize,
) -> Result<(LineAttack, LineDefence, Situation), InputError> {
    let (attack, mut defence, situation) = single_line_parts(scenario, line, target, target_of)?;
    let kind = scenario.combatants[line.attacker].attacks[line.attack].kind;
    let grappler = scenario.combatants[line.target]
        .grappling_with
        .filter(|_| kind == AttackKind::Ranged);
    if let Some(partner) = grappler {
        let to_partner = PlanLine {
            target: partner,
            ..line.clone()
        };
        let index = target_of(partner);
        let (_, partner_defence, partner_situation) =
            single_line_parts(scenario, &to_partner, index, target_of)?;
        let c = &scenario.combatants[partner];
        defence.grappling = Some(Box::new(Grappler {
            label: format!("{} ({})", c.name, c.token),
            defence: partner_defence,
            situation: partner_situation,
        }));
    }
    Ok((attack, defence, situation))
}

/// [`line_parts`] for the line's own target alone.
fn single_line_parts(
    scenario: &Scenario,
    line: &PlanLine,
    target: usize,
    target_of: &mut dyn FnMut(usize) -> usize,
) -> Result<(LineAttack, LineDefence, Situation), InputError> {
    let rules = scenario.system.rules();
    let attacker = &scenario.combatants[line.attacker];
    let defender = &scenario.combatants[line.target];
    let attack = &attacker.attacks[line.attack];
    let bonuses = match line.action {
        Action::Single => attack.bonus[..1].to_vec(),
        Action::Full => attack.bonus.clone(),
        Action::CoupDeGrace => attack.bonus[..1].to_vec(),
    };
    let o = &line.overrides;
    let mut situation = Situation {
        cover: o.cover,
        concealment: None,
        flanking: o.flanking,
        attack_mod: o.attack_mod,
        ac_mod: o.ac_mod,
        ..Situation::default()
    };
    let mut grounds = (attacker.elevation, defender.elevation);
    let mut seen = Sighting::without_map(defender);
    if let Some(field) = &scenario.battlefield {
        let v = line_verdict(scenario, field, rules, line);
        check_reach(scenario, line, &v, attack)?;
        check_radius(scenario, line, &v, attack)?;
        if attack.kind != AttackKind::Area {
            seen = Sighting {
                miss_chance: v.concealment,
                total: v.concealment_lines.total,
                guess: v.guess,
                distance_ft: Some(v.distance_ft),
            };
            let range = situation::range(rules, attack, v.distance_ft)
                .map_err(|m| scenario.source.error(line.span.clone(), m))?;
            situation.range_penalty = range.map_or(0, |r| r.penalty);
            if situation::engaged_ally(scenario, field, rules, line).is_some() {
                situation.into_melee = situation::into_melee_penalty(rules, attacker, attack);
            }
        }
        situation.adjacent = v.adjacent;
        situation.cover = situation.cover.or(Some(v.cover));
        situation.flanking = situation.flanking.or(Some(v.flanking.is_some()));
        if o.cover.is_none()
            && rules.striking_the_cover
            && let Some(c) = v.covering
        {
            let covering = &scenario.combatants[c];
            situation.covering = Some(Covering {
                target: target_of(c),
                defense: covering.ac,
                dex: covering.dex,
                dr: covering.dr,
                massive: massive_check(rules, covering.con, covering.fort),
            });
        }
        situation.distance_ft = Some(v.distance_ft);
        grounds = (v.attacker_ground, v.target_ground);
    }
    if attack.kind != AttackKind::Area {
        let perception = situation::perceive(rules, attacker, defender, seen.distance_ft);
        let (miss_chance, total) = seen.with(rules, defender, perception);
        let pinpointed =
            perception.blindsense || line.pinpointed.unwrap_or(perception.unseen.is_none());
        if total && !pinpointed {
            situation.guess = Some(seen.guess);
        }
        situation.concealment = o.concealment.or(Some(miss_chance));
        situation.perception = perception;
    } else {
        situation.concealment = o.concealment;
    }
    let line_attack = LineAttack {
        attacker: format!("{} ({})", attacker.name, attacker.token),
        name: attack.name.clone(),
        melee: attack.kind == AttackKind::Melee,
        bonuses,
        damage: attack.damage.clone(),
        extra_damage: attack.extra_damage.clone(),
        precision: attack.precision.clone(),
        bypass_dr: attack.bypass_dr,
        crit: attack.crit,
        conditions: conditions_of(rules, &attacker.conditions),
        crossbow: attack.crossbow,
        elevation: grounds.0,
        coup_de_grace: (line.action == Action::CoupDeGrace).then_some(attacker.level),
        area: line.area,
    };
    let line_defence = LineDefence {
        target,
        ac: match attack.vs {
            ArmorClass::Eac => defender.eac,
            ArmorClass::Kac => defender.kac,
        },
        dex: defender.dex,
        size: defender.size,
        immune_to_crits: defender.immune_to_crits,
        immune_to_precision: defender.immune_to_precision,
        dr: defender.dr,
        con: defender.con,
        conditions: conditions_of(rules, &defender.conditions),
        elevation: grounds.1,
        fort: defender.fort,
        reflex: defender.reflex,
        will: defender.will,
        evasion: defender.evasion,
        grappling: None,
    };
    Ok((line_attack, line_defence, situation))
}

/// What the map says the attacker sees of the target, before its senses and the
/// target's own concealment.
struct Sighting {
    miss_chance: u8,
    total: bool,
    /// The squares to guess among under total concealment.
    guess: SquareGuess,
    /// `None` without a map.
    distance_ft: Option<i64>,
}

impl Sighting {
    /// Without a map nothing conceals the target but itself; a guess is among its own
    /// squares and the ring around them.
    fn without_map(defender: &crate::scenario::Combatant) -> Sighting {
        let side = defender.size.row().squares.max(1) as u32;
        Sighting {
            miss_chance: 0,
            total: false,
            guess: SquareGuess {
                right: side * side,
                candidates: (side + 2) * (side + 2),
            },
            distance_ft: None,
        }
    }

    /// The miss chance and whether it is total, once the attacker's senses and the
    /// target's own concealment are known: blindsight ignores all of it, an unseen target
    /// has total concealment, the highest miss chance counts.
    fn with(
        &self,
        rules: &RuleSet,
        defender: &crate::scenario::Combatant,
        perception: Perception,
    ) -> (u8, bool) {
        if perception.blindsight {
            return (0, false);
        }
        let unseen = perception.unseen.is_some();
        let miss = self.miss_chance.max(defender.concealment).max(if unseen {
            rules.total_concealment
        } else {
            0
        });
        (miss, self.total || unseen)
    }
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

/// Whether the attacker stands high enough above the target for the system's
/// higher-ground bonus.
fn has_higher_ground(rules: &RuleSet, attack: &LineAttack, defence: &LineDefence) -> bool {
    let above = attack.elevation - defence.elevation;
    above > 0
        && (!rules.higher_ground_half_target_height || 2 * above >= defence.size.row().squares * 5)
}

/// Melee must reach its target, and a coup de grace with a ranged weapon needs the
/// attacker adjacent (RULES.md §5): both are input errors at the plan line.
fn check_reach(
    scenario: &Scenario,
    line: &PlanLine,
    verdict: &LineVerdict,
    attack: &crate::scenario::Attack,
) -> Result<(), InputError> {
    let attacker = &scenario.combatants[line.attacker];
    let target = &scenario.combatants[line.target];
    if let Some(reach) = verdict.reach
        && !reach.threatens
    {
        let why = if reach.reach_weapon && verdict.adjacent {
            "a reach weapon cannot strike an adjacent creature".to_string()
        } else {
            format!(
                "its reach is {} ft and `{}` is {} ft away",
                reach.feet, target.token, verdict.distance_ft
            )
        };
        return Err(scenario.source.error(
            line.span.clone(),
            format!(
                "`{}` cannot reach `{}` with `{}`: {why}; move it on the map or set the attack's `reach`",
                attacker.token, target.token, attack.name
            ),
        ));
    }
    if line.action == Action::CoupDeGrace && attack.kind == AttackKind::Ranged && !verdict.adjacent
    {
        return Err(scenario.source.error(
            line.span.clone(),
            format!(
                "a coup de grace with a ranged weapon needs `{}` adjacent to `{}` on the map",
                attacker.token, target.token
            ),
        ));
    }
    Ok(())
}

/// An area with a radius reaches only targets that far from its origin: a target beyond
/// it is an input error at the plan line (and a refused square on a heatmap).
fn check_radius(
    scenario: &Scenario,
    line: &PlanLine,
    verdict: &LineVerdict,
    attack: &crate::scenario::Attack,
) -> Result<(), InputError> {
    match (attack.radius, verdict.origin_distance_ft) {
        (Some(radius), Some(feet)) if feet > i64::from(radius) => Err(scenario.source.error(
            line.span.clone(),
            format!(
                "`{}` is {feet} ft from the origin of `{}`, beyond its {radius}-ft radius: move the origin or leave the target out",
                scenario.combatants[line.target].token, attack.name
            ),
        )),
        _ => Ok(()),
    }
}

/// The system's condition entries for validated names.
fn conditions_of(rules: &RuleSet, names: &[&str]) -> Vec<&'static Condition> {
    names.iter().filter_map(|n| rules.condition(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(plan_extra: &str, attack_kind: &str) -> Scenario {
        let text = format!(
            r#"
system = "pf1"
map = "AB"
[[combatant]]
token = "A"
ac = 15
hp = 10
[[combatant.attack]]
name = "hit"
kind = "{attack_kind}"
bonus = [6, 1]
damage = "1d6"
[[combatant]]
token = "B"
ac = 16
hp = 12
con = 10
[[plan]]
attacker = "A"
target = "B"
attack = "hit"
action = "full"
{plan_extra}
"#
        );
        Scenario::parse("p.toml", text).unwrap()
    }

    fn modifiers(plan_extra: &str, kind: &str) -> (Modifiers, i32, i32) {
        let plan = Plan::from_scenario(&scenario(plan_extra, kind)).unwrap();
        let p = &plan.slots[0].profile;
        (plan.lines[0].modifiers.clone(), p.bonus, p.ac)
    }

    #[test]
    fn full_attack_makes_every_iterative_against_the_same_target() {
        let plan = Plan::from_scenario(&scenario("", "melee")).unwrap();
        let bonuses: Vec<i32> = plan.slots.iter().map(|s| s.profile.bonus).collect();
        assert_eq!(bonuses, vec![6, 1]);
        assert_eq!(plan.targets[0].down_at, Some(12));
        assert_eq!(plan.targets[0].dead_at, Some(22));
    }

    #[test]
    fn overrides_fold_into_effective_numbers() {
        let cases = [
            ("cover = \"cover\"", "melee", 6, 20),
            ("cover = \"partial\"", "ranged", 6, 18),
            ("cover = \"soft\"", "ranged", 6, 20),
            ("cover = \"soft\"", "melee", 6, 16),
            ("cover = \"improved\"", "ranged", 6, 24),
            ("flanking = true", "melee", 8, 16),
            ("flanking = true", "ranged", 6, 16),
            ("attack_mod = -2\nac_mod = 1", "melee", 4, 17),
        ];
        for (extra, kind, bonus, ac) in cases {
            let (_, b, a) = modifiers(extra, kind);
            assert_eq!((b, a), (bonus, ac), "{extra} {kind}");
        }
        let (m, _, _) = modifiers("concealment = 20\nflanking = true", "melee");
        assert_eq!((m.concealment, m.flanking, m.attack_mod), (20, true, 2));
    }

    #[test]
    fn total_cover_refuses_the_line() {
        let err = Plan::from_scenario(&scenario("cover = \"total\"", "ranged")).unwrap_err();
        assert!(err.to_string().starts_with("p.toml:18:1: "), "{err}");
        assert!(err.to_string().contains("total cover"), "{err}");
    }

    /// The change a condition makes to (melee bonus, melee AC, ranged bonus, ranged AC)
    /// of an attack by a +10 attacker on an AC 20 target whose AC holds Dex +3; the
    /// condition is the attacker's or the defender's.
    fn condition_deltas(system: SystemId, on_attacker: bool, name: &str) -> (i32, i32, i32, i32) {
        let rules = system.rules();
        let condition = rules
            .condition(name)
            .unwrap_or_else(|| panic!("{system} has no `{name}`"));
        let mut numbers = [0; 4];
        for (i, melee) in [true, false].into_iter().enumerate() {
            let mut attack = LineAttack::plain(
                "A",
                "a",
                melee,
                vec![10],
                "1".parse().unwrap(),
                Default::default(),
            );
            attack.crossbow = true;
            let mut defence = LineDefence::plain(0, 20, false);
            defence.dex = 3;
            if on_attacker {
                attack.conditions = vec![condition];
            } else {
                defence.conditions = vec![condition];
            }
            let mut plan = Plan::empty("t", system, 1);
            plan.add_line(rules, attack, defence, Situation::default())
                .unwrap();
            let profile = &plan.slots[0].profile;
            numbers[2 * i] = profile.bonus - 10;
            numbers[2 * i + 1] = profile.ac - 20;
        }
        (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    #[test]
    fn every_condition_applies_the_numbers_of_rules_md() {
        use SystemId::{D20Modern, Pf1, Pf1Variant, Starfinder};
        // (systems, on the attacker?, condition, melee bonus, melee AC, ranged bonus, ranged
        // AC), read off RULES.md §1–2 and §5; "loses Dex" takes the +3 away, "Dex counts as
        // -5" takes 8 away, helpless d20 Modern Defense is 5 + size (0).
        const PF: &[SystemId] = &[Pf1, Pf1Variant];
        type Case = (
            &'static [SystemId],
            bool,
            &'static str,
            (i32, i32, i32, i32),
        );
        let cases: &[Case] = &[
            (PF, true, "dazzled", (-1, 0, -1, 0)),
            (PF, true, "entangled", (-2, 0, -4, 0)),
            (PF, true, "invisible", (2, -3, 2, -3)),
            (PF, true, "prone", (-4, 0, 0, 0)),
            (PF, true, "shaken", (-2, 0, -2, 0)),
            (PF, true, "frightened", (-2, 0, -2, 0)),
            (PF, true, "squeezing", (-4, 0, -4, 0)),
            (PF, false, "blinded", (0, -5, 0, -5)),
            (PF, false, "cowering", (0, -5, 0, -5)),
            (PF, false, "entangled", (0, -2, 0, -2)),
            (PF, false, "flat-footed", (0, -3, 0, -3)),
            (PF, false, "grappling", (0, 0, 0, 0)),
            (PF, false, "helpless", (0, -12, 0, -8)),
            (PF, false, "paralyzed", (0, -12, 0, -8)),
            (PF, false, "unconscious", (0, -12, 0, -8)),
            (PF, false, "bound", (0, -12, 0, -8)),
            (PF, false, "kneeling", (0, -2, 0, 2)),
            (PF, false, "sitting", (0, -2, 0, 2)),
            (PF, false, "pinned", (0, -7, 0, -3)),
            (PF, false, "prone", (0, -4, 0, 4)),
            (PF, false, "squeezing", (0, -4, 0, -4)),
            (PF, false, "stunned", (0, -5, 0, -5)),
            (&[D20Modern], true, "prone", (-4, 0, -2, 0)),
            (&[D20Modern], true, "invisible", (2, -3, 2, -3)),
            (&[D20Modern], false, "sitting", (0, -2, 0, 2)),
            (&[D20Modern], false, "kneeling", (0, -2, 0, 2)),
            (&[D20Modern], false, "prone", (0, -4, 0, 4)),
            (&[D20Modern], false, "stunned", (0, -5, 0, -5)),
            (&[D20Modern], false, "cowering", (0, -5, 0, -5)),
            (&[D20Modern], false, "climbing", (0, -5, 0, -5)),
            (&[D20Modern], false, "blinded", (0, -5, 0, -5)),
            (&[D20Modern], false, "flat-footed", (0, -3, 0, -3)),
            (&[D20Modern], false, "running", (0, -3, 0, -1)),
            (&[D20Modern], false, "grappling", (0, -3, 0, -3)),
            (&[D20Modern], false, "pinned", (0, -12, 0, -8)),
            (&[D20Modern], false, "helpless", (0, -15, 0, -15)),
            (&[Starfinder], true, "prone", (-4, 0, 0, 0)),
            (&[Starfinder], true, "dazzled", (-1, 0, -1, 0)),
            (&[Starfinder], true, "entangled", (-2, 0, -2, 0)),
            (&[Starfinder], true, "grappled", (-2, 0, -2, 0)),
            (&[Starfinder], true, "pinned", (-4, 0, -4, 0)),
            (&[Starfinder], true, "shaken", (-2, 0, -2, 0)),
            (&[Starfinder], true, "frightened", (-2, 0, -2, 0)),
            (&[Starfinder], true, "sickened", (-2, 0, -2, 0)),
            (&[Starfinder], true, "off-kilter", (-2, 0, -2, 0)),
            (&[Starfinder], true, "off-target", (-2, 0, -2, 0)),
            (&[Starfinder], true, "fatigued", (-1, 0, -1, 0)),
            (&[Starfinder], true, "exhausted", (-3, 0, -3, 0)),
            (&[Starfinder], true, "invisible", (0, -2, 0, -2)),
            (&[Starfinder], false, "flat-footed", (0, -2, 0, -2)),
            (&[Starfinder], false, "prone", (0, -4, 0, 4)),
            (&[Starfinder], false, "blinded", (0, -2, 0, -2)),
            (&[Starfinder], false, "cowering", (0, -2, 0, -2)),
            (&[Starfinder], false, "stunned", (0, -2, 0, -2)),
            (&[Starfinder], false, "entangled", (0, -2, 0, -2)),
            (&[Starfinder], false, "grappled", (0, -2, 0, -2)),
            (&[Starfinder], false, "pinned", (0, -6, 0, -6)),
            (&[Starfinder], false, "helpless", (4, -8, 0, -8)),
            (&[Starfinder], false, "paralyzed", (0, -8, 0, -8)),
            (&[Starfinder], false, "fatigued", (0, -1, 0, -1)),
            (&[Starfinder], false, "exhausted", (0, -3, 0, -3)),
        ];
        for &(systems, on_attacker, name, expected) in cases {
            for &system in systems {
                let got = condition_deltas(system, on_attacker, name);
                assert_eq!(
                    got,
                    expected,
                    "{system} {name} on the {}",
                    if on_attacker { "attacker" } else { "defender" }
                );
            }
        }
    }

    #[test]
    fn prone_pf1_attackers_need_a_crossbow_for_ranged_attacks() {
        let rules = SystemId::Pf1.rules();
        let mut attack = LineAttack::plain(
            "A",
            "bow",
            false,
            vec![5],
            "1d8".parse().unwrap(),
            Default::default(),
        );
        attack.conditions = vec![rules.condition("prone").unwrap()];
        let mut plan = Plan::empty("t", SystemId::Pf1, 1);
        let err = plan
            .add_line(
                rules,
                attack,
                LineDefence::plain(0, 15, false),
                Situation::default(),
            )
            .unwrap_err();
        assert!(err.contains("crossbow = true"), "{err}");
    }

    #[test]
    fn coups_de_grace_need_a_helpless_target_that_can_be_critically_hit() {
        let helpless = "\n[[combatant]]\ntoken = \"C\"\nac = 10\nhp = 5\nconditions = [\"asleep\"]";
        let cases = [
            (
                "",
                "melee",
                "the target is not helpless (give it one of: helpless, paralyzed, unconscious, asleep, bound)",
            ),
            ("", "ranged", "not helpless"),
        ];
        for (extra, kind, expected) in cases {
            let text = scenario("", kind)
                .source
                .text
                .replace("action = \"full\"", "action = \"coup-de-grace\"")
                + extra
                + helpless;
            let text = text.replace("map = \"AB\"", "map = \"ABC\"");
            let err = Plan::from_scenario(&Scenario::parse("p.toml", text).unwrap()).unwrap_err();
            assert!(err.to_string().contains(expected), "{err}");
        }
        let asleep = scenario("", "melee")
            .source
            .text
            .replace("action = \"full\"", "action = \"coup-de-grace\"")
            .replace("con = 10", "con = 10\nconditions = [\"asleep\"]");
        let plan =
            Plan::from_scenario(&Scenario::parse("p.toml", asleep.clone()).unwrap()).unwrap();
        assert_eq!(plan.slots.len(), 1, "one blow, whatever the iteratives");
        let immune = asleep.replace("con = 10", "con = 10\nimmune_to_crits = true");
        let err = Plan::from_scenario(&Scenario::parse("p.toml", immune).unwrap()).unwrap_err();
        assert!(err.to_string().contains("immune to critical hits"), "{err}");
    }

    #[test]
    fn melee_must_reach_its_target_on_the_map() {
        let apart = scenario("", "melee")
            .source
            .text
            .replace("map = \"AB\"", "map = \"A.B\"");
        let err =
            Plan::from_scenario(&Scenario::parse("p.toml", apart.clone()).unwrap()).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("p.toml:18:1: "), "{text}");
        assert!(
            text.contains("its reach is 5 ft and `B` is 10 ft away"),
            "{text}"
        );
        let reach_weapon = apart.replace(
            "damage = \"1d6\"",
            "damage = \"1d6\"\nreach = 10\nreach_weapon = true",
        );
        assert!(
            Plan::from_scenario(&Scenario::parse("p.toml", reach_weapon.clone()).unwrap()).is_ok()
        );
        let adjacent = reach_weapon.replace("map = \"A.B\"", "map = \"AB\"");
        let err = Plan::from_scenario(&Scenario::parse("p.toml", adjacent).unwrap()).unwrap_err();
        assert!(
            err.to_string()
                .contains("a reach weapon cannot strike an adjacent creature"),
            "{err}"
        );
        let ranged = apart.replace("kind = \"melee\"", "kind = \"ranged\"");
        assert!(Plan::from_scenario(&Scenario::parse("p.toml", ranged).unwrap()).is_ok());
    }

    #[test]
    fn higher_ground_comes_from_the_terrain_under_the_attacker() {
        let text = scenario("", "melee")
            .source
            .text
            .replace(
                "map = \"AB\"",
                "map = \"AB\"\n[legend]\n\"^\" = { elevation = 5 }",
            )
            .replace("token = \"A\"", "token = \"A\"\nterrain = \"^\"");
        let plan = Plan::from_scenario(&Scenario::parse("p.toml", text).unwrap()).unwrap();
        assert_eq!(
            plan.slots[0].profile.bonus, 7,
            "+6 and +1 for higher ground"
        );
    }
}

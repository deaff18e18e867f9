//! `[[combatant]]`: the [`Combatant`] type and its validation — token, size, armor
//! classes, hit points, saves, senses, conditions, its own concealment and its attacks
//! (each validated in `attack.rs`); tokens and attack names must be unique.

use toml::Spanned;

use super::Validator;
use super::attack::Attack;
use super::bounded::{MAX_HIT_POINTS, MAX_MODIFIER, within};
use super::encounter::Tactic;
use super::keyword::single_letter;
use super::raw::RawCombatant;
use crate::error::{InputError, did_you_mean};
use crate::map::Vision;
use crate::rules::{ArmorClasses, RangeSense, RuleSet, Size};
use crate::situation::RangeSenses;

#[derive(Debug, Clone, PartialEq)]
pub struct Combatant {
    pub token: char,
    pub name: String,
    pub side: String,
    pub size: Size,
    pub ac: i32,
    /// Starfinder energy and kinetic armor classes (each `ac` when not given).
    pub eac: i32,
    pub kac: i32,
    /// Dex modifier already inside `ac`.
    pub dex: i32,
    pub hp: Option<i64>,
    /// Con score: dead at −con hit points; `None` means dead when down.
    pub con: Option<i64>,
    pub fort: i32,
    pub reflex: i32,
    pub will: i32,
    pub evasion: Evasion,
    /// Character level (or CR): sets a Starfinder coup de grace's DC.
    pub level: i32,
    pub elevation: i32,
    pub immune_to_crits: bool,
    pub immune_to_precision: bool,
    /// Damage reduction, subtracted from each hit (not below 0).
    pub dr: i64,
    /// Starfinder Stamina Points (0 elsewhere).
    pub stamina: i64,
    /// Starfinder: the creature has Resolve Points.
    pub resolve: bool,
    /// Starfinder: its maximum Resolve Points (0 without).
    pub resolve_points: i64,
    /// Initiative modifier (`init`, default `dex`).
    pub init: i32,
    /// How it picks targets in a fight.
    pub tactic: Tactic,
    /// Names of the system's conditions that apply, each once.
    pub conditions: Vec<&'static str>,
    /// Senses that see through darkness or dim light.
    pub vision: Vision,
    /// Blindsight and blindsense, with their ranges.
    pub range_senses: RangeSenses,
    /// Miss chance (percent) of its own against every attack: blur, displacement.
    pub concealment: u8,
    /// Precise Shot: no penalty for shooting into melee.
    pub precise_shot: bool,
    /// The combatant it is grappling with, set on both of the pair (d20 Modern: a ranged
    /// attack at either strikes one of the two at random).
    pub grappling_with: Option<CombatantId>,
    pub attacks: Vec<Attack>,
}

impl Combatant {
    /// Whether one of its conditions makes it helpless in `rules`' system: it threatens
    /// nothing, and a down creature is not made unconscious again.
    pub(crate) fn is_helpless(&self, rules: &RuleSet) -> bool {
        (self.conditions.iter()).any(|name| rules.condition(name).is_some_and(|c| c.helpless))
    }

    /// How every table and chart names it: `Name (T)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.token)
    }
}

/// A combatant of a scenario: its place in the file's `[[combatant]]` list. Only the
/// validator makes one, so it always names a combatant of its scenario, and it is never
/// mistaken for a plan's target or line ([`Scenario::combatant`], [`Battlefield::space`]).
///
/// [`Scenario::combatant`]: super::Scenario::combatant
/// [`Battlefield::space`]: super::Battlefield::space
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CombatantId(usize);

impl CombatantId {
    /// The combatant at `index` of the file's list.
    pub(super) fn at(index: usize) -> CombatantId {
        CombatantId(index)
    }

    /// Its place in the file's `[[combatant]]` list.
    pub fn index(self) -> usize {
        self.0
    }
}

/// A combatant's evasion: against a Reflex save for half, a success takes nothing;
/// improved evasion also halves a failure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Evasion {
    /// No evasion.
    #[default]
    None,
    /// Evasion: a successful Reflex save for half takes nothing.
    Evasion,
    /// Improved evasion: a failed one takes half as well.
    Improved,
}

impl Evasion {
    /// The values' names in experiment files, in variant order.
    pub const KEYS: [&str; 3] = ["none", "evasion", "improved"];
}

impl Validator<'_> {
    pub(super) fn combatant(
        &self,
        raw: &Spanned<RawCombatant>,
        rules: &RuleSet,
        encounter: bool,
    ) -> Result<Combatant, InputError> {
        let c = raw.get_ref();
        let token = single_letter(c.token.get_ref())
            .ok_or_else(|| self.err(c.token.span(), "a token must be one letter, A-Z or a-z"))?;
        let size = self.keyword_or(c.size.as_ref(), Size::Medium)?;
        self.hit_points(c)?;
        let ac = self.armor_classes(c, token, rules)?;
        let (vision, range_senses) = self.senses(&c.senses, rules)?;
        let concealment = self.own_concealment(c)?;
        let conditions = self.conditions(&c.conditions, rules)?;
        let evasion = self.keyword_or(c.evasion.as_ref(), Evasion::None)?;
        let attacks = c
            .attacks
            .iter()
            .map(|a| self.attack(a, rules))
            .collect::<Result<Vec<_>, _>>()?;
        let injury = self.injury_keys(c, rules)?;
        let fight = self.fight_keys(c, encounter)?;
        self.unique_attack_names(c, &attacks, token)?;
        Ok(Combatant {
            token,
            name: c.name.clone().unwrap_or_else(|| token.to_string()),
            side: (c.side.as_ref()).map_or_else(|| token.to_string(), |s| s.get_ref().clone()),
            size,
            ac,
            eac: c.eac.as_ref().map_or(ac, |v| *v.get_ref()),
            kac: c.kac.as_ref().map_or(ac, |v| *v.get_ref()),
            dex: c.dex,
            hp: c.hp.as_ref().map(|h| *h.get_ref()),
            con: c.con.as_ref().map(|h| *h.get_ref()),
            fort: c.fort,
            level: c.level,
            reflex: c.reflex,
            will: c.will,
            evasion,
            elevation: c.elevation,
            immune_to_crits: c.immune_to_crits,
            immune_to_precision: injury.immune_to_precision,
            dr: injury.dr,
            stamina: injury.stamina,
            resolve: injury.resolve_points > 0,
            resolve_points: injury.resolve_points,
            init: fight.init,
            tactic: fight.tactic,
            conditions,
            vision,
            range_senses,
            concealment,
            precise_shot: c.precise_shot,
            grappling_with: None,
            attacks,
        })
    }

    /// `hp` and `con`, each within 1 to [`MAX_HIT_POINTS`] when given.
    fn hit_points(&self, c: &RawCombatant) -> Result<(), InputError> {
        if let Some(hp) = &c.hp
            && !(1..=MAX_HIT_POINTS).contains(hp.get_ref())
        {
            return Err(self.err(hp.span(), format!("hp must be from 1 to {MAX_HIT_POINTS}")));
        }
        if let Some(con) = &c.con
            && !(1..=MAX_HIT_POINTS).contains(con.get_ref())
        {
            return Err(self.err(
                con.span(),
                format!("con is the Constitution score: 1 to {MAX_HIT_POINTS}"),
            ));
        }
        Ok(())
    }

    /// The combatant's `ac`: given, or (in Starfinder) its `kac` when both `eac` and `kac`
    /// are; `eac` and `kac` are refused in other systems.
    fn armor_classes(
        &self,
        c: &RawCombatant,
        token: char,
        rules: &RuleSet,
    ) -> Result<i32, InputError> {
        for armor_class in [&c.eac, &c.kac].into_iter().flatten() {
            within(
                i64::from(*armor_class.get_ref()),
                MAX_MODIFIER,
                "an armor class",
            )
            .map_err(|m| self.err(armor_class.span(), m))?;
        }
        let two = rules.armor_classes.two();
        if let Some(v) = c.eac.as_ref().or(c.kac.as_ref()).filter(|_| !two) {
            return Err(self.err(
                v.span(),
                format!(
                    "`eac` and `kac` are Starfinder's armor classes; {} uses `ac`",
                    rules.name
                ),
            ));
        }
        match (c.ac, &c.eac, &c.kac) {
            (Some(ac), _, _) => Ok(ac),
            (None, Some(_), Some(kac)) => Ok(*kac.get_ref()),
            _ => Err(self.err(
                c.token.span(),
                format!(
                    "combatant `{token}` needs `ac = …`{}",
                    match rules.armor_classes {
                        ArmorClasses::EnergyAndKinetic => " (or both `eac` and `kac`)".into(),
                        ArmorClasses::One("AC") => String::new(),
                        ArmorClasses::One(name) => format!(" (its {name})"),
                    }
                ),
            )),
        }
    }

    /// The combatant's own miss chance in percent (blur, displacement).
    fn own_concealment(&self, c: &RawCombatant) -> Result<u8, InputError> {
        match &c.concealment {
            Some(v) if !(0..=100).contains(v.get_ref()) => Err(self.err(
                v.span(),
                "concealment is a miss chance in percent: 0 to 100 (blur 20, displacement 50)",
            )),
            Some(v) => Ok(*v.get_ref() as u8),
            None => Ok(0),
        }
    }

    /// The system's conditions named, each once, in the order first written.
    fn conditions(
        &self,
        names: &[Spanned<String>],
        rules: &RuleSet,
    ) -> Result<Vec<&'static str>, InputError> {
        let mut conditions = Vec::new();
        for name in names {
            let condition = rules.condition(name.get_ref()).ok_or_else(|| {
                let valid: Vec<&str> = rules.condition_names().collect();
                self.err(
                    name.span(),
                    format!(
                        "unknown condition `{}` in {}{}; valid conditions: {}",
                        name.get_ref(),
                        rules.name,
                        did_you_mean(name.get_ref(), valid.iter().copied()),
                        valid.join(", ")
                    ),
                )
            })?;
            if !conditions.contains(&condition.name) {
                conditions.push(condition.name);
            }
        }
        Ok(conditions)
    }

    /// Each of a combatant's attacks has its own name, as plan lines name them.
    fn unique_attack_names(
        &self,
        c: &RawCombatant,
        attacks: &[Attack],
        token: char,
    ) -> Result<(), InputError> {
        for (i, a) in c.attacks.iter().enumerate() {
            if attacks[..i]
                .iter()
                .any(|b| b.name == *a.get_ref().name.get_ref())
            {
                return Err(self.err(
                    a.get_ref().name.span(),
                    format!(
                        "`{token}` already has an attack named `{}`",
                        attacks[i].name
                    ),
                ));
            }
        }
        Ok(())
    }
    /// `senses = ["darkvision", "blindsight 30"]`: sight in the dark, and the system's
    /// senses with a range in feet.
    fn senses(
        &self,
        senses: &[Spanned<String>],
        rules: &RuleSet,
    ) -> Result<(Vision, RangeSenses), InputError> {
        let mut vision = Vision::default();
        let mut ranged = RangeSenses::default();
        let mut known = vec!["darkvision", "low-light"];
        known.extend(rules.range_senses.iter().map(|s| s.key()));
        for sense in senses {
            let text = sense.get_ref().trim();
            let (name, range) = text.split_once(' ').unwrap_or((text, ""));
            let range_sense = rules.range_senses.iter().find(|s| s.key() == name);
            match (name, range_sense) {
                ("darkvision", _) if range.is_empty() => vision.darkvision = true,
                ("low-light", _) if range.is_empty() => vision.low_light = true,
                (_, Some(&kind)) => {
                    let feet = range
                        .trim()
                        .trim_end_matches("ft")
                        .trim_end_matches("ft.")
                        .trim()
                        .parse::<i32>()
                        .ok()
                        .filter(|f| (1..=10_000).contains(f))
                        .ok_or_else(|| {
                            self.err(
                                sense.span(),
                                format!(
                                    "`{name}` needs its range in feet, 1 to 10000: e.g. `{name} 30`"
                                ),
                            )
                        })?;
                    match kind {
                        RangeSense::Blindsight => ranged.blindsight = Some(feet),
                        RangeSense::Blindsense => ranged.blindsense = Some(feet),
                    }
                }
                _ => {
                    return Err(self.err(
                        sense.span(),
                        format!(
                            "unknown or unsupported sense `{text}` in {}: expected {}{}",
                            rules.name,
                            known
                                .iter()
                                .map(|k| if k.starts_with("blind") {
                                    format!("`{k} FEET`")
                                } else {
                                    format!("`{k}`")
                                })
                                .collect::<Vec<_>>()
                                .join(", "),
                            did_you_mean(name, known.iter().copied())
                        ),
                    ));
                }
            }
        }
        Ok((vision, ranged))
    }

    /// Refuses a side named like another but for case (`Monsters` beside `monsters`, or
    /// `o` beside a combatant `O` without `side`, whose side is its token): it would
    /// silently be a side of its own, fighting both.
    pub(super) fn sides_written_alike(
        &self,
        raw: &[Spanned<RawCombatant>],
    ) -> Result<(), InputError> {
        // Each combatant's side as written, or its token where it has none (or names
        // it by its token anyway: tokens may differ only in case).
        let sides: Vec<(&String, Option<&Spanned<String>>)> = (raw.iter())
            .map(|c| {
                let c = c.get_ref();
                let token = c.token.get_ref();
                let written = c.side.as_ref().filter(|s| s.get_ref() != token);
                (written.map_or(token, |s| s.get_ref()), written)
            })
            .collect();
        for (i, &(name, written)) in sides.iter().enumerate() {
            for &(other, other_written) in &sides[..i] {
                if other == name || other.to_lowercase() != name.to_lowercase() {
                    continue;
                }
                // The spelling fewer combatants use is the odd one out (the later on a tie).
                let uses = |side: &String| sides.iter().filter(|(s, _)| *s == side).count();
                let ((name, blamed), alike) = match (written, other_written) {
                    (Some(_), Some(_)) if uses(name) > uses(other) => {
                        ((other, other_written), name)
                    }
                    (Some(_), _) => ((name, written), other),
                    (None, _) => ((other, other_written), name),
                };
                let Some(blamed) = blamed else {
                    continue;
                };
                let whose = if written.is_some() && other_written.is_some() {
                    ""
                } else {
                    " (the side of the combatant without `side`: its token)"
                };
                return Err(self.err(
                    blamed.span(),
                    format!(
                        "side `{name}` differs from side `{alike}`{whose} only in case, so it would be a side of its own (did you mean `{alike}`?)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Each token names one combatant.
    pub(super) fn unique_tokens(&self, raw: &[Spanned<RawCombatant>]) -> Result<(), InputError> {
        for (i, c) in raw.iter().enumerate() {
            let token = c.get_ref().token.get_ref();
            if raw[..i]
                .iter()
                .any(|d| d.get_ref().token.get_ref() == token)
            {
                return Err(self.err(
                    c.get_ref().token.span(),
                    format!("token `{token}` is used by two combatants"),
                ));
            }
        }
        Ok(())
    }
}

//! The only reader of experiment files: TOML text → [`RawExperiment`](raw::RawExperiment)
//! → validated [`Scenario`], with every mistake reported at its file, line and column.
//!
//! ```
//! use d20odds::scenario::Scenario;
//! let text = r#"
//! system = "pf1"
//! map = "FO"
//! [[combatant]]
//! token = "F"
//! ac = 18
//! hp = 20
//! [[combatant.attack]]
//! name = "sword"
//! bonus = 5
//! damage = "1d8+3"
//! [[combatant]]
//! token = "O"
//! ac = 14
//! hp = 30
//! [[plan]]
//! attacker = "F"
//! target = "O"
//! attack = "sword"
//! "#;
//! let scenario = Scenario::parse("ogre.toml", text).unwrap();
//! assert_eq!(scenario.plan.len(), 1);
//! ```

mod area;
pub mod bounded;
mod damage;
mod grapple;
mod raw;
mod source;
mod sweep;

use std::io::Read;
use std::ops::Range;
use std::path::Path;

use toml::Spanned;

use crate::attack::Portion;
use crate::dice::{CritSpec, Dice};
use crate::error::{Error, InputError, did_you_mean};
use crate::map::{self, Grid, Point, Space, Terrain, Vision};
use crate::rules::{CoverLevel, RangeSense, RuleSet, SIZES, Size, SystemId};
use crate::situation::RangeSenses;
pub use area::{AreaExtent, AreaShape, MAX_RADIUS_FT, Options};
use bounded::{MAX_HIT_POINTS, MAX_MODIFIER, within};
pub use raw::RawTerrain;
use raw::{RawAttack, RawCombatant, RawExperiment, RawPlanLine};
pub use source::Source;
pub use sweep::{
    ATTACK_FIELDS, Assignments, COMBATANT_FIELDS, MAX_SWEEP_POINTS, Sweep, display_value,
};

/// Default number of trials when an experiment does not say.
pub const DEFAULT_TRIALS: u64 = 1_000_000;
/// Most rounds a trial may play.
pub const MAX_ROUNDS: u32 = 1000;
/// Most trials a run may ask for (10^12): counters are `u64` and memory does not grow
/// with trials, so this only keeps a typo from meaning a run of years.
pub const MAX_TRIALS: u64 = 1_000_000_000_000;

/// A validated experiment: every name resolved, every number in range.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub source: Source,
    pub title: String,
    pub system: SystemId,
    pub trials: u64,
    pub seed: u64,
    pub rounds: u32,
    /// The map rows, exactly as drawn.
    pub map: Vec<String>,
    /// Terrain and where each combatant stands; `None` without a map (then only the
    /// plan's overrides set cover, concealment and flanking).
    pub battlefield: Option<Battlefield>,
    /// `[heatmap]`: the combatant (index) tried on every open square.
    pub heatmap: Option<usize>,
    /// Legend additions and overrides, by symbol.
    pub legend: Vec<(char, RawTerrain)>,
    pub combatants: Vec<Combatant>,
    pub plan: Vec<PlanLine>,
    pub sweeps: Vec<Sweep>,
    /// `[options]`: rule choices left to the experiment.
    pub options: Options,
}

/// The parsed map: its terrain, and the space of every combatant (by combatant index).
#[derive(Debug, Clone)]
pub struct Battlefield {
    pub grid: Grid,
    pub spaces: Vec<Space>,
}

/// Most squares × rounds a `[heatmap]` may compute: each square is a whole exact
/// computation (or a short simulation), so this keeps a heatmap within minutes.
pub const MAX_HEATMAP_WORK: u64 = 10_000_000;

impl Battlefield {
    /// The squares where combatant `token`'s whole space fits: on the map, on no blocking
    /// terrain, on no other combatant.
    pub fn placements(&self, token: usize) -> Vec<Space> {
        let side = self.spaces[token].side();
        let (width, height) = (self.grid.width() as i32, self.grid.height() as i32);
        (0..=height - side)
            .flat_map(|y| (0..=width - side).map(move |x| (x, y)))
            .filter_map(|(x, y)| Space::new(x, y, side))
            .filter(|space| {
                space.squares().all(|s| {
                    self.grid.contains(s)
                        && !self.grid.terrain(s).blocks
                        && self
                            .spaces
                            .iter()
                            .enumerate()
                            .all(|(i, other)| i == token || !other.contains(s))
                })
            })
            .collect()
    }
}

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
    /// The combatant (index) it is grappling with, set on both of the pair (d20 Modern:
    /// a ranged attack at either strikes one of the two at random).
    pub grappling_with: Option<usize>,
    pub attacks: Vec<Attack>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackKind {
    Melee,
    Ranged,
    /// A spell or other effect that rolls no attack: the defender saves against a DC.
    Area,
}

/// A combatant's evasion: against a Reflex save for half, a success takes nothing;
/// improved evasion also halves a failure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Evasion {
    #[default]
    None,
    Evasion,
    Improved,
}

impl Evasion {
    pub const KEYS: [&str; 3] = ["none", "evasion", "improved"];
}

/// The saving throw a defender makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveKind {
    Reflex,
    Fort,
    Will,
}

impl SaveKind {
    pub const KEYS: [&str; 3] = ["reflex", "fort", "will"];

    pub fn key(self) -> &'static str {
        Self::KEYS[self as usize]
    }
}

/// Which of a Starfinder defender's armor classes an attack targets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ArmorClass {
    Eac,
    #[default]
    Kac,
}

/// An area attack's save: which, against what DC, and what a success deals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AreaSave {
    pub save: SaveKind,
    pub dc: i32,
    /// `Half` or `Nothing`.
    pub on_save: Portion,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Attack {
    pub name: String,
    pub kind: AttackKind,
    /// One entry per iterative attack of a full attack; the first is the single attack.
    pub bonus: Vec<i32>,
    pub damage: Dice,
    /// Precision dice (sneak attack, trick attack): where they apply, never multiplied.
    pub precision: Dice,
    /// Extra dice (flaming, holy): on every hit, never multiplied.
    pub extra_damage: Dice,
    /// Ignores the target's damage reduction.
    pub bypass_dr: bool,
    pub crit: CritSpec,
    /// Melee reach in feet, when the attack overrides the size's natural reach.
    pub reach: Option<i32>,
    pub reach_weapon: bool,
    /// A crossbow (or other weapon usable prone) in systems where prone forbids ranged.
    pub crossbow: bool,
    pub range_increment: i32,
    /// Thrown, not shot: the system's shorter maximum range.
    pub thrown: bool,
    /// Starfinder: the armor class the attack targets.
    pub vs: ArmorClass,
    /// Area attacks: the save as far as the attack sets it (the DC may come from the
    /// plan line instead).
    pub save: SaveKind,
    pub dc: Option<i32>,
    pub on_save: Portion,
    /// Area attacks: burst or spread, and the radius measured from the plan line's origin.
    pub shape: AreaShape,
    pub radius: Option<i32>,
}

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
}

/// One line of the plan, with combatants and attacks as indices.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanLine {
    pub attacker: usize,
    pub target: usize,
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

/// Largest experiment file read: a 500 × 500 map is 250 KB, so this is room to spare,
/// and a path like `/dev/zero` cannot fill the memory.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

impl Scenario {
    /// Reads and validates an experiment file: at most [`MAX_FILE_BYTES`] of UTF-8 text.
    pub fn load(path: &Path) -> Result<Scenario, Error> {
        let unreadable = |e: std::io::Error| {
            InputError::flag(
                &path.display().to_string(),
                format!("cannot read the experiment file: {e}"),
            )
        };
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|file| file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
            .map_err(unreadable)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(InputError::flag(
                &path.display().to_string(),
                format!(
                    "the experiment file is larger than {} MiB, the most d20odds reads",
                    MAX_FILE_BYTES >> 20
                ),
            )
            .into());
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            let bad = e.as_bytes()[valid];
            let before = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            Source::new(path, before).error_at(
                valid,
                format!("byte 0x{bad:02x} is not UTF-8 text: save the experiment file as UTF-8"),
            )
        })?;
        Ok(Self::parse(path, text)?)
    }

    /// Validates experiment text; `path` only labels errors.
    pub fn parse(path: impl AsRef<Path>, text: impl Into<String>) -> Result<Scenario, InputError> {
        let source = Source::new(path, text);
        let raw: RawExperiment = toml::from_str(&source.text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            source.error_at(offset, with_field_suggestion(e.message().trim_end()))
        })?;
        Validator { source: &source }.scenario(raw)
    }
}

struct Validator<'a> {
    source: &'a Source,
}

impl Validator<'_> {
    fn err(&self, span: Range<usize>, message: impl Into<String>) -> InputError {
        self.source.error(span, message)
    }

    /// The index of the combatant a token names, or an error listing the known tokens.
    fn token(
        &self,
        token: &Spanned<String>,
        combatants: &[Combatant],
    ) -> Result<usize, InputError> {
        single_letter(token.get_ref())
            .and_then(|t| combatants.iter().position(|c| c.token == t))
            .ok_or_else(|| {
                self.err(
                    token.span(),
                    format!(
                        "no combatant has token `{}`; known tokens: {}{}",
                        token.get_ref(),
                        tokens(combatants).join(", "),
                        token_suggestion(token.get_ref(), combatants)
                    ),
                )
            })
    }

    fn scenario(&self, raw: RawExperiment) -> Result<Scenario, InputError> {
        let system: SystemId = raw.system.get_ref().parse().map_err(|m: String| {
            let known = SystemId::ALL.map(SystemId::key);
            self.err(
                raw.system.span(),
                m + &did_you_mean(raw.system.get_ref(), known),
            )
        })?;
        let rules = system.rules();
        let trials = match &raw.trials {
            None => DEFAULT_TRIALS,
            Some(t) if (1..=MAX_TRIALS as i64).contains(t.get_ref()) => *t.get_ref() as u64,
            Some(t) => {
                return Err(self.err(
                    t.span(),
                    format!("trials must be 1 to {MAX_TRIALS} (10^12)"),
                ));
            }
        };
        let seed = match &raw.seed {
            None => 0,
            Some(s) if *s.get_ref() >= 0 => *s.get_ref() as u64,
            Some(s) => return Err(self.err(s.span(), "seed must be 0 or more")),
        };
        let rounds = match &raw.rounds {
            None => 1,
            Some(r) if (1..=i64::from(MAX_ROUNDS)).contains(r.get_ref()) => *r.get_ref() as u32,
            Some(r) => {
                return Err(self.err(r.span(), format!("rounds must be 1 to {MAX_ROUNDS}")));
            }
        };
        let options = self.options(raw.options.as_ref(), rules)?;
        let legend = self.legend(&raw)?;
        let mut combatants = raw
            .combatants
            .iter()
            .map(|c| self.combatant(c, rules))
            .collect::<Result<Vec<_>, _>>()?;
        self.unique_tokens(&raw.combatants)?;
        self.grapples(&raw.combatants, &mut combatants, rules)?;
        let (map, battlefield) = self.map(&raw, &legend, &combatants)?;
        let heatmap = match &raw.heatmap {
            None => None,
            Some(h) => {
                let token = &h.get_ref().token;
                let index = single_letter(token.get_ref())
                    .and_then(|t| combatants.iter().position(|c| c.token == t))
                    .ok_or_else(|| {
                        self.err(
                            token.span(),
                            format!(
                                "no combatant has token `{}` to try on the heatmap; known tokens: {}{}",
                                token.get_ref(),
                                tokens(&combatants).join(", "),
                                token_suggestion(token.get_ref(), &combatants)
                            ),
                        )
                    })?;
                let Some(field) = &battlefield else {
                    return Err(
                        self.err(h.span(), "a heatmap needs a map to move the combatant on")
                    );
                };
                let squares = field.placements(index).len() as u64;
                let work = squares * u64::from(rounds);
                if work > MAX_HEATMAP_WORK {
                    return Err(self.err(
                        h.span(),
                        format!(
                            "the heatmap would compute {squares} squares × {rounds} rounds = {work}, more than the bound of {MAX_HEATMAP_WORK}; use a smaller map or fewer rounds"
                        ),
                    ));
                }
                Some(index)
            }
        };
        let plan = raw
            .plan
            .iter()
            .map(|line| self.plan_line(line, &combatants, battlefield.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        if plan.is_empty() {
            return Err(self.err(
                0..0,
                "the experiment has no [[plan]] line: nothing attacks; add [[plan]] with attacker, target and attack",
            ));
        }
        let sweeps = self.sweeps(&raw.sweep, &combatants)?;
        Ok(Scenario {
            source: self.source.clone(),
            title: raw.title.unwrap_or_else(|| self.stem()),
            system,
            trials,
            seed,
            rounds,
            map,
            battlefield,
            heatmap,
            legend,
            combatants,
            plan,
            sweeps,
            options,
        })
    }

    fn stem(&self) -> String {
        self.source
            .path
            .file_stem()
            .map_or_else(|| "experiment".into(), |s| s.to_string_lossy().into_owned())
    }

    fn legend(&self, raw: &RawExperiment) -> Result<Vec<(char, RawTerrain)>, InputError> {
        raw.legend
            .iter()
            .map(|(symbol, terrain)| {
                let mut chars = symbol.get_ref().chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_ascii_alphabetic() && !c.is_whitespace() => {
                        if terrain.get_ref().concealment > 100 {
                            return Err(self.err(
                                terrain.span(),
                                "concealment is a miss chance in percent: 0 to 100",
                            ));
                        }
                        Ok((c, terrain.get_ref().clone()))
                    }
                    (Some(c), None) if c.is_ascii_alphabetic() => Err(self.err(
                        symbol.span(),
                        format!("`{c}` is a letter: letters are combatant tokens, never terrain"),
                    )),
                    _ => Err(self.err(
                        symbol.span(),
                        "a legend symbol must be exactly one non-space character",
                    )),
                }
            })
            .collect()
    }

    fn combatant(
        &self,
        raw: &Spanned<RawCombatant>,
        rules: &RuleSet,
    ) -> Result<Combatant, InputError> {
        let c = raw.get_ref();
        let token = single_letter(c.token.get_ref())
            .ok_or_else(|| self.err(c.token.span(), "a token must be one letter, A-Z or a-z"))?;
        let size = match &c.size {
            None => Size::Medium,
            Some(s) => s.get_ref().parse().map_err(|m: String| {
                self.err(
                    s.span(),
                    m + &did_you_mean(s.get_ref(), SIZES.map(|r| r.key)),
                )
            })?,
        };
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
        for armor_class in [&c.eac, &c.kac].into_iter().flatten() {
            within(
                i64::from(*armor_class.get_ref()),
                MAX_MODIFIER,
                "an armor class",
            )
            .map_err(|m| self.err(armor_class.span(), m))?;
        }
        let starfinder = rules.system == SystemId::Starfinder;
        if let Some(v) = c.eac.as_ref().or(c.kac.as_ref()).filter(|_| !starfinder) {
            return Err(self.err(
                v.span(),
                format!(
                    "`eac` and `kac` are Starfinder's armor classes; {} uses `ac`",
                    rules.name
                ),
            ));
        }
        let ac = match (c.ac, &c.eac, &c.kac) {
            (Some(ac), _, _) => ac,
            (None, Some(_), Some(kac)) => *kac.get_ref(),
            _ => {
                return Err(self.err(
                    raw.get_ref().token.span(),
                    format!(
                        "combatant `{token}` needs `ac = …`{}",
                        if starfinder {
                            " (or both `eac` and `kac`)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        };
        let (vision, range_senses) = self.senses(&c.senses, rules)?;
        let concealment = match &c.concealment {
            Some(v) if !(0..=100).contains(v.get_ref()) => {
                return Err(self.err(
                    v.span(),
                    "concealment is a miss chance in percent: 0 to 100 (blur 20, displacement 50)",
                ));
            }
            Some(v) => *v.get_ref() as u8,
            None => 0,
        };
        let mut conditions = Vec::new();
        for name in &c.conditions {
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
        let evasion = match &c.evasion {
            None => Evasion::None,
            Some(e) => match e.get_ref().as_str() {
                "none" => Evasion::None,
                "evasion" => Evasion::Evasion,
                "improved" => Evasion::Improved,
                other => {
                    return Err(self.err(
                        e.span(),
                        format!(
                            "unknown evasion `{other}`: expected none, evasion or improved{}",
                            did_you_mean(other, Evasion::KEYS)
                        ),
                    ));
                }
            },
        };
        let attacks = c
            .attacks
            .iter()
            .map(|a| self.attack(a, rules))
            .collect::<Result<Vec<_>, _>>()?;
        let injury = self.injury_keys(c, rules)?;
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
        Ok(Combatant {
            token,
            name: c.name.clone().unwrap_or_else(|| token.to_string()),
            side: c.side.clone().unwrap_or_else(|| token.to_string()),
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
            resolve: injury.resolve,
            conditions,
            vision,
            range_senses,
            concealment,
            precise_shot: c.precise_shot,
            grappling_with: None,
            attacks,
        })
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

    fn unique_tokens(&self, raw: &[Spanned<RawCombatant>]) -> Result<(), InputError> {
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

    fn attack(&self, raw: &Spanned<RawAttack>, rules: &RuleSet) -> Result<Attack, InputError> {
        let a = raw.get_ref();
        let starfinder = rules.system == SystemId::Starfinder;
        let kind = match &a.kind {
            None => AttackKind::Melee,
            Some(k) => match k.get_ref().as_str() {
                "melee" => AttackKind::Melee,
                "ranged" => AttackKind::Ranged,
                "area" => AttackKind::Area,
                other => {
                    return Err(self.err(
                        k.span(),
                        format!(
                            "unknown attack kind `{other}`: expected melee, ranged or area{}",
                            did_you_mean(other, ["melee", "ranged", "area"])
                        ),
                    ));
                }
            },
        };
        let damage = self.parsed::<Dice>(&a.damage, "damage")?;
        let area = kind == AttackKind::Area;
        let bonus = match (&a.bonus, area) {
            (Some(b), false) => b.get_ref().0.clone(),
            (None, false) => {
                return Err(self.err(
                    a.name.span(),
                    format!(
                        "attack `{}` needs `bonus = …` (its attack bonus)",
                        a.name.get_ref()
                    ),
                ));
            }
            (Some(b), true) => {
                return Err(self.err(
                    b.span(),
                    "an area attack rolls no attack: remove `bonus` and give `dc` (its save DC)",
                ));
            }
            (None, true) => vec![0],
        };
        if let Some(c) = a.crit.as_ref().filter(|_| area) {
            return Err(self.err(
                c.span(),
                "an area attack cannot score a critical hit: remove `crit`",
            ));
        }
        let crit = match &a.crit {
            None => CritSpec::default(),
            Some(c) => self.parsed::<CritSpec>(c, "crit")?,
        };
        let SaveFields { save, dc, on_save } =
            self.save_fields(&a.save, &a.dc, &a.on_save, area)?;
        let extent = self.area_extent(kind, a.shape.as_ref(), a.radius.as_ref(), rules)?;
        let extra = self.extra_dice(a, area, rules)?;
        let vs = match &a.vs {
            None => ArmorClass::Kac,
            Some(v) if !starfinder => {
                return Err(self.err(
                    v.span(),
                    "`vs` picks a Starfinder armor class; this system has one AC",
                ));
            }
            Some(v) if area => {
                return Err(self.err(
                    v.span(),
                    "an area attack targets a save, not an armor class",
                ));
            }
            Some(v) => match v.get_ref().as_str() {
                "eac" => ArmorClass::Eac,
                "kac" => ArmorClass::Kac,
                other => {
                    return Err(self.err(
                        v.span(),
                        format!(
                            "unknown armor class `{other}`: expected eac or kac{}",
                            did_you_mean(other, ["eac", "kac"])
                        ),
                    ));
                }
            },
        };
        let reach = match &a.reach {
            Some(r) if kind != AttackKind::Melee => {
                return Err(self.err(r.span(), "reach is for melee attacks only"));
            }
            Some(r) if !(0..=100).contains(r.get_ref()) || r.get_ref() % 5 != 0 => {
                return Err(self.err(r.span(), "reach is in feet: a multiple of 5, 0 to 100"));
            }
            Some(r) => Some(*r.get_ref() as i32),
            None => None,
        };
        let range_increment = match &a.range_increment {
            Some(r) if kind != AttackKind::Ranged => {
                return Err(self.err(r.span(), "range_increment is for ranged attacks only"));
            }
            Some(r) if !(0..=10_000).contains(r.get_ref()) => {
                return Err(self.err(r.span(), "range_increment is in feet: 0 to 10000"));
            }
            Some(r) => *r.get_ref() as i32,
            None => 0,
        };
        if let Some(t) = a.thrown.as_ref().filter(|_| kind != AttackKind::Ranged) {
            return Err(self.err(t.span(), "thrown is for ranged attacks only"));
        }
        Ok(Attack {
            name: a.name.get_ref().clone(),
            kind,
            bonus,
            damage,
            precision: extra.precision,
            extra_damage: extra.extra_damage,
            bypass_dr: extra.bypass_dr,
            crit,
            reach,
            reach_weapon: a.reach_weapon,
            crossbow: a.crossbow,
            range_increment,
            thrown: a.thrown.as_ref().is_some_and(|t| *t.get_ref()),
            vs,
            save: save.unwrap_or(SaveKind::Reflex),
            dc,
            on_save: on_save.unwrap_or(Portion::Half),
            shape: extent.shape,
            radius: extent.radius,
        })
    }

    /// The `save`, `dc` and `on_save` keys of an attack or a plan line: only area attacks
    /// have them.
    fn save_fields(
        &self,
        save: &Option<Spanned<String>>,
        dc: &Option<Spanned<i64>>,
        on_save: &Option<Spanned<String>>,
        area: bool,
    ) -> Result<SaveFields, InputError> {
        if !area {
            let given = [
                save.as_ref().map(|s| s.span()),
                dc.as_ref().map(|d| d.span()),
                on_save.as_ref().map(|o| o.span()),
            ];
            if let Some(span) = given.into_iter().flatten().next() {
                return Err(self.err(
                    span,
                    "`save`, `dc` and `on_save` are for area attacks only (`kind = \"area\"`)",
                ));
            }
        }
        let save = match save {
            None => None,
            Some(s) => Some(match s.get_ref().as_str() {
                "reflex" => SaveKind::Reflex,
                "fort" => SaveKind::Fort,
                "will" => SaveKind::Will,
                other => {
                    return Err(self.err(
                        s.span(),
                        format!(
                            "unknown save `{other}`: expected reflex, fort or will{}",
                            did_you_mean(other, SaveKind::KEYS)
                        ),
                    ));
                }
            }),
        };
        let dc = match dc {
            None => None,
            Some(d) if (1..=100).contains(d.get_ref()) => Some(*d.get_ref() as i32),
            Some(d) => return Err(self.err(d.span(), "dc is a save DC: 1 to 100")),
        };
        let on_save = match on_save {
            None => None,
            Some(o) => Some(match o.get_ref().as_str() {
                "half" => Portion::Half,
                "none" => Portion::Nothing,
                other => {
                    return Err(self.err(
                        o.span(),
                        format!(
                            "unknown on_save `{other}`: expected half (half damage on a success) or none (no damage){}",
                            did_you_mean(other, ["half", "none"])
                        ),
                    ));
                }
            }),
        };
        Ok(SaveFields { save, dc, on_save })
    }

    /// Parses a dice or crit string, pointing errors at the offending character.
    pub(super) fn parsed<T>(&self, value: &Spanned<String>, key: &str) -> Result<T, InputError>
    where
        T: std::str::FromStr<Err = crate::dice::DiceError>,
    {
        value.get_ref().parse::<T>().map_err(|e| {
            let offset = self.source.offset_in_string(&value.span(), e.offset);
            self.source.error_at(
                offset,
                format!("bad {key} `{}`: {}", value.get_ref(), e.message),
            )
        })
    }

    /// The map rows and the battlefield they draw; every letter drawn must belong to a
    /// combatant, and every combatant must fill a block of its size.
    fn map(
        &self,
        raw: &RawExperiment,
        legend: &[(char, RawTerrain)],
        combatants: &[Combatant],
    ) -> Result<(Vec<String>, Option<Battlefield>), InputError> {
        let Some(map) = &raw.map else {
            return Ok((Vec::new(), None));
        };
        let text = map.get_ref();
        for (i, c) in text.chars().enumerate() {
            if c.is_ascii_alphabetic() && !combatants.iter().any(|k| k.token == c) {
                let offset = self.source.offset_in_string(&map.span(), i);
                let off_map: Vec<String> = combatants
                    .iter()
                    .filter(|k| !text.contains(k.token))
                    .map(|k| k.token.to_string())
                    .collect();
                let likely = off_map
                    .iter()
                    .find(|t| t.eq_ignore_ascii_case(&c.to_string()))
                    .or(match off_map.as_slice() {
                        [only] => Some(only),
                        _ => None,
                    });
                let suggestion = likely.map_or(String::new(), |t| {
                    format!(" (did you mean `{t}`, which is not on the map?)")
                });
                return Err(self.source.error_at(
                    offset,
                    format!("map letter `{c}` has no combatant: add a [[combatant]] with token = \"{c}\"{suggestion}"),
                ));
            }
        }
        for (raw_c, c) in raw.combatants.iter().zip(combatants) {
            if !text.contains(c.token) {
                return Err(self.err(
                    raw_c.get_ref().token.span(),
                    format!(
                        "combatant `{}` is not on the map: draw its letter where it stands",
                        c.token
                    ),
                ));
            }
        }
        let rows: Vec<&str> = text.trim_end_matches(['\n', '\r']).lines().collect();
        let row_starts: Vec<usize> = rows
            .iter()
            .scan(0, |start, row| {
                let here = *start;
                *start += row.chars().count() + 1;
                Some(here)
            })
            .collect();
        let at = |e: map::MapError| {
            let index = row_starts.get(e.row).copied().unwrap_or(0) + e.col;
            self.source
                .error_at(self.source.offset_in_string(&map.span(), index), e.message)
        };
        let terrain: Vec<(char, Terrain)> = legend
            .iter()
            .map(|(symbol, t)| {
                let terrain = Terrain {
                    blocks: t.blocks,
                    low: t.low,
                    improved: t.improved,
                    concealment: t.concealment,
                    dim: t.dim,
                    dark: t.dark,
                    elevation: t.elevation,
                };
                (*symbol, terrain)
            })
            .collect();
        let mut parsed = map::parse(&rows, &terrain).map_err(at)?;
        let spaces = combatants
            .iter()
            .map(|c| {
                let squares = parsed
                    .tokens
                    .iter()
                    .find(|t| t.letter == c.token)
                    .map_or(&[][..], |t| &t.squares[..]);
                Space::place(c.token, squares, c.size.row().squares).map_err(at)
            })
            .collect::<Result<Vec<_>, _>>()?;
        for (raw_c, space) in raw.combatants.iter().zip(&spaces) {
            if let Some(symbol) = &raw_c.get_ref().terrain {
                let under = self.terrain_under(symbol, &terrain)?;
                for square in space.squares() {
                    parsed.grid.set(square, under);
                }
            }
        }
        let rows = rows.into_iter().map(str::to_string).collect();
        Ok((
            rows,
            Some(Battlefield {
                grid: parsed.grid,
                spaces,
            }),
        ))
    }

    /// The terrain a combatant's `terrain = "…"` names: one symbol of the legend or the
    /// built-in ones that a creature can stand in.
    fn terrain_under(
        &self,
        symbol: &Spanned<String>,
        legend: &[(char, Terrain)],
    ) -> Result<Terrain, InputError> {
        let mut chars = symbol.get_ref().chars();
        let found = match (chars.next(), chars.next()) {
            (Some(c), None) => map::lookup(c, legend),
            _ => None,
        };
        match found {
            Some(t) if !t.blocks => Ok(t),
            Some(_) => Err(self.err(
                symbol.span(),
                "a combatant cannot stand inside blocking terrain",
            )),
            None => Err(self.err(
                symbol.span(),
                format!(
                    "unknown terrain `{}`: expected one map symbol, e.g. \"~\" (fog), \",\" (dim light), \":\" (darkness) or one of the [legend]",
                    symbol.get_ref()
                ),
            )),
        }
    }

    fn plan_line(
        &self,
        raw: &Spanned<RawPlanLine>,
        combatants: &[Combatant],
        battlefield: Option<&Battlefield>,
    ) -> Result<PlanLine, InputError> {
        let p = raw.get_ref();
        let find = |token: &Spanned<String>| self.token(token, combatants);
        let attacker = find(&p.attacker)?;
        let target = find(&p.target)?;
        if attacker == target {
            return Err(self.err(p.target.span(), "a combatant cannot attack itself"));
        }
        if combatants[target].hp.is_none() {
            return Err(self.err(
                p.target.span(),
                format!(
                    "target `{}` has no hp: give it `hp = …`",
                    combatants[target].token
                ),
            ));
        }
        let attacks = &combatants[attacker].attacks;
        let attack = attacks
            .iter()
            .position(|a| a.name == *p.attack.get_ref())
            .ok_or_else(|| {
                let names = attacks
                    .iter()
                    .map(|a| format!("`{}`", a.name))
                    .collect::<Vec<_>>();
                self.err(
                    p.attack.span(),
                    format!(
                        "`{}` has no attack named `{}`; its attacks: {}{}",
                        combatants[attacker].token,
                        p.attack.get_ref(),
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        },
                        did_you_mean(p.attack.get_ref(), attacks.iter().map(|a| a.name.as_str()))
                    ),
                )
            })?;
        let action = match &p.action {
            None => Action::Single,
            Some(a) => match a.get_ref().as_str() {
                "single" => Action::Single,
                "full" => Action::Full,
                "coup-de-grace" => Action::CoupDeGrace,
                other => {
                    return Err(self.err(
                        a.span(),
                        format!(
                            "unknown action `{other}`: expected single, full or coup-de-grace{}",
                            did_you_mean(other, ["single", "full", "coup-de-grace"])
                        ),
                    ));
                }
            },
        };
        let cover = match &p.cover {
            None => None,
            Some(c) => Some(c.get_ref().parse::<CoverLevel>().map_err(|m: String| {
                let known = CoverLevel::ALL.map(CoverLevel::key);
                self.err(c.span(), m + &did_you_mean(c.get_ref(), known))
            })?),
        };
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
        let chosen = &attacks[attack];
        let is_area = chosen.kind == AttackKind::Area;
        let SaveFields { save, dc, on_save } =
            self.save_fields(&p.save, &p.dc, &p.on_save, is_area)?;
        let area = if is_area {
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
            Some(AreaSave {
                save: save.unwrap_or(chosen.save),
                dc,
                on_save: on_save.unwrap_or(chosen.on_save),
            })
        } else {
            None
        };
        let origin = match &p.origin {
            None => None,
            Some(o) if !is_area => {
                return Err(self.err(o.span(), "`origin` is for area attacks only"));
            }
            Some(o) if battlefield.is_none() => {
                return Err(self.err(
                    o.span(),
                    "`origin` is a point on the map: draw a `map` or leave `origin` out",
                ));
            }
            Some(o) => match o.get_ref()[..] {
                [x, y]
                    if battlefield.is_some_and(|b| {
                        (0..=b.grid.width() as i64).contains(&x)
                            && (0..=b.grid.height() as i64).contains(&y)
                    }) =>
                {
                    Some(Point {
                        x: x as i32,
                        y: y as i32,
                    })
                }
                _ => {
                    return Err(self.err(
                        o.span(),
                        "origin is a grid intersection `[x, y]`: two whole numbers, 0 up to the map's width and height",
                    ));
                }
            },
        };
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
            overrides: Overrides {
                cover,
                concealment,
                flanking: p.flanking,
                attack_mod: p.attack_mod,
                ac_mod: p.ac_mod,
            },
            span: raw.span(),
            pinpointed: p.pinpointed,
        })
    }
}

/// The `save`, `dc` and `on_save` keys as written (each may be left out).
struct SaveFields {
    save: Option<SaveKind>,
    dc: Option<i32>,
    on_save: Option<Portion>,
}

/// Adds a "did you mean" to serde's "unknown field `x`, expected one of `a`, `b`".
fn with_field_suggestion(message: &str) -> String {
    let suggestion = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
        .and_then(|(typo, rest)| {
            let known: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
            crate::error::nearest(typo, known).map(|n| format!(" (did you mean `{n}`?)"))
        });
    format!("{message}{}", suggestion.unwrap_or_default())
}

/// ` (did you mean `o`?)` for a token that differs from a combatant's only in case: any
/// other letter is one edit from every token, so edit distance suggests nothing useful.
fn token_suggestion(typo: &str, combatants: &[Combatant]) -> String {
    combatants
        .iter()
        .find(|c| typo.eq_ignore_ascii_case(&c.token.to_string()))
        .map_or(String::new(), |c| format!(" (did you mean `{}`?)", c.token))
}

/// Every combatant's token, in file order, for "known tokens" lists and suggestions.
fn tokens(combatants: &[Combatant]) -> Vec<String> {
    combatants.iter().map(|c| c.token.to_string()).collect()
}

fn single_letter(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"
system = "pf1"
map = """
F..O
"""
[[combatant]]
token = "F"
ac = 18
hp = 20
[[combatant.attack]]
name = "sword"
bonus = [7, 2]
damage = "1d8+3"
crit = "19-20/x2"
[[combatant]]
token = "O"
ac = 14
hp = 30
con = 12
[[plan]]
attacker = "F"
target = "O"
attack = "sword"
action = "full"
"#;

    /// Replaces `from` with `to` in the base experiment and returns the error text.
    fn error_of(from: &str, to: &str) -> String {
        assert!(BASE.contains(from), "{from}");
        Scenario::parse("t.toml", BASE.replacen(from, to, 1))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn base_is_valid() {
        let s = Scenario::parse("t.toml", BASE).unwrap();
        assert_eq!(s.combatants[0].attacks[0].bonus, vec![7, 2]);
        assert_eq!(s.plan[0].action, Action::Full);
        assert_eq!(s.combatants[1].con, Some(12));
        assert_eq!(s.map, vec!["F..O"]);
        assert_eq!(s.title, "t");
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases = [
            (
                "damage = \"1d8+3\"",
                "damage = \"1d8*3\"",
                "t.toml:13:14: bad damage",
            ),
            (
                "crit = \"19-20/x2\"",
                "crit = \"19-21\"",
                "t.toml:14:12: bad crit",
            ),
            (
                "ac = 18",
                "ac = 18\narmour = 3",
                "t.toml:9:1: unknown field `armour`",
            ),
            (
                "hp = 30",
                "hpp = 30",
                "t.toml:18:1: unknown field `hpp`, expected one of `token`, `name`, `side`, `size`, `ac`, `eac`, `kac`, `dex`, `hp`, `con`, `fort`, `level`, `reflex`, `will`, `elevation`, `conditions`, `senses`, `immune_to_crits`, `concealment`, `precise_shot`, `immune_to_precision`, `dr`, `stamina`, `resolve`, `terrain`, `evasion`, `grappling_with`, `attack` (did you mean `hp`?)",
            ),
            (
                "action = \"full\"",
                "action = \"ful\"",
                "t.toml:24:10: unknown action `ful`: expected single, full or coup-de-grace (did you mean `full`?)",
            ),
            (
                "attack = \"sword\"",
                "attack = \"swrod\"",
                "t.toml:23:10: `F` has no attack named `swrod`; its attacks: `sword` (did you mean `sword`?)",
            ),
            (
                "target = \"O\"",
                "target = \"Q\"",
                "t.toml:22:10: no combatant has token `Q`",
            ),
            (
                "attack = \"sword\"",
                "attack = \"axe\"",
                "t.toml:23:10: `F` has no attack named `axe`",
            ),
            (
                "F..O",
                "F.XO",
                "t.toml:4:3: map letter `X` has no combatant",
            ),
            (
                "system = \"pf1\"",
                "system = \"pf2\"",
                "t.toml:2:10: unknown system `pf2`",
            ),
            (
                "action = \"full\"",
                "action = \"twice\"",
                "t.toml:24:10: unknown action",
            ),
            (
                "bonus = [7, 2]",
                "bonus = \"7\"",
                "t.toml:12:9: invalid type",
            ),
            ("con = 12", "con = 12\nhp = 3", "t.toml:20:1: duplicate key"),
            (
                "attack = \"sword\"",
                "attack = \"sword\"\ncover = \"lots\"",
                "t.toml:24:9: unknown cover",
            ),
        ];
        for (from, to, expected) in cases {
            let message = error_of(from, to);
            assert!(
                message.starts_with(expected),
                "expected `{expected}`, got `{message}`"
            );
        }
    }

    #[test]
    fn combatants_must_stand_on_the_map() {
        let message = error_of("F..O", "F...");
        assert!(
            message.starts_with("t.toml:16:9: combatant `O` is not on the map"),
            "{message}"
        );
    }
}

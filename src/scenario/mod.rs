//! The only reader of experiment files: TOML text → [`RawExperiment`](raw::RawExperiment)
//! → validated [`Scenario`], with every mistake reported at its file, line and column.
//!
//! ```
//! use d20odds::Scenario;
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
//!
//! One file per part of the format, each holding its types and their validation:
//! `combatant.rs`, `attack.rs` (with `damage.rs` for the damage and injury keys and
//! `area.rs` for an area's shape and `[options]`), `plan_line.rs`, `battlefield.rs` (the
//! map, legend and heatmap), `grapple.rs` and `sweep.rs`. `keyword.rs` looks every written
//! name up and words the error for one that is unknown; `raw.rs` is the file as serde
//! reads it, `bounded.rs` the limits on numbers, `source.rs` the spans.

mod area;
mod attack;
mod battlefield;
pub mod bounded;
mod combatant;
mod damage;
mod encounter;
mod grapple;
mod heatmap;
mod keyword;
mod plan_line;
mod raw;
mod source;
mod sweep;
#[cfg(test)]
mod tests;
mod variant;

use std::io::Read;
use std::ops::Range;
use std::path::Path;

use crate::error::{Error, InputError, did_you_mean};
use crate::rules::SystemId;
pub use area::{AreaShape, Options};
pub use attack::{AreaSave, ArmorClass, Attack, AttackKind, SaveKind};
pub use battlefield::Battlefield;
pub use combatant::{Combatant, CombatantId, Evasion};
pub use encounter::{Encounter, Initiative, Tactic};
pub use heatmap::{HeatmapMeasure, HeatmapSpec};
pub use plan_line::{Action, Overrides, PlanLine};
use raw::RawExperiment;
pub use raw::RawTerrain;
pub use source::Source;
pub use sweep::{Assignments, Sweep, display_value};
pub use variant::Variant;

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
    /// The file's path and text, for error positions.
    pub source: Source,
    /// `title`, or the file's stem.
    pub title: String,
    /// The rule system.
    pub system: SystemId,
    /// `trials`: trials to simulate unless `--trials` says otherwise.
    pub trials: u64,
    /// `seed`: the random seed unless `--seed` says otherwise.
    pub seed: u64,
    /// `rounds`: rounds each trial lasts.
    pub rounds: u32,
    /// The map rows, exactly as drawn.
    pub map: Vec<String>,
    /// Terrain and where each combatant stands; `None` without a map (then only the
    /// plan's overrides set cover, concealment and flanking).
    pub battlefield: Option<Battlefield>,
    /// `[heatmap]`: the combatant tried on every open square, and what the chart shows.
    pub heatmap: Option<HeatmapSpec>,
    /// Legend additions and overrides, by symbol.
    pub legend: Vec<(char, RawTerrain)>,
    /// Every `[[combatant]]`, in file order (indexed by [`CombatantId`]).
    pub combatants: Vec<Combatant>,
    /// Every `[[plan]]` line, in file order.
    pub plan: Vec<PlanLine>,
    /// Every `[[sweep]]` table, in file order.
    pub sweeps: Vec<Sweep>,
    /// The experiment's TOML document without its `[[sweep]]` tables, parsed once when it
    /// sweeps, so that planning a point costs its own document, not the whole list of values.
    sweep_base: Option<toml::Table>,
    /// Every `[[variant]]`, in file order: the experiment with its changes, validated.
    pub variants: Vec<Variant>,
    /// `[options]`: rule choices left to the experiment.
    pub options: Options,
    /// `[encounter]`: both sides fight, in initiative order, by their tactics.
    pub encounter: Option<Encounter>,
}

/// Largest experiment file read: a 500 × 500 map is 250 KB, so this is room to spare,
/// and a path like `/dev/zero` cannot fill the memory.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

impl Scenario {
    /// One combatant.
    pub fn combatant(&self, id: CombatantId) -> &Combatant {
        &self.combatants[id.index()]
    }

    /// Every combatant's id, in file order.
    pub fn combatant_ids(&self) -> impl Iterator<Item = CombatantId> + use<> {
        (0..self.combatants.len()).map(CombatantId::at)
    }

    /// The battle as it stands once `down` have fallen: each gets the system's
    /// `unconscious` condition (helpless: it threatens nothing and is easier to hit),
    /// unless a condition it has makes it helpless already (their effects would add up).
    /// Only what planning a line reads is kept: no sweeps, variants or heatmap.
    pub(crate) fn with_down(&self, down: &[CombatantId]) -> Scenario {
        let rules = self.system.rules();
        let unconscious = (rules.condition("unconscious"))
            .expect("every system has the unconscious condition")
            .name;
        let mut combatants = self.combatants.clone();
        for &c in down {
            let combatant = &mut combatants[c.index()];
            if !combatant.is_helpless(rules) {
                combatant.conditions.push(unconscious);
            }
        }
        Scenario {
            source: self.source.clone(),
            title: self.title.clone(),
            system: self.system,
            trials: self.trials,
            seed: self.seed,
            rounds: self.rounds,
            map: Vec::new(),
            battlefield: self.battlefield.clone(),
            heatmap: None,
            legend: Vec::new(),
            combatants,
            plan: Vec::new(),
            sweeps: Vec::new(),
            sweep_base: None,
            variants: Vec::new(),
            options: self.options,
            encounter: self.encounter,
        }
    }

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
        if source.text.trim().is_empty() {
            return Err(source.error(
                0..0,
                "the file is empty: an experiment names its `system`, its combatants and what \
                 they do; `d20odds example > my-fight.toml` writes one to start from",
            ));
        }
        let raw: RawExperiment = toml::from_str(&source.text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            let offset = span.start;
            let message = e.message().trim_end();
            let explained = (header_message(&source.text, offset, message))
                .or_else(|| too_large_integer(message))
                .or_else(|| duplicate_key(&source.text, span.clone(), message))
                .unwrap_or_else(|| with_field_suggestion(message));
            source.error(span, explained)
        })?;
        Validator { source: &source }.scenario(raw)
    }
}

/// Checks raw experiment text against the format, one part at a time; each part's checks
/// live in the file of that part.
struct Validator<'a> {
    source: &'a Source,
}

impl Validator<'_> {
    fn err(&self, span: Range<usize>, message: impl Into<String>) -> InputError {
        self.source.error(span, message)
    }

    fn scenario(&self, raw: RawExperiment) -> Result<Scenario, InputError> {
        let system: SystemId = self.keyword(&raw.system)?;
        let rules = system.rules();
        let trials = self.trials(&raw)?;
        let seed = self.seed(&raw)?;
        let (encounter, rounds) = self.encounter(&raw, self.rounds(&raw)?)?;
        let options = self.options(raw.options.as_ref(), rules)?;
        let legend = self.legend(&raw)?;
        let mut combatants = raw
            .combatants
            .iter()
            .map(|c| self.combatant(c, rules, encounter.is_some()))
            .collect::<Result<Vec<_>, _>>()?;
        self.unique_tokens(&raw.combatants)?;
        self.sides_written_alike(&raw.combatants)?;
        self.grapples(&raw.combatants, &mut combatants, rules)?;
        let (map, battlefield) = self.map(&raw, &legend, &combatants)?;
        let plan = self.plan(&raw, &combatants, battlefield.as_ref(), rules)?;
        self.check_fight(&raw, &combatants, &plan)?;
        let heatmap = self.heatmap(
            raw.heatmap.as_ref(),
            &combatants,
            battlefield.as_ref(),
            rounds,
            &plan,
            encounter,
        )?;
        let (sweeps, sweep_base) = self.sweeps(&raw.sweep, &combatants)?;
        let variants = self.variants(&raw.variant, &combatants)?;
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
            sweep_base,
            variants,
            options,
            encounter,
        })
    }

    fn trials(&self, raw: &RawExperiment) -> Result<u64, InputError> {
        match &raw.trials {
            None => Ok(DEFAULT_TRIALS),
            Some(t) if (1..=MAX_TRIALS as i64).contains(t.get_ref()) => Ok(*t.get_ref() as u64),
            Some(t) => Err(self.err(
                t.span(),
                format!("trials must be 1 to {MAX_TRIALS} (10^12)"),
            )),
        }
    }

    fn seed(&self, raw: &RawExperiment) -> Result<u64, InputError> {
        match &raw.seed {
            None => Ok(0),
            Some(s) if *s.get_ref() >= 0 => Ok(*s.get_ref() as u64),
            Some(s) => Err(self.err(s.span(), "seed must be 0 or more")),
        }
    }

    fn rounds(&self, raw: &RawExperiment) -> Result<u32, InputError> {
        raw.rounds.as_ref().map_or(Ok(1), |r| self.rounds_value(r))
    }

    fn rounds_value(&self, r: &toml::Spanned<i64>) -> Result<u32, InputError> {
        if (1..=i64::from(MAX_ROUNDS)).contains(r.get_ref()) {
            Ok(*r.get_ref() as u32)
        } else {
            Err(self.err(r.span(), format!("rounds must be 1 to {MAX_ROUNDS}")))
        }
    }

    /// The title when the file gives none: the file's name without its extension.
    fn stem(&self) -> String {
        self.source
            .path
            .file_stem()
            .map_or_else(|| "experiment".into(), |s| s.to_string_lossy().into_owned())
    }
}

/// The tables an experiment has one of, and the lists whose every item is its own table.
const ONE_TABLE: [&str; 4] = ["heatmap", "options", "encounter", "legend"];
const LIST_OF_TABLES: [&str; 5] = ["combatant", "combatant.attack", "plan", "sweep", "variant"];

/// What went wrong when a table header at `offset` is written as a list's (`[[heatmap]]`)
/// where the format has one table, or as one table's (`[plan]`) where it has a list: the
/// parser only says "invalid type: map, expected …" or "duplicate key".
fn header_message(text: &str, offset: usize, message: &str) -> Option<String> {
    if !(message.starts_with("invalid type") || message.starts_with("duplicate key")) {
        return None;
    }
    let line_start = text
        .get(..offset)
        .unwrap_or(text)
        .rfind('\n')
        .map_or(0, |at| at + 1);
    let line = text[line_start..].lines().next()?.trim();
    let name_in = |open: &str, close: &str| {
        let name = line.strip_prefix(open)?.split(close).next()?;
        let parts = name.split('.').map(|part| part.trim().trim_matches('"'));
        Some(parts.collect::<Vec<_>>().join("."))
    };
    let item = |name: &str| name.rsplit('.').next().unwrap_or(name).to_string();
    if let Some(name) = name_in("[[", "]]") {
        if LIST_OF_TABLES.contains(&name.as_str()) && message.starts_with("duplicate key") {
            let item = item(&name);
            return Some(format!(
                "`{name}` is written above as one table, `[{name}]`, but each {item} is an item of a list: write every {item} as `[[{name}]]`"
            ));
        }
        return ONE_TABLE.contains(&name.as_str()).then(|| {
            format!("`[[{name}]]` starts a list of tables, but an experiment has one `[{name}]` table: write `[{name}]`")
        });
    }
    let name = name_in("[", "]")?;
    LIST_OF_TABLES.contains(&name.as_str()).then(|| {
        let item = item(&name);
        format!("`[{name}]` is one table, but each {item} is an item of a list: write `[[{name}]]`")
    })
}

/// An integer beyond TOML's (a 64-bit signed whole number), which the parser reports as
/// "invalid type: integer `…` as i128" or "invalid value: integer `…`, expected …".
fn too_large_integer(message: &str) -> Option<String> {
    let (_, rest) = message.split_once("integer `")?;
    let (number, _) = rest.split_once('`')?;
    let digits = number.strip_prefix('-').unwrap_or(number);
    let beyond = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && number.parse::<i64>().is_err();
    beyond.then(|| {
        format!(
            "`{number}` is beyond the whole numbers a TOML file can hold ({} to {})",
            i64::MIN,
            i64::MAX
        )
    })
}

/// "duplicate key" with the key named, as written at the parser's `span` (a quoted key
/// without its quotes).
fn duplicate_key(text: &str, span: Range<usize>, message: &str) -> Option<String> {
    if message != "duplicate key" {
        return None;
    }
    let written = text.get(span)?.trim();
    let key = (written.strip_prefix('"').and_then(|k| k.strip_suffix('"'))).unwrap_or(written);
    (!key.is_empty() && !key.contains('\n'))
        .then(|| format!("duplicate key `{key}`: this table already sets it; keep one"))
}

/// Adds a "did you mean" to serde's "unknown field `x`, expected one of `a`, `b`".
fn with_field_suggestion(message: &str) -> String {
    let suggestion = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(typo, rest)| {
            let known = rest.split('`').skip(1).step_by(2);
            did_you_mean(typo, known)
        });
    format!(
        "{}{}",
        plain_type_names(message),
        suggestion.unwrap_or_default()
    )
}

/// `message` with serde's Rust type names after "expected" (`i64`, `u8`, `a boolean`,
/// `struct RawCombatant`…), and its names of what it found (`map`, `sequence`), put in the
/// words of the experiment format: a user writes TOML, not Rust, and an integer type's
/// name hides its range.
fn plain_type_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    // What was found, as serde names it: "invalid type: map, expected …".
    for (found, plain) in [("map", "a table"), ("sequence", "a list")] {
        if let Some(after) = rest.strip_prefix(&format!("invalid type: {found},")) {
            out.push_str(&format!("invalid type: {plain},"));
            rest = after;
        }
    }
    while let Some(i) = rest.find("expected ") {
        let (before, after) = rest.split_at(i + "expected ".len());
        out.push_str(before);
        let (plain, len) = plain_type_name(after).unwrap_or((String::new(), 0));
        out.push_str(&plain);
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

/// The plain words for the serde type name that `text` starts with, and that name's length.
fn plain_type_name(text: &str) -> Option<(String, usize)> {
    let word_len = |s: &str| s.find(|c: char| !(c.is_alphanumeric() || c == '_'));
    let word = &text[..word_len(text).unwrap_or(text.len())];
    let whole =
        |min: i128, max: i128| Some((format!("a whole number from {min} to {max}"), word.len()));
    match word {
        "i8" => whole(i8::MIN.into(), i8::MAX.into()),
        "i16" => whole(i16::MIN.into(), i16::MAX.into()),
        "i32" => whole(i32::MIN.into(), i32::MAX.into()),
        "u8" => whole(0, u8::MAX.into()),
        "u16" => whole(0, u16::MAX.into()),
        "u32" => whole(0, u32::MAX.into()),
        "i64" | "i128" | "isize" => Some(("a whole number".into(), word.len())),
        "u64" | "u128" | "usize" => Some(("a whole number, 0 or more".into(), word.len())),
        "f32" | "f64" => Some(("a number".into(), word.len())),
        "struct" | "enum" => {
            let name = text[word.len()..].strip_prefix(' ')?;
            let len = word.len() + 1 + word_len(name).unwrap_or(name.len());
            let plain = if word == "struct" {
                "a table"
            } else {
                "one of the names listed"
            };
            Some((plain.into(), len))
        }
        _ => [
            ("a boolean", "true or false"),
            ("a sequence", "a list"),
            ("a map", "a table"),
            ("a borrowed string", "a string"),
        ]
        .into_iter()
        .find(|(name, _)| {
            text.strip_prefix(name)
                .is_some_and(|after| word_len(after) == Some(0) || after.is_empty())
        })
        .map(|(name, plain)| (plain.into(), name.len())),
    }
}

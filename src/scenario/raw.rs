//! The experiment file exactly as written: serde structs that mirror SPEC §2, with spans
//! kept on every value a later check may need to point at.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use toml::Spanned;

use super::bounded::{self, MAX_MODIFIER, within};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExperiment {
    pub title: Option<String>,
    pub system: Spanned<String>,
    pub trials: Option<Spanned<i64>>,
    pub seed: Option<Spanned<i64>>,
    pub rounds: Option<Spanned<i64>>,
    pub map: Option<Spanned<String>>,
    #[serde(default)]
    pub legend: BTreeMap<Spanned<String>, Spanned<RawTerrain>>,
    #[serde(default, rename = "combatant")]
    pub combatants: Vec<Spanned<RawCombatant>>,
    #[serde(default, rename = "plan")]
    pub plan: Vec<Spanned<RawPlanLine>>,
    #[serde(default)]
    pub sweep: Vec<Spanned<RawSweep>>,
    #[serde(default)]
    pub variant: Vec<Spanned<RawVariant>>,
    pub heatmap: Option<Spanned<RawHeatmap>>,
    pub options: Option<Spanned<RawOptions>>,
    pub encounter: Option<Spanned<RawEncounter>>,
}

/// `[encounter]`: both sides fight (SPEC §6).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEncounter {
    pub initiative: Option<Spanned<String>>,
    pub rounds: Option<Spanned<i64>>,
}

/// `[options]`: rule choices RULES.md leaves to the experiment.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOptions {
    pub partial_cover: Option<Spanned<bool>>,
}

/// `[heatmap] token = "R"`: the combatant tried on every open square; `target` and
/// `measure` say what the chart shows.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeatmap {
    pub token: Spanned<String>,
    pub target: Option<Spanned<String>>,
    pub measure: Option<Spanned<String>>,
}

/// `[[variant]]`: a name and changes to the experiment as written (SPEC §7).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVariant {
    pub name: Spanned<String>,
    /// Token → the new top-left square `[x, y]` of its space.
    #[serde(default, rename = "move")]
    pub moves: BTreeMap<Spanned<String>, Spanned<Vec<i64>>>,
    /// Field path (as a sweep's `set`) → its value.
    #[serde(default)]
    pub set: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    /// Token → its tactic.
    #[serde(default)]
    pub tactic: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    pub add_conditions: BTreeMap<Spanned<String>, Spanned<Vec<String>>>,
    #[serde(default)]
    pub remove_conditions: BTreeMap<Spanned<String>, Spanned<Vec<String>>>,
    /// Plan lines replacing every line of the attackers they name.
    pub plan: Option<Spanned<Vec<toml::Value>>>,
}

/// One swept field: `set = "O.ac"`, `values = [16, 18, 20]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSweep {
    pub set: Spanned<String>,
    pub values: Spanned<Vec<Spanned<toml::Value>>>,
}

/// A legend entry: the properties a map symbol gives its squares.
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTerrain {
    #[serde(default)]
    pub blocks: bool,
    #[serde(default)]
    pub low: bool,
    #[serde(default)]
    pub improved: bool,
    #[serde(default)]
    pub concealment: u8,
    #[serde(default)]
    pub dim: bool,
    #[serde(default)]
    pub dark: bool,
    #[serde(default, deserialize_with = "bounded::elevation")]
    pub elevation: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCombatant {
    pub token: Spanned<String>,
    pub name: Option<String>,
    pub side: Option<Spanned<String>>,
    pub size: Option<Spanned<String>>,
    #[serde(default, deserialize_with = "bounded::optional_modifier")]
    pub ac: Option<i32>,
    /// Starfinder: energy and kinetic armor class (`ac` serves both when they are absent).
    pub eac: Option<Spanned<i32>>,
    pub kac: Option<Spanned<i32>>,
    #[serde(default, deserialize_with = "bounded::modifier")]
    pub dex: i32,
    pub hp: Option<Spanned<i64>>,
    pub con: Option<Spanned<i64>>,
    #[serde(default, deserialize_with = "bounded::modifier")]
    pub fort: i32,
    #[serde(default, deserialize_with = "bounded::modifier")]
    pub level: i32,
    #[serde(default, deserialize_with = "bounded::modifier")]
    pub reflex: i32,
    #[serde(default, deserialize_with = "bounded::modifier")]
    pub will: i32,
    #[serde(default, deserialize_with = "bounded::elevation")]
    pub elevation: i32,
    #[serde(default)]
    pub conditions: Vec<Spanned<String>>,
    #[serde(default)]
    pub senses: Vec<Spanned<String>>,
    #[serde(default)]
    pub immune_to_crits: bool,
    /// A miss chance of its own against every attack (blur 20, displacement 50).
    pub concealment: Option<Spanned<i64>>,
    /// Precise Shot: no penalty for shooting into melee.
    #[serde(default)]
    pub precise_shot: bool,
    pub immune_to_precision: Option<Spanned<bool>>,
    /// Damage reduction, subtracted from each hit.
    pub dr: Option<Spanned<i64>>,
    /// Starfinder: Stamina Points, lost before Hit Points, and Resolve Points.
    pub stamina: Option<Spanned<i64>>,
    pub resolve: Option<Spanned<i64>>,
    /// The terrain symbol under the combatant's letter (it stands in fog, dim light…).
    pub terrain: Option<Spanned<String>>,
    pub evasion: Option<Spanned<String>>,
    /// d20 Modern: the token of the combatant it is grappling with.
    pub grappling_with: Option<Spanned<String>>,
    /// Initiative modifier (default: `dex`); encounters only.
    pub init: Option<Spanned<i64>>,
    /// How it picks its targets; encounters only.
    pub tactic: Option<Spanned<String>>,
    #[serde(default, rename = "attack")]
    pub attacks: Vec<Spanned<RawAttack>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttack {
    pub name: Spanned<String>,
    pub kind: Option<Spanned<String>>,
    pub bonus: Option<Spanned<Bonus>>,
    pub damage: Spanned<String>,
    /// Dice added to every hit and never multiplied: precision (sneak attack) and extra
    /// damage (flaming).
    pub precision: Option<Spanned<String>>,
    pub extra_damage: Option<Spanned<String>>,
    pub bypass_dr: Option<Spanned<bool>>,
    pub crit: Option<Spanned<String>>,
    /// Area attacks: the save the defender makes, its DC, and what a success deals.
    pub save: Option<Spanned<String>>,
    pub dc: Option<Spanned<i64>>,
    pub on_save: Option<Spanned<String>>,
    /// Area attacks: `burst` (the default) or `spread`, and the radius in feet.
    pub shape: Option<Spanned<String>>,
    pub radius: Option<Spanned<i64>>,
    pub reach: Option<Spanned<i64>>,
    #[serde(default)]
    pub reach_weapon: bool,
    #[serde(default)]
    pub crossbow: bool,
    pub range_increment: Option<Spanned<i64>>,
    /// A thrown weapon: fewer range increments than a projectile weapon.
    pub thrown: Option<Spanned<bool>>,
    /// Starfinder: the armor class the attack targets, `eac` or `kac`.
    pub vs: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlanLine {
    pub attacker: Spanned<String>,
    pub target: Spanned<String>,
    pub attack: Spanned<String>,
    pub action: Option<Spanned<String>>,
    pub cover: Option<Spanned<String>>,
    pub concealment: Option<Spanned<i64>>,
    pub flanking: Option<Spanned<bool>>,
    #[serde(default, deserialize_with = "bounded::optional_modifier")]
    pub attack_mod: Option<i32>,
    #[serde(default, deserialize_with = "bounded::optional_modifier")]
    pub ac_mod: Option<i32>,
    pub pinpointed: Option<bool>,
    /// Area attacks: the grid intersection the effect bursts from, and overrides of the
    /// attack's save.
    pub origin: Option<Spanned<Vec<i64>>>,
    pub save: Option<Spanned<String>>,
    pub dc: Option<Spanned<i64>>,
    pub on_save: Option<Spanned<String>>,
}

/// An attack bonus: one number, or a full attack's iteratives as a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bonus(pub Vec<i32>);

impl<'de> Deserialize<'de> for Bonus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BonusVisitor;

        impl<'de> Visitor<'de> for BonusVisitor {
            type Value = Bonus;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an attack bonus like `14` or a list of iteratives like `[14, 9]`")
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Bonus, E> {
                within(v, MAX_MODIFIER, "an attack bonus")
                    .map(|b| Bonus(vec![b]))
                    .map_err(E::custom)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bonus, A::Error> {
                let mut all = Vec::new();
                while let Some(b) = seq.next_element::<i64>()? {
                    all.push(
                        within(b, MAX_MODIFIER, "an attack bonus").map_err(de::Error::custom)?,
                    );
                }
                if all.is_empty() {
                    return Err(de::Error::custom("the list of iteratives is empty"));
                }
                Ok(Bonus(all))
            }
        }

        deserializer.deserialize_any(BonusVisitor)
    }
}

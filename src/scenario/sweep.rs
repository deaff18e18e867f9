//! `[[sweep]]`: the same experiment re-run with one or more fields changed.
//!
//! A sweep point is applied to the experiment's TOML document itself and then validated
//! like any file, so every field the format has can be swept and every value is checked by
//! the same rules as if it had been written in place.

use std::ops::Range;

use toml::{Table, Value};

use super::keyword::{attack_index, combatant_id};
use super::{Combatant, Scenario, Validator};
use crate::error::{InputError, did_you_mean};

/// Most points a sweep (the product of all `[[sweep]]` lists) may have.
pub const MAX_SWEEP_POINTS: usize = 100_000;

/// Combatant fields a sweep may set.
pub const COMBATANT_FIELDS: [&str; 20] = [
    "ac",
    "eac",
    "kac",
    "dex",
    "hp",
    "con",
    "fort",
    "reflex",
    "will",
    "evasion",
    "level",
    "conditions",
    "elevation",
    "size",
    "immune_to_crits",
    "side",
    "dr",
    "immune_to_precision",
    "stamina",
    "resolve",
];

/// Attack fields a sweep may set.
pub const ATTACK_FIELDS: [&str; 14] = [
    "bonus",
    "vs",
    "damage",
    "crit",
    "dc",
    "save",
    "on_save",
    "kind",
    "reach",
    "reach_weapon",
    "range_increment",
    "precision",
    "extra_damage",
    "bypass_dr",
];

/// One swept field and its values, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// `TOKEN.field` or `TOKEN.ATTACK.field`, as written.
    pub set: String,
    pub values: Vec<Value>,
    /// Where the sweep is written, for errors found while running it.
    pub span: Range<usize>,
}

/// The fields a sweep point sets, with their values, in sweep order.
pub type Assignments = Vec<(String, Value)>;

/// A resolved `set` path.
struct FieldPath<'a> {
    token: &'a str,
    attack: Option<&'a str>,
    field: &'a str,
}

fn parse_path(set: &str) -> Result<FieldPath<'_>, String> {
    let parts: Vec<&str> = set.split('.').collect();
    const FORM: &str =
        "expected TOKEN.field or TOKEN.ATTACK.field, as in `O.ac` or `F.longsword.bonus`";
    if parts.len() > 1 && parts.iter().any(|part| part.trim().is_empty()) {
        return Err(format!(
            "`{set}` has an empty part between its dots: {FORM}"
        ));
    }
    let (token, attack, field) = match parts.as_slice() {
        [token, field] => (*token, None, *field),
        [token, attack, field] => (*token, Some(*attack), *field),
        _ => return Err(format!("`{set}` is not a field path: {FORM}")),
    };
    let allowed: &[&str] = if attack.is_some() {
        &ATTACK_FIELDS
    } else {
        &COMBATANT_FIELDS
    };
    if !allowed.contains(&field) {
        return Err(format!(
            "`{field}` cannot be swept{}; expected one of {}{}",
            attack.map_or(String::new(), |_| " on an attack".into()),
            allowed.join(", "),
            did_you_mean(field, allowed.iter().copied())
        ));
    }
    Ok(FieldPath {
        token,
        attack,
        field,
    })
}

/// The token and attack a path names must exist; suggests the nearest when they do not.
fn path_names_exist(path: &FieldPath, combatants: &[Combatant]) -> Result<(), String> {
    let combatant = &combatants[combatant_id(path.token, combatants, "")?.index()];
    match path.attack {
        Some(name) => attack_index(combatant, name, "").map(|_| ()),
        None => Ok(()),
    }
}

/// Checks that `set` is a field path whose token and attack exist.
pub(super) fn field_names_exist(set: &str, combatants: &[Combatant]) -> Result<(), String> {
    parse_path(set).and_then(|path| path_names_exist(&path, combatants))
}

/// The `[[combatant]]` table with token `token` in the experiment document.
pub(super) fn combatant_table<'d>(doc: &'d mut Table, token: &str) -> Option<&'d mut Table> {
    doc.get_mut("combatant")
        .and_then(Value::as_array_mut)?
        .iter_mut()
        .filter_map(Value::as_table_mut)
        .find(|c| c.get("token").and_then(Value::as_str) == Some(token))
}

/// Sets one field in the experiment document.
pub(super) fn apply_field(doc: &mut Table, set: &str, value: &Value) -> Result<(), String> {
    let path = parse_path(set)?;
    let combatant = combatant_table(doc, path.token)
        .ok_or_else(|| format!("no combatant has token `{}`", path.token))?;
    let table = match path.attack {
        None => combatant,
        Some(name) => combatant
            .get_mut("attack")
            .and_then(Value::as_array_mut)
            .and_then(|all| {
                all.iter_mut()
                    .filter_map(Value::as_table_mut)
                    .find(|a| a.get("name").and_then(Value::as_str) == Some(name))
            })
            .ok_or_else(|| format!("`{}` has no attack named `{name}`", path.token))?,
    };
    table.insert(path.field.to_string(), value.clone());
    Ok(())
}

/// `16`, `1d8+3` (strings without quotes), `[14, 9]`.
pub fn display_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Validator<'_> {
    /// Checks every sweep's path, each of its values on its own, and the point count;
    /// returns the sweeps and, when there are any, the document their points are made from.
    pub(super) fn sweeps(
        &self,
        raw: &[toml::Spanned<super::raw::RawSweep>],
        combatants: &[Combatant],
    ) -> Result<(Vec<Sweep>, Option<Table>), InputError> {
        if raw.is_empty() {
            return Ok((Vec::new(), None));
        }
        let base = self.sweep_base()?;
        let mut points: usize = 1;
        let mut sweeps = Vec::new();
        for sweep in raw {
            let s = sweep.get_ref();
            field_names_exist(s.set.get_ref(), combatants)
                .map_err(|m| self.err(s.set.span(), m))?;
            if sweeps
                .iter()
                .any(|earlier: &Sweep| earlier.set == *s.set.get_ref())
            {
                return Err(self.err(
                    s.set.span(),
                    format!(
                        "`{}` is already swept by an earlier [[sweep]]; put all its values in one `values` list",
                        s.set.get_ref()
                    ),
                ));
            }
            if s.values.get_ref().is_empty() {
                return Err(self.err(s.values.span(), "a sweep needs at least one value"));
            }
            points = points.saturating_mul(s.values.get_ref().len());
            if points > MAX_SWEEP_POINTS {
                return Err(self.err(
                    s.values.span(),
                    format!("the sweeps have more than {MAX_SWEEP_POINTS} points in all"),
                ));
            }
            for value in s.values.get_ref() {
                self.sweep_scenario(&base, &[(s.set.get_ref().as_str(), value.get_ref())])
                    .map_err(|e| {
                        self.err(
                            value.span(),
                            format!(
                                "sweep value `{}` for `{}`: {}",
                                display_value(value.get_ref()),
                                s.set.get_ref(),
                                e.message
                            ),
                        )
                    })?;
            }
            sweeps.push(Sweep {
                set: s.set.get_ref().clone(),
                values: s
                    .values
                    .get_ref()
                    .iter()
                    .map(|v| v.get_ref().clone())
                    .collect(),
                span: sweep.span(),
            });
        }
        Ok((sweeps, Some(base)))
    }

    /// The experiment's document without its sweeps.
    fn sweep_base(&self) -> Result<Table, InputError> {
        let mut doc: Table = toml::from_str(&self.source.text)
            .map_err(|e| self.source.error_at(0, e.to_string()))?;
        doc.remove("sweep");
        Ok(doc)
    }

    /// The experiment (`base`, without its sweeps) with some fields set, validated.
    fn sweep_scenario(
        &self,
        base: &Table,
        assignments: &[(&str, &Value)],
    ) -> Result<Scenario, InputError> {
        let location = |message: String| self.source.error_at(0, message);
        let mut doc = base.clone();
        for (set, value) in assignments {
            apply_field(&mut doc, set, value).map_err(location)?;
        }
        let text = toml::to_string(&doc).map_err(|e| location(e.to_string()))?;
        Scenario::parse(&self.source.path, text)
    }
}

impl Scenario {
    /// Every point of the sweeps' cartesian product (first sweep varying slowest), as the
    /// assignments made and the resulting scenario, made one at a time. Errors point at
    /// the sweep.
    pub fn sweep_points(
        &self,
    ) -> impl Iterator<Item = Result<(Assignments, Scenario), InputError>> + '_ {
        let total: usize = self.sweeps.iter().map(|s| s.values.len()).product();
        (0..total).map(|index| self.sweep_point(index))
    }

    /// Point `index` of [`Scenario::sweep_points`].
    pub fn sweep_point(&self, mut index: usize) -> Result<(Assignments, Scenario), InputError> {
        let validator = Validator {
            source: &self.source,
        };
        let mut assignments = Vec::with_capacity(self.sweeps.len());
        for sweep in self.sweeps.iter().rev() {
            assignments.push((
                sweep.set.clone(),
                sweep.values[index % sweep.values.len()].clone(),
            ));
            index /= sweep.values.len();
        }
        assignments.reverse();
        let refs: Vec<(&str, &Value)> = assignments.iter().map(|(s, v)| (s.as_str(), v)).collect();
        let base = match &self.sweep_base {
            Some(base) => std::borrow::Cow::Borrowed(base),
            None => std::borrow::Cow::Owned(validator.sweep_base()?),
        };
        let scenario = validator.sweep_scenario(&base, &refs).map_err(|e| {
            let span = self.sweeps[0].span.clone();
            let point: Vec<String> = assignments
                .iter()
                .map(|(s, v)| format!("{s} = {}", display_value(v)))
                .collect();
            validator.err(
                span,
                format!("sweep point ({}): {}", point.join(", "), e.message),
            )
        })?;
        Ok((assignments, scenario))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"
system = "pf1"
map = "F.O"
[[combatant]]
token = "F"
ac = 18
hp = 20
[[combatant.attack]]
name = "sword"
bonus = 5
damage = "1d8+3"
[[combatant]]
token = "O"
ac = 14
hp = 30
[[plan]]
attacker = "F"
target = "O"
attack = "sword"
"#;

    fn with_sweeps(sweeps: &str) -> Result<Scenario, InputError> {
        Scenario::parse("s.toml", format!("{BASE}{sweeps}"))
    }

    #[test]
    fn points_are_the_cartesian_product_first_sweep_slowest() {
        let s = with_sweeps(
            "[[sweep]]\nset = \"O.ac\"\nvalues = [12, 16]\n[[sweep]]\nset = \"F.sword.damage\"\nvalues = [\"1d6\", \"2d6\", \"1d12\"]\n",
        )
        .unwrap();
        let points: Vec<_> = s.sweep_points().collect::<Result<_, _>>().unwrap();
        assert_eq!(points.len(), 6);
        let labels: Vec<String> = points
            .iter()
            .map(|(a, _)| {
                a.iter()
                    .map(|(_, v)| display_value(v))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(
            labels,
            ["12 1d6", "12 2d6", "12 1d12", "16 1d6", "16 2d6", "16 1d12"]
        );
        let (_, last) = &points[5];
        assert_eq!(last.combatants[1].ac, 16);
        assert_eq!(last.combatants[0].attacks[0].damage.to_string(), "1d12");
        assert!(last.sweeps.is_empty());
    }

    #[test]
    fn bad_sweeps_point_at_the_mistake() {
        let cases = [
            (
                "set = \"O.armor\"\nvalues = [1]",
                "s.toml:21:7: `armor` cannot be swept",
            ),
            (
                "set = \"Q.ac\"\nvalues = [1]",
                "s.toml:21:7: no combatant has token `Q`; known tokens: F, O",
            ),
            (
                "set = \"O.acc\"\nvalues = [1]",
                "s.toml:21:7: `acc` cannot be swept; expected one of ac, eac, kac, dex, hp, con, fort, reflex, will, evasion, level, conditions, elevation, size, immune_to_crits, side, dr, immune_to_precision, stamina, resolve (did you mean `ac`?)",
            ),
            (
                "set = \"F.swrod.bonus\"\nvalues = [1]",
                "s.toml:21:7: `F` has no attack named `swrod`; its attacks: `sword` (did you mean `sword`?)",
            ),
            (
                "set = \"O.ac\"\nvalues = []",
                "s.toml:22:10: a sweep needs at least one value",
            ),
            (
                "set = \"F.sword.damage\"\nvalues = [\"1d6\", \"1d\"]",
                "s.toml:22:18: sweep value `1d` for `F.sword.damage`",
            ),
            (
                "set = \"O.hp\"\nvalues = [10, -3]",
                "s.toml:22:15: sweep value `-3` for `O.hp`",
            ),
            (
                "set = \"ac\"\nvalues = [1]",
                "s.toml:21:7: `ac` is not a field path",
            ),
        ];
        for (sweep, expected) in cases {
            let message = with_sweeps(&format!("[[sweep]]\n{sweep}\n"))
                .unwrap_err()
                .to_string();
            assert!(
                message.starts_with(expected),
                "expected `{expected}`, got `{message}`"
            );
        }
    }
}

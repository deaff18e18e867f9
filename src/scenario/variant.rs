//! `[[variant]]`: the experiment as written with a few changes, compared with it on the
//! same random numbers (SPEC §7).
//!
//! Like a sweep point, a variant is applied to the experiment's TOML document and then
//! validated like any file, so every change is checked by the same rules as if it had
//! been written in place; an error names the variant and points at the change.

use std::ops::Range;
use std::path::Path;

use toml::{Spanned, Table, Value};

use super::keyword::combatant_id;
use super::raw::RawVariant;
use super::sweep::{self, apply_field, field_names_exist};
use super::{Combatant, Scenario, Validator};
use crate::error::InputError;

/// Most variants an experiment may compare.
pub const MAX_VARIANTS: usize = 26;

/// One variant: its name and the experiment it makes, validated.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    /// Where the variant is written.
    pub span: Range<usize>,
    pub scenario: Box<Scenario>,
    /// After each change in turn: where the change is written, and the file the changes
    /// so far make (the last is `scenario`'s); see [`Variant::blame`].
    steps: Vec<Step>,
}

/// Where a change is written, and the experiment's text once it and those before it are
/// made.
type Step = (Range<usize>, String);

impl Variant {
    /// Where an error `message` of the variant's experiment belongs: the first change,
    /// in the order they are made, after which the experiment fails with that message
    /// (`fails` says how a validated file fails later, as in building its plan); the
    /// last change when only all of them together fail so. The variant as a whole only
    /// if none does, which the last step, the variant's own experiment, rules out.
    pub fn blame(
        &self,
        message: &str,
        fails: impl Fn(&Scenario) -> Option<String>,
    ) -> Range<usize> {
        let path = &self.scenario.source.path;
        first_to_fail(&self.steps, path, message, fails).unwrap_or_else(|| self.span.clone())
    }
}

/// The change of the first of `steps` whose experiment (at `path`) fails with `message`:
/// as its file is validated, or then as `fails` says.
fn first_to_fail(
    steps: &[Step],
    path: &Path,
    message: &str,
    fails: impl Fn(&Scenario) -> Option<String>,
) -> Option<Range<usize>> {
    let failure = |text: &str| match Scenario::parse(path, text) {
        Ok(scenario) => fails(&scenario),
        Err(e) => Some(e.message),
    };
    (steps.iter())
        .find(|(_, text)| failure(text).as_deref() == Some(message))
        .map(|(span, _)| span.clone())
}

/// A change not yet placed: the message, and the key it is blamed on.
type Placed = (Range<usize>, String);

impl Validator<'_> {
    /// Checks every variant and makes its experiment.
    pub(super) fn variants(
        &self,
        raw: &[Spanned<RawVariant>],
        combatants: &[Combatant],
    ) -> Result<Vec<Variant>, InputError> {
        if raw.len() > MAX_VARIANTS {
            return Err(self.err(
                raw[MAX_VARIANTS].span(),
                format!("at most {MAX_VARIANTS} variants may be compared in one experiment"),
            ));
        }
        let mut variants: Vec<Variant> = Vec::new();
        for spanned in raw {
            let variant = spanned.get_ref();
            let name = variant.name.get_ref().trim();
            if name.is_empty() || name == "baseline" {
                return Err(self.err(
                    variant.name.span(),
                    "a variant needs a name of its own (not empty, not `baseline`)",
                ));
            }
            if variants.iter().any(|v| v.name == name) {
                return Err(self.err(
                    variant.name.span(),
                    format!("a variant named `{name}` is already defined above"),
                ));
            }
            let (scenario, steps) = self
                .variant_scenario(variant, combatants)
                .map_err(|(span, why)| self.err(span, format!("variant `{name}`: {why}")))?;
            variants.push(Variant {
                name: name.to_string(),
                span: spanned.span(),
                scenario: Box::new(scenario),
                steps,
            });
        }
        Ok(variants)
    }

    /// The experiment with the variant's changes, validated, and the steps that made it;
    /// errors are placed at the change that caused them. When the changed file fails as
    /// a whole (a value of the wrong type, a line no longer possible), the blame goes to
    /// the first change after which the file fails with the same message (see
    /// [`Variant::blame`]).
    fn variant_scenario(
        &self,
        variant: &RawVariant,
        combatants: &[Combatant],
    ) -> Result<(Scenario, Vec<Step>), Placed> {
        let mut doc: Table =
            toml::from_str(&self.source.text).map_err(|e| (variant.name.span(), e.to_string()))?;
        for compared_elsewhere in ["variant", "sweep", "heatmap"] {
            doc.remove(compared_elsewhere);
        }
        if variant.is_empty() {
            return Err((
                variant.name.span(),
                "changes nothing: give it `move`, `set`, `tactic`, `add_conditions`, `remove_conditions` or `plan`".into(),
            ));
        }
        let steps = changed(&mut doc, variant, combatants)?;
        let text = steps
            .last()
            .map(|(_, text)| text.clone())
            .unwrap_or_default();
        let path = &self.source.path;
        match Scenario::parse(path, text) {
            Ok(scenario) => Ok((scenario, steps)),
            Err(e) => {
                let blamed = first_to_fail(&steps, path, &e.message, |_| None);
                let blamed = blamed.unwrap_or_else(|| variant.name.span());
                let at = self.failing_key_elsewhere(&blamed, e.source_line.as_deref());
                Err((blamed, format!("{}{at}", e.message)))
            }
        }
    }
}

impl Validator<'_> {
    /// ` (the changed experiment fails at `…`)` naming the key where a variant's
    /// experiment fails, when it is another than the key of the change blamed: a `kind`
    /// set to melee fails at the attack's `range_increment`, which the change does not
    /// name. Nothing for a failure that is not at a `key = value` line (a header, a map
    /// row: the changed file's own text, which the user never wrote).
    fn failing_key_elsewhere(&self, blamed: &Range<usize>, failing: Option<&str>) -> String {
        let Some(failing) = failing.map(str::trim).filter(|l| !l.starts_with('[')) else {
            return String::new();
        };
        let Some((failing_key, _)) = failing.split_once('=') else {
            return String::new();
        };
        let text = &self.source.text;
        let at = blamed.start.min(text.len());
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        // The change's key: the last one written before its value, its last segment
        // (`"B.shotgun.kind" = "melee"` → `kind`).
        let head = text[line_start..at]
            .trim_end()
            .trim_end_matches('=')
            .trim_end();
        let key = (head.trim_end_matches('"'))
            .rsplit(|c: char| c == '"' || c == '{' || c == ',' || c.is_whitespace())
            .next()
            .unwrap_or_default();
        let changed = key.rsplit('.').next().unwrap_or(key);
        let failing_key = failing_key.trim().trim_matches('"');
        if failing_key == changed {
            return String::new();
        }
        format!(" (the changed experiment fails at `{failing}`)")
    }
}

/// Makes `variant`'s changes to `doc` in turn, in the order SPEC §7 lists them (`set`,
/// `move`, `tactic`, `add_conditions`, `remove_conditions`, `plan`); returns, after each,
/// where it is written (its value) and the document so far as text.
fn changed(
    doc: &mut Table,
    variant: &RawVariant,
    combatants: &[Combatant],
) -> Result<Vec<Step>, Placed> {
    let mut made = Vec::new();
    let step = |span: Range<usize>, doc: &Table| -> Result<Step, Placed> {
        match toml::to_string(doc) {
            Ok(text) => Ok((span, text)),
            Err(e) => Err((span, e.to_string())),
        }
    };
    for (set, value) in &variant.set {
        field_names_exist(set.get_ref(), combatants)
            .and_then(|()| apply_field(doc, set.get_ref(), value.get_ref()))
            .map_err(|why| (set.span(), why))?;
        made.push(step(value.span(), doc)?);
    }
    for (token, square) in &variant.moves {
        let combatant = known(token, combatants)?;
        let &[x, y] = square.get_ref().as_slice() else {
            let numbers = square.get_ref().len();
            return Err((
                square.span(),
                format!("a square is `[x, y]`, two numbers, not {numbers}"),
            ));
        };
        move_token(doc, combatant, [x, y]).map_err(|why| (square.span(), why))?;
        made.push(step(square.span(), doc)?);
    }
    for (token, tactic) in &variant.tactic {
        let combatant = known(token, combatants)?;
        combatant_table(doc, combatant)
            .insert("tactic".into(), Value::String(tactic.get_ref().clone()));
        made.push(step(tactic.span(), doc)?);
    }
    for (token, added) in &variant.add_conditions {
        let combatant = known(token, combatants)?;
        let table = combatant_table(doc, combatant);
        let mut conditions = conditions(table);
        for condition in added.get_ref() {
            if !conditions.contains(condition) {
                conditions.push(condition.clone());
            }
        }
        set_conditions(table, conditions);
        made.push(step(added.span(), doc)?);
    }
    for (token, removed) in &variant.remove_conditions {
        let combatant = known(token, combatants)?;
        let table = combatant_table(doc, combatant);
        let mut conditions = conditions(table);
        for condition in removed.get_ref() {
            let Some(at) = conditions.iter().position(|c| c == condition) else {
                return Err((
                    removed.span(),
                    format!(
                        "`{}` does not have the condition `{condition}`; its conditions: {}",
                        combatant.token,
                        listed(&conditions)
                    ),
                ));
            };
            conditions.remove(at);
        }
        set_conditions(table, conditions);
        made.push(step(removed.span(), doc)?);
    }
    if let Some(lines) = &variant.plan {
        replace_plan_lines(doc, lines.get_ref()).map_err(|why| (lines.span(), why))?;
        made.push(step(lines.span(), doc)?);
    }
    Ok(made)
}

impl RawVariant {
    fn is_empty(&self) -> bool {
        self.set.is_empty()
            && self.moves.is_empty()
            && self.tactic.is_empty()
            && self.add_conditions.is_empty()
            && self.remove_conditions.is_empty()
            && self.plan.is_none()
    }
}

/// The combatant a change names by its token.
fn known<'c>(
    token: &Spanned<String>,
    combatants: &'c [Combatant],
) -> Result<&'c Combatant, Placed> {
    combatant_id(token.get_ref(), combatants, "")
        .map(|id| &combatants[id.index()])
        .map_err(|why| (token.span(), why))
}

/// A combatant's table in the document (it exists: the token was validated).
fn combatant_table<'d>(doc: &'d mut Table, combatant: &Combatant) -> &'d mut Table {
    sweep::combatant_table(doc, &combatant.token.to_string())
        .expect("a validated token names a combatant of the document")
}

fn conditions(table: &Table) -> Vec<String> {
    table
        .get("conditions")
        .and_then(Value::as_array)
        .map(|all| {
            all.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn set_conditions(table: &mut Table, conditions: Vec<String>) {
    table.insert(
        "conditions".into(),
        Value::Array(conditions.into_iter().map(Value::String).collect()),
    );
}

fn listed(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// Moves a combatant's letters on the map so that the top-left square of its space is
/// `[x, y]` (0-based column and row, as in `heatmap.csv`). The squares it leaves get the
/// terrain it stood in; the terrain of the squares it moves to becomes its `terrain`.
fn move_token(doc: &mut Table, combatant: &Combatant, [x, y]: [i64; 2]) -> Result<(), String> {
    let letter = combatant.token;
    let Some(Value::String(map)) = doc.get("map") else {
        return Err("the experiment has no map to move on".into());
    };
    let mut rows: Vec<Vec<char>> = map.lines().map(|row| row.chars().collect()).collect();
    let squares: Vec<(usize, usize)> = (rows.iter().enumerate())
        .flat_map(|(r, row)| {
            (row.iter().enumerate())
                .filter(|&(_, &c)| c == letter)
                .map(move |(c, _)| (c, r))
        })
        .collect();
    let left = squares.iter().map(|s| s.0).min().unwrap_or(0) as i64;
    let top = squares.iter().map(|s| s.1).min().unwrap_or(0) as i64;
    let table = combatant_table(doc, combatant);
    let under = table
        .get("terrain")
        .and_then(Value::as_str)
        .and_then(|t| t.chars().next())
        .unwrap_or('.');
    for &(c, r) in &squares {
        rows[r][c] = under;
    }
    let mut arrived = None;
    for &(c, r) in &squares {
        let (nc, nr) = (c as i64 - left + x, r as i64 - top + y);
        let found = usize::try_from(nr)
            .ok()
            .zip(usize::try_from(nc).ok())
            .and_then(|(nr, nc)| {
                rows.get(nr)
                    .and_then(|row| row.get(nc))
                    .map(|&s| (nr, nc, s))
            });
        let Some((nr, nc, symbol)) = found else {
            return Err(format!(
                "[{x}, {y}] puts `{letter}` off the map (square [{nc}, {nr}]); the map has {} columns and {} rows",
                rows.iter().map(Vec::len).max().unwrap_or(0),
                rows.len()
            ));
        };
        if symbol.is_ascii_alphabetic() {
            return Err(format!(
                "[{x}, {y}] puts `{letter}` on `{symbol}` (square [{nc}, {nr}]); a square holds one creature"
            ));
        }
        if arrived.is_some_and(|s| s != symbol) {
            return Err(format!(
                "[{x}, {y}] puts `{letter}` across two kinds of terrain; move it where its space is all one kind"
            ));
        }
        arrived = Some(symbol);
        rows[nr][nc] = letter;
    }
    let table = combatant_table(doc, combatant);
    match arrived {
        Some(symbol) if symbol != '.' => {
            table.insert("terrain".into(), Value::String(symbol.to_string()));
        }
        _ => {
            table.remove("terrain");
        }
    }
    let map: Vec<String> = rows.iter().map(|row| row.iter().collect()).collect();
    doc.insert("map".into(), Value::String(map.join("\n") + "\n"));
    Ok(())
}

/// Replaces the plan lines of every attacker `lines` names by `lines`, in place of the
/// first line they replace (or at the end).
fn replace_plan_lines(doc: &mut Table, lines: &[Value]) -> Result<(), String> {
    let attacker = |line: &Value| {
        line.get("attacker")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut attackers = Vec::new();
    for line in lines {
        let Some(name) = attacker(line) else {
            return Err("each plan line of a variant names its `attacker`, as in `{ attacker = \"R\", target = \"O\", attack = \"rapier\" }`".into());
        };
        attackers.push(name);
    }
    let written = match doc.remove("plan") {
        Some(Value::Array(all)) => all,
        _ => Vec::new(),
    };
    let first = written
        .iter()
        .position(|l| attacker(l).is_some_and(|a| attackers.contains(&a)))
        .unwrap_or(written.len());
    let mut kept: Vec<Value> = written
        .into_iter()
        .filter(|l| attacker(l).is_none_or(|a| !attackers.contains(&a)))
        .collect();
    let at = first.min(kept.len());
    kept.splice(at..at, lines.iter().cloned());
    if !kept.is_empty() {
        doc.insert("plan".into(), Value::Array(kept));
    }
    Ok(())
}

//! Plan + tally + exact figures → the tables of SPEC §3 (summary, rounds, damage).

use std::io::Write;

use serde_json::{Map, Value};

use crate::error::Error;

use super::sweep::SweepRows;
use super::table::Table;
use crate::engine::Tally;
use crate::exact::Exact;
use crate::plan::Plan;
use crate::stats::Estimate;

/// Everything a run reports.
#[derive(Debug)]
pub struct Results {
    pub title: String,
    pub system: String,
    pub seed: u64,
    /// Trials simulated (may be fewer than asked for with `--precision`).
    pub trials: u64,
    pub summary: Table,
    pub rounds: Table,
    pub damage: Table,
    /// One summary per sweep point, when the experiment sweeps (on disk, see
    /// [`super::SweepWriter`]).
    pub sweep: Option<SweepRows>,
    /// One row per square tried, when the experiment has a `[heatmap]`.
    pub heatmap: Option<Table>,
    /// Why exact figures are missing, where they are.
    pub exact_notes: Vec<String>,
    /// What the rules changed from the file as written (the plan's notes).
    pub rule_notes: Vec<String>,
    /// The run was stopped by Ctrl-C: the figures come from the trials completed before.
    pub interrupted: bool,
}

impl Results {
    /// The results of `tally`, a run of `plan` from `seed`, beside the exact figures.
    pub fn new(plan: &Plan, seed: u64, tally: &Tally, exact: &Exact) -> Self {
        let exact_notes = plan
            .targets
            .iter()
            .zip(&exact.targets)
            .filter_map(|(t, e)| {
                e.as_ref()
                    .err()
                    .map(|why| format!("exact figures for {} not computed: {why}", t.label))
            })
            .collect();
        Self {
            title: plan.title.clone(),
            system: plan.system.key().to_string(),
            seed,
            trials: tally.trials(),
            summary: summary_table(plan, tally, exact),
            rounds: rounds_table(plan, tally, exact),
            damage: damage_table(plan, tally, exact),
            sweep: None,
            heatmap: None,
            exact_notes,
            rule_notes: plan.notes.clone(),
            interrupted: false,
        }
    }

    /// Every table of the report kept in memory (all but the sweep's), in file order.
    pub fn tables(&self) -> Vec<&Table> {
        let mut tables = vec![&self.summary, &self.rounds, &self.damage];
        tables.extend(&self.heatmap);
        tables
    }

    /// The `--json` document; the sweep's rows stay on disk until it is printed.
    pub fn json(self) -> JsonDocument {
        let mut doc = Map::new();
        doc.insert("title".into(), Value::from(self.title.clone()));
        doc.insert("system".into(), Value::from(self.system.clone()));
        doc.insert("seed".into(), Value::from(self.seed));
        doc.insert("trials".into(), Value::from(self.trials));
        for table in self.tables() {
            doc.insert(table.name.into(), table.json());
        }
        doc.insert("exact_notes".into(), Value::from(self.exact_notes.clone()));
        doc.insert("rule_notes".into(), Value::from(self.rule_notes.clone()));
        doc.insert("interrupted".into(), Value::from(self.interrupted));
        JsonDocument {
            fields: doc,
            sweep: self.sweep,
        }
    }
}

/// A `--json` document: the results as JSON, and the sweep's rows (there may be
/// millions) still on disk.
#[derive(Debug)]
pub struct JsonDocument {
    fields: Map<String, Value>,
    sweep: Option<SweepRows>,
}

/// Prints one document, or several as an array, pretty-printed: the sweep rows are
/// streamed into their place from disk.
pub fn write_json(documents: Vec<JsonDocument>, out: &mut impl Write) -> Result<(), Error> {
    let placeholder = |i: usize| format!("{SWEEP_PLACEHOLDER}{i}");
    let mut values = Vec::with_capacity(documents.len());
    let mut sweeps = Vec::new();
    for (i, mut document) in documents.into_iter().enumerate() {
        if let Some(sweep) = document.sweep {
            document
                .fields
                .insert("sweep".into(), Value::from(placeholder(i)));
            sweeps.push((i, sweep));
        }
        values.push(Value::Object(document.fields));
    }
    let text = format!("{:#}", one_or_array(values));
    let out_error = |e: std::io::Error| Error::io("standard output", e);
    let mut rest = text.as_str();
    for (i, sweep) in sweeps {
        let quoted = format!("\"{}\"", placeholder(i));
        let Some(at) = rest.find(&quoted) else {
            continue;
        };
        let line_start = rest[..at].rfind('\n').map_or(0, |n| n + 1);
        let indent: String = rest[line_start..]
            .chars()
            .take_while(|c| *c == ' ')
            .collect();
        out.write_all(&rest.as_bytes()[..at]).map_err(out_error)?;
        sweep.write_json_array(&indent, out)?;
        rest = &rest[at + quoted.len()..];
    }
    writeln!(out, "{rest}").map_err(out_error)?;
    out.flush().map_err(out_error)
}

/// The JSON of several files (`run`, `check`): the one document, or an array of them.
pub fn one_or_array(mut documents: Vec<Value>) -> Value {
    match documents.len() {
        1 => documents.remove(0),
        _ => Value::Array(documents),
    }
}

/// Stands in for the sweep rows while the rest of a document is printed: no printed JSON
/// string value can hold it quoted, since a string's own quotes are escaped.
const SWEEP_PLACEHOLDER: &str = "d20odds-sweep-rows-";

/// Adds `name`, `name_lo`, `name_hi` columns from estimates.
fn estimate_columns(table: &mut Table, name: [&'static str; 3], estimates: &[Estimate]) {
    table.float(name[0], estimates.iter().map(|e| Some(e.point)));
    table.float(name[1], estimates.iter().map(|e| Some(e.lo)));
    table.float(name[2], estimates.iter().map(|e| Some(e.hi)));
}

fn summary_table(plan: &Plan, tally: &Tally, exact: &Exact) -> Table {
    let mut t = Table::new("summary");
    let slots = &plan.slots;
    let line = |i: usize| &plan.lines[slots[i].line];
    let n = slots.len();
    t.text("attacker", (0..n).map(|i| line(i).attacker.clone()));
    t.text(
        "target",
        (0..n).map(|i| plan.targets[slots[i].target].label.clone()),
    );
    t.text("attack", (0..n).map(|i| line(i).attack.clone()));
    t.int("index", slots.iter().map(|s| s.index as i64 + 1));
    t.int("bonus", slots.iter().map(|s| i64::from(s.base_bonus)));
    t.text(
        "cover",
        (0..n).map(|i| line(i).modifiers.cover.key().to_string()),
    );
    t.int(
        "concealment",
        (0..n).map(|i| i64::from(line(i).modifiers.concealment)),
    );
    t.bool("flanking", (0..n).map(|i| line(i).modifiers.flanking));
    t.int(
        "attack_mod",
        (0..n).map(|i| i64::from(line(i).modifiers.attack_mod)),
    );
    t.int(
        "ac_mod",
        (0..n).map(|i| i64::from(line(i).modifiers.ac_mod)),
    );
    t.int(
        "effective_bonus",
        slots.iter().map(|s| i64::from(s.profile.bonus)),
    );
    t.int(
        "effective_ac",
        slots.iter().map(|s| i64::from(s.profile.ac)),
    );
    t.int(
        "miss_chance",
        slots.iter().map(|s| i64::from(s.profile.miss_chance)),
    );
    let attacks: Vec<_> = (0..n).map(|i| tally.slot(plan, i)).collect();
    t.int("trials", attacks.iter().map(|a| a.made() as i64));
    let hits: Vec<_> = attacks.iter().map(|a| a.hit().estimate()).collect();
    let crits: Vec<_> = attacks.iter().map(|a| a.crit().estimate()).collect();
    let means: Vec<_> = attacks.iter().map(|a| a.damage().estimate()).collect();
    estimate_columns(&mut t, ["p_hit", "p_hit_lo", "p_hit_hi"], &hits);
    estimate_columns(&mut t, ["p_crit", "p_crit_lo", "p_crit_hi"], &crits);
    estimate_columns(
        &mut t,
        ["mean_damage", "mean_damage_lo", "mean_damage_hi"],
        &means,
    );
    t.float(
        "exact_p_hit",
        exact.slots.iter().map(|e| e.map(|e| e.p_hit)),
    );
    t.float(
        "exact_p_crit",
        exact.slots.iter().map(|e| e.map(|e| e.p_crit)),
    );
    t.float(
        "exact_mean_damage",
        exact.slots.iter().map(|e| e.map(|e| e.mean_damage)),
    );
    t.text(
        "square_guess",
        slots.iter().map(|s| {
            let g = s.profile.guess;
            format!("{}/{}", g.right, g.candidates)
        }),
    );
    t.text(
        "save",
        (0..n).map(|i| {
            line(i)
                .modifiers
                .save
                .map_or(String::new(), |s| s.describe())
        }),
    );
    cover_struck_columns(&mut t, plan, tally, exact);
    t
}

/// d20 Modern striking the cover: which creature gives the soft cover, how often it is
/// hit instead of the target, and the damage it takes per attack.
fn cover_struck_columns(t: &mut Table, plan: &Plan, tally: &Tally, exact: &Exact) {
    let slots = &plan.slots;
    t.text(
        "covering",
        slots.iter().map(|s| {
            s.covering
                .map_or(String::new(), |c| plan.targets[c].label.clone())
        }),
    );
    let attacks: Vec<_> = (0..slots.len()).map(|i| tally.slot(plan, i)).collect();
    let struck: Vec<_> = attacks.iter().map(|a| a.struck().estimate()).collect();
    let means: Vec<_> = attacks
        .iter()
        .map(|a| a.struck_damage().estimate())
        .collect();
    estimate_columns(
        t,
        ["p_cover_hit", "p_cover_hit_lo", "p_cover_hit_hi"],
        &struck,
    );
    estimate_columns(
        t,
        [
            "cover_mean_damage",
            "cover_mean_damage_lo",
            "cover_mean_damage_hi",
        ],
        &means,
    );
    t.float(
        "exact_p_cover_hit",
        exact.slots.iter().map(|e| e.map(|e| e.p_struck)),
    );
    t.float(
        "exact_cover_mean_damage",
        exact.slots.iter().map(|e| e.map(|e| e.mean_struck_damage)),
    );
}

fn rounds_table(plan: &Plan, tally: &Tally, exact: &Exact) -> Table {
    let mut t = Table::new("rounds");
    let rows: Vec<(usize, usize)> = (0..plan.targets.len())
        .filter(|&target| {
            plan.targets[target].down_at.is_some()
                || plan.slots.iter().any(|s| s.covering == Some(target))
        })
        .flat_map(|target| (0..plan.rounds as usize).map(move |round| (target, round)))
        .collect();
    let counted = |&(target, round): &(usize, usize)| tally.round(target, round);
    let exact_round = |&(target, round): &(usize, usize)| {
        exact.targets[target].as_ref().ok().map(|e| e.rounds[round])
    };
    t.text(
        "target",
        rows.iter()
            .map(|&(target, _)| plan.targets[target].label.clone()),
    );
    t.int("round", rows.iter().map(|&(_, round)| round as i64 + 1));
    let downs: Vec<_> = rows.iter().map(|r| counted(r).down.estimate()).collect();
    let deads: Vec<_> = rows.iter().map(|r| counted(r).dead.estimate()).collect();
    let means: Vec<_> = rows.iter().map(|r| counted(r).damage.estimate()).collect();
    estimate_columns(&mut t, ["p_down", "p_down_lo", "p_down_hi"], &downs);
    estimate_columns(&mut t, ["p_dead", "p_dead_lo", "p_dead_hi"], &deads);
    estimate_columns(
        &mut t,
        ["mean_damage", "mean_damage_lo", "mean_damage_hi"],
        &means,
    );
    t.float(
        "exact_p_down",
        rows.iter().map(|r| exact_round(r).map(|e| e.p_down)),
    );
    t.float(
        "exact_p_dead",
        rows.iter().map(|r| exact_round(r).map(|e| e.p_dead)),
    );
    t.float(
        "exact_mean_damage",
        rows.iter().map(|r| exact_round(r).map(|e| e.mean_damage)),
    );
    t
}

fn damage_table(plan: &Plan, tally: &Tally, exact: &Exact) -> Table {
    let mut t = Table::new("damage");
    let mut rows: Vec<(usize, usize)> = Vec::new();
    let mut estimates = Vec::new();
    for target in 0..plan.targets.len() {
        let exact_probs = exact.targets[target].as_ref().ok().map(|e| &e.damage);
        for (damage, taken) in tally.damage_taken(target).enumerate() {
            let possible = exact_probs.is_some_and(|p| p.get(damage).is_some_and(|&p| p > 0.0));
            if taken.successes > 0 || possible {
                rows.push((target, damage));
                estimates.push(taken.estimate());
            }
        }
    }
    let exact_p = |&(target, damage): &(usize, usize)| {
        exact.targets[target]
            .as_ref()
            .ok()
            .map(|e| e.damage[damage])
    };
    t.text(
        "target",
        rows.iter()
            .map(|&(target, _)| plan.targets[target].label.clone()),
    );
    t.int("damage", rows.iter().map(|&(_, damage)| damage as i64));
    estimate_columns(
        &mut t,
        ["probability", "probability_lo", "probability_hi"],
        &estimates,
    );
    t.float("exact_probability", rows.iter().map(exact_p));
    t
}

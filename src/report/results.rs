//! Plan + tally + exact figures → [`Results`], the rows of SPEC §3's tables, and the
//! `--json` document.

use std::io::Write;

use serde_json::{Map, Value};

use crate::error::Error;

use super::fight_rows::FightReport;
use super::heatmap_rows::Heatmap;
use super::rows::{AttackRow, DamageRow, RoundRow, attack_rows, damage_rows, round_rows};
use super::sweep::SweepRows;
use super::table::{Output, Rows};
use super::variants::VariantRow;
use crate::encounter::{ExactFight, Fight, FightTally};
use crate::engine::Tally;
use crate::exact::Exact;
use crate::plan::Plan;

/// Everything a run reports.
#[derive(Debug)]
pub struct Results {
    /// The experiment's title.
    pub title: String,
    /// The rule system's key (`pf1`, `d20modern`…).
    pub system: String,
    /// The seed the trials were drawn from.
    pub seed: u64,
    /// Trials simulated (may be fewer than asked for with `--precision`).
    pub trials: u64,
    /// One row per attack of the plan (`summary.csv`).
    pub summary: Vec<AttackRow>,
    /// One row per round of each target with hit points or covering another.
    pub rounds: Vec<RoundRow>,
    /// The distribution of each target's total damage taken.
    pub damage: Vec<DamageRow>,
    /// One summary per sweep point, when the experiment sweeps (on disk, see
    /// [`super::SweepWriter`]).
    pub sweep: Option<SweepRows>,
    /// One row per square tried, when the experiment has a `[heatmap]`.
    pub heatmap: Option<Heatmap>,
    /// The fight's tables, when the experiment has an `[encounter]`.
    pub fight: Option<FightReport>,
    /// Every variant's figures beside the baseline's (`variants.csv`), when the
    /// experiment compares `[[variant]]`s.
    pub variants: Vec<VariantRow>,
    /// Why exact figures are missing, where they are.
    pub exact_notes: Vec<String>,
    /// What the rules changed from the file as written (the plan's notes).
    pub rule_notes: Vec<String>,
    /// The run was stopped by Ctrl-C: the figures come from the trials completed before.
    pub interrupted: bool,
    /// What the stop left out altogether (`5 of 7 sweep points`), named in its note.
    pub not_run: Vec<String>,
}

impl Results {
    /// The results of `tally`, a run of `plan` from `seed`, beside the exact figures.
    pub fn new(plan: &Plan, seed: u64, tally: &Tally, exact: &Exact) -> Self {
        let exact_notes = plan
            .targets()
            .iter()
            .zip(&exact.targets)
            .filter_map(|(t, e)| {
                e.as_ref()
                    .err()
                    .map(|why| format!("exact figures for {} not computed: {why}", t.label))
            })
            .collect();
        Self {
            title: plan.title().to_string(),
            system: plan.system().key().to_string(),
            seed,
            trials: tally.trials(),
            summary: attack_rows(plan, tally, exact),
            rounds: round_rows(plan, tally, exact),
            damage: damage_rows(plan, tally, exact),
            sweep: None,
            heatmap: None,
            fight: None,
            variants: Vec::new(),
            exact_notes,
            rule_notes: plan.notes().to_vec(),
            interrupted: false,
            not_run: Vec::new(),
        }
    }

    /// The results of `tally`, a run of `fight` from `seed`, beside its exact figures (or
    /// why there are none): its tables, the attacks it made as the summary, its status
    /// table as the round table, and each combatant's total damage taken (Monte Carlo
    /// only: the exact fight follows hit points, which dying takes too, not the damage
    /// attacks dealt); `plan` is the fight's orders as plan lines, and `rule_notes` its
    /// notes, then the fight's (see `Fight::run_notes`).
    pub fn of_fight(
        plan: &Plan,
        seed: u64,
        fight: &Fight,
        tally: &FightTally,
        exact: Result<ExactFight, String>,
        rule_notes: Vec<String>,
    ) -> Self {
        let report = FightReport::new(fight, tally, exact.as_ref().ok());
        let exact_notes = (exact.as_ref().err())
            .map(|why| format!("exact fight figures not computed: {why}"))
            .into_iter()
            .collect();
        Self {
            title: plan.title().to_string(),
            system: plan.system().key().to_string(),
            seed,
            trials: tally.trials(),
            summary: FightReport::attack_rows(fight, tally, exact.as_ref().ok()),
            rounds: report.round_rows(),
            damage: FightReport::damage_rows(fight, tally),
            sweep: None,
            heatmap: None,
            fight: Some(report),
            variants: Vec::new(),
            exact_notes,
            rule_notes,
            interrupted: false,
            not_run: Vec::new(),
        }
    }

    /// Every table of the report kept in memory (all but the sweep's), in file order.
    pub(super) fn tables(&self) -> Vec<Box<dyn Output + '_>> {
        let mut tables: Vec<Box<dyn Output + '_>> = vec![
            Box::new(Rows::new(&(), &self.summary)),
            Box::new(Rows::new(&(), &self.rounds)),
            Box::new(Rows::new(&(), &self.damage)),
        ];
        if let Some(heatmap) = &self.heatmap {
            tables.push(Box::new(heatmap.rows()));
        }
        if !self.variants.is_empty() {
            tables.push(Box::new(Rows::new(&(), &self.variants)));
        }
        if let Some(fight) = &self.fight {
            tables.push(Box::new(Rows::new(&(), &fight.encounter)));
            tables.push(Box::new(Rows::new(&(), &fight.combatants)));
            tables.push(Box::new(Rows::new(&(), &fight.length)));
            tables.push(Box::new(Rows::new(&(), &fight.sides)));
        }
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
            doc.insert(table.name().into(), table.json());
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

/// Prints one document, or several as an array, pretty-printed: the sweep tables' rows
/// are streamed into their places from disk.
pub fn write_json(documents: Vec<JsonDocument>, out: &mut impl Write) -> Result<(), Error> {
    let placeholder = |i: usize, name: &str| format!("{SWEEP_PLACEHOLDER}{i}-{name}");
    let mut values = Vec::with_capacity(documents.len());
    let mut spilled = Vec::new();
    for (i, mut document) in documents.into_iter().enumerate() {
        for table in document.sweep.into_iter().flat_map(|s| s.tables) {
            let key = placeholder(i, table.name);
            document.fields.insert(table.name.into(), Value::from(key));
            spilled.push((i, table));
        }
        values.push(Value::Object(document.fields));
    }
    let text = format!("{:#}", one_or_array(values));
    let out_error = |e: std::io::Error| Error::io("standard output", e);
    let mut rest = text.as_str();
    for (i, table) in spilled {
        let quoted = format!("\"{}\"", placeholder(i, table.name));
        let Some(at) = rest.find(&quoted) else {
            continue;
        };
        let line_start = rest[..at].rfind('\n').map_or(0, |n| n + 1);
        let indent: String = rest[line_start..]
            .chars()
            .take_while(|c| *c == ' ')
            .collect();
        out.write_all(&rest.as_bytes()[..at]).map_err(out_error)?;
        table.write_json_array(&indent, out)?;
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

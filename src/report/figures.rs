//! Results → the inputs of the chart functions in [`super::charts`], drawn once; the
//! chart files of a report folder are named here and nowhere else.

use std::collections::HashMap;
use std::hash::Hash;

use super::charts::{
    BattleMap, Chart, ChartError, ChartSize, Creature, DamageChart, DamagePoint, Estimate,
    HeatmapChart, LinesChart, RoundPoint, RoundsChart, SweepAxis, SweepChart, SweepSeries,
    TargetDamage, TargetRounds, damage_chart, down_dead_chart, heatmap_chart, lines_chart,
    sweep_chart,
};
use super::inputs::Inputs;
use super::results::Results;
use super::table::{Cells, Table};
use super::text::{attack_label, float, int, text};
use crate::error::Error;

/// The charts of one report; each is `None` where the run has nothing to show in it.
pub(super) struct Figures {
    /// The map as drawn in the experiment, with the lines that decided cover and flanking.
    pub(super) map: Option<Chart>,
    /// Down and dead by round, when some target has hit points.
    pub(super) rounds: Option<Chart>,
    /// The distribution of total damage taken, per target.
    pub(super) damage: Option<Chart>,
    /// P(hit) against the first swept field, when the experiment sweeps.
    pub(super) sweep: Option<SweepFigure>,
    /// P(hit) on the first target with the heatmap's combatant on each square.
    pub(super) heatmap: Option<Chart>,
}

/// The sweep chart and what the report says about it.
pub(super) struct SweepFigure {
    /// The swept field on the x axis, e.g. `T.ac`.
    pub(super) field: String,
    /// Attacks left out because their roll is the same at every sweep point.
    pub(super) unchanged: usize,
    pub(super) chart: Chart,
}

impl Figures {
    /// Draws every chart the results call for; the first failure is an error naming its
    /// files, so a report is never written without the charts it should hold.
    pub(super) fn draw(results: &Results, inputs: &Inputs) -> Result<Self, Error> {
        Ok(Self {
            map: map_input(results, inputs)
                .map(|c| drawn("map.svg/map.png", lines_chart(&c)))
                .transpose()?,
            rounds: rounds_input(results)
                .map(|c| drawn("rounds.svg/rounds.png", down_dead_chart(&c)))
                .transpose()?,
            damage: damage_input(results)
                .map(|c| drawn("damage.svg/damage.png", damage_chart(&c)))
                .transpose()?,
            sweep: sweep_input(results)
                .map(|(c, unchanged)| {
                    Ok::<_, Error>(SweepFigure {
                        field: c.x_label.clone(),
                        unchanged,
                        chart: drawn("sweep.svg/sweep.png", sweep_chart(&c))?,
                    })
                })
                .transpose()?,
            heatmap: heatmap_input(results, inputs)
                .map(|c| drawn("heatmap.svg/heatmap.png", heatmap_chart(&c)))
                .transpose()?,
        })
    }

    /// The chart files: `map.svg`, `map.png`, and likewise `rounds`, `damage`, `sweep`
    /// and `heatmap`.
    pub(super) fn files(&self) -> Vec<(String, Vec<u8>)> {
        let charts = [
            ("map", self.map.as_ref()),
            ("rounds", self.rounds.as_ref()),
            ("damage", self.damage.as_ref()),
            ("sweep", self.sweep.as_ref().map(|s| &s.chart)),
            ("heatmap", self.heatmap.as_ref()),
        ];
        charts
            .into_iter()
            .filter_map(|(stem, chart)| Some((stem, chart?)))
            .flat_map(|(stem, chart)| {
                [
                    (format!("{stem}.svg"), chart.svg.clone().into_bytes()),
                    (format!("{stem}.png"), chart.png.clone()),
                ]
            })
            .collect()
    }
}

/// A chart, or an error that says which files could not be drawn and that nothing was
/// written (a report folder is replaced whole or not at all).
fn drawn(what: &str, chart: Result<Chart, ChartError>) -> Result<Chart, Error> {
    chart.map_err(|e| Error::Output {
        what: what.to_string(),
        message: format!(
            "{e}; nothing was written, the CSV tables included (a report folder is replaced \
             whole or not at all, so the previous one is kept)"
        ),
    })
}

/// A probability column (`name`, `name_lo`, `name_hi`, `exact_name`) at a row.
fn estimate(t: &Table, name: &str, row: usize) -> Estimate {
    let value = float(t, name, row).unwrap_or(f64::NAN);
    Estimate {
        value,
        lo: float(t, &format!("{name}_lo"), row).unwrap_or(value),
        hi: float(t, &format!("{name}_hi"), row).unwrap_or(value),
        exact: float(t, &format!("exact_{name}"), row),
    }
}

/// Values grouped by key, groups in order of their first value (linear time: a sweep
/// table may have millions of rows).
fn group<K: Eq + Hash + Clone, T>(items: impl IntoIterator<Item = (K, T)>) -> Vec<(K, Vec<T>)> {
    let mut index: HashMap<K, usize> = HashMap::new();
    let mut groups: Vec<(K, Vec<T>)> = Vec::new();
    for (key, item) in items {
        match index.get(&key) {
            Some(&i) => groups[i].1.push(item),
            None => {
                index.insert(key.clone(), groups.len());
                groups.push((key, vec![item]));
            }
        }
    }
    groups
}

/// The rows of a table grouped by its `target` column, in order of first appearance.
pub(super) fn by_target<T>(t: &Table, point: impl Fn(usize) -> T) -> Vec<(String, Vec<T>)> {
    group((0..t.rows()).map(|row| (text(t, "target", row), point(row))))
}

fn rounds_input(results: &Results) -> Option<RoundsChart> {
    let r = &results.rounds;
    (r.rows() > 0).then(|| RoundsChart {
        title: format!("{} — down and dead by round", results.title),
        size: ChartSize::default(),
        targets: by_target(r, |row| RoundPoint {
            round: u32::try_from(int(r, "round", row)).unwrap_or(0),
            down: estimate(r, "p_down", row),
            dead: estimate(r, "p_dead", row),
        })
        .into_iter()
        .map(|(label, rounds)| TargetRounds { label, rounds })
        .collect(),
    })
}

/// Height of the damage chart: about 190 px per target panel.
fn damage_height(targets: usize) -> u32 {
    let targets = u32::try_from(targets).unwrap_or(u32::MAX);
    targets
        .saturating_mul(190)
        .saturating_add(170)
        .clamp(ChartSize::default().height, ChartSize::MAX_SIDE)
}

fn damage_input(results: &Results) -> Option<DamageChart> {
    let d = &results.damage;
    let targets: Vec<TargetDamage> = by_target(d, |row| {
        let e = estimate(d, "probability", row);
        DamagePoint {
            damage: u32::try_from(int(d, "damage", row)).unwrap_or(u32::MAX),
            probability: e.value,
            interval: Some((e.lo, e.hi)),
            exact: e.exact,
        }
    })
    .into_iter()
    .map(|(label, points)| TargetDamage {
        label,
        points: visible(points),
    })
    .collect();
    (!targets.is_empty()).then(|| DamageChart {
        title: format!("{} — total damage taken per trial", results.title),
        size: ChartSize {
            height: damage_height(targets.len()),
            ..ChartSize::default()
        },
        targets,
    })
}

/// Damage values less likely than this share of a panel's highest bar are not drawn:
/// they would be under half a pixel tall, yet could stretch the damage axis far beyond
/// what can be seen (a tail of exact probabilities of 1e-12).
pub(super) const DAMAGE_DRAWN_FROM: f64 = 1.0 / 500.0;

/// The points of one damage panel that can be seen.
fn visible(points: Vec<DamagePoint>) -> Vec<DamagePoint> {
    let height = |p: &DamagePoint| p.probability.max(p.exact.unwrap_or(0.0));
    let top = points.iter().map(height).fold(0.0, f64::max);
    points
        .into_iter()
        .filter(|p| height(p) >= top * DAMAGE_DRAWN_FROM)
        .collect()
}

/// A cell as text, whatever its column type.
fn cell_text(cells: &Cells, row: usize) -> String {
    match cells {
        Cells::Text(v) => v[row].clone(),
        Cells::Int(v) => v[row].to_string(),
        Cells::Bool(v) => v[row].to_string(),
        Cells::Float(v) => v[row].map_or_else(String::new, |x| x.to_string()),
    }
}

/// A cell as a number, where it is one.
fn cell_number(cells: &Cells, row: usize) -> Option<f64> {
    match cells {
        Cells::Int(v) => Some(v[row] as f64),
        Cells::Float(v) => v[row],
        Cells::Text(_) | Cells::Bool(_) => None,
    }
}

/// What the sweep chart draws, gathered batch by batch while the sweep runs (so the sweep
/// table itself need not be kept): each value of the first swept field, and per series
/// (plan line × attack × values of any further swept field) the last P(hit) at each value
/// and whether the attack roll ever changes.
#[derive(Debug, Default)]
pub(super) struct SweepCurves {
    /// The first swept field, once a row was added.
    x_name: Option<String>,
    /// Each value of the first swept field, as text and as a number where it is one.
    xs: Vec<(String, Option<f64>)>,
    x_index: HashMap<String, usize>,
    curves: Vec<Curve>,
    curve_index: HashMap<String, usize>,
}

/// One series of the sweep chart, as gathered.
#[derive(Debug)]
struct Curve {
    label: String,
    /// The attack roll of its first row.
    roll: Roll,
    /// Some row's roll differs from the first.
    changes: bool,
    /// P(hit) per value of the first swept field (indices of `SweepCurves::xs`).
    points: Vec<Option<Estimate>>,
}

/// What decides an attack roll: bonus, AC, miss chance and the exact P(hit).
type Roll = (i64, i64, i64, Option<u64>);

impl SweepCurves {
    /// Adds rows of the sweep table (swept fields, then summary columns).
    pub(super) fn add(&mut self, s: &Table) {
        let swept = s
            .columns
            .iter()
            .take_while(|(n, _)| n != "attacker")
            .count();
        let Some((x_name, x_cells)) = s.columns.first().filter(|_| swept > 0) else {
            return;
        };
        self.x_name.get_or_insert_with(|| x_name.clone());
        for row in 0..s.rows() {
            let x_text = cell_text(x_cells, row);
            let x = match self.x_index.get(&x_text) {
                Some(&x) => x,
                None => {
                    self.x_index.insert(x_text.clone(), self.xs.len());
                    self.xs.push((x_text, cell_number(x_cells, row)));
                    self.xs.len() - 1
                }
            };
            let label = series_label(s, swept, row);
            let roll = (
                int(s, "effective_bonus", row),
                int(s, "effective_ac", row),
                int(s, "miss_chance", row),
                float(s, "exact_p_hit", row).map(f64::to_bits),
            );
            let at = match self.curve_index.get(&label) {
                Some(&at) => at,
                None => {
                    self.curve_index.insert(label.clone(), self.curves.len());
                    self.curves.push(Curve {
                        label,
                        roll,
                        changes: false,
                        points: Vec::new(),
                    });
                    self.curves.len() - 1
                }
            };
            let curve = &mut self.curves[at];
            curve.changes |= curve.roll != roll;
            if curve.points.len() <= x {
                curve.points.resize(x + 1, None);
            }
            curve.points[x] = Some(estimate(s, "p_hit", row));
        }
    }

    /// P(hit) against the first swept field: one series per plan line × attack (and per
    /// value of any further swept field), one point per value of the first. Attacks whose
    /// roll is the same at every point are left out (and counted) when others change.
    fn chart(&self, title: &str) -> Option<(SweepChart, usize)> {
        let x_name = self.x_name.as_ref().filter(|_| !self.xs.is_empty())?;
        let some_change = self.curves.iter().any(|c| c.changes);
        let kept: Vec<&Curve> = self
            .curves
            .iter()
            .filter(|c| c.changes || !some_change)
            .collect();
        let unchanged = self.curves.len() - kept.len();
        let x = match self.xs.iter().map(|(_, number)| *number).collect() {
            Some(values) => SweepAxis::Numeric(values),
            None => SweepAxis::Categories(self.xs.iter().map(|(x, _)| x.clone()).collect()),
        };
        let series = kept
            .into_iter()
            .map(|curve| {
                let mut points = curve.points.clone();
                points.resize(self.xs.len(), None);
                SweepSeries {
                    label: curve.label.clone(),
                    points,
                }
            })
            .collect();
        let chart = SweepChart {
            title: format!("{title} — P(hit) against {x_name}"),
            size: ChartSize::default(),
            x_label: x_name.clone(),
            y_label: "P(hit)".into(),
            x,
            series,
        };
        Some((chart, unchanged))
    }
}

/// The sweep chart's input, when the experiment sweeps.
fn sweep_input(results: &Results) -> Option<(SweepChart, usize)> {
    results.sweep.as_ref()?.curves.chart(&results.title)
}

/// `F → O: sword #1`, with the values of the second and further swept fields.
fn series_label(s: &Table, swept: usize, row: usize) -> String {
    let mut label = attack_label(s, row);
    let others: Vec<String> = s.columns[1..swept]
        .iter()
        .map(|(name, cells)| format!("{name} = {}", cell_text(cells, row)))
        .collect();
    if !others.is_empty() {
        label += &format!(" ({})", others.join(", "));
    }
    label
}

/// The map's terrain and creatures, as the experiment draws them.
fn battle_map(inputs: &Inputs) -> BattleMap {
    let squares = (0u32..).zip(&inputs.map).flat_map(|(y, row)| {
        (0u32..)
            .zip(row.chars())
            .filter(|(_, c)| c.is_ascii_alphabetic())
            .map(move |(x, letter)| (letter, (x, y)))
    });
    let creatures = group(squares)
        .into_iter()
        .map(|(letter, squares)| Creature { letter, squares })
        .collect();
    BattleMap {
        rows: inputs.map.clone(),
        creatures,
    }
}

/// A map chart's size: squares up to [`MAP_CELL`] pixels, the page's width at most.
fn map_size(inputs: &Inputs) -> Option<ChartSize> {
    let cols = inputs.map.iter().map(|r| r.chars().count()).max()?;
    let width = ChartSize::default().width;
    let cell = (width - 24) / u32::try_from(cols).unwrap_or(u32::MAX).max(1);
    let rows = u32::try_from(inputs.map.len()).unwrap_or(u32::MAX);
    let height = cell
        .min(MAP_CELL)
        .saturating_mul(rows)
        .saturating_add(150)
        .clamp(ChartSize::MIN_HEIGHT, width);
    Some(ChartSize { width, height })
}

/// The map with its creatures, as the experiment draws it, and the lines that decided
/// each plan line's cover and flanking.
fn map_input(results: &Results, inputs: &Inputs) -> Option<LinesChart> {
    let title = if inputs.deciding_lines.is_empty() {
        format!("{} — the map", results.title)
    } else {
        format!(
            "{} — the map and the lines that decided cover and flanking",
            results.title
        )
    };
    Some(LinesChart {
        title,
        size: map_size(inputs)?,
        map: battle_map(inputs),
        segments: inputs.deciding_lines.clone(),
    })
}

/// heatmap.csv's first `T_p_hit` column drawn over the map, when the run has a heatmap.
fn heatmap_input(results: &Results, inputs: &Inputs) -> Option<HeatmapChart> {
    let t = results.heatmap.as_ref()?;
    let column = t
        .columns
        .iter()
        .map(|(name, _)| name.as_str())
        .find(|name| name.ends_with("_p_hit"))?;
    let target = column.trim_end_matches("_p_hit");
    let mut values =
        vec![vec![None; inputs.map.iter().map(|r| r.chars().count()).max()?]; inputs.map.len()];
    for row in 0..t.rows() {
        let (x, y) = (int(t, "x", row), int(t, "y", row));
        if let Some(cell) = usize::try_from(y)
            .ok()
            .and_then(|y| values.get_mut(y))
            .and_then(|r| usize::try_from(x).ok().and_then(|x| r.get_mut(x)))
        {
            *cell = float(t, column, row);
        }
    }
    Some(HeatmapChart {
        title: format!(
            "{} — P(hit) on {target}, the heatmap's combatant on each square",
            results.title
        ),
        size: map_size(inputs)?,
        map: battle_map(inputs),
        values,
        value_label: format!("P(hit) on {target}"),
    })
}

/// The largest square the map is drawn with, in pixels.
const MAP_CELL: u32 = 56;

#[cfg(test)]
mod tests {
    use super::*;

    /// The sweep chart of a whole sweep table added at once.
    fn sweep_input(table: &Table) -> Option<(SweepChart, usize)> {
        let mut curves = SweepCurves::default();
        curves.add(table);
        curves.chart("t")
    }

    fn sweep_table(xs: Cells, second: Option<Cells>) -> Table {
        let mut t = Table::new("sweep");
        t.columns.push(("O.ac".into(), xs));
        if let Some(cells) = second {
            t.columns.push(("O.hp".into(), cells));
        }
        let n = t.rows();
        t.text("attacker", (0..n).map(|_| "F".to_string()));
        t.text("target", (0..n).map(|_| "O".to_string()));
        t.text("attack", (0..n).map(|_| "sword".to_string()));
        t.int("index", (0..n).map(|_| 1));
        t.float("p_hit", (0..n).map(|i| Some(i as f64 / 10.0)));
        t.float("p_hit_lo", (0..n).map(|i| Some(i as f64 / 10.0 - 0.01)));
        t.float("p_hit_hi", (0..n).map(|i| Some(i as f64 / 10.0 + 0.01)));
        t.float("exact_p_hit", (0..n).map(|_| None));
        t
    }

    #[test]
    fn one_sweep_gives_one_series_over_numeric_values() {
        let (chart, unchanged) =
            sweep_input(&sweep_table(Cells::Int(vec![16, 18, 20]), None)).unwrap();
        assert_eq!(unchanged, 0);
        assert_eq!(chart.x, SweepAxis::Numeric(vec![16.0, 18.0, 20.0]));
        assert_eq!(chart.x_label, "O.ac");
        assert_eq!(chart.series.len(), 1);
        assert_eq!(chart.series[0].label, "F → O: sword #1");
        let hits: Vec<f64> = chart.series[0]
            .points
            .iter()
            .map(|p| p.unwrap().value)
            .collect();
        assert_eq!(hits, [0.0, 0.1, 0.2]);
        assert!((chart.series[0].points[2].unwrap().hi - 0.21).abs() < 1e-12);
    }

    #[test]
    fn further_sweeps_split_series_and_text_values_are_categories() {
        let xs = Cells::Text(vec!["1d6".into(), "1d8".into(), "1d6".into(), "1d8".into()]);
        let hp = Cells::Int(vec![10, 10, 20, 20]);
        let (chart, _) = sweep_input(&sweep_table(xs, Some(hp))).unwrap();
        assert_eq!(
            chart.x,
            SweepAxis::Categories(vec!["1d6".into(), "1d8".into()])
        );
        let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            ["F → O: sword #1 (O.hp = 10)", "F → O: sword #1 (O.hp = 20)"]
        );
        assert_eq!(chart.series[1].points[1].unwrap().value, 0.3);
    }

    #[test]
    fn attacks_the_sweep_does_not_change_are_left_out() {
        let mut table = sweep_table(Cells::Int(vec![16, 16, 18, 18]), None);
        table.columns[2].1 = Cells::Text(["O", "G", "O", "G"].map(String::from).to_vec());
        table.int("effective_ac", [16, 14, 18, 14]);
        let (chart, unchanged) = sweep_input(&table).unwrap();
        assert_eq!(unchanged, 1);
        let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["F → O: sword #1"]);
        let hits: Vec<f64> = chart.series[0]
            .points
            .iter()
            .map(|p| p.unwrap().value)
            .collect();
        assert_eq!(hits, [0.0, 0.2]);
    }

    /// Rows added in batches (as a running sweep adds them) chart as the whole table does,
    /// also when a roll change or a new x value arrives only in a later batch.
    #[test]
    fn rows_added_in_batches_chart_as_the_whole_table() {
        let mut whole = sweep_table(Cells::Int(vec![16, 16, 18, 18, 20]), None);
        whole.columns[2].1 = Cells::Text(["O", "G", "O", "G", "O"].map(String::from).to_vec());
        whole.int("effective_ac", [16, 14, 16, 14, 20]);
        let rows = |range: std::ops::Range<usize>| {
            let mut part = Table::new("sweep");
            for (name, cells) in &whole.columns {
                let cells = match cells {
                    Cells::Int(v) => Cells::Int(v[range.clone()].to_vec()),
                    Cells::Text(v) => Cells::Text(v[range.clone()].to_vec()),
                    Cells::Float(v) => Cells::Float(v[range.clone()].to_vec()),
                    Cells::Bool(v) => Cells::Bool(v[range.clone()].to_vec()),
                };
                part.columns.push((name.clone(), cells));
            }
            part
        };
        let mut batches = SweepCurves::default();
        batches.add(&rows(0..3));
        batches.add(&rows(3..5));
        let (chart, unchanged) = batches.chart("t").unwrap();
        assert_eq!((chart.clone(), unchanged), sweep_input(&whole).unwrap());
        assert_eq!(unchanged, 1);
        assert_eq!(chart.x, SweepAxis::Numeric(vec![16.0, 18.0, 20.0]));
        let hits: Vec<f64> = chart.series[0]
            .points
            .iter()
            .map(|p| p.unwrap().value)
            .collect();
        assert_eq!(hits, [0.0, 0.2, 0.4]);
    }

    #[test]
    fn a_chart_failure_names_the_files_and_says_nothing_was_written() {
        let err = drawn(
            "rounds.svg/rounds.png",
            Err(ChartError::Draw("backend".into())),
        )
        .unwrap_err();
        assert_eq!(err.exit_code(), 1);
        let message = err.to_string();
        assert!(message.starts_with("writing rounds.svg/rounds.png: drawing a chart failed: backend; nothing was written, the CSV tables included"), "{message}");
    }

    #[test]
    fn damage_too_unlikely_to_see_is_not_drawn() {
        let point = |damage, probability, exact| DamagePoint {
            damage,
            probability,
            interval: None,
            exact,
        };
        let points = vec![
            point(0, 0.0, Some(1e-12)),
            point(1, 0.5, Some(0.5)),
            point(2, 0.0, Some(0.001)),
            point(3, 0.0009, None),
            point(90, 0.0, Some(1e-9)),
        ];
        let kept: Vec<u32> = visible(points).iter().map(|p| p.damage).collect();
        assert_eq!(kept, [1, 2]);
        assert!(
            visible(vec![point(5, 0.0, None)]).len() == 1,
            "all zero: kept"
        );
    }

    #[test]
    fn the_damage_chart_grows_with_its_targets() {
        assert_eq!(damage_height(1), 600);
        assert_eq!(damage_height(5), 1120);
        assert_eq!(damage_height(1000), ChartSize::MAX_SIDE);
    }
}

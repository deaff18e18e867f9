//! Results → the inputs of the chart functions in [`super::charts`], drawn once; the
//! chart files of a report folder are named here and nowhere else.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::charts::{
    BattleMap, Chart, ChartError, ChartSize, Creature, DamageChart, DamagePoint, HeatmapChart,
    LengthChart, LinesChart, PANELS_PER_PAGE, RoundPoint, RoundsChart, SideWins, SweepAxis,
    SweepChart, SweepSeries, TargetDamage, TargetRounds, WinsChart, damage_chart, down_dead_chart,
    heatmap_chart, length_chart, lines_chart, sweep_chart, wins_chart,
};
use super::fight_rows::NOBODY;
use super::inputs::Inputs;
use super::results::Results;
use super::sweep::{SweepRow, SweptField};
use super::text::attack_label;
use super::variants::by_headline_figure;
use crate::error::Error;
use crate::scenario::Sweep;
use crate::stats::Estimate;

/// The charts of one report; each is `None` where the run has nothing to show in it.
pub(super) struct Figures {
    /// The map as drawn in the experiment, with the lines that decided cover and flanking.
    pub(super) map: Option<Chart>,
    /// Down and dead by round, when some target has hit points.
    pub(super) rounds: Option<Chart>,
    /// The distribution of total damage taken, per target.
    pub(super) damage: Option<Chart>,
    /// The damage chart's printed pages (SVG) when it has more panels than one page
    /// holds ([`PANELS_PER_PAGE`]); empty otherwise.
    pub(super) damage_pages: Vec<String>,
    /// P(hit) against the first swept field, when the experiment sweeps.
    pub(super) sweep: Option<SweepFigure>,
    /// The heatmap's figure with its combatant on each square.
    pub(super) heatmap: Option<Chart>,
    /// A fight's P(won by the end of each round), per side.
    pub(super) wins: Option<Chart>,
    /// A fight's P(ending in each round).
    pub(super) length: Option<Chart>,
    /// Each variant's headline chances, when the experiment compares variants.
    pub(super) variants: Option<Chart>,
    /// The map with the creatures the variants move, when one does.
    pub(super) moves: Option<Chart>,
}

/// The sweep chart and what the report says about it.
pub(super) struct SweepFigure {
    /// The swept field on the x axis, e.g. `T.ac`.
    pub(super) field: String,
    /// Attacks left out because their roll is the same at every sweep point.
    pub(super) unchanged: usize,
    /// Series drawn: those among the first [`MAX_SWEEP_CHART_SERIES`] not left out.
    pub(super) drawn: usize,
    /// Series left out past [`MAX_SWEEP_CHART_SERIES`].
    pub(super) not_drawn: usize,
    /// Positions in the swept field's list drawn, and run.
    pub(super) values: (usize, usize),
    pub(super) chart: Chart,
}

impl Figures {
    /// Draws every chart the results call for; the first failure is an error naming its
    /// files, so a report is never written without the charts it should hold.
    pub(super) fn draw(results: &Results, inputs: &Inputs) -> Result<Self, Error> {
        let damage = damage_input(results);
        let damage_pages = match &damage {
            Some(c) if c.targets.len() > PANELS_PER_PAGE => drawn(
                "the damage chart's pages in report.html",
                c.pages(damage_size),
            )?,
            _ => Vec::new(),
        };
        Ok(Self {
            damage_pages,
            map: map_input(results, inputs)
                .map(|c| drawn("map.svg/map.png", lines_chart(&c)))
                .transpose()?,
            rounds: rounds_input(results)
                .map(|c| drawn("rounds.svg/rounds.png", down_dead_chart(&c)))
                .transpose()?,
            damage: damage
                .map(|c| drawn("damage.svg/damage.png", damage_chart(&c)))
                .transpose()?,
            sweep: sweep_input(results)
                .map(|d| {
                    Ok::<_, Error>(SweepFigure {
                        field: d.chart.x_label.clone(),
                        unchanged: d.unchanged,
                        drawn: d.chart.series.len(),
                        not_drawn: d.not_drawn,
                        values: d.values,
                        chart: drawn("sweep.svg/sweep.png", sweep_chart(&d.chart))?,
                    })
                })
                .transpose()?,
            heatmap: heatmap_input(results, inputs)
                .map(|c| drawn("heatmap.svg/heatmap.png", heatmap_chart(&c)))
                .transpose()?,
            wins: wins_input(results)
                .map(|c| drawn("wins.svg/wins.png", wins_chart(&c)))
                .transpose()?,
            length: length_input(results)
                .map(|c| drawn("fight_length.svg/fight_length.png", length_chart(&c)))
                .transpose()?,
            variants: variants_input(results)
                .map(|c| drawn("variants.svg/variants.png", sweep_chart(&c)))
                .transpose()?,
            moves: moves_input(results, inputs)
                .map(|c| drawn("moves.svg/moves.png", lines_chart(&c)))
                .transpose()?,
        })
    }

    /// The chart files: `map.svg`, `map.png`, and likewise `rounds`, `damage`, `sweep`,
    /// `heatmap`, `wins`, `fight_length`, `variants` and `moves`.
    pub(super) fn files(&self) -> Vec<(String, Vec<u8>)> {
        let charts = [
            ("map", self.map.as_ref()),
            ("rounds", self.rounds.as_ref()),
            ("damage", self.damage.as_ref()),
            ("sweep", self.sweep.as_ref().map(|s| &s.chart)),
            ("heatmap", self.heatmap.as_ref()),
            ("wins", self.wins.as_ref()),
            ("fight_length", self.length.as_ref()),
            ("variants", self.variants.as_ref()),
            ("moves", self.moves.as_ref()),
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
fn drawn<T>(what: &str, chart: Result<T, ChartError>) -> Result<T, Error> {
    chart.map_err(|e| Error::Output {
        what: what.to_string(),
        message: format!(
            "{e}; nothing was written, the CSV tables included (a report folder is replaced \
             whole or not at all, so the previous one is kept)"
        ),
    })
}

/// Values grouped by key, groups in order of their first value (linear time: a sweep
/// table may have millions of rows).
pub(super) fn group<K: Eq + Hash + Clone, T>(
    items: impl IntoIterator<Item = (K, T)>,
) -> Vec<(K, Vec<T>)> {
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

fn rounds_input(results: &Results) -> Option<RoundsChart> {
    let rounds = results.rounds.iter().map(|row| {
        let point = RoundPoint {
            round: u32::try_from(row.round).unwrap_or(0),
            down: row.p_down,
            dead: row.p_dead,
        };
        (row.target.clone(), point)
    });
    (!results.rounds.is_empty()).then(|| RoundsChart {
        title: format!("{} — down and dead by round", results.title),
        size: ChartSize::default(),
        targets: group(rounds)
            .into_iter()
            .map(|(label, rounds)| TargetRounds { label, rounds })
            .collect(),
    })
}

/// The comparison's chances (`P(…)` headline figures), one series each across the
/// variants, the baseline first.
fn variants_input(results: &Results) -> Option<SweepChart> {
    let figures = by_headline_figure(&results.variants);
    let names: Vec<String> = (figures.first()?.1.iter())
        .map(|r| r.variant.clone())
        .collect();
    let series = (figures.into_iter())
        .filter(|(figure, _)| figure.starts_with("P("))
        .map(|(figure, of_figure)| SweepSeries {
            label: figure.to_string(),
            points: of_figure.iter().map(|r| Some(r.value)).collect(),
        })
        .collect::<Vec<_>>();
    (!series.is_empty()).then(|| SweepChart {
        title: format!("{} — the variants compared", results.title),
        size: ChartSize::default(),
        x_label: "variant".into(),
        y_label: "probability".into(),
        x: SweepAxis::Categories(names),
        series,
    })
}

/// Who has won a fight by each round: one line per side, then "nobody" where some
/// fight ends with no side able to act, then "undecided".
fn wins_input(results: &Results) -> Option<WinsChart> {
    let fight = results.fight.as_ref()?;
    let rounds = fight.encounter.iter().map(|row| {
        let round = u32::try_from(row.round).unwrap_or(0);
        (row.side.clone(), (round, row.p_won))
    });
    let shows = |side: &SideWins| {
        side.label != NOBODY
            || (side.rounds.iter()).any(|(_, e)| e.point > 0.0 || e.exact.is_some_and(|x| x > 0.0))
    };
    Some(WinsChart {
        title: format!("{} — who has won by each round", results.title),
        size: ChartSize::default(),
        sides: group(rounds)
            .into_iter()
            .map(|(label, rounds)| SideWins { label, rounds })
            .filter(shows)
            .collect(),
    })
}

/// How long a fight lasts: P(it ends in each round).
fn length_input(results: &Results) -> Option<LengthChart> {
    let fight = results.fight.as_ref()?;
    // The bars leave out the fights still going after the last round: the title says how many.
    let ended: f64 = fight.length.iter().map(|l| l.p_ended.point).sum();
    Some(LengthChart {
        title: format!(
            "{} — the round the fight ends in (not over after round {}: {:.1}%)",
            results.title,
            fight.length.len(),
            100.0 * (1.0 - ended).max(0.0)
        ),
        size: ChartSize::default(),
        ended: fight.length.iter().map(|l| l.p_ended).collect(),
    })
}

/// Size of a damage chart of `targets` panels: about 190 px of height per panel.
fn damage_size(targets: usize) -> ChartSize {
    let targets = u32::try_from(targets).unwrap_or(u32::MAX);
    let height = (targets.saturating_mul(190).saturating_add(170))
        .clamp(ChartSize::default().height, ChartSize::MAX_SIDE);
    ChartSize {
        height,
        ..ChartSize::default()
    }
}

fn damage_input(results: &Results) -> Option<DamageChart> {
    let points = results.damage.iter().map(|row| {
        let e = row.probability;
        let point = DamagePoint {
            damage: u32::try_from(row.damage).unwrap_or(u32::MAX),
            probability: e.point,
            interval: Some((e.lo, e.hi)),
            exact: e.exact,
        };
        (row.target.clone(), point)
    });
    let targets: Vec<TargetDamage> = group(points)
        .into_iter()
        .map(|(label, points)| TargetDamage {
            label,
            points: visible(points),
        })
        .collect();
    (!targets.is_empty()).then(|| DamageChart {
        title: format!("{} — total damage taken per trial", results.title),
        size: damage_size(targets.len()),
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

/// At most this many values of the first swept field are drawn (every k-th, and the last),
/// so the chart's size, and the memory it takes, do not grow with the sweep.
pub(super) const MAX_SWEEP_CHART_VALUES: usize = 1000;

/// At most this many series are drawn (the first, in table order), for the same reason.
pub(super) const MAX_SWEEP_CHART_SERIES: usize = 64;

/// What the sweep chart draws, gathered batch by batch while the sweep runs (so the sweep
/// table itself need not be kept): the drawn values of the first swept field, and per series
/// (plan line × attack × values of any further swept field) whether the attack roll ever
/// changes and, for the first [`MAX_SWEEP_CHART_SERIES`], the P(hit) at each drawn value.
#[derive(Debug)]
pub(super) struct SweepCurves {
    /// The first swept field, once a row was added.
    x_name: Option<String>,
    /// How many values the first swept field's list has, when known.
    x_values: Option<usize>,
    /// How many points share one value of the first swept field: the product of the
    /// further sweeps' list lengths (the first sweep varies slowest).
    points_per_value: usize,
    /// Every `stride`-th value of the first swept field (and its last) is drawn.
    stride: usize,
    /// Points added so far: the position of a point in the first field's list is its
    /// number over `points_per_value`, whatever the values (a list may repeat one).
    points: usize,
    /// Positions drawn so far.
    drawn_positions: usize,
    /// Each drawn value of the first swept field, as text and as a number where it is one.
    xs: Vec<(String, Option<f64>)>,
    x_index: HashMap<String, usize>,
    /// Rows added since the latest position began: the next row's series (every position
    /// lists the same series in the same order).
    series_at: usize,
    /// Every series, in table order; two words each, so that memory grows little with the
    /// number of series.
    series: Vec<SeriesRoll>,
    /// The first [`MAX_SWEEP_CHART_SERIES`] series' labels and points (same indices).
    curves: Vec<Curve>,
}

/// Whether a series' attack roll ever changes across the sweep, and its attack.
#[derive(Debug)]
struct SeriesRoll {
    /// The attack roll of its first row, as [`roll_fingerprint`].
    roll: u64,
    /// Its attack: the place of its rows among the rows of a point.
    row: u32,
    /// Some row's roll differs from the first.
    changes: bool,
}

/// One drawn series of the sweep chart, as gathered.
#[derive(Debug)]
struct Curve {
    label: String,
    /// P(hit) per drawn value of the first swept field (indices of `SweepCurves::xs`).
    points: Vec<Option<Estimate>>,
}

/// The sweep chart and what it leaves out.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SweepDrawing {
    pub(super) chart: SweepChart,
    /// Attacks left out (each with all its series) because their roll is the same at
    /// every sweep point.
    pub(super) unchanged: usize,
    /// Series left out past [`MAX_SWEEP_CHART_SERIES`].
    pub(super) not_drawn: usize,
    /// Positions in the first swept field's list drawn, and run.
    pub(super) values: (usize, usize),
}

impl SweepCurves {
    /// Curves for a first swept field of `x_values` values (`None`: all are drawn), each
    /// value shared by `points_per_value` points.
    pub(super) fn new(x_values: Option<usize>, points_per_value: usize) -> Self {
        Self {
            x_name: None,
            x_values,
            points_per_value: points_per_value.max(1),
            stride: x_values.map_or(1, |n| n.div_ceil(MAX_SWEEP_CHART_VALUES).max(1)),
            points: 0,
            drawn_positions: 0,
            xs: Vec::new(),
            x_index: HashMap::new(),
            series_at: 0,
            series: Vec::new(),
            curves: Vec::new(),
        }
    }

    /// Curves for the points of `sweeps`.
    pub(super) fn of(sweeps: &[Sweep]) -> Self {
        let points_per_value = sweeps.iter().skip(1).map(|s| s.values.len()).product();
        Self::new(sweeps.first().map(|s| s.values.len()), points_per_value)
    }

    /// Adds the next sweep point's rows (the sweep table's rows of one point), whose swept
    /// fields are `fields`.
    pub(super) fn add_point(&mut self, fields: &[SweptField], rows: &[SweepRow]) {
        let Some(x_field) = fields.first() else {
            return;
        };
        self.x_name.get_or_insert_with(|| x_field.name.clone());
        let position = self.points / self.points_per_value;
        let starts_position = self.points.is_multiple_of(self.points_per_value);
        self.points += 1;
        if starts_position {
            self.series_at = 0;
        }
        let last = self.x_values.is_some_and(|n| position + 1 == n);
        let drawn = position.is_multiple_of(self.stride) || last;
        if drawn && starts_position {
            self.drawn_positions += 1;
        }
        let x = match (drawn, rows.first()) {
            (true, Some(row)) => Some(self.x_at(x_field, &row.values[0])),
            _ => None,
        };
        // An attack made only in another situation (its target down…) is in the sweep's
        // tables, not its chart.
        let rows = rows.iter().filter(|r| !r.row.situational);
        for (place, row) in (0u32..).zip(rows) {
            let at = self.series_at;
            self.series_at += 1;
            let attack = &row.row;
            let roll = roll_fingerprint(
                attack.effective_bonus,
                attack.effective_ac,
                attack.miss_chance,
                attack.p_hit.exact.map(f64::to_bits),
            );
            if at == self.series.len() {
                self.series.push(SeriesRoll {
                    roll,
                    row: place,
                    changes: false,
                });
                if at < MAX_SWEEP_CHART_SERIES {
                    self.curves.push(Curve {
                        label: series_label(fields, row),
                        points: Vec::new(),
                    });
                }
            }
            let series = &mut self.series[at];
            series.changes |= series.roll != roll;
            if let Some((x, curve)) = x.zip(self.curves.get_mut(at)) {
                if curve.points.len() <= x {
                    curve.points.resize(x + 1, None);
                }
                curve.points[x] = Some(attack.p_hit);
            }
        }
    }

    /// The index in `xs` of a drawn `value` of the first swept field, `x_field` (a value
    /// the list repeats is drawn once).
    fn x_at(&mut self, x_field: &SweptField, value: &toml::Value) -> usize {
        let x_text = x_field.text(value);
        match self.x_index.get(&x_text) {
            Some(&x) => x,
            None => {
                self.x_index.insert(x_text.clone(), self.xs.len());
                self.xs.push((x_text, x_field.number(value)));
                self.xs.len() - 1
            }
        }
    }

    /// Whether the sweep changes each attack's roll (a point's row each): along the first
    /// swept field (a series' own rolls differ) or with a further one (the first rolls of
    /// its series differ: `vs = ["eac", "kac"]` splits an attack in two series, each the
    /// same along `kac`, which are not the same attack roll).
    /// Indexed by [`SeriesRoll::row`].
    fn attack_changes(&self) -> Vec<bool> {
        let rows = self
            .series
            .iter()
            .map(|s| s.row as usize + 1)
            .max()
            .unwrap_or(0);
        let mut first_rolls: Vec<Option<u64>> = vec![None; rows];
        let mut changes = vec![false; rows];
        for series in &self.series {
            let row = series.row as usize;
            let first = *first_rolls[row].get_or_insert(series.roll);
            changes[row] |= series.changes || series.roll != first;
        }
        changes
    }

    /// P(hit) against the first swept field: one series per plan line × attack (and per
    /// value of any further swept field), one point per drawn value of the first. Attacks
    /// whose roll is the same at every point are left out (and counted) when others change.
    fn chart(&self, title: &str) -> Option<SweepDrawing> {
        let x_name = self.x_name.as_ref().filter(|_| !self.xs.is_empty())?;
        let changes = self.attack_changes();
        let some_change = changes.contains(&true);
        let drawn = |at: usize| changes[self.series[at].row as usize] || !some_change;
        let kept = (0..self.series.len()).filter(|&at| drawn(at)).count();
        let unchanged = match some_change {
            true => changes.iter().filter(|changes| !**changes).count(),
            false => 0,
        };
        let x = match self.xs.iter().map(|(_, number)| *number).collect() {
            Some(values) => SweepAxis::Numeric(values),
            None => SweepAxis::Categories(self.xs.iter().map(|(x, _)| x.clone()).collect()),
        };
        let series: Vec<SweepSeries> = self
            .curves
            .iter()
            .enumerate()
            .filter(|&(at, _)| drawn(at))
            .map(|(_, curve)| {
                let mut points = curve.points.clone();
                points.resize(self.xs.len(), None);
                SweepSeries {
                    label: curve.label.clone(),
                    points,
                }
            })
            .collect();
        let seen = self.points.div_ceil(self.points_per_value);
        Some(SweepDrawing {
            not_drawn: kept - series.len(),
            values: (self.drawn_positions, seen),
            unchanged,
            chart: SweepChart {
                title: format!("{title} — P(hit) against {x_name}"),
                size: ChartSize::default(),
                x_label: x_name.clone(),
                y_label: "P(hit)".into(),
                x,
                series,
            },
        })
    }
}

/// The sweep chart's input, when the experiment sweeps.
pub(super) fn sweep_input(results: &Results) -> Option<SweepDrawing> {
    results.sweep.as_ref()?.curves.chart(&results.title)
}

/// What decides an attack roll (bonus, AC, miss chance and the exact P(hit)), hashed: the
/// sweep keeps one number per series to tell whether its roll changes.
fn roll_fingerprint(bonus: i32, ac: i32, miss_chance: u8, exact_p_hit: Option<u64>) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    (bonus, ac, miss_chance, exact_p_hit).hash(&mut hasher);
    hasher.finish()
}

/// `F → O: sword #1`, with the values of the second and further swept fields.
fn series_label(fields: &[SweptField], row: &SweepRow) -> String {
    let mut label = attack_label(&row.row);
    let others: Vec<String> = fields
        .iter()
        .zip(&row.values)
        .skip(1)
        .map(|(field, value)| format!("{} = {}", field.name, field.text(value)))
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
        rows: inputs.ground.clone(),
        floors: inputs.floors.clone(),
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

/// The map with an arrow for each creature a variant moves, when one does.
fn moves_input(results: &Results, inputs: &Inputs) -> Option<LinesChart> {
    (!inputs.variant_moves.is_empty()).then_some(())?;
    Some(LinesChart {
        title: format!("{} — where the variants move creatures", results.title),
        size: map_size(inputs)?,
        map: battle_map(inputs),
        segments: inputs.variant_moves.clone(),
    })
}

/// The heatmap's figure (`[heatmap] target`/`measure`) drawn over the map, when the run
/// has a heatmap.
fn heatmap_input(results: &Results, inputs: &Inputs) -> Option<HeatmapChart> {
    let heatmap = results.heatmap.as_ref()?;
    let mut values =
        vec![vec![None; inputs.map.iter().map(|r| r.chars().count()).max()?]; inputs.map.len()];
    for row in &heatmap.rows {
        let (x, y) = (row.x, row.y);
        if let Some(cell) = usize::try_from(y)
            .ok()
            .and_then(|y| values.get_mut(y))
            .and_then(|r| usize::try_from(x).ok().and_then(|x| r.get_mut(x)))
        {
            *cell = row.value(heatmap.shown);
        }
    }
    Some(HeatmapChart {
        title: format!(
            "{} — {}, with {} on each square",
            results.title, heatmap.label, heatmap.mover
        ),
        size: map_size(inputs)?,
        map: battle_map(inputs),
        values,
        value_label: heatmap.label.clone(),
    })
}

/// The largest square the map is drawn with, in pixels.
const MAP_CELL: u32 = 56;

#[cfg(test)]
mod tests;

//! The heatmap's rows (`heatmap.csv`): one per square tried, with each target's figures.
//!
//! [`crate::heatmap`] builds the heatmap as a [`Table`] of named columns;
//! [`Heatmap::from_table`] is where it becomes typed rows, read by the position of its
//! columns, so that every output and the chart read the rows.

use super::table::{Column, Row, Rows};

/// One column's cells, as [`Table`] holds them.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    Text(Vec<String>),
    Int(Vec<i64>),
    Bool(Vec<bool>),
    /// Empty where a value could not be computed.
    Float(Vec<Option<f64>>),
}

/// The heatmap as [`crate::heatmap`] builds it: `x`, `y`, `method`, then seven columns
/// per target (`T_p_hit`, `T_p_down`, `T_mean_damage`, `T_cover`, `T_concealment`,
/// `T_flanking`, `T_refused`).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The file stem it is written as.
    pub name: &'static str,
    pub columns: Vec<(String, Cells)>,
}

impl Table {
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            columns: Vec::new(),
        }
    }

    pub fn text(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = String>) {
        self.columns
            .push((name.into(), Cells::Text(cells.into_iter().collect())));
    }

    pub fn int(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = i64>) {
        self.columns
            .push((name.into(), Cells::Int(cells.into_iter().collect())));
    }

    pub fn bool(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = bool>) {
        self.columns
            .push((name.into(), Cells::Bool(cells.into_iter().collect())));
    }

    pub fn float(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = Option<f64>>) {
        self.columns
            .push((name.into(), Cells::Float(cells.into_iter().collect())));
    }
}

/// The heatmap: its target tokens, and one row per square tried.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// The tokens of the targets, in the order of each row's [`HeatmapRow::targets`].
    pub targets: Vec<String>,
    pub rows: Vec<HeatmapRow>,
}

/// The heatmap's combatant on one square.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapRow {
    pub x: i64,
    pub y: i64,
    /// `exact`, or `simulated` where the exact engine could not compute the figures.
    pub method: String,
    /// Each target's figures, in the order of [`Heatmap::targets`].
    pub targets: Vec<HeatmapCell>,
}

/// One target's figures with the heatmap's combatant on one square.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapCell {
    /// Mean P(hit) of the attacks at the target; `None` when none can be made.
    pub p_hit: Option<f64>,
    /// Down by the end of the last round.
    pub p_down: Option<f64>,
    pub mean_damage: Option<f64>,
    pub cover: String,
    pub concealment: i64,
    pub flanking: bool,
    /// A plan line at this target cannot be made from this square.
    pub refused: bool,
}

impl Row for HeatmapRow {
    const NAME: &'static str = "heatmap";
    /// The target tokens.
    type Layout = Vec<String>;

    fn columns(targets: &Vec<String>) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::int("x", |r: &Self| r.x),
            Column::int("y", |r: &Self| r.y),
            Column::text("method", |r: &Self| r.method.clone()),
        ];
        for (t, token) in targets.iter().enumerate() {
            columns.extend([
                Column::float(format!("{token}_p_hit"), move |r: &Self| r.targets[t].p_hit),
                Column::float(format!("{token}_p_down"), move |r: &Self| {
                    r.targets[t].p_down
                }),
                Column::float(format!("{token}_mean_damage"), move |r: &Self| {
                    r.targets[t].mean_damage
                }),
                Column::text(format!("{token}_cover"), move |r: &Self| {
                    r.targets[t].cover.clone()
                }),
                Column::int(format!("{token}_concealment"), move |r: &Self| {
                    r.targets[t].concealment
                }),
                Column::bool(format!("{token}_flanking"), move |r: &Self| {
                    r.targets[t].flanking
                }),
                Column::bool(format!("{token}_refused"), move |r: &Self| {
                    r.targets[t].refused
                }),
            ]);
        }
        columns
    }
}

/// Columns per target in [`Table`].
const TARGET_COLUMNS: usize = 7;

impl Heatmap {
    /// The rows of the table [`crate::heatmap`] built, read by column position; each
    /// target's token is its first column's name without `_p_hit`.
    pub fn from_table(table: &Table) -> Self {
        let (squares, targets) = match table.columns.as_slice() {
            [(_, Cells::Int(x)), _, _, targets @ ..] => (x.len(), targets),
            _ => (0, &[][..]),
        };
        let targets: Vec<&[(String, Cells)]> = targets.chunks(TARGET_COLUMNS).collect();
        let cells = |i: usize| &table.columns[i].1;
        let rows = (0..squares)
            .map(|row| HeatmapRow {
                x: int(cells(0), row),
                y: int(cells(1), row),
                method: text(cells(2), row),
                targets: targets
                    .iter()
                    .map(|columns| {
                        let c = |i: usize| &columns[i].1;
                        HeatmapCell {
                            p_hit: float(c(0), row),
                            p_down: float(c(1), row),
                            mean_damage: float(c(2), row),
                            cover: text(c(3), row),
                            concealment: int(c(4), row),
                            flanking: flag(c(5), row),
                            refused: flag(c(6), row),
                        }
                    })
                    .collect(),
            })
            .collect();
        Self {
            targets: targets
                .iter()
                .map(|columns| columns[0].0.trim_end_matches("_p_hit").to_string())
                .collect(),
            rows,
        }
    }

    /// The rows as the serializer takes them.
    pub(super) fn rows(&self) -> Rows<'_, HeatmapRow> {
        Rows::new(&self.targets, &self.rows)
    }
}

fn int(cells: &Cells, row: usize) -> i64 {
    match cells {
        Cells::Int(v) => v[row],
        _ => 0,
    }
}

fn text(cells: &Cells, row: usize) -> String {
    match cells {
        Cells::Text(v) => v[row].clone(),
        _ => String::new(),
    }
}

fn float(cells: &Cells, row: usize) -> Option<f64> {
    match cells {
        Cells::Float(v) => v[row],
        _ => None,
    }
}

fn flag(cells: &Cells, row: usize) -> bool {
    matches!(cells, Cells::Bool(v) if v[row])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::table::Output;

    /// The heatmap as `crate::heatmap` builds it (two squares, one target) becomes rows
    /// whose CSV has the same columns in the same order.
    #[test]
    fn the_built_table_becomes_rows_with_the_same_columns() {
        let mut table = Table::new("heatmap");
        table.int("x", [1, 2]);
        table.int("y", [3, 4]);
        table.text("method", ["exact".to_string(), "simulated".to_string()]);
        table.float("O_p_hit", [Some(0.5), None]);
        table.float("O_p_down", [Some(0.25), Some(0.0)]);
        table.float("O_mean_damage", [Some(4.5), Some(0.0)]);
        table.text("O_cover", ["none".to_string(), "partial".to_string()]);
        table.int("O_concealment", [0, 20]);
        table.bool("O_flanking", [true, false]);
        table.bool("O_refused", [false, true]);
        let heatmap = Heatmap::from_table(&table);
        assert_eq!(heatmap.targets, ["O"]);
        assert_eq!(heatmap.rows[1].targets[0].cover, "partial");
        let csv = String::from_utf8(heatmap.rows().csv().unwrap()).unwrap();
        assert_eq!(
            csv,
            "x,y,method,O_p_hit,O_p_down,O_mean_damage,O_cover,O_concealment,O_flanking,O_refused\n\
             1,3,exact,0.5,0.25,4.5,none,0,true,false\n\
             2,4,simulated,,0.0,0.0,partial,20,false,true\n"
        );
    }
}

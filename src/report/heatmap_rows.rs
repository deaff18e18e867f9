//! The heatmap's rows (`heatmap.csv`): one per square tried, with each target's figures.
//! [`crate::heatmap`] builds them; every output and the chart read the rows.

use super::table::{Column, Row, Rows};

/// The heatmap: its target tokens (in a fight, every combatant's) and sides, what the
/// chart shows, and one row per square tried.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// The targets and sides the rows hold figures of.
    pub layout: HeatmapLayout,
    /// The figure the chart shows on each square.
    pub shown: Shown,
    /// That figure's name, e.g. `P(hit) on Ogre (O)`.
    pub label: String,
    /// The combatant tried on each square, e.g. `Rogue (R)`.
    pub mover: String,
    pub rows: Vec<HeatmapRow>,
}

/// The figure a heatmap chart shows: a target's (by its place in [`Heatmap::targets`])
/// or a side's (in [`Heatmap::sides`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    PHit(usize),
    PDown(usize),
    Won(usize),
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
    /// A fight's P(each side has won) by the last round, in the order of [`Heatmap::sides`].
    pub won: Vec<f64>,
}

/// One target's figures with the heatmap's combatant on one square.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeatmapCell {
    /// Mean P(hit) of the attacks at the target; `None` when none can be made.
    pub p_hit: Option<f64>,
    /// Down by the end of the last round.
    pub p_down: f64,
    pub mean_damage: f64,
    pub cover: String,
    /// Miss chance in percent.
    pub concealment: u8,
    pub flanking: bool,
    /// Why a plan line at this target cannot be made from this square (out of reach,
    /// total cover…); `None` when every one can.
    pub why_refused: Option<String>,
}

impl HeatmapRow {
    /// The figure `shown` on this square; `None` where it is not defined (no attack at
    /// the target can be made from there).
    pub fn value(&self, shown: Shown) -> Option<f64> {
        match shown {
            Shown::PHit(t) => self.targets[t].p_hit,
            Shown::PDown(t) => Some(self.targets[t].p_down),
            Shown::Won(side) => self.won.get(side).copied(),
        }
    }
}

/// The columns of `heatmap.csv`: the target tokens, and a fight's sides.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapLayout {
    /// The tokens of the targets, in the order of each row's [`HeatmapRow::targets`].
    pub targets: Vec<String>,
    /// A fight's sides, in the order of each row's [`HeatmapRow::won`]; empty for a plan.
    pub sides: Vec<String>,
}

impl Row for HeatmapRow {
    const NAME: &'static str = "heatmap";
    type Layout = HeatmapLayout;

    /// `x,y,method`; in a fight each side's `p_won`, then each combatant's P(hit), P(down)
    /// and damage taken; for a plan each target's figures and the map's verdict.
    fn columns(layout: &HeatmapLayout) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::int("x", |r: &Self| r.x),
            Column::int("y", |r: &Self| r.y),
            Column::text("method", |r: &Self| r.method.clone()),
        ];
        for (s, side) in layout.sides.iter().enumerate() {
            columns.push(Column::float(format!("{side}_p_won"), move |r: &Self| {
                r.won.get(s).copied()
            }));
        }
        for (t, token) in layout.targets.iter().enumerate() {
            columns.extend([
                Column::float(format!("{token}_p_hit"), move |r: &Self| r.targets[t].p_hit),
                Column::float(format!("{token}_p_down"), move |r: &Self| {
                    Some(r.targets[t].p_down)
                }),
                Column::float(format!("{token}_mean_damage"), move |r: &Self| {
                    Some(r.targets[t].mean_damage)
                }),
            ]);
            if layout.sides.is_empty() {
                columns.extend([
                    Column::text(format!("{token}_cover"), move |r: &Self| {
                        r.targets[t].cover.clone()
                    }),
                    Column::int(format!("{token}_concealment"), move |r: &Self| {
                        i64::from(r.targets[t].concealment)
                    }),
                    Column::bool(format!("{token}_flanking"), move |r: &Self| {
                        r.targets[t].flanking
                    }),
                    Column::bool(format!("{token}_refused"), move |r: &Self| {
                        r.targets[t].why_refused.is_some()
                    }),
                    Column::text(format!("{token}_why_refused"), move |r: &Self| {
                        r.targets[t].why_refused.clone().unwrap_or_default()
                    }),
                ]);
            }
        }
        columns
    }
}

/// A square (column, row) and the heatmap's figure there.
pub(super) type SquareValue = (i64, i64, f64);

impl Heatmap {
    /// The rows as the serializer takes them.
    pub(super) fn rows(&self) -> Rows<'_, HeatmapRow> {
        Rows::new(&self.layout, &self.rows)
    }

    /// The squares where the figure shown is defined, as `(x, y, value)`: the `n`
    /// highest, highest first, and the lowest (ties in table order), when there are more
    /// than `n`. Higher is not always better (a mover's own P(down)), so they are named by
    /// their value only.
    pub(super) fn extremes(&self, n: usize) -> (Vec<SquareValue>, Option<SquareValue>) {
        let mut squares: Vec<SquareValue> = (self.rows.iter())
            .filter_map(|r| Some((r.x, r.y, r.value(self.shown)?)))
            .collect();
        squares.sort_by(|a, b| b.2.total_cmp(&a.2));
        let lowest = (squares.len() > n).then(|| squares[squares.len() - 1]);
        squares.truncate(n);
        (squares, lowest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::table::Output;

    /// Five squares of P(down) 0.2, 0.7, 0.4, 0.7, 0.1 (in table order): the three highest
    /// are 0.7 (the first of the tie first), 0.7, 0.4, and the lowest 0.1; with room for
    /// all five, no lowest is named apart.
    #[test]
    fn extremes_are_the_highest_squares_and_the_lowest() {
        let row = |x: i64, p_down: f64| HeatmapRow {
            x,
            y: 0,
            method: "exact".into(),
            targets: vec![HeatmapCell {
                p_down,
                ..HeatmapCell::default()
            }],
            won: Vec::new(),
        };
        let heatmap = Heatmap {
            layout: HeatmapLayout {
                targets: vec!["O".into()],
                sides: Vec::new(),
            },
            shown: Shown::PDown(0),
            label: "P(down) of Ogre (O)".into(),
            mover: "Rogue (R)".into(),
            rows: [0.2, 0.7, 0.4, 0.7, 0.1]
                .iter()
                .zip(0..)
                .map(|(&p, x)| row(x, p))
                .collect(),
        };
        assert_eq!(
            heatmap.extremes(3),
            (
                vec![(1, 0, 0.7), (3, 0, 0.7), (2, 0, 0.4)],
                Some((4, 0, 0.1))
            )
        );
        assert_eq!(heatmap.extremes(5).1, None);
    }

    /// Two squares, one target: the CSV has `x,y,method`, then the target's eight
    /// columns, in that order (an empty reason, last on its line, quoted by the writer).
    #[test]
    fn rows_write_the_target_columns_after_the_square() {
        let cell =
            |p_hit, p_down, mean_damage, cover: &str, concealment, flanking, why: Option<&str>| {
                HeatmapCell {
                    p_hit,
                    p_down,
                    mean_damage,
                    cover: cover.to_string(),
                    concealment,
                    flanking,
                    why_refused: why.map(str::to_string),
                }
            };
        let heatmap = Heatmap {
            layout: HeatmapLayout {
                targets: vec!["O".to_string()],
                sides: Vec::new(),
            },
            shown: Shown::PHit(0),
            label: "P(hit) on Ogre (O)".to_string(),
            mover: "Rogue (R)".to_string(),
            rows: vec![
                HeatmapRow {
                    x: 1,
                    y: 3,
                    method: "exact".to_string(),
                    targets: vec![cell(Some(0.5), 0.25, 4.5, "none", 0, true, None)],
                    won: Vec::new(),
                },
                HeatmapRow {
                    x: 2,
                    y: 4,
                    method: "simulated".to_string(),
                    targets: vec![cell(
                        None,
                        0.0,
                        0.0,
                        "partial",
                        20,
                        false,
                        Some("out of reach"),
                    )],
                    won: Vec::new(),
                },
            ],
        };
        // The refused square has no P(hit): the one other is the highest, none the lowest.
        assert_eq!(heatmap.extremes(3), (vec![(1, 3, 0.5)], None));
        let csv = String::from_utf8(heatmap.rows().csv().unwrap()).unwrap();
        assert_eq!(
            csv,
            "x,y,method,O_p_hit,O_p_down,O_mean_damage,O_cover,O_concealment,O_flanking,O_refused,O_why_refused\n\
             1,3,exact,0.5,0.25,4.5,none,0,true,false,\"\"\n\
             2,4,simulated,,0.0,0.0,partial,20,false,true,out of reach\n"
        );
    }
}

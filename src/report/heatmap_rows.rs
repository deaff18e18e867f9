//! The heatmap's rows (`heatmap.csv`): one per square tried, with each target's figures.
//! [`crate::heatmap`] builds them; every output and the chart read the rows.

use super::table::{Column, Row, Rows};

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
    pub p_down: f64,
    pub mean_damage: f64,
    pub cover: String,
    /// Miss chance in percent.
    pub concealment: u8,
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
                    Some(r.targets[t].p_down)
                }),
                Column::float(format!("{token}_mean_damage"), move |r: &Self| {
                    Some(r.targets[t].mean_damage)
                }),
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
                    r.targets[t].refused
                }),
            ]);
        }
        columns
    }
}

impl Heatmap {
    /// The rows as the serializer takes them.
    pub(super) fn rows(&self) -> Rows<'_, HeatmapRow> {
        Rows::new(&self.targets, &self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::table::Output;

    /// Two squares, one target: the CSV has `x,y,method`, then the target's seven
    /// columns, in that order.
    #[test]
    fn rows_write_the_target_columns_after_the_square() {
        let cell =
            |p_hit, p_down, mean_damage, cover: &str, concealment, flanking, refused| HeatmapCell {
                p_hit,
                p_down,
                mean_damage,
                cover: cover.to_string(),
                concealment,
                flanking,
                refused,
            };
        let heatmap = Heatmap {
            targets: vec!["O".to_string()],
            rows: vec![
                HeatmapRow {
                    x: 1,
                    y: 3,
                    method: "exact".to_string(),
                    targets: vec![cell(Some(0.5), 0.25, 4.5, "none", 0, true, false)],
                },
                HeatmapRow {
                    x: 2,
                    y: 4,
                    method: "simulated".to_string(),
                    targets: vec![cell(None, 0.0, 0.0, "partial", 20, false, true)],
                },
            ],
        };
        let csv = String::from_utf8(heatmap.rows().csv().unwrap()).unwrap();
        assert_eq!(
            csv,
            "x,y,method,O_p_hit,O_p_down,O_mean_damage,O_cover,O_concealment,O_flanking,O_refused\n\
             1,3,exact,0.5,0.25,4.5,none,0,true,false\n\
             2,4,simulated,,0.0,0.0,partial,20,false,true\n"
        );
    }
}

//! The chart inputs drawn from results: sweep curves, damage and rounds charts.

use toml::Value;

use super::*;
use crate::report::rows::AttackRow;
use crate::scenario::Sweep;

/// The sweep chart of a table added point by point, `rows_per_point` rows a point, for a
/// first swept field of `x_values` values each shared by `points_per_value` points.
fn drawing(
    (fields, rows): &(Vec<SweptField>, Vec<SweepRow>),
    rows_per_point: usize,
    x_values: Option<usize>,
    points_per_value: usize,
) -> SweepDrawing {
    let mut curves = SweepCurves::new(x_values, points_per_value);
    for point in rows.chunks(rows_per_point) {
        curves.add_point(fields, point);
    }
    curves.chart("t").unwrap()
}

/// The chart's series' labels, in order.
fn labels(chart: &SweepChart) -> Vec<&str> {
    chart.series.iter().map(|s| s.label.as_str()).collect()
}

/// A swept field typed by `values`, as the sweep writer types it.
fn field(set: &str, values: &[Value]) -> SweptField {
    SweptField::of(&Sweep {
        set: set.into(),
        values: values.to_vec(),
        span: 0..0,
    })
}

fn ints(values: impl IntoIterator<Item = i64>) -> Vec<Value> {
    values.into_iter().map(Value::Integer).collect()
}

/// Sweep rows of `O.ac` (and `O.hp`) at `xs` (and `second`): F's sword on O, P(hit) row/10.
fn sweep_table(xs: Vec<Value>, second: Option<Vec<Value>>) -> (Vec<SweptField>, Vec<SweepRow>) {
    let mut fields = vec![field("O.ac", &xs)];
    fields.extend(second.as_ref().map(|hp| field("O.hp", hp)));
    let rows = xs
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let mut values = vec![x.clone()];
            values.extend(second.as_ref().map(|hp| hp[i].clone()));
            SweepRow {
                values,
                row: AttackRow::example("F", "O", i as f64 / 10.0),
            }
        })
        .collect();
    (fields, rows)
}

/// The same rows, row `i` attacking `targets[i]` with effective AC `acs[i]`.
fn with_targets(
    (fields, mut rows): (Vec<SweptField>, Vec<SweepRow>),
    targets: &[&str],
    acs: &[i32],
) -> (Vec<SweptField>, Vec<SweepRow>) {
    for ((row, target), ac) in rows.iter_mut().zip(targets).zip(acs) {
        row.row.target = target.to_string();
        row.row.effective_ac = *ac;
    }
    (fields, rows)
}

#[test]
fn one_sweep_gives_one_series_over_numeric_values() {
    let drawing = drawing(&sweep_table(ints([16, 18, 20]), None), 1, Some(3), 1);
    let chart = drawing.chart;
    assert_eq!(drawing.unchanged, 0);
    assert_eq!(chart.x, SweepAxis::Numeric(vec![16.0, 18.0, 20.0]));
    assert_eq!(chart.x_label, "O.ac");
    assert_eq!(chart.series.len(), 1);
    assert_eq!(chart.series[0].label, "F → O: sword #1");
    let hits: Vec<f64> = chart.series[0]
        .points
        .iter()
        .map(|p| p.unwrap().point)
        .collect();
    assert_eq!(hits, [0.0, 0.1, 0.2]);
    assert!((chart.series[0].points[2].unwrap().hi - 0.21).abs() < 1e-12);
}

#[test]
fn further_sweeps_split_series_and_text_values_are_categories() {
    // The first sweep varies slowest (`Scenario::sweep_points`), as in every sweep table.
    let xs = ["1d6", "1d6", "1d8", "1d8"].map(Value::from).to_vec();
    let hp = ints([10, 20, 10, 20]);
    let chart = drawing(&sweep_table(xs, Some(hp)), 1, Some(2), 2).chart;
    assert_eq!(
        chart.x,
        SweepAxis::Categories(vec!["1d6".into(), "1d8".into()])
    );
    assert_eq!(
        labels(&chart),
        ["F → O: sword #1 (O.hp = 10)", "F → O: sword #1 (O.hp = 20)"]
    );
    assert_eq!(chart.series[1].points[1].unwrap().point, 0.3);
}

#[test]
fn attacks_the_sweep_does_not_change_are_left_out() {
    let table = with_targets(
        sweep_table(ints([16, 16, 18, 18]), None),
        &["O", "G", "O", "G"],
        &[16, 14, 18, 14],
    );
    let drawing = drawing(&table, 2, Some(2), 1);
    let chart = drawing.chart;
    assert_eq!(drawing.unchanged, 1);
    assert_eq!(labels(&chart), ["F → O: sword #1"]);
    let hits: Vec<f64> = chart.series[0]
        .points
        .iter()
        .map(|p| p.unwrap().point)
        .collect();
    assert_eq!(hits, [0.0, 0.2]);
}

/// `O.ac = [16, 18]` × `O.hp = [10, 20]`, one attack whose roll `O.hp` decides, as
/// `vs = ["eac", "kac"]` does: at hp 10 it is against AC 13 at both values of O.ac, at
/// hp 20 against 16 then 18. Both series are drawn: the hp-10 one is the same along O.ac
/// but not the same roll as the other (it used to be left out, with no trace on the chart).
#[test]
fn a_series_a_further_field_sets_apart_is_drawn_though_flat() {
    let table = with_targets(
        sweep_table(ints([16, 16, 18, 18]), Some(ints([10, 20, 10, 20]))),
        &["O", "O", "O", "O"],
        &[13, 16, 13, 18],
    );
    let drawn = drawing(&table, 1, Some(2), 2);
    assert_eq!(drawn.unchanged, 0);
    assert_eq!(
        labels(&drawn.chart),
        ["F → O: sword #1 (O.hp = 10)", "F → O: sword #1 (O.hp = 20)"]
    );
}

/// Points with different numbers of rows (`O.hp` standing in for a further field that
/// gives an attack one iterative at one value and two at the other: +11, then +11 and
/// +6), at two values of O.ac that change no roll: three series, s0 (+11, first row),
/// s1 (+11, first row), s2 (+6, second row). Grouped by their row, no attack changes, so
/// all three are drawn; grouped by index modulo the most rows a point has, s2 fell in
/// with s0 and s1 was left out.
#[test]
fn series_are_grouped_by_their_row_when_points_differ_in_rows() {
    let (fields, mut rows) = sweep_table(
        ints([16, 16, 16, 18, 18, 18]),
        Some(ints([1, 2, 2, 1, 2, 2])),
    );
    for (row, bonus) in rows.iter_mut().zip([11, 11, 6, 11, 11, 6]) {
        row.row.effective_bonus = bonus;
        row.row.effective_ac = 16;
        row.row.p_hit.exact = None;
    }
    let mut curves = SweepCurves::new(Some(2), 2);
    for point in [0..1, 1..3, 3..4, 4..6] {
        curves.add_point(&fields, &rows[point]);
    }
    let drawn = curves.chart("t").unwrap();
    assert_eq!((drawn.unchanged, drawn.chart.series.len()), (0, 3));
}

/// A list that repeats a value (`O.ac = [16, 16, 18]`, two attacks a point, G's roll the
/// same everywhere) still has two series, not one per repeated point: 1 left out
/// (the regression read "leaves out 3"); 3 positions run and drawn, 2 distinct x values.
/// Likewise `O.ac = [16, 16]` × `O.hp = [1, 2]` has 2 series, not 4.
#[test]
fn a_repeated_value_is_its_own_position_not_new_series() {
    let table = with_targets(
        sweep_table(ints([16, 16, 16, 16, 18, 18]), None),
        &["O", "G", "O", "G", "O", "G"],
        &[16, 14, 16, 14, 18, 14],
    );
    let drawn = drawing(&table, 2, Some(3), 1);
    assert_eq!((drawn.unchanged, drawn.not_drawn), (1, 0));
    assert_eq!(drawn.values, (3, 3));
    assert_eq!(drawn.chart.series.len(), 1);
    assert_eq!(drawn.chart.x, SweepAxis::Numeric(vec![16.0, 18.0]));

    let table = sweep_table(ints([16, 16, 16, 16]), Some(ints([1, 2, 1, 2])));
    let drawn = drawing(&table, 1, Some(2), 2);
    assert_eq!(
        labels(&drawn.chart),
        ["F → O: sword #1 (O.hp = 1)", "F → O: sword #1 (O.hp = 2)"]
    );
    assert_eq!(drawn.values, (2, 2));
}

/// 2,501 values: every 3rd is drawn (positions 0, 3, …, 2,499: 834 values) and the
/// last (2,500), 835 in all; the P(hit) drawn at 2,499 is that row's.
#[test]
fn a_long_sweep_draws_every_kth_value_and_the_last() {
    let n = 2501;
    let drawing = drawing(&sweep_table(ints(0..n), None), 1, Some(n as usize), 1);
    assert_eq!(drawing.values, (835, 2501));
    let SweepAxis::Numeric(xs) = &drawing.chart.x else {
        panic!("numeric axis expected");
    };
    assert_eq!(xs.len(), 835);
    assert_eq!(&xs[..3], [0.0, 3.0, 6.0]);
    assert_eq!(&xs[833..], [2499.0, 2500.0]);
    let points = &drawing.chart.series[0].points;
    assert_eq!(points[833].unwrap().point, 249.9);
}

/// 70 series (one per value of a second swept field), none changing: the first 64 are
/// drawn and 6 counted as not drawn; a short sweep draws all its values.
#[test]
fn past_64_series_the_rest_are_counted_not_drawn() {
    let table = sweep_table(ints(vec![16; 70]), Some(ints(1..=70)));
    let drawing = drawing(&table, 1, Some(1), 70);
    assert_eq!(drawing.chart.series.len(), MAX_SWEEP_CHART_SERIES);
    assert_eq!((drawing.not_drawn, drawing.unchanged), (6, 0));
    assert_eq!(drawing.values, (1, 1));
    assert_eq!(
        drawing.chart.series[63].label,
        "F → O: sword #1 (O.hp = 64)"
    );
}

#[test]
fn a_chart_failure_names_the_files_and_says_nothing_was_written() {
    let err = drawn::<Chart>(
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
    assert_eq!(damage_size(1).height, 450);
    assert_eq!(damage_size(5).height, 1120);
    assert_eq!(damage_size(1000).height, ChartSize::MAX_SIDE);
}

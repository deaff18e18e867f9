//! Each chart on the realistic example, and the report built from them.

use super::super::html::escape_html;
use super::super::*;
use super::check;
use super::fixtures::*;

#[test]
fn down_dead_chart_draws_every_target_and_label() {
    let data = rounds_example();
    let chart = down_dead_chart(&data).expect("chart");
    let mut expected = vec![
        data.title.as_str(),
        "round",
        "probability",
        "95% interval",
        "exact value",
    ];
    expected.extend(TARGETS);
    expected.extend([
        "P(down) by the end of the round",
        "P(dead) by the end of the round",
        "1",
        "2",
        "3",
        "0.4",
    ]);
    check(&chart, data.size, &expected);
}

#[test]
fn damage_chart_draws_a_panel_per_target() {
    let data = damage_example();
    let chart = damage_chart(&data).expect("chart");
    let mut expected = vec![
        data.title.as_str(),
        "damage (hp)",
        "probability",
        "simulated probability",
        "95% interval",
    ];
    expected.extend(TARGETS);
    check(&chart, data.size, &expected);
}

#[test]
fn sweep_chart_numeric_and_categorical() {
    let data = sweep_example();
    let chart = sweep_chart(&data).expect("chart");
    let mut expected = vec![
        data.title.as_str(),
        "O.ac (armour class)",
        "P(hit)",
        "16",
        "24",
    ];
    expected.extend(data.series.iter().map(|s| s.label.as_str()));
    check(&chart, data.size, &expected);

    let categorical = SweepChart {
        x: SweepAxis::Categories(vec![
            "none".into(),
            "partial".into(),
            "cover".into(),
            "improved".into(),
            "total".into(),
        ]),
        x_label: "cover".into(),
        series: data
            .series
            .iter()
            .map(|s| SweepSeries {
                label: s.label.clone(),
                points: s.points.iter().take(4).copied().chain([None]).collect(),
            })
            .collect(),
        ..data
    };
    let chart = sweep_chart(&categorical).expect("chart");
    check(
        &chart,
        categorical.size,
        &["cover", "none", "partial", "improved", "total"],
    );
}

#[test]
fn heatmap_draws_map_legend_and_colour_bar() {
    let data = heatmap_example();
    let chart = heatmap_chart(&data).expect("chart");
    check(
        &chart,
        data.size,
        &[
            data.title.as_str(),
            data.value_label.as_str(),
            "0%",
            "100%",
            "not tried",
            "wall",
            "low wall",
            "fog",
            "dim light",
            "darkness",
            "creature (by letter)",
            "O",
            "F",
        ],
    );
}

#[test]
fn lines_chart_numbers_each_group() {
    let data = lines_example();
    let chart = lines_chart(&data).expect("chart");
    check(
        &chart,
        data.size,
        &[
            data.title.as_str(),
            "clear line",
            "blocked line",
            "flanking line",
            "1",
            "2",
            "3",
            "F → O: cover (2 of 4 lines blocked by the low wall)",
            "K → O: flanking with W (line through opposite corners)",
        ],
    );
}

#[test]
fn example_report_is_self_contained() {
    let charts = [
        (
            "rounds",
            down_dead_chart(&rounds_example()).expect("rounds"),
        ),
        ("damage", damage_chart(&damage_example()).expect("damage")),
        ("sweep", sweep_chart(&sweep_example()).expect("sweep")),
        (
            "heatmap",
            heatmap_chart(&heatmap_example()).expect("heatmap"),
        ),
        ("lines", lines_chart(&lines_example()).expect("lines")),
    ];
    let headed: Vec<(&str, &Chart)> = charts.iter().map(|(name, c)| (*name, c)).collect();
    let input = report_example(&headed);
    let page = report_html(&input);
    let markdown = summary_markdown(&input);
    assert_eq!(page.matches("<svg").count(), charts.len());
    assert!(!page.to_lowercase().contains("http"));
    assert!(!page.contains("<img") && !page.contains("<script"));
    for section in &input.sections {
        assert!(page.contains(&format!(">{}</h2>", escape_html(&section.heading))));
    }
    assert!(markdown.contains("| Ogre (O) | 1 | 0.4538 ±0.0250 | 0.0540 ±0.0250 |"));
    assert!(!markdown.contains("<svg"));

    if let Some(dir) = std::env::var_os("D20ODDS_CHARTS_OUT") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("output folder");
        for (name, chart) in &charts {
            std::fs::write(dir.join(format!("{name}.svg")), &chart.svg).expect("write svg");
            std::fs::write(dir.join(format!("{name}.png")), &chart.png).expect("write png");
        }
        std::fs::write(dir.join("report.html"), &page).expect("write html");
        std::fs::write(dir.join("summary.md"), &markdown).expect("write markdown");
    }
}

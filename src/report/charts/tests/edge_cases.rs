//! Empty, degenerate and hostile inputs: charts are still drawn, never a panic.

use super::super::*;
use super::fixtures::*;
use super::{check, est, png_size, svg_texts, text_places};

#[test]
fn empty_inputs_give_valid_charts() {
    let size = ChartSize::default();
    let rounds = down_dead_chart(&RoundsChart {
        title: String::new(),
        size,
        targets: vec![],
    })
    .expect("empty rounds");
    check(&rounds, size, &["no data"]);
    let damage = damage_chart(&DamageChart {
        title: "t".into(),
        size,
        targets: vec![TargetDamage {
            label: "Ogre (O)".into(),
            points: vec![],
        }],
    })
    .expect("empty damage");
    check(&damage, size, &["no data", "Ogre (O)"]);
    check(
        &damage_chart(&DamageChart {
            title: "t".into(),
            size,
            targets: vec![],
        })
        .expect("no targets"),
        size,
        &["no targets"],
    );
    for x in [SweepAxis::Numeric(vec![]), SweepAxis::Categories(vec![])] {
        let sweep = sweep_chart(&SweepChart {
            title: "t".into(),
            size,
            x_label: "x".into(),
            y_label: "y".into(),
            x,
            series: vec![SweepSeries {
                label: "s".into(),
                points: vec![None, None],
            }],
        })
        .expect("empty sweep");
        check(&sweep, size, &["no data"]);
    }
    let heat = heatmap_chart(&HeatmapChart {
        title: "t".into(),
        size,
        map: BattleMap::default(),
        values: vec![],
        value_label: "v".into(),
    })
    .expect("empty heatmap");
    check(&heat, size, &["empty map"]);
    let lines = lines_chart(&LinesChart {
        title: "t".into(),
        size,
        map: BattleMap {
            rows: vec![String::new()],
            floors: Vec::new(),
            creatures: vec![],
        },
        segments: vec![],
    })
    .expect("empty lines");
    check(&lines, size, &["empty map"]);
}

#[test]
fn single_points_and_all_zero_data_draw() {
    let mut rounds = rounds_example();
    for t in &mut rounds.targets {
        t.rounds.truncate(1);
        for r in &mut t.rounds {
            r.down = est(0.0, 0.0, Some(0.0));
            r.dead = est(0.0, 0.0, None);
        }
    }
    check(
        &down_dead_chart(&rounds).expect("one round"),
        rounds.size,
        &["1"],
    );

    let zero = DamageChart {
        title: "t".into(),
        size: ChartSize::default(),
        targets: vec![TargetDamage {
            label: "Ogre (O)".into(),
            points: vec![DamagePoint {
                damage: 0,
                probability: 0.0,
                interval: Some((0.0, 0.0)),
                exact: Some(0.0),
            }],
        }],
    };
    check(
        &damage_chart(&zero).expect("all-zero damage"),
        zero.size,
        &["0"],
    );

    let sweep = SweepChart {
        x: SweepAxis::Numeric(vec![18.0]),
        series: vec![SweepSeries {
            label: "only".into(),
            points: vec![Some(est(0.0, 0.0, Some(0.0)))],
        }],
        ..sweep_example()
    };
    check(
        &sweep_chart(&sweep).expect("one sweep point"),
        sweep.size,
        &["18", "only"],
    );

    let mut heat = heatmap_example();
    for row in &mut heat.values {
        for v in row.iter_mut().flatten() {
            *v = 0.0;
        }
    }
    check(
        &heatmap_chart(&heat).expect("all-zero heatmap"),
        heat.size,
        &["0%"],
    );
}

#[test]
fn odd_values_never_panic() {
    let mut rounds = rounds_example();
    rounds.targets[0].rounds[1].down = Estimate {
        point: f64::NAN,
        lo: f64::INFINITY,
        hi: -3.0,
        exact: Some(f64::NAN),
    };
    rounds.targets[1].rounds[0].dead = est(7.0, 2.0, Some(-1.0));
    let duplicate = rounds.targets[2].rounds[0];
    rounds.targets[2].rounds.push(duplicate);
    down_dead_chart(&rounds).expect("odd rounds");

    let mut heat = heatmap_example();
    heat.values[1][1] = Some(f64::NAN);
    heat.values[1][2] = Some(-4.0);
    heat.values.truncate(3);
    heat.map.creatures.push(Creature {
        letter: 'Z',
        squares: vec![(99, 99), (u32::MAX, 0)],
    });
    heatmap_chart(&heat).expect("odd heatmap");

    let mut lines = lines_example();
    lines.segments.push(Segment {
        from: (f64::NAN, 0.0),
        to: (1.0, 1.0),
        kind: LineKind::Clear,
        label: "nan".into(),
    });
    lines.segments.push(Segment {
        from: (-50.0, 0.0),
        to: (1.0, 1.0),
        kind: LineKind::Blocked,
        label: "outside".into(),
    });
    lines_chart(&lines).expect("odd lines");

    let sweep = SweepChart {
        x: SweepAxis::Numeric(vec![f64::NAN, 3.0, f64::INFINITY]),
        ..sweep_example()
    };
    sweep_chart(&sweep).expect("odd sweep");

    let many = RoundsChart {
        targets: (0..60)
            .map(|i| TargetRounds {
                label: format!("Goblin number {i} with a rather long name"),
                rounds: vec![],
            })
            .collect(),
        ..rounds_example()
    };
    let chart = down_dead_chart(&many).expect("many series");
    assert!(
        svg_texts(&chart.svg)
            .iter()
            .any(|t| t.contains("more not shown"))
    );

    let mut wide = damage_example();
    wide.targets = (0..12).map(|_| wide.targets[0].clone()).collect();
    let chart = damage_chart(&wide).expect("many panels");
    assert!(
        svg_texts(&chart.svg)
            .iter()
            .any(|t| t.contains("more targets not shown"))
    );

    let big_map = HeatmapChart {
        map: BattleMap {
            rows: vec![".".repeat(2000); 3],
            floors: Vec::new(),
            creatures: vec![],
        },
        ..heatmap_example()
    };
    let chart = heatmap_chart(&big_map).expect("huge map");
    assert!(
        svg_texts(&chart.svg)
            .iter()
            .any(|t| t == "map too large for this chart size")
    );
}

#[test]
fn sizes_outside_limits_are_errors() {
    for (width, height) in [(0, 0), (319, 600), (960, 239), (6001, 600)] {
        let data = RoundsChart {
            size: ChartSize { width, height },
            ..rounds_example()
        };
        assert_eq!(
            down_dead_chart(&data),
            Err(ChartError::Size { width, height })
        );
    }
    let smallest = ChartSize {
        width: ChartSize::MIN_WIDTH,
        height: ChartSize::MIN_HEIGHT,
    };
    let many = |mut rounds: RoundsChart| {
        rounds.targets = (0..8)
            .map(|i| TargetRounds {
                label: format!("Goblin {i}"),
                ..rounds.targets[0].clone()
            })
            .collect();
        rounds
    };
    let charts = [
        down_dead_chart(&RoundsChart {
            size: smallest,
            ..many(rounds_example())
        }),
        damage_chart(&DamageChart {
            size: smallest,
            ..damage_example()
        }),
        sweep_chart(&SweepChart {
            size: smallest,
            ..sweep_example()
        }),
        heatmap_chart(&HeatmapChart {
            size: smallest,
            ..heatmap_example()
        }),
        lines_chart(&LinesChart {
            size: smallest,
            ..lines_example()
        }),
    ];
    for chart in charts {
        let chart = chart.expect("smallest size");
        assert_eq!(png_size(&chart.png), (smallest.width, smallest.height));
        svg_texts(&chart.svg);
    }
}

#[test]
fn special_characters_stay_valid_xml() {
    let data = RoundsChart {
        title: "<Ogre> & \"friends\" 'n' co\u{1}\u{7f}".into(),
        ..rounds_example()
    };
    let chart = down_dead_chart(&data).expect("chart");
    check(&chart, data.size, &["<Ogre> & \"friends\" 'n' co"]);
    let long = RoundsChart {
        title: "very long title ".repeat(2000),
        ..rounds_example()
    };
    let chart = down_dead_chart(&long).expect("long title");
    assert!(svg_texts(&chart.svg).iter().any(|t| t.ends_with('…')));
}

#[test]
fn a_long_title_takes_a_second_line_instead_of_an_ellipsis() {
    let title = "Pathfinder cover and flanking examples — the map and the lines that decided cover";
    let rounds = RoundsChart {
        title: title.into(),
        ..rounds_example()
    };
    let texts = svg_texts(&down_dead_chart(&rounds).expect("long title").svg);
    let first = texts
        .iter()
        .position(|t| title.starts_with(t.as_str()) && t.len() > 10)
        .expect("the title's first line");
    assert_eq!(format!("{} {}", texts[first], texts[first + 1]), title);
    assert!(texts.iter().all(|t| !t.ends_with('…')), "{texts:?}");
}

/// Seven targets make three page-sized figures of 3, 3 and 1 panels, each titled with the
/// targets it holds and each drawn on the whole chart's damage axis: the first targets'
/// bars end at 10, the last's at 40, and every page has the 40 tick.
#[test]
fn a_damage_chart_taller_than_a_page_prints_as_pages_on_one_axis() {
    let target = |k: usize| TargetDamage {
        label: format!("Target {k}"),
        points: vec![DamagePoint {
            damage: if k == 7 { 40 } else { 10 },
            probability: 1.0,
            interval: None,
            exact: None,
        }],
    };
    let chart = DamageChart {
        title: "Damage".into(),
        size: ChartSize::default(),
        targets: (1..=7).map(target).collect(),
    };
    let mut panel_counts = Vec::new();
    let pages = chart
        .pages(|panels| {
            panel_counts.push(panels);
            ChartSize::default()
        })
        .expect("pages");
    assert_eq!(panel_counts, [3, 3, 1], "each page sized by its panels");
    let titles = [
        "(1–3 of 7 targets)",
        "(4–6 of 7 targets)",
        "(7 of 7 targets)",
    ];
    for (page, title) in pages.iter().zip(titles) {
        let texts = svg_texts(page);
        assert!(texts.contains(&format!("Damage {title}")), "{texts:?}");
        assert!(texts.iter().any(|t| t == "40"), "{title}: {texts:?}");
    }
    assert_eq!(pages.len(), 3);
}

/// A fight of one round has no lines to tell its targets apart: each target's point stands
/// in its own place in the round (a step of 0.25 round apart for three), with its value
/// above it, so two targets at 0% both show, at two places.
#[test]
fn a_single_round_stands_its_points_apart_and_writes_their_values() {
    let target = |label: &str, down: f64| TargetRounds {
        label: label.into(),
        rounds: vec![RoundPoint {
            round: 1,
            down: est(down, 0.01, Some(down)),
            dead: est(0.0, 0.0, Some(0.0)),
        }],
    };
    let data = RoundsChart {
        title: "one round".into(),
        size: ChartSize::default(),
        targets: vec![target("O", 0.16), target("F", 0.0), target("R", 0.0)],
    };
    let chart = down_dead_chart(&data).expect("chart");
    check(&chart, data.size, &["16%", "0%"]);
    let places = |text: &str| -> Vec<String> {
        (text_places(&chart.svg, text, "x").into_iter())
            .map(|(_, x)| x.to_string())
            .collect()
    };
    assert_eq!(places("16%").len(), 1);
    // F and R at 0% down, and all three at 0% dead: five labels, in three places a panel.
    let zeros = places("0%");
    assert_eq!(zeros.len(), 5, "{zeros:?}");
    let mut distinct = zeros.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 5, "{zeros:?}");
}

/// An arrow slit (`|` on the drawn map) has its own mark and legend entry, apart from the
/// wall beside it: a wall's dark square with a white upright opening.
#[test]
fn an_arrow_slit_is_drawn_apart_from_a_wall() {
    let data = LinesChart {
        title: "slit".into(),
        size: ChartSize::default(),
        map: BattleMap {
            rows: vec!["#|#".into(), "...".into(), ".A.".into()],
            floors: Vec::new(),
            creatures: vec![Creature {
                letter: 'A',
                squares: vec![(1, 2)],
            }],
        },
        segments: vec![],
    };
    let chart = lines_chart(&data).expect("chart");
    check(
        &chart,
        data.size,
        &["wall", "slit or port (improved cover)"],
    );
    let without = LinesChart {
        map: BattleMap {
            rows: vec!["###".into(), "...".into(), ".A.".into()],
            floors: Vec::new(),
            ..data.map.clone()
        },
        ..data.clone()
    };
    let texts = svg_texts(&lines_chart(&without).expect("chart").svg);
    assert!(
        !texts.iter().any(|t| t.contains("improved cover")),
        "{texts:?}"
    );
}

/// A creature standing in fog shows the fog's waves on its own square (two, at its top
/// and bottom edges), and floors off the ground are
/// marked and named in the legend by height: +5 raised, −5 sunken; a flat map names none.
#[test]
fn the_ground_under_a_creature_and_the_floor_heights_are_drawn() {
    let data = LinesChart {
        title: "ground".into(),
        size: ChartSize::default(),
        map: BattleMap {
            rows: vec!["...".into(), ".~.".into()],
            floors: vec![vec![0, 0, 0], vec![5, 0, -5]],
            creatures: vec![Creature {
                letter: 'A',
                squares: vec![(1, 1)],
            }],
        },
        segments: vec![],
    };
    let svg = lines_chart(&data).expect("chart").svg;
    let triangles = |svg: &str| {
        svg.matches("<polygon opacity=\"1\" fill=\"#1E1E1E\"")
            .count()
    };
    assert_eq!(
        triangles(&svg),
        4,
        "two squares off the floor, two legend swatches"
    );
    let waves = svg.matches("stroke=\"#696969\"").count();
    // The terrain's two waves (then covered), the two at the edges of A's square and the
    // legend swatch's two; a creature drawn plain white would leave 4.
    assert_eq!(waves, 6, "A's square shows its fog");
    check(
        &lines_chart(&data).expect("chart"),
        data.size,
        &["fog", "raised floor (+5 ft)", "sunken floor (−5 ft)"],
    );
    let flat = LinesChart {
        map: BattleMap {
            floors: vec![vec![0; 3]; 2],
            ..data.map.clone()
        },
        ..data.clone()
    };
    let flat_svg = lines_chart(&flat).expect("chart").svg;
    assert_eq!(triangles(&flat_svg), 0);
    let texts = svg_texts(&flat_svg);
    assert!(!texts.iter().any(|t| t.contains("floor")), "{texts:?}");
}

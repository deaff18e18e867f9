//! Realistic example inputs: 3 targets over 3 rounds, a sweep, and a 20 × 12 map.

use super::super::*;
use super::est;

pub(super) const TARGETS: [&str; 3] = ["Ogre (O)", "Goblin boss (G)", "Wizard (W)"];

pub(super) fn rounds_example() -> RoundsChart {
    let table = [
        [(0.4538, 0.0540), (0.9856, 0.8349), (0.9995, 0.9801)],
        [(0.6200, 0.3000), (0.9100, 0.7500), (0.9800, 0.9300)],
        [(0.1500, 0.0200), (0.4200, 0.1200), (0.6600, 0.2900)],
    ];
    RoundsChart {
        title: "Ogre in the corridor: down and dead by round".into(),
        size: ChartSize::default(),
        targets: TARGETS
            .iter()
            .zip(table)
            .enumerate()
            .map(|(t, (label, rows))| TargetRounds {
                label: (*label).into(),
                rounds: rows
                    .iter()
                    .zip(1..)
                    .map(|(&(down, dead), round)| {
                        let exact = |v: f64| (t != 1).then_some(v + 0.002);
                        RoundPoint {
                            round,
                            down: est(down, 0.025, exact(down)),
                            dead: est(dead, 0.025, exact(dead)),
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Exact distribution of the total of `attacks` independent attacks that hit with
/// probability `p` for 1d`die`+`bonus`.
fn damage_distribution(attacks: usize, p: f64, die: usize, bonus: usize) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..attacks {
        let mut next = vec![0.0; dist.len() + die + bonus];
        for (d, &q) in dist.iter().enumerate() {
            next[d] += q * (1.0 - p);
            for roll in 1..=die {
                next[d + roll + bonus] += q * p / die as f64;
            }
        }
        dist = next;
    }
    dist
}

pub(super) fn damage_example() -> DamageChart {
    let specs = [(4, 0.7, 8, 6), (3, 0.6, 6, 4), (5, 0.45, 8, 2)];
    DamageChart {
        title: "Total damage taken over 3 rounds".into(),
        size: ChartSize {
            width: 960,
            height: 720,
        },
        targets: TARGETS
            .iter()
            .zip(specs)
            .map(|(label, (n, p, die, bonus))| TargetDamage {
                label: (*label).into(),
                points: damage_distribution(n, p, die, bonus)
                    .into_iter()
                    .enumerate()
                    .filter(|(_, q)| *q > 0.0)
                    .map(|(d, q)| {
                        let noisy = (q * (1.0 + 0.04 * (d as f64).sin())).min(1.0);
                        let half = 1.96 * (noisy * (1.0 - noisy) / 10_000.0).sqrt();
                        DamagePoint {
                            damage: u32::try_from(d).expect("small damage"),
                            probability: noisy,
                            interval: Some(((noisy - half).max(0.0), noisy + half)),
                            exact: Some(q),
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}

pub(super) fn sweep_example() -> SweepChart {
    let acs = [16.0, 18.0, 20.0, 22.0, 24.0];
    let lines = [
        ("Fighter (F) → Ogre (O): longsword #1", 16.0),
        ("Fighter (F) → Ogre (O): longsword #2", 11.0),
        ("Ranger (R) → Ogre (O): longbow #1", 12.0),
    ];
    SweepChart {
        title: "P(hit) against the ogre's AC".into(),
        size: ChartSize::default(),
        x_label: "O.ac (armour class)".into(),
        y_label: "P(hit)".into(),
        x: SweepAxis::Numeric(acs.to_vec()),
        series: lines
            .iter()
            .map(|&(label, bonus)| SweepSeries {
                label: label.into(),
                points: acs
                    .iter()
                    .map(|ac| {
                        let p = ((21.0 + bonus - ac) / 20.0_f64).clamp(0.05, 0.95);
                        Some(est(p, 0.02, Some(p)))
                    })
                    .collect(),
            })
            .collect(),
    }
}

pub(super) const MAP: [&str; 12] = [
    "####################",
    "#......~~~.........#",
    "#..==..~~~....#....#",
    "#......~~~....#..G.#",
    "#.............#....#",
    "#....,,,,.....###..#",
    "#....,::,...K......#",
    "#....,,,,....OO....#",
    "#............OO....#",
    "#..F.....=....W....#",
    "#........=.........#",
    "####################",
];

pub(super) fn battle_map() -> BattleMap {
    let one = |letter: char, x: u32, y: u32| Creature {
        letter,
        squares: vec![(x, y)],
    };
    BattleMap {
        rows: MAP.iter().map(|r| (*r).to_string()).collect(),
        floors: Vec::new(),
        creatures: vec![
            one('F', 3, 9),
            Creature {
                letter: 'O',
                squares: vec![(13, 7), (14, 7), (13, 8), (14, 8)],
            },
            one('G', 17, 3),
            one('K', 12, 6),
            one('W', 14, 9),
        ],
    }
}

pub(super) fn heatmap_example() -> HeatmapChart {
    let map = battle_map();
    let occupied: Vec<(u32, u32)> = map
        .creatures
        .iter()
        .flat_map(|c| c.squares.clone())
        .collect();
    let values = MAP
        .iter()
        .zip(0u32..)
        .map(|(row, y)| {
            row.chars()
                .zip(0u32..)
                .map(|(c, x)| {
                    if c == '#' || occupied.contains(&(x, y)) {
                        return None;
                    }
                    let distance = f64::from(x.abs_diff(14)).hypot(f64::from(y.abs_diff(8)));
                    let penalty = match c {
                        '~' => 0.8,
                        ',' | ':' => 0.85,
                        '=' => 0.9,
                        _ => 1.0,
                    };
                    Some((0.9 - 0.045 * distance).clamp(0.05, 0.95) * penalty)
                })
                .collect()
        })
        .collect();
    HeatmapChart {
        title: "Where should the ranger stand? P(hit) against the ogre".into(),
        size: ChartSize {
            width: 960,
            height: 680,
        },
        map,
        values,
        value_label: "P(hit) of R's longbow #1 against O".into(),
    }
}

pub(super) fn lines_example() -> LinesChart {
    let seg = |from: (f64, f64), to: (f64, f64), kind: LineKind, label: &str| Segment {
        from,
        to,
        kind,
        label: label.into(),
    };
    let cover = "F → O: cover (2 of 4 lines blocked by the low wall)";
    let ranged = "G → O: partial cover (1 of 4 lines blocked)";
    let flank = "K → O: flanking with W (line through opposite corners)";
    LinesChart {
        title: "Lines that decided cover and flanking".into(),
        size: ChartSize {
            width: 960,
            height: 720,
        },
        map: battle_map(),
        segments: vec![
            seg((4.0, 9.0), (13.0, 8.0), LineKind::Clear, cover),
            seg((4.0, 9.0), (14.0, 8.0), LineKind::Clear, cover),
            seg((4.0, 9.0), (13.0, 9.0), LineKind::Blocked, cover),
            seg((4.0, 9.0), (14.0, 9.0), LineKind::Blocked, cover),
            seg((17.0, 4.0), (14.0, 7.0), LineKind::Clear, ranged),
            seg((17.0, 4.0), (15.0, 7.0), LineKind::Clear, ranged),
            seg((17.0, 4.0), (14.0, 8.0), LineKind::Blocked, ranged),
            seg((17.0, 4.0), (15.0, 8.0), LineKind::Clear, ranged),
            seg((12.5, 6.5), (14.5, 9.5), LineKind::Flanking, flank),
        ],
    }
}

pub(super) fn report_example(charts: &[(&str, &Chart)]) -> ReportInput {
    let rounds = rounds_example();
    let mut rows = Vec::new();
    for t in &rounds.targets {
        for r in &t.rounds {
            let show = |e: Estimate| format!("{:.4} ±{:.4}", e.point, (e.hi - e.lo) / 2.0);
            rows.push(vec![
                t.label.clone(),
                r.round.to_string(),
                show(r.down),
                show(r.dead),
            ]);
        }
    }
    let mut sections = vec![
        PageSection {
            heading: "Input file".into(),
            content: SectionContent::Preformatted(format!(
                "title  = \"Ogre in the corridor\"\nsystem = \"pf1\"\nmap = \"\"\"\n{}\n\"\"\"",
                MAP.join("\n")
            )),
            group: None,
        },
        PageSection {
            heading: "Down and dead by round".into(),
            content: SectionContent::Table(PageTable {
                header: vec![
                    "target".into(),
                    "round".into(),
                    "P(down)".into(),
                    "P(dead)".into(),
                ],
                rows,
                numeric_columns: vec![1, 2, 3],
            }),
            group: None,
        },
        PageSection {
            heading: "Summary (wide table)".into(),
            content: SectionContent::Table(PageTable {
                header: [
                    "attacker",
                    "target",
                    "attack",
                    "index",
                    "bonus",
                    "cover",
                    "concealment",
                    "flanking",
                    "attack_mod",
                    "ac_mod",
                    "effective_bonus",
                    "effective_ac",
                    "miss_chance",
                    "trials",
                    "p_hit",
                    "p_hit_lo",
                    "p_hit_hi",
                    "p_crit",
                    "mean_damage",
                    "exact_p_hit",
                ]
                .iter()
                .map(|s| (*s).to_string())
                .collect(),
                rows: (1..=12)
                    .map(|i| {
                        let mut row: Vec<String> = [
                            "Fighter (F)",
                            "Ogre (O)",
                            "longsword",
                            "",
                            "+14",
                            "none",
                            "0",
                            "true",
                            "2",
                            "0",
                            "+16",
                            "17",
                            "0%",
                            "1000000",
                            "0.9501",
                            "0.9497",
                            "0.9505",
                            "0.0954",
                            "10.9751",
                            "0.9500",
                        ]
                        .iter()
                        .map(|s| (*s).to_string())
                        .collect();
                        row[3] = i.to_string();
                        row
                    })
                    .collect(),
                numeric_columns: (3..20).filter(|&c| c != 5 && c != 7).collect(),
            }),
            group: None,
        },
    ];
    sections.extend(charts.iter().map(|(heading, chart)| PageSection {
        heading: (*heading).into(),
        content: SectionContent::Svg(vec![chart.svg.clone()]),
        group: None,
    }));
    ReportInput {
        title: "Ogre in the corridor".into(),
        system: "pf1".into(),
        seed: "7".into(),
        trials: "1,000,000".into(),
        version: "0.1.0".into(),
        sections,
        rule_readings: vec![
            "Soft cover (a creature in the way) gives +4 AC against ranged attacks only.".into(),
            "A low wall gives cover only to a target within 30 ft of it, and not when the attacker is closer to it.".into(),
        ],
        ..ReportInput::default()
    }
}

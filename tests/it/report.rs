//! The report folder end to end: every file of one run, charts that parse and name what
//! they show, a self-contained report.html, and the sweep chart.

use std::path::{Path, PathBuf};

use crate::cli::{d20odds, repo, showcase};

/// Runs `experiment` with few trials into a temporary folder; returns the folder and its
/// report folder.
fn run(experiment: &Path, trials: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = experiment.display().to_string();
    let out = d20odds(&["run", &file, "--trials", trials, "--quiet"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stem = experiment.file_stem().unwrap();
    let folder = dir.path().join("reports").join(stem);
    (dir, folder)
}

fn read(folder: &Path, file: &str) -> String {
    std::fs::read_to_string(folder.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Checks that the SVG `file` parses as XML and has a text node equal to each of
/// `expected`; returns the SVG.
fn check_svg(folder: &Path, file: &str, expected: &[&str]) -> String {
    let svg = read(folder, file);
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg", "{file}");
    let texts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text().filter(|_| n.is_text()).map(str::trim))
        .filter(|t| !t.is_empty())
        .collect();
    // A long title is drawn on two lines: two text elements one after the other.
    let two_lines = |e: &str| texts.windows(2).any(|w| format!("{} {}", w[0], w[1]) == e);
    for e in expected {
        let found = texts.contains(e) || two_lines(e);
        assert!(found, "{file}: no text {e:?}");
    }
    svg
}

/// The same escaping report.html applies to text.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// `text` escaped as the page lists a note or a rule reading: each pair of backticks
/// sets the words between them as code.
fn listed(text: &str) -> String {
    (escaped(text).split('`').enumerate())
        .map(|(at, part)| match at % 2 {
            1 => format!("<code>{part}</code>"),
            _ => part.to_string(),
        })
        .collect()
}

#[test]
fn one_run_writes_the_whole_report_tree() {
    let (_dir, folder) = run(Path::new(&showcase()), "20000");
    let mut files: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            ".d20odds-report",
            "damage.csv",
            "damage.png",
            "damage.svg",
            "map.png",
            "map.svg",
            "report.html",
            "rounds.csv",
            "rounds.png",
            "rounds.svg",
            "summary.csv",
            "summary.md",
        ]
    );
    for png in ["map.png", "rounds.png", "damage.png"] {
        let bytes = std::fs::read(folder.join(png)).unwrap();
        assert_eq!(bytes[..8], *b"\x89PNG\r\n\x1a\n", "{png} is a PNG");
        assert!(bytes.len() > 5_000, "{png} has a drawing");
    }
    let leftovers: Vec<_> = std::fs::read_dir(folder.parent().unwrap())
        .unwrap()
        .collect();
    assert_eq!(leftovers.len(), 1, "no staging folder is left behind");
}

#[test]
fn every_svg_parses_and_names_its_series_title_and_axes() {
    let (_dir, folder) = run(Path::new(&showcase()), "20000");
    check_svg(
        &folder,
        "rounds.svg",
        &[
            "Ogre in the corridor — down and dead by round",
            "P(down) by the end of the round",
            "P(dead) by the end of the round",
            "round",
            "probability",
            "Ogre (O)",
            "Fighter (F)",
            "95% interval",
            "exact value",
        ],
    );
    check_svg(
        &folder,
        "damage.svg",
        &[
            "Ogre in the corridor — total damage taken per trial",
            "damage (hp)",
            "probability",
            "Ogre (O)",
            "Fighter (F)",
            "simulated probability",
            "95% interval",
            "exact value",
        ],
    );
}

#[test]
fn report_html_is_self_contained_and_holds_every_section() {
    let (_dir, folder) = run(Path::new(&showcase()), "20000");
    let page = read(&folder, "report.html");
    for heading in [
        "Map",
        "Attacks",
        "Down and dead by round",
        "Chart: down and dead by round",
        "Chart: total damage taken",
        "Total damage taken: Ogre (O)",
        "Total damage taken: Fighter (F)",
        "Notes",
        "Appendix: the experiment file, ogre-corridor.toml",
        "Rule readings",
    ] {
        assert!(page.contains(&format!("<h2>{heading}</h2>")), "{heading}");
    }
    let lower = page.to_lowercase();
    assert!(!lower.contains("<script"), "no script");
    assert!(
        !lower.contains("http"),
        "no link to anything outside the file"
    );
    assert_eq!(
        page.matches("<svg").count(),
        3,
        "map, rounds and damage inline"
    );
    assert!(page.contains("<b>20,000</b>"), "trials");
    assert!(page.contains("seed <b>7</b>"));
    assert!(page.contains(concat!("d20odds ", env!("CARGO_PKG_VERSION"))));
    let text = std::fs::read_to_string(showcase()).unwrap();
    // In two blocks, its last lines kept with the footer in print; each block opens with
    // the newline the HTML parser drops, so a blank line at the cut is kept.
    let joined = page.replace(
        "</pre>\n<div class=\"end\">\n<pre class=\"continued\">\n",
        "",
    );
    assert!(joined.contains("<pre class=\"cut\">\n"), "two blocks");
    assert!(
        joined.contains(&escaped(&text)),
        "the experiment file, whole"
    );
    for reading in d20odds::SystemId::Pf1.rules().interpretations {
        assert!(page.contains(&listed(reading)), "{reading}");
    }
    // Longsword #1 (+16 vs AC 17) hits 19 times in 20: estimate ± half-width, exact beside.
    let row = page
        .lines()
        .find(|l| l.starts_with("<tr><td>Fighter (F) → Ogre (O): longsword #1</td>"))
        .expect("a row for longsword #1");
    assert!(row.contains("<td>+16 vs AC 17, flanking</td>"), "{row}");
    assert!(row.contains("<td class=\"num\">0.9500</td>"), "{row}");
    assert!(row.contains("<td class=\"num\">0.9"), "{row}");
    assert!(row.contains(" ±0.00"), "{row}");

    let markdown = read(&folder, "summary.md");
    assert!(markdown.starts_with("# Ogre in the corridor\n"));
    assert!(markdown.contains("## Attacks") && markdown.contains("## Down and dead by round"));
    assert!(markdown.contains("| Fighter (F) → Ogre (O): longsword #1 | +16 vs AC 17, flanking |"));
}

#[test]
fn a_sweep_experiment_draws_its_sweep_chart() {
    let (_dir, folder) = run(&repo().join("experiments/crit-fishing.toml"), "4000");
    assert!(folder.join("sweep.csv").is_file());
    assert!(folder.join("sweep.png").is_file());
    let svg = check_svg(
        &folder,
        "sweep.svg",
        &[
            "T.ac",
            "P(hit)",
            "12",
            "24",
            "Scimitar barbarian (S) → Troll (T): keen scimitar #1",
            "Greataxe barbarian (A) → Troll (T): greataxe #3",
            "95% interval",
            "exact value",
        ],
    );
    assert!(
        !svg.contains("Stone golem"),
        "the golem's AC is not swept, so its attacks are left out"
    );
    let page = read(&folder, "report.html");
    assert!(page.contains("<h2>Chart: P(hit) against T.ac</h2>"));
    assert!(page.contains("leaves out the 6 attacks whose roll is the same"));
    assert_eq!(
        page.matches("<svg").count(),
        4,
        "map, rounds, damage and sweep"
    );
}

/// A swept list may repeat a value: `T.ac = [16, 16, 18]` × `G.hp = [1, …, 6]` has
/// 12 attacks × 6 hp values = 72 series, not one set per repeated point. The golem's 6
/// attacks never change: they are left out, 6 × 6 = 36 series. Of the first 64 series (5 hp values × 12,
/// then the troll's first 4 attacks) those kept are 5 × 6 + 4 = 34, drawn; the other
/// 36 − 34 = 2 kept series are not drawn.
#[test]
fn a_sweep_that_repeats_a_value_counts_its_series_once() {
    let shipped = std::fs::read_to_string(repo().join("experiments/crit-fishing.toml")).unwrap();
    let repeated = shipped.replace(
        "values = [12, 14, 16, 18, 20, 22, 24]",
        "values = [16, 16, 18]\n\n[[sweep]]\nset = \"G.hp\"\nvalues = [1, 2, 3, 4, 5, 6]",
    );
    assert_ne!(shipped, repeated);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("repeated.toml");
    std::fs::write(&file, repeated).unwrap();
    let (_out, folder) = run(&file, "1000");
    let page = read(&folder, "report.html");
    assert!(page.contains("leaves out the 6 attacks whose roll is the same"));
    assert!(page.contains("draws 34 series (those of the first 64 in table order it keeps) and leaves out the other 2;"));
}

#[test]
fn the_map_draws_the_lines_that_decided_cover_and_flanking() {
    let (_dir, folder) = run(&repo().join("experiments/pf1-cover-examples.toml"), "2000");
    // The verdicts `d20odds check` prints for this file (src/report/inputs.rs checks
    // each line's ends): adjacent melee draws its blocked lines, or one clear line.
    let labels = [
        "F → O: no cover (0 of 16 lines blocked), flanking with C",
        "C → O: no cover (0 of 16 lines blocked), flanking with F",
        "R → O: cover (2 of 16 lines blocked)",
        "A → O: soft cover (2 of 4 lines blocked, a creature in the way)",
        "S → O: soft cover (4 of 4 lines blocked, a creature in the way)",
        "O → F: no cover (0 of 4 lines blocked)",
        "O → R: no cover (0 of 4 lines blocked)",
    ];
    let mut expected = vec![
        "Pathfinder cover and flanking examples — the map and the lines that decided cover and flanking",
        "clear line",
        "blocked line",
        "flanking line",
        "1",
        "7",
    ];
    expected.extend(labels);
    let svg = check_svg(&folder, "map.svg", &expected);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let strokes = |colour: &str| {
        doc.descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(colour))
            .count()
    };
    // A clear line is one solid stroke: F's and C's single lines, A's two, the ogre's
    // reach attacks judged as ranged (4 from its corner to each target), and the legend's
    // sample.
    assert_eq!(strokes("#141414"), 2 + 2 + 4 + 4 + 1, "clear lines");
    assert!(strokes("#F05A3C") > 10, "blocked lines are drawn dashed");
    assert!(strokes("#2166AC") > 2, "flanking lines are drawn dash-dot");
    let badges = doc
        .descendants()
        .filter(|n| n.is_text() && n.text().is_some_and(|t| t.trim().parse::<u8>().is_ok()))
        .count();
    assert_eq!(
        badges,
        2 * labels.len(),
        "one badge on the map, one in the legend, per plan line"
    );
    let page = read(&folder, "report.html");
    // The page carries the map inline, its long title on two lines.
    assert!(page.contains("— the map and the lines that decided\n</text>"));
    assert!(page.contains(">\ncover and flanking\n</text>"));
    assert!(folder.join("map.png").is_file());
}

//! The binary, end to end: outputs, determinism across threads, and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::json;

pub(crate) fn d20odds(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_d20odds"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn showcase() -> String {
    repo()
        .join("experiments/ogre-corridor.toml")
        .display()
        .to_string()
}

/// Every file of a report folder, by name, with its bytes, in name order.
pub(crate) fn folder(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn header(csv: &str) -> Vec<&str> {
    csv.lines().next().unwrap().split(',').collect()
}

#[test]
fn run_writes_the_report_folder_with_the_spec_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &["run", &showcase(), "--trials", "20000", "--quiet"],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let folder = dir.path().join("reports/ogre-corridor");
    for csv in ["summary.csv", "rounds.csv", "damage.csv"] {
        assert!(
            folder.join(csv).is_file(),
            "{csv} missing (report.rs checks the whole tree)"
        );
    }
    let summary = std::fs::read_to_string(folder.join("summary.csv")).unwrap();
    let spec_summary = "attacker,target,attack,index,bonus,cover,concealment,flanking,attack_mod,ac_mod,effective_bonus,effective_ac,miss_chance,trials,p_hit,p_hit_lo,p_hit_hi,p_crit,p_crit_lo,p_crit_hi,mean_damage,mean_damage_lo,mean_damage_hi,exact_p_hit,exact_p_crit,exact_mean_damage,square_guess,save,covering,p_cover_hit,p_cover_hit_lo,p_cover_hit_hi,cover_mean_damage,cover_mean_damage_lo,cover_mean_damage_hi,exact_p_cover_hit,exact_cover_mean_damage";
    assert_eq!(
        header(&summary),
        spec_summary.split(',').collect::<Vec<_>>()
    );
    // 6 attacks in the showcase plan, then those made in other situations, line by
    // line: the ogre down (the fighter's 2, the rogue's 2, the cleric's 1), the rogue's
    // flanking partner (the fighter) down (2), both (2), the fighter down (the ogre's 1).
    let rows: Vec<&str> = summary.lines().skip(1).collect();
    // The third cell, quoted where it holds a comma.
    fn situation(row: &str) -> &str {
        let rest = row.splitn(3, ',').nth(2).unwrap();
        let attack = match rest.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().unwrap(),
            None => rest.split(',').next().unwrap(),
        };
        attack
            .split_once(" (")
            .map_or("", |(_, s)| s.trim_end_matches(')'))
    }
    let situations: Vec<&str> = rows.iter().map(|r| situation(r)).collect();
    let (down, alone) = ("target down, helpless", "flanking partners down");
    let both = "target down, helpless; flanking partners down";
    assert_eq!(
        situations,
        [
            "", "", "", "", "", "", down, down, down, down, alone, alone, both, both, down, down
        ],
        "{summary}"
    );
    let rounds = std::fs::read_to_string(folder.join("rounds.csv")).unwrap();
    for column in "target,round,p_down,p_down_lo,p_down_hi,p_dead,p_dead_lo,p_dead_hi,mean_damage,exact_p_down,exact_p_dead".split(',') {
        assert!(header(&rounds).contains(&column), "rounds.csv lacks {column}");
    }
    assert_eq!(rounds.lines().count(), 1 + 2 * 3, "2 targets × 3 rounds");
    let damage = std::fs::read_to_string(folder.join("damage.csv")).unwrap();
    assert_eq!(&header(&damage)[..3], ["target", "damage", "probability"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("Ogre in the corridor"), "{stdout}");
    assert!(
        stdout.contains("Fighter (F) → Ogre (O): longsword #2"),
        "{stdout}"
    );
}

#[test]
fn json_uses_the_csv_column_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &["run", &showcase(), "--trials", "5000", "--json"],
        dir.path(),
    );
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "title", "system", "seed", "trials", "summary", "rounds", "damage",
    ] {
        assert!(doc.get(key).is_some(), "missing {key}");
    }
    assert_eq!(doc["system"], "pf1");
    assert_eq!(doc["trials"], 5000);
    let summary_csv =
        std::fs::read_to_string(dir.path().join("reports/ogre-corridor/summary.csv")).unwrap();
    let row = doc["summary"][0].as_object().unwrap();
    let mut keys: Vec<&str> = row.keys().map(String::as_str).collect();
    let mut columns = header(&summary_csv);
    keys.sort();
    columns.sort();
    assert_eq!(keys, columns);
}

#[test]
fn thread_count_does_not_change_a_single_byte() {
    let dir = tempfile::tempdir().unwrap();
    let files = |threads: &str| {
        let out_dir = format!("out{threads}");
        let out = d20odds(
            &[
                "run",
                &showcase(),
                "--trials",
                "300000",
                "--threads",
                threads,
                "--out",
                &out_dir,
                "--quiet",
            ],
            dir.path(),
        );
        assert!(out.status.success());
        let files = folder(&dir.path().join(&out_dir).join("ogre-corridor"));
        assert!(files.len() > 3, "CSVs, charts and report");
        files
    };
    let (one, two) = (files("1"), files("2"));
    let names = |files: &[(String, Vec<u8>)]| files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&one), names(&two));
    for ((name, a), (_, b)) in one.iter().zip(&two) {
        assert!(a == b, "{name:?} differs between --threads 1 and 2");
    }
}

#[test]
fn the_seed_changes_the_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let run = |seed: &str| {
        d20odds(
            &[
                "run",
                &showcase(),
                "--trials",
                "20000",
                "--seed",
                seed,
                "--json",
            ],
            dir.path(),
        )
        .stdout
    };
    assert_ne!(run("1"), run("2"));
    assert_eq!(run("1"), run("1"));
}

#[test]
fn precision_stops_early_once_intervals_are_narrow() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &[
            "run",
            &showcase(),
            "--trials",
            "100000000",
            "--precision",
            "0.01",
            "--json",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let trials = doc["trials"].as_u64().unwrap();
    assert!(
        trials < 100_000_000 && trials.is_multiple_of(65_536),
        "{trials}"
    );
    // The rows of attacks made only in another situation (the ogre down…) are not
    // waited for: they may be rare.
    let rows = doc["summary"].as_array().unwrap();
    let own = rows
        .iter()
        .filter(|r| !r["attack"].as_str().unwrap().contains(" ("));
    assert_eq!(own.clone().count(), 6);
    for row in own {
        let half = (row["p_hit_hi"].as_f64().unwrap() - row["p_hit_lo"].as_f64().unwrap()) / 2.0;
        assert!(half <= 0.01, "{row}");
    }
}

#[test]
fn attack_command_prints_exact_and_simulated() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &[
            "attack",
            "--bonus",
            "7",
            "--ac",
            "18",
            "--crit",
            "19-20/x2",
            "--miss-chance",
            "20",
            "--damage",
            "1d8+3",
            "--trials",
            "200000",
            "--json",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &doc["summary"][0];
    assert!((row["exact_p_hit"].as_f64().unwrap() - 0.4).abs() < 1e-12);
    assert!((row["exact_p_crit"].as_f64().unwrap() - 0.04).abs() < 1e-12);
    assert!((row["exact_mean_damage"].as_f64().unwrap() - 3.3).abs() < 1e-12);
    assert!(row["p_hit_lo"].as_f64().unwrap() < 0.4 && 0.4 < row["p_hit_hi"].as_f64().unwrap());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "attack writes nothing"
    );
}

/// d20 Modern massive damage from `attack`: +100 vs Defense 10 hits 19 in 20, a 20
/// confirming (1/20 · 19/20); 1d20 beats Con 12 on 13+ (8/20), a crit's 2d20 in 334 of
/// 400. P(massive) = (0.95 − 0.0475) · 0.4 + 0.0475 · 0.835 = 0.4006625, and a failed
/// DC 15 Fort save drops the target: at +0 on 1–14 (0.7), 0.28046375; with `--fort 5` on
/// 1–9 (0.45), 0.180298125.
#[test]
fn attack_takes_the_fort_save_against_massive_damage() {
    let dir = tempfile::tempdir().unwrap();
    for (fort, p_down) in [("0", 0.28046375), ("5", 0.180298125)] {
        let out = d20odds(
            &[
                "attack",
                "--system",
                "d20modern",
                "--bonus",
                "100",
                "--ac",
                "10",
                "--damage",
                "1d20",
                "--hp",
                "100",
                "--con",
                "12",
                "--fort",
                fort,
                "--trials",
                "1000",
                "--json",
            ],
            dir.path(),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let exact = doc["rounds"][0]["exact_p_down"].as_f64().unwrap();
        assert!((exact - p_down).abs() < 1e-12, "--fort {fort}: {exact}");
    }
}

#[test]
fn bad_flags_name_the_flag_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let attack = "attack --bonus 7 --ac 18 --damage 1d8";
    let showcase = "run experiments/ogre-corridor.toml";
    let cases = [
        (
            "attack --bonus 7 --ac 18 --damage 1d8*3".into(),
            "--damage:",
        ),
        (format!("{attack} --crit 19-21"), "--crit:"),
        (format!("{attack} --system dnd5e"), "--system:"),
        ("run experiments/none.toml".into(), "experiments/none.toml:"),
        (format!("{attack} --trials 0"), "--trials:"),
        (
            format!("{attack} --crit 19-20/x3 --system starfinder"),
            "--crit: `19-20/x3` changes nothing in Starfinder",
        ),
        // Values the parser refuses are refused in the files' words, not the parser's,
        // and a negative number is a value, not a flag.
        (
            format!("{showcase} --trials abc"),
            "--trials: expected a whole number such as 100000",
        ),
        (
            format!("{showcase} --trials -1"),
            "--trials: expected a whole number such as 100000 (`_` may group its digits), not `-1`",
        ),
        (
            format!("{showcase} --seed 99999999999999999999999"),
            "--seed: expected a whole number such as 100000 (`_` may group its digits), not `99999999999999999999999`: the largest is 18446744073709551615",
        ),
        (
            format!("{showcase} --precision abc"),
            "--precision: expected a number such as 0.001, not `abc`",
        ),
        (
            "attack --bonus 7 --ac 99999999999 --damage 1d8".into(),
            "--ac: expected -10000 to 10000, not `99999999999`",
        ),
        (
            "attack --bonus 14,9, --ac 18 --damage 1d8".into(),
            "--bonus: expected -10000 to 10000 for each of its comma-separated bonuses (such as 14,9), not `14,9,`: a comma with no bonus on one side",
        ),
        (
            format!("{attack} --miss-chance=-5"),
            "--miss-chance: expected a percentage: 0 to 100, not `-5`",
        ),
        (format!("{attack} --cover sofft"), "(did you mean `soft`?)"),
        // The system's own levels, not every system's.
        (
            format!("{attack} --cover halfs --system d20modern"),
            "--cover: unknown cover `halfs`: expected one of none, quarter, half, three-quarters, nine-tenths, soft, total (did you mean `half`?)",
        ),
        (
            format!("{attack} --cover cover --system d20modern"),
            "--cover: d20 Modern has no `cover` cover level: its levels are none, quarter, half, three-quarters, nine-tenths, soft, total",
        ),
        (
            format!("{attack} --vs eac"),
            "--vs: picks a Starfinder armor class; Pathfinder 1e has one (AC): leave it out",
        ),
        (
            format!("{attack} --vs eak --system starfinder"),
            "--vs: unknown armor class `eak`: expected eac or kac (did you mean `eac`?)",
        ),
        (
            format!("{attack} --hp 30 --con 12 --fort 5"),
            "--fort: is the save against d20modern's massive damage: it needs --system d20modern and --con",
        ),
    ];
    for (line, fragment) in cases {
        let args: Vec<&str> = line.split(' ').collect();
        let out = d20odds(&args, dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(fragment), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Each case: text replaced in the showcase, then the `file:line:col: message` expected.
#[test]
fn bad_experiments_exit_2_name_the_place_and_write_nothing() {
    let text = std::fs::read_to_string(showcase()).unwrap();
    let cases = [
        (
            "damage = \"1d8+6\"",
            "damage = \"1d8+\"",
            "bad.toml:33:15: bad damage",
        ),
        (
            "ac = 21",
            "ac = 21\narmor = 3",
            "bad.toml:23:1: unknown field `armor`",
        ),
        (
            "target   = \"O\"\nattack   = \"longsword\"",
            "target   = \"X\"\nattack   = \"longsword\"",
            "bad.toml:90:12: no combatant has token `X`",
        ),
        (
            "attack   = \"rapier\"",
            "attack   = \"dagger\"",
            "bad.toml:97:12: `R` has no attack named `dagger`",
        ),
        (
            "#........C.#",
            "#.......QC.#",
            "bad.toml:11:9: map letter `Q` has no combatant",
        ),
        (
            "crit = \"19-20/x2\"\nrange_increment",
            "crit = \"19-20/x0\"\nrange_increment",
            "bad.toml:65:15: bad crit",
        ),
        (
            "rounds = 3",
            "rounds = 0",
            "bad.toml:7:10: rounds must be 1 to 1000",
        ),
        (
            "attack   = \"heavy crossbow\"\n",
            "attack   = \"heavy crossbow\"\ncover    = \"total\"\n",
            "bad.toml:102:1: Cleric (C) cannot attack: the target has total cover",
        ),
    ];
    for (from, to, expected) in cases {
        assert!(text.contains(from), "{from}");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.toml"), text.replacen(from, to, 1)).unwrap();
        let out = d20odds(&["run", "bad.toml"], dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{to}: {stderr}");
        assert!(
            stderr.contains(expected),
            "expected `{expected}`, got {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!dir.path().join("reports").exists(), "{to}: wrote a report");
    }
}

/// One `# expect: A>T key=value …` comment: attacker, target, and the expected values.
type Expectation = (String, String, Vec<(String, String)>);

/// The `# expect:` comments of a shipped experiment; a value may be quoted to hold spaces
/// (`save="reflex +9 vs DC 17 (failure half, success none)"`).
fn expectations(text: &str) -> Vec<Expectation> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# expect:"))
        .map(|rest| {
            let rest = rest.trim_start();
            let (pair, mut rest) = rest.split_once(' ').unwrap_or((rest, ""));
            let (attacker, target) = pair.split_once('>').unwrap();
            let mut pairs = Vec::new();
            while let Some((key, after)) = rest.trim_start().split_once('=') {
                let (value, next) = match after.strip_prefix('"') {
                    Some(quoted) => {
                        let end = quoted.find('"').expect("a closing quote");
                        (format!("\"{}\"", &quoted[..end]), &quoted[end + 1..])
                    }
                    None => {
                        let (value, next) = after.split_once(' ').unwrap_or((after, ""));
                        (value.to_string(), next)
                    }
                };
                pairs.push((key.to_string(), value));
                rest = next;
            }
            (attacker.to_string(), target.to_string(), pairs)
        })
        .collect()
}

#[test]
fn check_gives_the_verdicts_written_in_the_shipped_experiments() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(repo().join("experiments")).unwrap() {
        let path = entry.unwrap().path();
        let expected = expectations(&std::fs::read_to_string(&path).unwrap());
        if expected.is_empty() {
            continue;
        }
        let out = d20odds(&["check", path.to_str().unwrap(), "--json"], dir.path());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for (attacker, target, pairs) in expected {
            let line = doc["plan"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["attacker"] == attacker.as_str() && l["target"] == target.as_str())
                .unwrap_or_else(|| panic!("{}: no plan line {attacker}>{target}", path.display()));
            for (key, value) in pairs {
                let got = match key.as_str() {
                    "partner" => line["geometry"]["flanking_partner"].clone(),
                    "error" => json!(
                        line["error"]
                            .as_str()
                            .is_some_and(|e| e.contains(&value.replace('_', " ")))
                    ),
                    _ => line[key.as_str()].clone(),
                };
                let want = match key.as_str() {
                    "error" => json!(true),
                    _ => serde_json::from_str(&value).unwrap_or(json!(value)),
                };
                assert_eq!(got, want, "{} {attacker}>{target} {key}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} verdicts checked");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "check writes nothing"
    );
}

/// `check` ends with the notes a run prints about the experiment: starfinder-tactics'
/// gun port stands on none of the fight's lines (its file says so too), while the arrow
/// slit of pf1-coup-de-grace-and-fireball decides a plan line's cover and is not noted.
#[test]
fn check_prints_the_notes_a_run_prints() {
    let dir = tempfile::tempdir().unwrap();
    let check = |name: &str, json: bool| {
        let path = repo().join("experiments").join(name);
        let mut args = vec!["check", path.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        let out = d20odds(&args, dir.path());
        assert!(out.status.success(), "{name}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let note = "The map's `improved` square at (5,1) blocks none of the lines that decide an attack's cover in this experiment, so no attack gets the cover it gives.";
    let text = check("starfinder-tactics.toml", false);
    assert!(text.ends_with(&format!("note: {note}\n")), "{text}");
    let doc: serde_json::Value =
        serde_json::from_str(&check("starfinder-tactics.toml", true)).unwrap();
    assert_eq!(doc["notes"], json!([note]));
    let doc: serde_json::Value =
        serde_json::from_str(&check("pf1-coup-de-grace-and-fireball.toml", true)).unwrap();
    let notes = doc["notes"].as_array().expect("notes");
    assert!(
        notes
            .iter()
            .all(|n| !n.as_str().unwrap().contains("`improved`")),
        "{notes:?}"
    );
}

/// `check` writes a square as (x,y) and a point, the top-left corner of a square, as
/// p(x,y): ogre-corridor's cleric shoots from its square (9,1)'s corner p(9,1) to the
/// ogre's corners, and the line to p(6,3) crosses the rogue.
#[test]
fn check_tells_points_from_squares() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join("experiments/ogre-corridor.toml");
    let out = d20odds(&["check", file.to_str().unwrap()], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "(x,y) is a square, p(x,y) a point",
        "best from corner p(9,1) of square (9,1) to target square (5,2)\n",
        "      p(9,1)→p(6,3) creature\n",
        "centres p(4.5,2.5)→p(7.5,2.5) cross opposite borders",
    ] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
}

/// `check` shows each variant's plan lines that differ from the experiment's:
/// pf1-tactics' "Rogue flanks" (R to [3, 5]) makes both F's and R's lines flanking,
/// Power Attack changes F's line only, shooting from afar R's only.
#[test]
fn check_shows_the_plan_lines_each_variant_changes() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join("experiments/pf1-tactics.toml");
    let out = d20odds(&["check", file.to_str().unwrap(), "--json"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changed: Vec<(String, Vec<(String, bool)>)> = (doc["variants"].as_array().unwrap())
        .iter()
        .map(|v| {
            let lines = (v["changed_plan"].as_array().unwrap().iter())
                .map(|l| {
                    (
                        l["attacker"].as_str().unwrap().to_string(),
                        l["flanking"] == true,
                    )
                })
                .collect();
            (v["name"].as_str().unwrap().to_string(), lines)
        })
        .collect();
    let line = |attacker: &str, flanking| (attacker.to_string(), flanking);
    assert_eq!(
        changed,
        [
            (
                "Rogue flanks".into(),
                vec![line("F", true), line("R", true)]
            ),
            ("Fighter Power Attacks".into(), vec![line("F", false)]),
            ("Rogue shoots from afar".into(), vec![line("R", false)]),
        ]
    );
    let out = d20odds(&["check", file.to_str().unwrap()], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("variant `Rogue flanks`: the plan lines it changes"),
        "{text}"
    );
    assert!(!text.contains("changes nothing"), "{text}");
    // A variant setting the fighter's bonus to its own value leaves the experiment as it
    // was: `check` and `run` both say so.
    let same = "\n[[variant]]\nname = \"Same bonus\"\nset = { \"F.longsword.bonus\" = [8, 3] }\n";
    let text = std::fs::read_to_string(&file).unwrap() + same;
    std::fs::write(dir.path().join("same.toml"), text).unwrap();
    let note = "variant `Same bonus` changes nothing: its changes leave the experiment as written";
    let out = d20odds(&["check", "same.toml"], dir.path());
    assert!(String::from_utf8_lossy(&out.stdout).contains(note));
    let out = d20odds(
        &["run", "same.toml", "--trials", "1000", "--quiet"],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains(note), "{stderr}");
}

#[test]
fn heatmap_tries_every_open_square_with_the_geometry_judged_anew() {
    let dir = tempfile::tempdir().unwrap();
    let file = repo().join("experiments/pf1-cover-examples.toml");
    let out = d20odds(
        &[
            "run",
            file.to_str().unwrap(),
            "--quiet",
            "--trials",
            "2000",
            "--out",
            "r",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let folder = dir.path().join("r/pf1-cover-examples");
    let svg = std::fs::read_to_string(folder.join("heatmap.svg")).unwrap();
    assert!(
        svg.contains("P(hit) on O"),
        "the heatmap chart names its measure"
    );
    assert!(svg.contains("Archer (A)"), "and the combatant it moves");
    let html = std::fs::read_to_string(folder.join("report.html")).unwrap();
    assert!(
        html.contains(
            "<h2>Chart: P(hit) on Ogre (O), with Archer (A) on each square (heatmap.csv)</h2>"
        ),
        "the report's heading says what the heatmap shows"
    );
    assert!(folder.join("heatmap.png").exists());
    let csv = std::fs::read_to_string(folder.join("heatmap.csv")).unwrap();
    let columns = header(&csv);
    assert_eq!(&columns[..4], ["x", "y", "method", "O_p_hit"]);
    assert!(columns.contains(&"O_cover") && columns.contains(&"F_refused"));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // 96 squares, 11 walls, 10 other combatant squares (the Large ogre fills 4): 84 open.
    assert_eq!(rows.len(), 84);
    let at = |x: &str, y: &str| {
        rows.iter()
            .find(|r| r[0] == x && r[1] == y)
            .unwrap()
            .clone()
    };
    let col = |name: &str| columns.iter().position(|c| *c == name).unwrap();
    // The archer shoots into the melee where the fighter fights the ogre: +9 − 4 = +5
    // against AC 17 hits on 12+ (9/20) with a clear line, on 16+ (5/20) behind the cleric
    // (soft cover), on 14+ (7/20) with partial cover.
    for (x, y, p_hit, cover) in [
        ("0", "3", "0.45", "none"),
        ("11", "3", "0.45", "none"),
        ("0", "0", "0.35", "partial"),
        ("11", "0", "0.25", "soft"),
    ] {
        let row = at(x, y);
        let got: f64 = row[col("O_p_hit")].parse().unwrap();
        let want: f64 = p_hit.parse().unwrap();
        assert!((got - want).abs() < 1e-12, "({x},{y}) p_hit {got}");
        assert_eq!(row[col("O_cover")], cover, "({x},{y})");
        assert_eq!(row[col("method")], "exact");
    }
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_files_hold_the_csv_columns_and_rows() {
    use polars::prelude::{CsvReadOptions, ParquetReader, SerReader};
    let dir = tempfile::tempdir().unwrap();
    let experiment = repo()
        .join("experiments/crit-fishing.toml")
        .display()
        .to_string();
    let out = d20odds(
        &[
            "run",
            &experiment,
            "--trials",
            "4000",
            "--quiet",
            "--parquet",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let folder = dir.path().join("reports/crit-fishing");
    let tables = [
        "summary",
        "rounds",
        "damage",
        "sweep",
        "sweep_rounds",
        "sweep_variants",
    ];
    for table in tables {
        let csv = CsvReadOptions::default()
            .with_has_header(true)
            .try_into_reader_with_file_path(Some(folder.join(format!("{table}.csv"))))
            .unwrap()
            .finish()
            .unwrap();
        let file = std::fs::File::open(folder.join(format!("{table}.parquet")))
            .unwrap_or_else(|e| panic!("{table}.parquet: {e}"));
        let parquet = ParquetReader::new(file).finish().unwrap();
        assert_eq!(
            parquet.get_column_names(),
            csv.get_column_names(),
            "{table}: columns"
        );
        assert_eq!(parquet.height(), csv.height(), "{table}: rows");
        assert!(parquet.height() > 0, "{table}: rows");
    }
    let parquets = std::fs::read_dir(&folder)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "parquet")
        })
        .count();
    assert_eq!(parquets, tables.len(), "one Parquet file per CSV");

    let plain = tempfile::tempdir().unwrap();
    let out = d20odds(
        &["run", &experiment, "--trials", "4000", "--quiet"],
        plain.path(),
    );
    assert!(out.status.success());
    assert!(
        !plain
            .path()
            .join("reports/crit-fishing/summary.parquet")
            .exists(),
        "Parquet only when asked"
    );
}

/// `example` prints the showcase as it is in the repository (what `run` takes), another
/// example by name, and the list; a name not known is an error naming the nearest.
#[test]
fn example_prints_a_shipped_experiment_to_start_from() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(&["example"], dir.path());
    assert!(out.status.success());
    let showcase = std::fs::read_to_string(showcase()).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), showcase);
    let out = d20odds(&["example", "pf1-tactics"], dir.path());
    let tactics = std::fs::read_to_string(repo().join("experiments/pf1-tactics.toml")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), tactics);
    let list = d20odds(&["example", "--list"], dir.path());
    let list = String::from_utf8_lossy(&list.stdout);
    let experiments = std::fs::read_dir(repo().join("experiments"))
        .unwrap()
        .count();
    assert_eq!(list.lines().count(), experiments, "{list}");
    assert!(list.contains("ogre-corridor") && list.contains("Ogre in the corridor"));
    let out = d20odds(&["example", "ogre"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("did you mean `ogre-corridor`?"), "{stderr}");
    assert!(out.stdout.is_empty());
}

/// Issue #15, point 3: every subcommand's help ends with examples and says nothing false;
/// completions and manual pages come from the same definitions; piped output is plain.
#[test]
fn help_completions_and_man_pages_come_from_the_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let commands = [
        "run",
        "attack",
        "check",
        "rules",
        "example",
        "completions",
        "man",
    ];
    for command in commands {
        let out = d20odds(&[command, "--help"], dir.path());
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{command}: {help}");
        assert!(
            help.contains("\nExamples:\n  d20odds "),
            "{command}: {help}"
        );
        assert!(!help.contains('\x1b'), "{command}: colour in a pipe");
    }
    let attack = d20odds(&["attack", "--help"], dir.path());
    let attack = String::from_utf8_lossy(&attack.stdout);
    assert!(!attack.contains("the file"));
    // `--cover`'s help names each system's levels; clap's list of every one is hidden.
    assert!(
        !attack.contains("[possible values: none, partial"),
        "{attack}"
    );
    for shell in ["bash", "zsh", "fish"] {
        let out = d20odds(&["completions", shell], dir.path());
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{shell}");
        for word in ["d20odds", "--precision", "--immune-to-crits", "completions"] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    // Bash offers the values `--vs`, `--cover`, `--system` and `rules` take, as word lists
    // (zsh and fish scripts carry the help texts too, which name them anyway).
    let bash = d20odds(&["completions", "bash"], dir.path());
    let bash = String::from_utf8_lossy(&bash.stdout);
    for words in [
        "\"eac kac\"",
        "\"none partial soft cover improved quarter half three-quarters nine-tenths\"",
        "\"pf1 pf1-variant d20modern starfinder\"",
        "--help pf1 pf1-variant d20modern starfinder\"",
    ] {
        assert!(bash.contains(words), "bash offers no {words}");
    }
    let page = d20odds(&["man"], dir.path());
    let page = String::from_utf8_lossy(&page.stdout);
    assert!(page.contains(".TH d20odds 1  \"d20odds 0.1.0\""), "{page}");
    for command in commands {
        assert!(
            page.contains(&format!("d20odds\\-{command}(1)")),
            "{command}: {page}"
        );
        let out = d20odds(&["man", command], dir.path());
        let sub = String::from_utf8_lossy(&out.stdout);
        let title = format!(".TH d20odds-{command} 1  \"d20odds 0.1.0\"");
        assert!(sub.contains(&title), "{sub}");
        assert!(sub.contains("Examples:"), "{command}: {sub}");
    }
    let out = d20odds(&["man", "atack"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("attack"));
}

/// `help --help` prints the help of `help` (clap alone refuses it, exit 2), and
/// `help run --help` the help of `run`, as `help run` does.
#[test]
fn help_takes_help_flags_as_other_commands_do() {
    let dir = tempfile::tempdir().unwrap();
    for words in [["help", "--help"], ["help", "-h"]] {
        let out = d20odds(&words, dir.path());
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{words:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(help.contains("Usage: d20odds help [COMMAND]..."), "{help}");
    }
    let run_help = d20odds(&["help", "run"], dir.path()).stdout;
    assert!(String::from_utf8_lossy(&run_help).contains("Usage: d20odds run"));
    assert_eq!(
        d20odds(&["help", "run", "--help"], dir.path()).stdout,
        run_help
    );
    assert_eq!(d20odds(&["help", "-h", "run"], dir.path()).stdout, run_help);
}

/// Two experiments that would write one report folder are refused, exit 2, nothing
/// written: the same file given twice says so; two files of one name in two folders
/// ask for one to be renamed.
#[test]
fn two_experiments_for_one_report_folder_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let showcase = showcase();
    std::fs::create_dir(dir.path().join("copy")).unwrap();
    let copy = dir.path().join("copy/ogre-corridor.toml");
    std::fs::copy(&showcase, &copy).unwrap();
    let copy = copy.display().to_string();
    for (files, message) in [
        (
            [&showcase, &showcase],
            format!("{showcase} is given twice; give each experiment once"),
        ),
        (
            [&showcase, &copy],
            format!(
                "both {showcase} and {copy} would write this report folder; rename one of them"
            ),
        ),
    ] {
        let out = d20odds(
            &["run", files[0], files[1], "--trials", "1000", "--quiet"],
            dir.path(),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&message), "{stderr}");
        assert!(!dir.path().join("reports").exists(), "wrote a report");
    }
}

/// Issue #15, point 3e: `run` ends with the path of each report folder, on stderr, with
/// --quiet too, and stdout stays the summary.
#[test]
fn run_ends_with_the_path_of_each_report_folder() {
    let dir = tempfile::tempdir().unwrap();
    let showcase = showcase();
    let out = d20odds(
        &[
            "run", &showcase, "--trials", "2000", "--quiet", "--out", "odds",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.ends_with("report: odds/ogre-corridor/\n"),
        "{stderr}"
    );
    assert!(dir.path().join("odds/ogre-corridor/summary.csv").is_file());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("report:"));
}

/// A `d20odds` error on a pipe has no colour codes, whatever NO_COLOR says.
#[test]
fn errors_on_a_pipe_are_plain() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_d20odds"))
        .args(["run", "missing.toml"])
        .env_remove("NO_COLOR")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.starts_with(b"error: missing.toml"), "{out:?}");
}

/// The roll names the number it must reach as each system's text does: d20 Modern's
/// Defense, Starfinder's EAC and KAC (the one an attack's `vs` picks), Pathfinder's AC;
/// in `check`'s result lines and in `attack`'s roll column alike.
#[test]
fn each_system_names_its_armor_class_as_its_text_does() {
    let dir = tempfile::tempdir().unwrap();
    let check = |stem: &str| {
        let path = repo().join(format!("experiments/{stem}.toml"));
        let out = d20odds(&["check", path.to_str().unwrap()], dir.path());
        assert!(out.status.success(), "{stem}");
        String::from_utf8(out.stdout).unwrap()
    };
    // The agent's +5 pistol against the boss, Defense 16 + 4 for a creature's soft cover.
    assert!(check("d20modern-firefight").contains("attack +5 (mods +0) vs Defense 20"));
    let starfinder = check("starfinder-boarding");
    assert!(starfinder.contains(" vs EAC ") && starfinder.contains(" vs KAC "));
    assert!(check("ogre-corridor").contains("attack +16 (mods +2) vs AC 17"));
    for (system, name) in [
        ("pf1", "AC"),
        ("pf1-variant", "AC"),
        ("d20modern", "Defense"),
        ("starfinder", "KAC"),
    ] {
        let args = ["attack", "--system", system, "--bonus", "5", "--ac", "15"];
        let args = [&args[..], &["--damage", "1d6", "--trials", "1000"]].concat();
        let out = d20odds(&args, dir.path());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(&format!("+5 vs {name} 15")),
            "{system}: {text}"
        );
    }
    let args = [
        "attack",
        "--system",
        "starfinder",
        "--vs",
        "eac",
        "--bonus",
        "5",
    ];
    let args = [
        &args[..],
        &["--ac", "15", "--damage", "1d6", "--trials", "1000"],
    ]
    .concat();
    let text = String::from_utf8(d20odds(&args, dir.path()).stdout).unwrap();
    assert!(text.contains("+5 vs EAC 15"), "{text}");
}

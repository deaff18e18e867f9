//! Fights (`[encounter]`) end to end: the tables and the summary that opens with who
//! wins, the JSON keys, and the same bytes on one and two threads.

use crate::cli::{d20odds, folder, repo};

fn party_vs_ogre() -> String {
    repo()
        .join("experiments/pf1-party-vs-ogre.toml")
        .display()
        .to_string()
}

#[test]
fn a_fight_writes_its_tables_and_opens_with_who_wins() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(&["run", &party_vs_ogre(), "--trials", "20000"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let verdict = text.lines().nth(2).unwrap_or_default();
    assert!(
        verdict.starts_with("Winner within 8 rounds: party in "),
        "{text}"
    );
    // Its fight passes the exact engine's bound: the verdict's figures are simulated.
    assert!(verdict.ends_with(" These are simulated values."), "{text}");
    let who_wins = text.lines().nth(4).unwrap_or_default();
    assert!(who_wins.starts_with("Who wins (within 8 rounds)"), "{text}");
    assert!(text.contains("How long it lasts"), "{text}");
    let folder = dir.path().join("reports/pf1-party-vs-ogre");
    let read = |f: &str| std::fs::read_to_string(folder.join(f)).unwrap();
    let encounter = read("encounter.csv");
    assert!(encounter.starts_with("round,side,p_won,p_won_lo,p_won_hi,exact_p_won\n"));
    // 8 rounds × (party, monsters, nobody, undecided).
    assert_eq!(encounter.lines().count(), 1 + 8 * 4);
    let combatants = read("combatants.csv");
    let header = combatants.lines().next().unwrap();
    for column in [
        "combatant",
        "side",
        "round",
        "p_up",
        "p_disabled",
        "p_dying",
        "p_stable",
        "p_dead",
        "mean_damage_taken",
        "mean_damage_dealt",
        "exact_p_dead",
    ] {
        assert!(
            header.split(',').any(|c| c == column),
            "{column} in {header}"
        );
    }
    assert_eq!(combatants.lines().count(), 1 + 7 * 8);
    assert!(read("sides.csv").starts_with("side,p_won,"));
    assert!(read("fight_length.csv").starts_with("round,p_ended,"));
    // Each combatant's total damage taken: per combatant, its probabilities sum to 1 (of
    // 20,000 trials each, so to within the rounding of the file's numbers).
    let damage = read("damage.csv");
    let mut totals = std::collections::BTreeMap::<&str, f64>::new();
    for row in damage
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
    {
        *totals.entry(row[0]).or_default() += row[2].parse::<f64>().unwrap();
    }
    assert_eq!(totals.len(), 7, "{damage}");
    for (combatant, total) in totals {
        assert!((total - 1.0).abs() < 1e-6, "{combatant}: {total}");
    }
    assert!(read("damage.svg").contains("Ogre (O)"));
    let report = read("report.html");
    assert!(report.contains("Chart: total damage taken"));
    // Every combatant's tables, not only the targets' as in a plan.
    assert!(report.contains("Total damage taken, per combatant (7)"));
    let wins = report
        .find("Who wins")
        .expect("the report names the winner");
    let attacks = (report.find("Attacks made in the fight")).expect("the attacks made");
    assert!(wins < attacks, "who wins comes first");
    // The summary counts the attacks made: the ogre's greatclub at the rogue before the
    // rogue's first turn is a row of its own (AC 14 instead of 18), and no fighter's
    // attack is made more than once per round of the 20,000 fights.
    let summary = read("summary.csv");
    let rows: Vec<Vec<&str>> = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let flat = (rows.iter())
        .find(|r| {
            r[0] == "Ogre (O)" && r[1] == "Rogue (R)" && r[2] == "greatclub (flat-footed target)"
        })
        .expect("the flat-footed rogue's row");
    assert_eq!(flat[11], "14", "{flat:?}");
    // The heatmap moves the wizard: each square is the whole fight, and the chart shows
    // the wizard's chance to be down.
    let heatmap = read("heatmap.csv");
    assert!(
        heatmap
            .starts_with("x,y,method,party_p_won,monsters_p_won,F_p_hit,F_p_down,F_mean_damage,"),
        "{}",
        heatmap.lines().next().unwrap_or_default()
    );
    assert!(read("heatmap.svg").contains("P(Wizard (W) down) by round 8"));
    for row in rows.iter().filter(|r| r[0] == "Fighter (F)") {
        let made: u64 = row[13].parse().unwrap();
        assert!(made > 0 && made <= 20_000 * 8, "{row:?}");
    }
    assert!(read("summary.md").contains("Who wins"));
}

#[test]
fn a_fight_in_json_carries_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &[
            "run",
            &party_vs_ogre(),
            "--trials",
            "5000",
            "--json",
            "--out",
            "o",
        ],
        dir.path(),
    );
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["encounter"].as_array().unwrap().len(), 8 * 4);
    assert_eq!(doc["combatants"].as_array().unwrap().len(), 7 * 8);
    assert_eq!(doc["sides"][0]["side"], "party");
    assert!(doc["sides"][0]["p_lost_member_down"].is_number());
    assert_eq!(doc["fight_length"].as_array().unwrap().len(), 8);
}

#[test]
fn a_fight_is_the_same_on_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str| {
        let out_dir = format!("out{threads}");
        let out = d20odds(
            &[
                "run",
                &party_vs_ogre(),
                "--trials",
                "150000",
                "--threads",
                threads,
                "--out",
                &out_dir,
                "--quiet",
            ],
            dir.path(),
        );
        assert!(out.status.success());
        folder(&dir.path().join(out_dir).join("pf1-party-vs-ogre"))
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(
        one.iter().map(|f| &f.0).collect::<Vec<_>>(),
        two.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert!(one.iter().any(|f| f.0 == "combatants.csv"));
    for ((name, a), (_, b)) in one.iter().zip(&two) {
        assert!(a == b, "{name} differs between --threads 1 and 2");
    }
}

/// A sweep point of a fight is the fight: A (1,000 hp, never down) clubs B, a hit on 10+
/// (11/20) for 5, in 3 listed rounds. B with 1,000 hp never drops: A attacks 3 times a
/// fight. B with 5 hp is disabled by the first hit and the fight ends, so A attacks
/// X = 1, 2, 3 times with 11/20, 9/20 · 11/20 and (9/20)²: E X = 1 + 9/20 + 81/400 =
/// 1.6525, Var X = 3.3625 − 1.6525² = 0.63174375. (As plan lines, A would attack 3 times
/// in both.)
#[test]
fn a_sweep_point_of_a_fight_counts_the_attacks_the_fight_made() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"
system = "pf1"
trials = 20000
seed = 5
[encounter]
initiative = "listed"
rounds = 3
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 1000
immune_to_crits = true
[[combatant.attack]]
name = "club"
bonus = 0
damage = "5"
[[combatant]]
token = "B"
side = "b"
ac = 10
hp = 5
con = 10
immune_to_crits = true
[[combatant.attack]]
name = "club"
bonus = 0
damage = "5"
[[sweep]]
set = "B.hp"
values = [5, 1000]
"#;
    std::fs::write(dir.path().join("duel.toml"), text).unwrap();
    let out = d20odds(&["run", "duel.toml", "--quiet"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sweep = std::fs::read_to_string(dir.path().join("reports/duel/sweep.csv")).unwrap();
    let header: Vec<&str> = sweep.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let made = |hp: &str| -> f64 {
        let row = (sweep.lines().skip(1))
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|r| r[col("B.hp")] == hp && r[col("attacker")] == "A (A)")
            .unwrap_or_else(|| panic!("A's row at B.hp = {hp}\n{sweep}"));
        row[col("trials")].parse().unwrap()
    };
    assert_eq!(made("1000"), 3.0 * 20_000.0);
    let mean = made("5") / 20_000.0;
    let z = (mean - 1.6525) / (0.631_743_75f64 / 20_000.0).sqrt();
    assert!(z.abs() <= 5.0, "mean {mean}, z = {z}");
    // Each point's sides and combatants by round: A's side has won by round 3 unless A
    // missed three times, 1 − (9/20)³ = 7271/8000, at B.hp = 5; never at B.hp = 1,000
    // (nobody drops in 3 rounds).
    let read = |f: &str| std::fs::read_to_string(dir.path().join("reports/duel").join(f)).unwrap();
    let sides = read("sweep_sides.csv");
    assert!(sides.starts_with("B.hp,side,p_won,"), "{sides}");
    let won = |hp: &str| -> f64 {
        let line = (sides.lines())
            .find(|l| l.starts_with(&format!("{hp},a,")))
            .unwrap();
        line.split(',').nth(2).unwrap().parse().unwrap()
    };
    assert_eq!(won("1000"), 0.0);
    let p = 7271.0 / 8000.0;
    let z = (won("5") - p) / (p * (1.0 - p) / 20_000.0).sqrt();
    assert!(z.abs() <= 5.0, "P(won) {}, z = {z}", won("5"));
    // 2 points × 2 combatants × 3 rounds.
    let rounds = read("sweep_rounds.csv");
    assert!(rounds.starts_with("B.hp,target,round,p_down,"), "{rounds}");
    assert_eq!(rounds.lines().count(), 1 + 2 * 2 * 3);
    // The terminal shows the sweep and names its tables.
    let out = d20odds(&["run", "duel.toml", "--trials", "2000"], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Sweep (every point in sweep.csv, sweep_rounds.csv, sweep_sides.csv, sweep_variants.csv):"),
        "{text}"
    );
}

/// A's club is four squares from B: the run's notes (terminal and report) say that A
/// never attacks; B's crossbow reaches A, so B is not named.
#[test]
fn a_combatant_that_reaches_no_enemy_is_named_in_the_notes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("idle.toml");
    std::fs::write(
        &file,
        r#"
title = "Out of reach"
system = "pf1"
map = """
A...B
"""
[encounter]
rounds = 3
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 5
con = 10
[[combatant.attack]]
name = "club"
bonus = 0
damage = "5"
[[combatant]]
token = "B"
side = "b"
ac = 10
hp = 5
con = 10
[[combatant.attack]]
name = "crossbow"
kind = "ranged"
bonus = 0
damage = "5"
"#,
    )
    .unwrap();
    let out = d20odds(
        &["run", file.to_str().unwrap(), "--trials", "2000"],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let note = "A (A) can make no attack at any enemy from where it stands";
    assert!(text.contains(note), "{text}");
    assert!(!text.contains("B (B) can make no attack"), "{text}");
    let page = std::fs::read_to_string(dir.path().join("reports/idle/report.html")).unwrap();
    assert!(page.contains(note));
}

/// A d20 Modern fight without plan lines: A's tactic (`weakest`) shoots the boss B
/// through the bodyguard G, which gives B soft cover and may be struck instead. The
/// report's note names G and why (the fight's attack rows, not the plan's slots: with no
/// plan line there is no slot, and taking the reason by row number panicked).
#[test]
fn a_fight_notes_why_a_shot_may_strike_another_creature() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("guard.toml");
    std::fs::write(
        &file,
        r#"
title = "Bodyguard"
system = "d20modern"
map = "A.G.B"
[encounter]
rounds = 2
[[combatant]]
token = "A"
side = "agents"
ac = 15
hp = 10
tactic = "weakest"
[[combatant.attack]]
name = "pistol"
kind = "ranged"
bonus = 5
damage = "2d6"
[[combatant]]
token = "G"
side = "gang"
ac = 17
dex = 3
hp = 90
[[combatant]]
token = "B"
side = "gang"
ac = 16
hp = 5
"#,
    )
    .unwrap();
    let out = d20odds(
        &["run", file.to_str().unwrap(), "--trials", "2000"],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.path().join("reports/guard/report.html")).unwrap();
    let note = "the shot strikes G (G) instead (it gives the soft cover)";
    assert!(page.contains(note), "{page}");
    // Its exact fight is computed: the damage distribution says why it has no exact column.
    let note = "total damage taken is simulated only: the exact fight follows hit points";
    assert!(page.contains(note), "{page}");
}

//! Fuzzing on the stable toolchain: proptest generates inputs for the experiment loader
//! (shipped experiments, mutated) and for the dice and crit parsers, and every input must
//! be answered with a value or an error — never a panic, never a broken invariant. The
//! `agreement` target runs the binary on whole mutated files: `check` and
//! `run --trials 2000` must give the same exit code (0 or 2).
//!
//! `cargo test --release` replays the committed corpus (`tests/fuzz_corpus/<target>/`) and
//! runs a short deterministic round. The long runs, one per target:
//!
//! ```sh
//! D20ODDS_FUZZ_SECS=600 cargo test --release fuzz_long -- --ignored --nocapture --test-threads 1
//! ```
//!
//! `D20ODDS_FUZZ_CORPUS=DIR` also saves the first input of every new kind of outcome (an
//! error message with its names and numbers blanked) as `DIR/<target>/<n>`, and any input
//! that panics as `DIR/<target>/panic-<n>`.

use std::collections::HashSet;
use std::panic::catch_unwind;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use d20odds::{
    CritSpec, Dice, EngineConfig, Planned, Results, SamplerKind, Scenario, check_tally_size,
    compute_exact, max_damage_taken, simulate, summary_text,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use rand::SeedableRng;

use crate::cli::repo;

/// Loads, plans, explains and briefly simulates one experiment text; returns the kind of
/// outcome (`ok` or the blanked error message).
fn loader(text: &str) -> String {
    let scenario = match Scenario::parse("fuzz.toml", text) {
        Ok(s) => s,
        Err(e) => return kind_of(&e.message),
    };
    let points: usize = scenario.sweeps.iter().map(|s| s.values.len()).product();
    if points <= 16
        && let Some(Err(e)) = scenario.sweep_points().find(Result::is_err)
    {
        return kind_of(&e.message);
    }
    let planned = Planned::from_scenario(&scenario);
    let _ = d20odds::check_report(
        &scenario,
        &planned.plan,
        &planned.lines,
        &[],
        planned.plan.notes(),
    );
    let plan = match planned.all_made() {
        Ok(p) => p.plan,
        Err(e) => return kind_of(&e.message),
    };
    if let Err((_, why)) = check_tally_size(&plan) {
        return kind_of(&why);
    }
    for sampler in [SamplerKind::Table, SamplerKind::Dice] {
        let config = EngineConfig {
            sampler,
            ..EngineConfig::new(scenario.seed, 64)
        };
        let tally = simulate(&plan, &config, &|_| ());
        assert_eq!(tally.trials(), 64);
        let exact_work: i64 = (plan.target_ids())
            .map(|t| max_damage_taken(&plan, t).saturating_mul(plan.slots().len() as i64))
            .sum();
        let exact = if exact_work < 200_000 {
            compute_exact(&plan)
        } else {
            d20odds::Exact {
                slots: vec![None; plan.slots().len()],
                targets: vec![Err("skipped by the fuzzer".into()); plan.targets().len()],
            }
        };
        let results = Results::new(&plan, config.seed, &tally, &exact);
        let _ = summary_text(&results);
        let _ = results.json();
    }
    "ok".into()
}

/// Longest a binary run of the `agreement` target may take; a mutant slower than this
/// (a legal but expensive plan) counts as its own kind of outcome, not as a failure.
const AGREEMENT_TIMEOUT: Duration = Duration::from_secs(60);

/// Writes one experiment text to a file and runs `d20odds check` and `d20odds run
/// --trials 2000` on it: both accept it (exit 0) or both refuse it (exit 2), never
/// anything else. Returns the kind of outcome.
fn agreement(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fuzz.toml"), text).unwrap();
    let exit = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_d20odds"))
            .args(args)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > AGREEMENT_TIMEOUT {
                let _ = child.kill();
                let _ = child.wait();
                return (None, "slow".to_string());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr)
    };
    let (check, check_err) = exit(&["check", "fuzz.toml"]);
    let (run, run_err) = exit(&["run", "fuzz.toml", "--trials", "2000", "--quiet"]);
    if check.is_none() || run.is_none() {
        return "slow".into();
    }
    assert!(
        check == run && matches!(check, Some(0 | 2)),
        "check exits {check:?}, run exits {run:?}\ncheck: {check_err}\nrun: {run_err}"
    );
    let message = check_err.lines().next().unwrap_or("");
    let message = message.rsplit_once(": ").map_or(message, |(_, m)| m);
    format!("{check:?} {}", kind_of(message))
}

/// Parses one text as a dice expression and as a crit spec; checks what parses round-trips
/// and rolls within its bounds, and that error offsets point inside the text.
fn dice(text: &str) -> String {
    let chars = text.chars().count();
    let dice_kind = match text.parse::<Dice>() {
        Ok(d) => {
            assert_eq!(d.to_string().parse::<Dice>().as_ref(), Ok(&d), "{d}");
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(chars as u64);
            for _ in 0..8 {
                let roll = d.sample(&mut rng);
                assert!((d.min()..=d.max()).contains(&roll), "{d}: rolled {roll}");
            }
            if d.distribution_cost() < 1_000_000 {
                let total: f64 = d.distribution().probs.iter().sum();
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "{d}: probabilities sum to {total}"
                );
            }
            "dice ok".to_string()
        }
        Err(e) => {
            assert!(e.offset <= chars, "offset {} past {chars}", e.offset);
            kind_of(&e.message)
        }
    };
    let crit_kind = match text.parse::<CritSpec>() {
        Ok(c) => {
            assert_eq!(c.to_string().parse::<CritSpec>(), Ok(c), "{c}");
            "crit ok".to_string()
        }
        Err(e) => {
            assert!(e.offset <= chars, "offset {} past {chars}", e.offset);
            kind_of(&e.message)
        }
    };
    format!("{dice_kind} / {crit_kind}")
}

/// An error message with the parts that vary by input (quoted names, numbers) blanked.
fn kind_of(message: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in message.chars() {
        match c {
            '`' => {
                quoted = !quoted;
                out.push('`');
            }
            _ if quoted => {}
            '0'..='9' => {
                if !out.ends_with('#') {
                    out.push('#');
                }
            }
            c => out.push(c),
        }
    }
    out.chars().take(80).collect()
}

fn corpus(target: &str) -> Vec<(PathBuf, String)> {
    let dir = repo().join("tests/fuzz_corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect()
}

#[test]
fn fuzz_corpus_replays_without_panics() {
    for (file, text) in corpus("agreement") {
        let kind = catch_unwind(|| agreement(&text));
        assert!(kind.is_ok(), "{}: check and run disagree", file.display());
    }
    let loader_inputs = corpus("loader");
    let dice_inputs = corpus("dice");
    assert!(loader_inputs.len() >= 20 && dice_inputs.len() >= 20);
    for (file, text) in loader_inputs {
        let kind = catch_unwind(|| loader(&text));
        assert!(kind.is_ok(), "{} panics", file.display());
    }
    for (file, text) in dice_inputs {
        let kind = catch_unwind(|| dice(&text));
        assert!(kind.is_ok(), "{} panics", file.display());
    }
}

/// Shipped experiments and corpus files: what the loader's mutations start from.
fn seeds() -> Vec<String> {
    let mut seeds: Vec<String> = std::fs::read_dir(repo().join("experiments"))
        .unwrap()
        .map(|f| std::fs::read_to_string(f.unwrap().path()).unwrap())
        .collect();
    seeds.sort();
    seeds.extend(corpus("loader").into_iter().map(|(_, text)| text));
    seeds
}

/// One edit of an experiment text; positions are taken modulo the text's length.
#[derive(Debug, Clone)]
enum Edit {
    /// Flips one of the low 7 bits of an ASCII character (the text stays UTF-8).
    FlipBit(usize, u8),
    /// Swaps the keys of two `key = value` lines.
    SwapKeys(usize, usize),
    Delete(usize, usize),
    Insert(usize, String),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Number(usize, String),
    Quoted(usize, String),
}

/// Words that make edits land on meaningful mistakes rather than only on syntax errors.
const WORDS: &[&str] = &[
    "system",
    "trials",
    "seed",
    "rounds",
    "map",
    "legend",
    "combatant",
    "token",
    "ac",
    "hp",
    "con",
    "dr",
    "stamina",
    "resolve",
    "precision",
    "extra_damage",
    "bypass_dr",
    "immune_to_precision",
    "grappling_with",
    "dex",
    "size",
    "attack",
    "kind",
    "bonus",
    "damage",
    "crit",
    "reach",
    "plan",
    "attacker",
    "target",
    "action",
    "cover",
    "concealment",
    "sweep",
    "set",
    "values",
    "heatmap",
    "terrain",
    "senses",
    "conditions",
    "pf1",
    "pf1-variant",
    "d20modern",
    "starfinder",
    "coup-de-grace",
    "full",
    "single",
    "melee",
    "ranged",
    "area",
    "fine",
    "huge",
    "colossal",
    "helpless",
    "prone",
    "blinded",
    "1000d1000",
    "0d6",
    "d",
    "2d",
    "19-20/x10",
    "x1",
    "/x",
    "1d8+1d6-3",
    "O.ac",
    "F.longsword.bonus",
    "F..x",
    "\"\"\"",
    "[[plan]]",
    "[[combatant]]",
    "[[combatant.attack]]",
    "[[sweep]]",
    "[heatmap]",
    "[legend]",
    "\n",
    "=",
    "\"",
    "'",
    "{",
    "}",
    "[",
    "]",
    ",",
    "é",
    "×",
    "\t",
    "#",
    "~",
    ":",
    ".",
    "O",
    "F",
    "Q",
    "OO\nOO",
    "true",
    "-",
    "\\u0000",
];

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "5",
    "20",
    "501",
    "1000",
    "1001",
    "100001",
    "1000000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "1e400",
    "nan",
    "inf",
    "0.5",
    "[]",
    "[1, 2]",
    "\"7\"",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(WORDS).prop_map(str::to_string),
        1 => "[ -~\n]{1,12}",
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0u8..7).prop_map(|(at, bit)| Edit::FlipBit(at, bit)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapKeys(a, b)),
        (any::<usize>(), 1usize..40).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), word()).prop_map(|(at, w)| Edit::Insert(at, w)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<usize>(), proptest::sample::select(NUMBERS))
            .prop_map(|(at, n)| Edit::Number(at, n.to_string())),
        (any::<usize>(), word()).prop_map(|(at, w)| Edit::Quoted(at, w)),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len().max(1);
    let join = |parts: &[&[char]]| parts.iter().flat_map(|p| p.iter()).collect::<String>();
    match edit {
        Edit::FlipBit(at, bit) => {
            let mut bytes = text.as_bytes().to_vec();
            let ascii: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i].is_ascii()).collect();
            if let Some(&i) = ascii.get(at % ascii.len().max(1)) {
                bytes[i] ^= 1 << bit;
            }
            String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
        }
        Edit::SwapKeys(a, b) => {
            let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
            let keyed: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].contains(" = "))
                .collect();
            if keyed.len() >= 2 {
                let (i, j) = (keyed[a % keyed.len()], keyed[b % keyed.len()]);
                let (ki, vi) = lines[i]
                    .split_once(" = ")
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .unwrap();
                let (kj, vj) = lines[j]
                    .split_once(" = ")
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .unwrap();
                lines[i] = format!("{kj} = {vi}");
                lines[j] = format!("{ki} = {vj}");
            }
            lines.join("\n")
        }
        Edit::Delete(at, len) => {
            let at = at % n;
            let end = (at + len).min(chars.len());
            join(&[&chars[..at.min(chars.len())], &chars[end..]])
        }
        Edit::Insert(at, word) => {
            let at = at % (chars.len() + 1);
            let word: Vec<char> = word.chars().collect();
            join(&[&chars[..at], &word, &chars[at..]])
        }
        Edit::DuplicateLine(i) | Edit::SwapLines(i, _) => {
            let mut lines: Vec<&str> = text.split('\n').collect();
            let a = i % lines.len();
            match edit {
                Edit::SwapLines(_, j) => {
                    let b = j % lines.len();
                    lines.swap(a, b);
                }
                _ => lines.insert(a, lines[a]),
            }
            lines.join("\n")
        }
        Edit::Number(i, value) => replace_nth(text, i, value, |s| {
            let digits = s.find(|c: char| c.is_ascii_digit())?;
            let end = s[digits..]
                .find(|c: char| !c.is_ascii_digit() && c != '_')
                .map_or(s.len(), |e| digits + e);
            Some((digits, end))
        }),
        Edit::Quoted(i, value) => replace_nth(text, i, value, |s| {
            let open = s.find('"')?;
            let close = s[open + 1..].find('"')? + open + 1;
            Some((open + 1, close))
        }),
    }
}

/// Replaces the `i`-th (modulo their count) match of `find` with `value`.
fn replace_nth(
    text: &str,
    i: &usize,
    value: &str,
    find: impl Fn(&str) -> Option<(usize, usize)>,
) -> String {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some((start, end)) = find(&text[from..]) {
        spans.push((from + start, from + end));
        from += end.max(start + 1);
        if from >= text.len() {
            break;
        }
    }
    match spans.get(i % spans.len().max(1)) {
        Some(&(start, end)) => format!("{}{value}{}", &text[..start], &text[end..]),
        None => text.to_string(),
    }
}

fn mutated_experiment() -> impl Strategy<Value = String> {
    let seeds = seeds();
    (0..seeds.len(), proptest::collection::vec(edit(), 1..6)).prop_map(move |(seed, edits)| {
        edits
            .iter()
            .fold(seeds[seed].clone(), |text, e| apply(&text, e))
    })
}

fn dice_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9dDxX×+\\- /]{0,16}",
        (0u32..1200, 0u32..1200, -20i64..20, 0u32..3).prop_map(|(n, s, k, form)| match form {
            0 => format!("{n}d{s}{k:+}"),
            1 => format!("{n}d{s}+{n}d{s}"),
            _ => format!("d{s}"),
        }),
        (0u32..25, 0u32..25, 0u32..14).prop_map(|(lo, hi, x)| format!("{lo}-{hi}/x{x}")),
        "[ -~é×]{0,24}",
    ]
}

/// Runs `target` on generated inputs for `budget` (or `cases` inputs); every panic is
/// saved and fails the run. Returns how many inputs ran.
fn fuzz(
    name: &str,
    strategy: impl Strategy<Value = String>,
    target: fn(&str) -> String,
    runner: &mut TestRunner,
    budget: Duration,
    cases: u64,
) -> u64 {
    let out_dir = std::env::var_os("D20ODDS_FUZZ_CORPUS").map(|d| Path::new(&d).join(name));
    if let Some(dir) = &out_dir {
        std::fs::create_dir_all(dir).unwrap();
    }
    let start = Instant::now();
    let mut kinds = HashSet::new();
    let (mut ran, mut panics) = (0u64, 0u64);
    while ran < cases && start.elapsed() < budget {
        let input = strategy.new_tree(runner).unwrap().current();
        ran += 1;
        match catch_unwind(|| target(&input)) {
            Ok(kind) => {
                if kinds.insert(kind)
                    && let Some(dir) = &out_dir
                {
                    std::fs::write(dir.join(format!("{}", kinds.len())), &input).unwrap();
                }
            }
            Err(_) => {
                panics += 1;
                eprintln!("{name}: panic on {input:?}");
                if let Some(dir) = &out_dir {
                    std::fs::write(dir.join(format!("panic-{panics}")), &input).unwrap();
                }
            }
        }
    }
    eprintln!(
        "fuzz {name}: {ran} inputs in {:.0} s, {} kinds of outcome, {panics} panics",
        start.elapsed().as_secs_f64(),
        kinds.len()
    );
    assert_eq!(panics, 0, "{name}: {panics} inputs panicked");
    ran
}

#[test]
fn fuzz_short_rounds_find_no_panic() {
    let forever = Duration::from_secs(u64::MAX / 4);
    let mut runner = TestRunner::deterministic();
    fuzz(
        "loader",
        mutated_experiment(),
        loader,
        &mut runner,
        forever,
        300,
    );
    fuzz("dice", dice_text(), dice, &mut runner, forever, 3000);
    fuzz(
        "agreement",
        mutated_experiment(),
        agreement,
        &mut runner,
        forever,
        12,
    );
}

/// A long run with a random seed, for `D20ODDS_FUZZ_SECS` seconds (default 60).
fn fuzz_long(name: &str, strategy: impl Strategy<Value = String>, target: fn(&str) -> String) {
    let budget = std::env::var("D20ODDS_FUZZ_SECS").map_or(60, |s| s.parse().unwrap());
    let mut runner = TestRunner::new(Config::default());
    let ran = fuzz(
        name,
        strategy,
        target,
        &mut runner,
        Duration::from_secs(budget),
        u64::MAX,
    );
    assert!(ran > 0);
}

#[test]
#[ignore = "long fuzzing run: D20ODDS_FUZZ_SECS=600 cargo test --release fuzz_long -- --ignored"]
fn fuzz_long_loader() {
    fuzz_long("loader", mutated_experiment(), loader);
}

#[test]
#[ignore = "long fuzzing run: D20ODDS_FUZZ_SECS=600 cargo test --release fuzz_long -- --ignored"]
fn fuzz_long_agreement() {
    fuzz_long("agreement", mutated_experiment(), agreement);
}

#[test]
#[ignore = "long fuzzing run: D20ODDS_FUZZ_SECS=600 cargo test --release fuzz_long -- --ignored"]
fn fuzz_long_dice() {
    fuzz_long("dice", dice_text(), dice);
}

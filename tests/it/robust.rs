//! The binary under stress: Ctrl-C, `kill -9`, outputs that cannot be written, and the
//! size limits. Unix only (signals, `/proc`, `/dev/full`); the tests run as root, where a
//! read-only folder is still writable, so failing writes come from `/dev/full`, a file
//! where a folder should be, a file-size limit, or `/proc` (a file system no one can make
//! folders in).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::{d20odds, showcase};

const BIN: &str = env!("CARGO_BIN_EXE_d20odds");

/// Every file of a folder with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|f| {
            let f = f.unwrap();
            (
                f.file_name().to_string_lossy().into_owned(),
                std::fs::read(f.path()).unwrap(),
            )
        })
        .collect()
}

/// A report of the showcase in `dir/reports/ogre-corridor`, and its files.
fn previous_report(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let out = d20odds(&["run", &showcase(), "--trials", "20000", "--quiet"], dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    snapshot(&dir.join("reports/ogre-corridor"))
}

/// Starts a run that would take years, and returns once its Ctrl-C handler is installed
/// (SIGINT appears in the caught-signal mask of `/proc/PID/status`).
fn endless_run(dir: &Path, extra: &[&str]) -> Child {
    endless_run_of(dir, &showcase(), extra)
}

/// [`endless_run`] of the experiment at `experiment`.
fn endless_run_of(dir: &Path, experiment: &str, extra: &[&str]) -> Child {
    let mut args = vec!["run", experiment, "--trials", "1000000000000", "--quiet"];
    args.extend(extra);
    let child = Command::new(BIN)
        .args(&args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let catches_sigint = || {
        std::fs::read_to_string(&status)
            .ok()
            .and_then(|s| {
                let mask = s.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
                u64::from_str_radix(mask.trim(), 16).ok()
            })
            .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
    };
    let start = Instant::now();
    while !catches_sigint() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no SIGINT handler"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

fn signal(child: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

#[test]
fn ctrl_c_reports_the_completed_trials_marked_interrupted_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let child = endless_run(dir.path(), &["--json"]);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["interrupted"], true);
    let trials = json["trials"].as_u64().unwrap();
    assert!(
        (4096..1_000_000_000_000).contains(&trials),
        "{trials} trials: at least the first chunk, not the whole run"
    );
    let report = dir.path().join("reports/ogre-corridor");
    for file in ["report.html", "summary.md"] {
        let text = std::fs::read_to_string(report.join(file)).unwrap();
        assert!(text.contains("Interrupted (Ctrl-C)"), "{file} not marked");
    }
    let summary = std::fs::read_to_string(report.join("summary.csv")).unwrap();
    assert!(summary.lines().count() > 1);
}

#[test]
fn ctrl_c_marks_the_terminal_summary_too() {
    let dir = tempfile::tempdir().unwrap();
    let child = endless_run(dir.path(), &[]);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Interrupted (Ctrl-C): "), "{stdout}");
}

/// `timeout -s INT` signals the process and then its process group: two Ctrl-C a moment
/// apart are one press, and the report of the completed trials is still written.
#[test]
fn two_ctrl_c_at_once_count_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let child = endless_run(dir.path(), &[]);
    signal(&child, "-INT");
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Interrupted (Ctrl-C): "), "{stdout}");
    let html = dir.path().join("reports/ogre-corridor/report.html");
    assert!(
        std::fs::read_to_string(html)
            .unwrap()
            .contains("Interrupted (Ctrl-C)")
    );
}

/// A stop before the sweep leaves all its points out, and the interrupted note says so.
#[test]
fn ctrl_c_before_a_sweep_names_the_points_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let experiment = crate::cli::repo().join("experiments/crit-fishing.toml");
    let child = endless_run_of(dir.path(), &experiment.to_string_lossy(), &[]);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let not_run = "Not run: 7 of 7 sweep points";
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(not_run), "{stdout}");
    let html = dir.path().join("reports/crit-fishing/report.html");
    assert!(std::fs::read_to_string(html).unwrap().contains(not_run));
}

#[test]
fn a_kill_mid_run_leaves_the_previous_report_whole() {
    let dir = tempfile::tempdir().unwrap();
    let before = previous_report(dir.path());
    let child = endless_run(dir.path(), &[]);
    signal(&child, "-KILL");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), None, "killed by a signal");
    assert_eq!(snapshot(&dir.path().join("reports/ogre-corridor")), before);
}

/// Runs the showcase with `args` and checks: exit 2, the error names `path`, no panic.
fn refused_naming(dir: &Path, args: &[&str], path: &str) -> String {
    let showcase = showcase();
    let mut all = vec!["run", &showcase, "--trials", "20000", "--quiet"];
    all.extend(args);
    let out = d20odds(&all, dir);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(path), "{path} not named: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn an_out_folder_whose_parent_is_missing_is_an_error_and_nothing_is_made() {
    let dir = tempfile::tempdir().unwrap();
    refused_naming(dir.path(), &["--out", "missing/reports"], "missing/reports");
    assert!(!dir.path().join("missing").exists());
}

#[test]
fn an_out_folder_that_is_a_file_is_an_error_and_the_file_stays() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "keep").unwrap();
    refused_naming(dir.path(), &["--out", "notes.txt"], "notes.txt");
    refused_naming(dir.path(), &["--out", "notes.txt/reports"], "notes.txt");
    assert_eq!(
        std::fs::read(dir.path().join("notes.txt")).unwrap(),
        b"keep"
    );
}

#[test]
fn a_report_folder_that_is_a_file_is_an_error_and_the_file_stays() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    let taken = dir.path().join("reports/ogre-corridor");
    std::fs::write(&taken, "keep").unwrap();
    refused_naming(dir.path(), &[], "reports/ogre-corridor");
    assert_eq!(std::fs::read(&taken).unwrap(), b"keep");
}

#[test]
fn a_folder_d20odds_did_not_write_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    std::fs::create_dir_all(project.join("ogre-corridor")).unwrap();
    std::fs::write(project.join("ogre-corridor/main.rs"), "keep").unwrap();
    let stderr = refused_naming(&project, &["--out", "."], "ogre-corridor");
    assert!(stderr.contains(".d20odds-report"), "{stderr}");
    assert_eq!(
        std::fs::read(project.join("ogre-corridor/main.rs")).unwrap(),
        b"keep"
    );
    assert_eq!(std::fs::read_dir(&project).unwrap().count(), 1);
}

/// Notes saved into a report folder stop the next run, which names them, instead of
/// vanishing with the old report.
#[test]
fn a_report_folder_holding_a_users_file_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    previous_report(dir.path());
    let folder = dir.path().join("reports/ogre-corridor");
    std::fs::write(folder.join("my-notes.txt"), "keep").unwrap();
    let before = snapshot(&folder);
    let stderr = refused_naming(dir.path(), &[], "ogre-corridor");
    assert!(stderr.contains("holds my-notes.txt"), "{stderr}");
    assert_eq!(snapshot(&folder), before);
}

#[test]
fn an_experiment_inside_its_own_report_folder_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    previous_report(dir.path());
    let folder = dir.path().join("reports/ogre-corridor");
    let inside = folder.join("ogre-corridor.toml");
    std::fs::copy(showcase(), &inside).unwrap();
    let out = d20odds(
        &[
            "run",
            "reports/ogre-corridor/ogre-corridor.toml",
            "--trials",
            "20000",
            "--quiet",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("holds the experiment file"), "{stderr}");
    assert!(inside.is_file());
}

/// Runs `args` in `dir` with trials that would take years, so only a refusal before
/// simulating can end it: exit 2 naming `path`, within a minute.
fn refused_before_simulating(dir: &Path, args: &[&str], path: &str) -> String {
    let mut all = vec!["run"];
    all.extend(args);
    all.extend(["--trials", "1000000000000", "--quiet"]);
    let mut child = Command::new(BIN)
        .args(&all)
        .current_dir(dir)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{all:?} simulated instead of refusing");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(path), "{path} not named: {stderr}");
    stderr
}

#[test]
fn odd_destinations_are_refused_before_simulating() {
    let dir = tempfile::tempdir().unwrap();
    let showcase = showcase();
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    std::os::unix::fs::symlink(
        "/nonexistent/d20odds",
        dir.path().join("reports/ogre-corridor"),
    )
    .unwrap();
    let stderr = refused_before_simulating(dir.path(), &[&showcase], "reports/ogre-corridor");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    for stem in ["..toml", "...toml"] {
        std::fs::copy(&showcase, dir.path().join(stem)).unwrap();
        refused_before_simulating(dir.path(), &[stem], stem);
    }
    std::fs::create_dir(dir.path().join("copy")).unwrap();
    std::fs::copy(&showcase, dir.path().join("copy/ogre-corridor.toml")).unwrap();
    let stderr = refused_before_simulating(
        dir.path(),
        &[&showcase, "copy/ogre-corridor.toml", "--out", "elsewhere"],
        "elsewhere/ogre-corridor",
    );
    assert!(stderr.contains("both"), "{stderr}");
    assert!(!dir.path().join("elsewhere").exists());
    let stderr = refused_before_simulating(dir.path(), &[&showcase, "--out", "/proc"], "/proc");
    assert!(stderr.contains("cannot write in"), "{stderr}");
}

#[test]
fn a_killed_run_s_staging_folder_is_removed_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    std::fs::create_dir(&reports).unwrap();
    let gone = reports.join(".ogre-corridor.new-4194305");
    std::fs::create_dir(&gone).unwrap();
    std::fs::write(gone.join(".d20odds-report"), "").unwrap();
    let foreign = reports.join(".ogre-corridor.new-4194306");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "keep").unwrap();
    previous_report(dir.path());
    assert!(!gone.exists(), "the leftover of a gone process is removed");
    assert!(
        foreign.join("notes.txt").exists(),
        "a folder d20odds did not make stays"
    );
}

#[test]
fn ctrl_c_during_a_heatmap_stops_it_and_marks_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(crate::cli::repo().join("experiments/pf1-cover-examples.toml"))
            .unwrap()
            .replacen("seed   = 1", "seed   = 1\nrounds = 1000", 1);
    std::fs::write(dir.path().join("slow-heatmap.toml"), text).unwrap();
    let child = Command::new(BIN)
        .args([
            "run",
            "slow-heatmap.toml",
            "--trials",
            "2000",
            "--quiet",
            "--json",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(4));
    let sent = Instant::now();
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    let waited = sent.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        waited < Duration::from_secs(10),
        "{waited:?} from Ctrl-C to exit"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["interrupted"], true);
    let html =
        std::fs::read_to_string(dir.path().join("reports/slow-heatmap/report.html")).unwrap();
    assert!(html.contains("Interrupted (Ctrl-C)"));
}

#[test]
fn a_failing_write_is_an_error_naming_the_file_and_the_previous_report_stays() {
    let dir = tempfile::tempdir().unwrap();
    let before = previous_report(dir.path());
    let script = format!(
        "ulimit -f 4; exec '{BIN}' run '{}' --trials 20000 --quiet",
        showcase()
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // Named as the report's file, not the hidden staging folder's.
    assert!(stderr.contains("reports/ogre-corridor/"), "{stderr}");
    assert!(!stderr.contains(".new-"), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    assert_eq!(snapshot(&dir.path().join("reports/ogre-corridor")), before);
    let names: Vec<_> = std::fs::read_dir(dir.path().join("reports"))
        .unwrap()
        .map(|f| f.unwrap().file_name())
        .collect();
    assert_eq!(names, ["ogre-corridor"], "the staging folder is cleaned up");
}

#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["run", "SHOWCASE", "--trials", "20000", "--quiet"],
        vec!["rules", "pf1"],
        vec!["check", "SHOWCASE"],
        vec!["completions", "bash"],
        vec!["man"],
    ] {
        let showcase = showcase();
        let args: Vec<&str> = args
            .iter()
            .map(|a| {
                if *a == "SHOWCASE" {
                    showcase.as_str()
                } else {
                    *a
                }
            })
            .collect();
        let out = Command::new(BIN)
            .args(&args)
            .current_dir(dir.path())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("standard output"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Runs `d20odds attack` with `args` and checks it is refused (exit 2) with `message`.
fn attack_refused(args: &str, message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<&str> = ["attack", "--bonus", "5", "--ac", "10"]
        .into_iter()
        .chain(args.split(' '))
        .collect();
    let out = d20odds(&args, dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
}

#[test]
fn trials_past_the_limit_are_refused_by_the_flag() {
    attack_refused(
        "--damage 1d8 --trials 1000000000001",
        "--trials: 1 to 1000000000000",
    );
}

#[test]
fn numbers_that_would_wrap_and_too_many_threads_are_refused_by_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            "--bonus 2147483647 --ac 18",
            "--bonus: expected -10000 to 10000",
        ),
        (
            "--bonus 5 --ac -2147483648",
            "--ac: expected -10000 to 10000",
        ),
        (
            "--bonus 5 --ac 18 --hp 9223372036854775807",
            "--hp: expected 1 to 1000000000",
        ),
        (
            "--bonus 5 --ac 18 --hp 5 --con 9223372036854775807",
            "--con: expected 1 to 1000000000",
        ),
        (
            "--bonus 5 --ac 18 --threads 20000",
            "--threads: expected 1 to 256, not `20000`",
        ),
    ] {
        let args: Vec<&str> = ["attack", "--damage", "1d8"]
            .into_iter()
            .chain(args.split(' '))
            .collect();
        let out = d20odds(&args, dir.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn a_precision_not_reached_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &[
            "attack",
            "--bonus",
            "5",
            "--ac",
            "15",
            "--damage",
            "1d8",
            "--trials",
            "1000",
            "--precision",
            "0.0001",
            "--quiet",
        ],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("--precision 0.0001 not reached: --trials stopped the run after 1000 trials; the widest 95% half-width is ")
            && stderr.contains(", of P(hit) of attacker → target: attack #1\n"),
        "{stderr}"
    );
}

/// A sweep's points that miss `--precision` share one note naming how many missed and
/// the widest, not a note each (crit-fishing sweeps T.ac over 7 points).
#[test]
fn a_sweep_missing_the_precision_says_so_once() {
    let dir = tempfile::tempdir().unwrap();
    let experiment = crate::cli::repo().join("experiments/crit-fishing.toml");
    let args = ["--trials", "1000", "--precision", "0.0001", "--quiet"];
    let out = d20odds(
        &[&["run", &experiment.to_string_lossy()][..], &args].concat(),
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("not reached"))
        .collect();
    assert_eq!(notes.len(), 2, "the experiment's and the sweep's: {stderr}");
    assert!(
        notes[1].starts_with("note: --precision 0.0001 not reached at 7 of 7 sweep points: --trials stopped each after 1000 trials; the widest 95% half-width is ")
            && notes[1].contains(", at T.ac = "),
        "{stderr}"
    );
}

#[test]
fn dice_too_large_to_tally_are_refused_by_the_flag() {
    attack_refused(
        "--damage 1000d1000+1000d1000 --crit x10 --rounds 1000 --hp 10",
        "--damage: too large to simulate",
    );
}

#[test]
fn the_exact_engine_says_why_it_did_not_compute_instead_of_stalling() {
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &[
            "attack", "--bonus", "5", "--ac", "10", "--damage", "100d100", "--hp", "100000",
            "--rounds", "100", "--trials", "20000", "--json",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let note = json["exact_notes"][0].as_str().unwrap();
    assert!(note.contains("not computed: needs"), "{note}");
    assert!(note.contains("more than the bound"), "{note}");
    assert!(json["rounds"][0]["exact_p_down"].is_null());
}

/// `check` refuses a destination `run` refuses, with the same message and exit code.
#[test]
fn check_refuses_the_destinations_run_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    std::fs::create_dir_all(project.join("ogre-corridor")).unwrap();
    std::fs::write(project.join("ogre-corridor/main.rs"), "keep").unwrap();
    let showcase = showcase();
    std::fs::copy(&showcase, dir.path().join("..toml")).unwrap();
    let cases: [(&Path, &[&str]); 3] = [
        (&project, &[&showcase, "--out", "."]),
        (&project, &[&showcase, "--out", "missing/reports"]),
        (dir.path(), &["..toml"]),
    ];
    for (dir, args) in cases {
        let run = d20odds(
            &[&["run", "--quiet", "--trials", "1000"], args].concat(),
            dir,
        );
        let check = d20odds(&[&["check"], args].concat(), dir);
        let stderr = String::from_utf8_lossy(&check.stderr);
        assert_eq!(check.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert_eq!(check.stderr, run.stderr, "{args:?}: {stderr}");
        assert!(check.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(
        std::fs::read(project.join("ogre-corridor/main.rs")).unwrap(),
        b"keep"
    );
}

/// Attack flags that would change nothing are refused, naming the flags.
#[test]
fn attack_flags_that_do_nothing_are_refused() {
    attack_refused("--damage 1d8 --rounds 3", "--rounds: needs --hp");
    attack_refused("--damage 1d8 --rounds 1", "--rounds: needs --hp");
    attack_refused(
        "--damage 1d8 --ranged --flanking",
        "--flanking: flanking gives no bonus to a ranged attack (--ranged)",
    );
    attack_refused(
        "--damage 1d8 --crit 19-20/x2 --immune-to-crits",
        "--crit: the target is immune to critical hits (--immune-to-crits)",
    );
    attack_refused(
        "--damage 1d8 --cover soft",
        "--cover: `soft` cover gives nothing against a melee attack in Pathfinder",
    );
    attack_refused(
        "--damage 1d8 --crit 19-20x2",
        "--crit: `19-20x2`, character 6: expected `/` between the threat range and the multiplier",
    );
    attack_refused(
        "--damage 1d8*2",
        "--damage: `1d8*2`, character 4: unexpected `*`",
    );
}

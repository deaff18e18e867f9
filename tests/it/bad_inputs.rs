//! `tests/bad_inputs/`: malformed experiments, each saying on its first line what `run`
//! must answer — `# expect-error: LINE:COL fragment` (several fragments joined by ` ... `).

use std::path::PathBuf;

use crate::cli::{d20odds, repo};

fn bad_inputs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/bad_inputs"))
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

/// What is wrong with the binary's answer to one bad input (empty: nothing).
fn problems(file: &PathBuf) -> Vec<String> {
    let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
    let Some((place, fragments)) = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# expect-error: "))
        .and_then(|l| l.split_once(' '))
    else {
        return vec!["no `# expect-error: LINE:COL fragment` first line".into()];
    };
    let dir = tempfile::tempdir().unwrap();
    let path = file.display().to_string();
    let out = d20odds(&["run", &path, "--quiet"], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    if out.status.code() != Some(2) {
        problems.push(format!("exit {:?} instead of 2", out.status.code()));
    }
    if !stderr.starts_with(&format!("error: {path}:{place}: ")) {
        problems.push(format!("not located at {place}"));
    }
    for fragment in fragments.split(" ... ") {
        if !stderr.contains(fragment) {
            problems.push(format!("no `{fragment}`"));
        }
    }
    if !stderr.lines().nth(3).is_some_and(|l| l.ends_with('^')) {
        problems.push("no caret under the source line".into());
    }
    if stderr.contains("panicked") {
        problems.push("panicked".into());
    }
    if dir.path().join("reports").exists() || !out.stdout.is_empty() {
        problems.push("wrote something".into());
    }
    problems
        .into_iter()
        .map(|p| format!("{}: {p}\n{stderr}", file.display()))
        .collect()
}

#[test]
fn every_bad_input_exits_2_at_its_line_and_column_and_writes_nothing() {
    let files = bad_inputs();
    assert!(files.len() >= 40, "only {} bad inputs", files.len());
    let failures: Vec<String> = files.iter().flat_map(problems).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `check` validates what `run` validates: on every bad input both exit with the same code
/// and print the same message, so a file `check` passes never fails `run`.
#[test]
fn check_and_run_refuse_every_bad_input_alike() {
    let dir = tempfile::tempdir().unwrap();
    let failures: Vec<String> = bad_inputs()
        .iter()
        .filter_map(|file| {
            let path = file.display().to_string();
            let run = d20odds(&["run", &path, "--quiet"], dir.path());
            let check = d20odds(&["check", &path], dir.path());
            let same = run.status.code() == check.status.code() && run.stderr == check.stderr;
            (!same).then(|| {
                format!(
                    "{path}: run exit {:?}\n{}\ncheck exit {:?}\n{}",
                    run.status.code(),
                    String::from_utf8_lossy(&run.stderr),
                    check.status.code(),
                    String::from_utf8_lossy(&check.stderr)
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! The library entry point (`d20odds::run`) is the pipeline the binary runs: the same
//! file and settings give the same figures, a sweep streams its rows, and a stop flag
//! ends a run early with its results marked.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use d20odds::run::{Phase, Progress, Settings, Silent, prepare};
use d20odds::summary_text;

use crate::cli::{d20odds, repo, showcase};

/// Records every progress call, to check the phases a run goes through, and the threads
/// each phase starts on.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<(Option<Phase>, u64)>>,
    threads: Mutex<Vec<usize>>,
}

impl Progress for Recorder {
    fn start(&self, phase: Phase, total: u64) {
        self.calls.lock().unwrap().push((Some(phase), total));
        self.threads
            .lock()
            .unwrap()
            .push(rayon::current_num_threads());
    }
    fn advance_to(&self, _: u64) {}
    fn finish(&self) {
        self.calls.lock().unwrap().push((None, 0));
    }
}

#[test]
fn the_library_entry_point_prints_what_the_binary_prints() {
    let settings = Settings {
        trials: Some(20_000),
        ..Settings::default()
    };
    let path = std::path::PathBuf::from(showcase());
    let finished = prepare(&path, &settings)
        .unwrap()
        .run(&settings, &Silent, &AtomicBool::new(false))
        .unwrap();
    assert!(finished.notes.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let out = d20odds(
        &["run", &showcase(), "--trials", "20000", "--quiet"],
        dir.path(),
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        summary_text(&finished.results) + "\n"
    );
}

/// crit-fishing sweeps 7 values: 8 × 2,000 trials in one trials phase, then its (empty)
/// heatmap phase of 0 squares.
#[test]
fn a_sweep_runs_in_one_trials_phase_and_keeps_its_rows() {
    let settings = Settings {
        trials: Some(2_000),
        ..Settings::default()
    };
    let prepared = prepare(&repo().join("experiments/crit-fishing.toml"), &settings).unwrap();
    let points = prepared.experiment.sweep_points as u64;
    let recorder = Recorder::default();
    let finished = prepared
        .run(&settings, &recorder, &AtomicBool::new(false))
        .unwrap();
    assert!(finished.results.sweep.is_some());
    assert_eq!(
        *recorder.calls.lock().unwrap(),
        [
            (Some(Phase::Trials), 2_000 * (1 + points)),
            (None, 0),
            (Some(Phase::Squares), 0),
            (None, 0)
        ]
    );
}

/// starfinder-tactics is a fight with 3 variants: the exact figures of its 4 fights come
/// first, side by side, then the trials, then its (empty) heatmap; with `--threads 1`
/// every phase runs on one thread, the exact fights too (they used to take every core).
#[test]
fn a_fight_computes_its_exact_figures_first_on_the_threads_asked_for() {
    for threads in [1, 2] {
        let settings = Settings {
            trials: Some(2_000),
            threads: Some(threads),
            ..Settings::default()
        };
        let path = repo().join("experiments/starfinder-tactics.toml");
        let recorder = Recorder::default();
        let finished = prepare(&path, &settings)
            .unwrap()
            .run(&settings, &recorder, &AtomicBool::new(false))
            .unwrap();
        assert!(finished.results.variants.len() > 4);
        assert_eq!(
            *recorder.calls.lock().unwrap(),
            [
                (Some(Phase::Exact), 4),
                (None, 0),
                (Some(Phase::Trials), 2_000),
                (None, 0),
                (Some(Phase::Squares), 0),
                (None, 0)
            ]
        );
        assert_eq!(*recorder.threads.lock().unwrap(), [threads; 3]);
    }
}

/// A stop already set: the first chunk of the plan still runs, no sweep point and no
/// heatmap square starts, and the results say they were interrupted.
#[test]
fn a_stopped_run_is_marked_and_skips_what_had_not_started() {
    let settings = Settings::default();
    let prepared = prepare(&repo().join("experiments/crit-fishing.toml"), &settings).unwrap();
    let finished = prepared
        .run(&settings, &Silent, &AtomicBool::new(true))
        .unwrap();
    assert!(finished.results.interrupted);
    assert!(finished.results.trials > 0);
    assert!(finished.results.sweep.is_none());
}

/// A precision the trials cannot reach comes back as a note, which the binary prints.
#[test]
fn a_precision_not_reached_is_a_note() {
    let settings = Settings {
        trials: Some(1_000),
        precision: Some(0.0001),
        ..Settings::default()
    };
    let finished = prepare(std::path::Path::new(&showcase()), &settings)
        .unwrap()
        .run(&settings, &Silent, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(finished.notes.len(), 1);
    let note = &finished.notes[0];
    assert!(
        note.starts_with("--precision 0.0001 not reached: --trials stopped the run after 1000 trials; the widest 95% half-width is "),
        "{note}"
    );
    // The figure named is the one whose interval is widest, of those `--precision` waits
    // on (not the attacks made only in another situation, which may be rare).
    let results = &finished.results;
    let own = results.summary.iter().filter(|r| !r.situational);
    let attacks = own.flat_map(|r| {
        let name = format!("{} → {}: {} #{}", r.attacker, r.target, r.attack, r.index);
        [
            (format!("P(hit) of {name}"), r.p_hit),
            (format!("P(crit) of {name}"), r.p_crit),
        ]
    });
    let rounds = results.rounds.iter().flat_map(|r| {
        let when = format!("{} by round {}", r.target, r.round);
        [
            (format!("P(down) of {when}"), r.p_down),
            (format!("P(dead) of {when}"), r.p_dead),
        ]
    });
    let figures: Vec<_> = attacks.chain(rounds).collect();
    let (named, widest) = figures
        .iter()
        .find(|(name, _)| note.ends_with(&format!(", of {name}")))
        .unwrap_or_else(|| panic!("no figure named in {note}"));
    for (name, figure) in &figures {
        assert!(
            figure.half_width() <= widest.half_width(),
            "{name} is wider than {named}"
        );
    }
    assert!(
        note.contains(&format!("{:.5}", widest.half_width())),
        "{note}"
    );
}

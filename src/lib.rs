//! # d20odds — what are my odds in d20 tactical combat?
//!
//! An experiment file (TOML) names a rule system, draws a battle map, lists combatants and
//! says who attacks whom. d20odds turns it into numbers in one direction only:
//!
//! ```text
//! file ─▶ Scenario ─▶ Plan ─┬▶ simulate (Monte Carlo) ─┬▶ Results ─▶ CSV / JSON / text
//!                           └▶ compute_exact           ┘
//! ```
//!
//! - [`run`] is the pipeline end to end: [`run::prepare`] a file, then [`run::Prepared::run`] it
//!   (with a stop flag and a progress display); the command line, tests and benches use it;
//! - [`Scenario`] is a validated input file, its mistakes [`InputError`]s at file:line:col;
//! - [`Experiment`] validates a file as a run needs it (plan, sweep points), for `check` and
//!   `run` alike;
//! - [`Plan`] holds numbers-only attack profiles, folded from the rules and the situation,
//!   and is made only by a [`PlanBuilder`] (or planning a scenario), so its [`TargetId`]s
//!   and [`LineId`]s always refer to its own targets and lines;
//! - [`simulate`] runs a plan in seeded blocks across threads into a [`Tally`];
//!   [`compute_exact`] computes the same figures exactly wherever that is tractable;
//! - [`Results`] are the typed tables of a run; [`write_folder`] is the one writer of files;
//! - [`map`] is the battle-map geometry, usable on its own.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use d20odds::Scenario;
//! use d20odds::run::{Prepared, Settings, Silent};
//! let text = r#"
//! system = "pf1"
//! trials = 20000
//! map = "FO"
//! [[combatant]]
//! token = "F"
//! ac = 18
//! hp = 20
//! [[combatant.attack]]
//! name = "sword"
//! bonus = 5
//! damage = "1d8+3"
//! [[combatant]]
//! token = "O"
//! ac = 14
//! hp = 30
//! [[plan]]
//! attacker = "F"
//! target = "O"
//! attack = "sword"
//! "#;
//! let settings = Settings::default();
//! let scenario = Scenario::parse("demo.toml", text).unwrap();
//! let prepared = Prepared::from_scenario(scenario, &settings).unwrap();
//! let finished = prepared.run(&settings, &Silent, &AtomicBool::new(false)).unwrap();
//! assert_eq!(finished.results.summary.len(), 1);
//! assert_eq!(finished.results.trials, 20000);
//! ```

#![warn(missing_docs)]

mod attack;
mod damage;
mod dice;
mod encounter;
mod engine;
mod error;
mod exact;
mod experiment;
mod heatmap;
mod injury;
/// Battle-map geometry, public as a namespace: its vocabulary (`Grid`, `Space`, `cover`,
/// `flanking`, `threatens`) reads as `map::…`, and it depends on nothing else in the
/// crate, so it is usable and measured on its own (the geometry bench).
pub mod map;
mod plan;
mod report;
mod rules;
/// The pipeline end to end, public as a namespace: `run::prepare`, `run::Settings`,
/// `run::Progress` are where every caller starts.
pub mod run;
mod scenario;
mod situation;
mod stats;
mod verdict;

pub use attack::{AttackProfile, Portion, Resolution, SquareGuess};
pub use damage::massive_check;
pub use dice::{CritSpec, Dice, DiceError};
pub use encounter::{ExactFight, Fight, FightTally, Status, exact_fight, simulate_fight};
pub use engine::{
    EngineConfig, MAX_THREADS, MeanSample, Proportion, SamplerKind, Tally, check_tally_size,
    max_damage_taken, simulate,
};
pub use error::{Error, InputError, nearest};
pub use exact::{Exact, compute as compute_exact};
pub use experiment::Experiment;
pub use injury::{Target, Vitals};
pub use plan::{
    Covering, Grappler, LineAttack, LineDefence, LineId, LineSituation, Plan, PlanBuilder, Planned,
    Situation, TargetId,
};
pub use report::{
    Formats, Results, VariantRow, check as check_report, check_folder, one_or_array, report_files,
    report_folder, summary_text, write_folder, write_json,
};
pub use rules::{CoverLevel, RuleSet, SystemId};
pub use scenario::bounded::{MAX_HIT_POINTS, MAX_MODIFIER, modifier_range};
pub use scenario::{
    AreaSave, ArmorClass, CombatantId, DEFAULT_TRIALS, Evasion, MAX_ROUNDS, SaveKind, Scenario,
};
pub use stats::{Estimate, mean_z, proportion_z};

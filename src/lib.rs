//! # d20odds — what are my odds in d20 tactical combat?
//!
//! An experiment file (TOML) names a rule system, draws a battle map, lists combatants and
//! says who attacks whom. d20odds turns it into numbers in one direction only:
//!
//! ```text
//! file ─▶ scenario::Scenario ─▶ plan::Plan ─┬▶ engine (Monte Carlo) ─┬▶ report::Results ─▶ CSV / JSON / text
//!                                           └▶ exact                 ┘
//! ```
//!
//! - [`run`] is the pipeline end to end: [`run::prepare`] a file, then [`run::Prepared::run`] it
//!   (with a stop flag and a progress display); the command line, tests and benches use it;
//! - [`scenario`] reads and validates input, with file:line:col errors;
//! - [`experiment`] validates a file as a run needs it (plan, sweep points), for `check` and `run` alike;
//! - [`plan`] folds rules and situational modifiers into numbers-only attack profiles;
//! - [`engine`] simulates the plan in seeded blocks across threads;
//! - [`exact`] computes the same figures exactly wherever that is tractable;
//! - [`report`] builds the tables and is the only module that writes files.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use d20odds::run::{Prepared, Settings, Silent};
//! use d20odds::scenario::Scenario;
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

pub mod attack;
pub mod damage;
pub mod dice;
pub mod engine;
pub mod error;
pub mod exact;
pub mod experiment;
pub mod heatmap;
pub mod injury;
pub mod map;
pub mod plan;
pub mod report;
pub mod rules;
pub mod run;
pub mod scenario;
pub mod situation;
pub mod stats;
pub mod verdict;

//! Attack throughput of the whole engine for the reference model:
//! `+7 vs AC 18, 19-20/x2, 20% concealment, 1d8+3`, on 1 and 2 threads, with the table
//! sampler (one draw per attack) and the dice sampler (every die rolled); plus a
//! three-round plan with hit points (the general trial loop), the exact engine, and the
//! whole pipeline of the library entry point on the showcase experiment, alone and with
//! variants paired on common random numbers (what each added variant costs), and its Monte
//! Carlo engine alone (trials per second).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use d20odds::run::{Prepared, Settings, Silent, prepare};
use d20odds::{
    EngineConfig, Experiment, LineAttack, LineDefence, Plan, PlanBuilder, SamplerKind, Scenario,
    Situation, SystemId, Target, compute_exact, simulate,
};

mod common;

const TRIALS: u64 = 20_000_000;
const SEED: u64 = 1;

fn reference_plan(rounds: u32, hp: Option<i64>, bonuses: Vec<i32>) -> Plan {
    let mut plan = PlanBuilder::new("bench", SystemId::Pf1, rounds);
    let target = plan.add_target(Target::new("target".into(), hp, Some(10)));
    let attack = LineAttack::plain(
        "attacker",
        "sword",
        true,
        bonuses,
        "1d8+3".parse().unwrap(),
        "19-20/x2".parse().unwrap(),
    );
    let defence = LineDefence::plain(target, 18, false);
    let situation = Situation {
        concealment: Some(20),
        ..Situation::default()
    };
    plan.add_line(SystemId::Pf1.rules(), attack, defence, situation, None)
        .unwrap();
    plan.build()
}

fn attacks(c: &mut Criterion) {
    let mut group = c.benchmark_group("attacks");
    group.sample_size(10);
    group.throughput(Throughput::Elements(TRIALS));
    let plan = reference_plan(1, None, vec![7]);
    for (name, sampler) in [("table", SamplerKind::Table), ("dice", SamplerKind::Dice)] {
        for threads in [1, 2] {
            let config = EngineConfig {
                threads: Some(threads),
                sampler,
                ..EngineConfig::new(SEED, TRIALS)
            };
            group.bench_function(format!("{name}/{threads} threads"), |b| {
                b.iter(|| black_box(simulate(&plan, &config, &|_| ())))
            });
        }
    }
    // 3 rounds × 3 iteratives against 40 hp: 9 attacks per trial at most.
    let trials = TRIALS / 9;
    let rounds = reference_plan(3, Some(40), vec![7, 2, -3]);
    group.throughput(Throughput::Elements(trials * 9));
    let config = EngineConfig {
        threads: Some(2),
        ..EngineConfig::new(SEED, trials)
    };
    group.bench_function("table/2 threads/3 rounds with hp", |b| {
        b.iter(|| black_box(simulate(&rounds, &config, &|_| ())))
    });
    group.finish();
}

fn exact_engine(c: &mut Criterion) {
    let plan = reference_plan(10, Some(200), vec![17, 12, 7, 2]);
    c.bench_function("exact/10 rounds × 4 iteratives, 200 hp", |b| {
        b.iter(|| black_box(compute_exact(&plan)))
    });
}

/// The showcase experiment's path, and the settings its benches run with: 1,000,000
/// trials on 2 threads.
fn showcase() -> (Settings, PathBuf) {
    let settings = Settings {
        trials: Some(1_000_000),
        threads: Some(2),
        ..Settings::default()
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/ogre-corridor.toml");
    (settings, path)
}

/// `experiments/ogre-corridor.toml` prepared and run end to end (plan, 1,000,000 trials,
/// exact figures, results), as `d20odds run` does before it writes the report.
fn pipeline(c: &mut Criterion) {
    let (settings, path) = showcase();
    let mut group = c.benchmark_group("pipeline");
    group.sample_size(10);
    group.bench_function("ogre-corridor/1,000,000 trials", |b| {
        b.iter(|| {
            let prepared = prepare(&path, &settings).unwrap();
            black_box(prepared.run(&settings, &Silent, &AtomicBool::new(false)))
        })
    });
    // The Monte Carlo engine alone on the showcase's plan: trials per second.
    let plan = Experiment::load(&path).unwrap().plan;
    let config = EngineConfig {
        threads: settings.threads,
        ..EngineConfig::new(SEED, 1_000_000)
    };
    group.throughput(Throughput::Elements(config.trials));
    group.bench_function("ogre-corridor/engine alone", |b| {
        b.iter(|| black_box(simulate(&plan, &config, &|_| ())))
    });
    group.finish();
}

/// `experiments/ogre-corridor.toml` run end to end with 0, 1, 2 and 4 `[[variant]]`s, each
/// giving the fighter another longsword bonus (a change of chances only, so a variant's
/// draws go in step with the baseline's and the trials it would repeat are skipped), and
/// with one Power Attack variant (−1 to hit, +2 damage: its damage differs, so it plays
/// every trial): the baseline alone runs on the batched plan engine, with variants every
/// model runs trial by trial on the shared random numbers.
fn variants(c: &mut Criterion) {
    let (settings, path) = showcase();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut group = c.benchmark_group("variants");
    group.sample_size(10);
    let bonus = |v: usize| {
        format!(
            "\n[[variant]]\nname = \"bonus {v}\"\nset = {{ \"F.longsword.bonus\" = [{}, {}] }}\n",
            14 + v,
            9 + v
        )
    };
    let power_attack = "\n[[variant]]\nname = \"power attack\"\nset = { \"F.longsword.bonus\" = [13, 8], \"F.longsword.damage\" = \"1d8+8\" }\n".to_string();
    let cases = [0, 1, 2, 4].map(|count| {
        (
            format!("{count} variants"),
            (1..=count).map(bonus).collect(),
        )
    });
    let cases = cases
        .into_iter()
        .chain([("1 Power Attack variant".to_string(), power_attack.clone())]);
    let prepare = |variants: &str| {
        let scenario = Scenario::parse("ogre-corridor.toml", format!("{text}{variants}")).unwrap();
        Prepared::from_scenario(scenario, &settings).unwrap()
    };
    for (name, variants) in cases {
        let prepared = prepare(&variants);
        group.bench_function(format!("ogre-corridor/{name}"), |b| {
            b.iter(|| black_box(prepared.run(&settings, &Silent, &AtomicBool::new(false))))
        });
    }
    // What one variant that plays every trial adds (see `common::added_cost`).
    let (without, with) = (prepare(""), prepare(&power_attack));
    let name = "ogre-corridor/1 Power Attack variant's added cost";
    common::added_cost(&mut group, name, &settings, &without, &with);
    group.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion draws them with system fonts, which a fresh machine may lack
    // (it then panics); the figures are in the terminal output and target/criterion/.
    config = Criterion::default().without_plots();
    targets = attacks, exact_engine, pipeline, variants
}
criterion_main!(benches);

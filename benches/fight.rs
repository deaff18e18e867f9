//! Fights: Monte Carlo throughput of a pf1 party of four against four monsters (rolled
//! initiative, `best` tactics, dying rules, up to 10 rounds) on 1 and 2 threads, the
//! showcase plan's fight-free throughput for comparison, and the exact fight engine on a
//! 1 vs 2 fight of 60-hp combatants over 10 rounds; and the party fight end to end with 0,
//! 1, 2 and 4 variants paired on common random numbers (what each added variant costs in
//! an encounter).

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use d20odds::run::{Prepared, Settings, Silent};
use d20odds::{EngineConfig, Fight, Scenario, exact_fight, simulate_fight};

mod common;

const TRIALS: u64 = 1_000_000;

/// A combatant with one attack, at `place` on the map's letters.
fn combatant(token: char, side: &str, ac: i32, hp: i64, bonus: &str, damage: &str) -> String {
    format!(
        "[[combatant]]\ntoken = \"{token}\"\nside = \"{side}\"\nac = {ac}\nhp = {hp}\ncon = 12\n\
         [[combatant.attack]]\nname = \"blade\"\nkind = \"melee\"\nbonus = {bonus}\ndamage = \"{damage}\"\nreach = 15\n"
    )
}

fn party_of_four() -> Fight {
    Fight::from_scenario(&Scenario::parse("party.toml", party_text()).unwrap())
        .unwrap()
        .unwrap()
}

/// The party fight's experiment file.
fn party_text() -> String {
    let mut text = String::from(
        "system = \"pf1\"\nmap = \"\"\"\n........\n.ABCD...\n.WXYZ...\n........\n\"\"\"\n[encounter]\ninitiative = \"rolled\"\nrounds = 10\n",
    );
    for (t, ac, hp, bonus, damage) in [
        ('A', 20, 40, "[10, 5]", "1d8+5"),
        ('B', 18, 30, "[8, 3]", "1d6+3"),
        ('C', 17, 28, "6", "1d8+2"),
        ('D', 14, 20, "5", "1d6"),
    ] {
        text += &combatant(t, "party", ac, hp, bonus, damage);
    }
    for (t, ac, hp, bonus, damage) in [
        ('W', 17, 30, "7", "2d8+7"),
        ('X', 15, 12, "[4, -1]", "1d6+1"),
        ('Y', 15, 12, "4", "1d6+1"),
        ('Z', 15, 12, "4", "1d6+1"),
    ] {
        text += &combatant(t, "monsters", ac, hp, bonus, damage);
    }
    text
}

fn one_against_two() -> Fight {
    let mut text = String::from(
        "system = \"pf1\"\nmap = \"ABC\"\n[encounter]\ninitiative = \"listed\"\nrounds = 10\n",
    );
    text += &combatant('A', "hero", 18, 60, "[9, 4]", "1d8+4");
    text += &combatant('B', "foes", 16, 60, "6", "1d8+3");
    text += &combatant('C', "foes", 16, 60, "6", "1d8+3");
    Fight::from_scenario(&Scenario::parse("duel.toml", text).unwrap())
        .unwrap()
        .unwrap()
}

fn fights(c: &mut Criterion) {
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("fight");
    group.sample_size(10);
    group.throughput(Throughput::Elements(TRIALS));
    let party = party_of_four();
    for threads in [1, 2] {
        let config = EngineConfig {
            threads: Some(threads),
            ..EngineConfig::new(1, TRIALS)
        };
        group.bench_function(format!("party 4v4/{threads} threads"), |b| {
            b.iter(|| black_box(simulate_fight(&party, &config, &|_| (), &stop)))
        });
    }
    let duel = one_against_two();
    group.throughput(Throughput::Elements(1));
    group.bench_function("exact 1v2 60hp 10 rounds", |b| {
        b.iter(|| black_box(exact_fight(&duel).unwrap()))
    });
    group.finish();
}

/// The party fight run end to end (250,000 trials, 2 threads) with 0, 1, 2 and 4
/// `[[variant]]`s, each giving A another bonus: alone it runs on the batched fight engine,
/// with variants every model runs on the shared random numbers. Then what one variant
/// adds, coupled to the baseline or not.
fn fight_variants(c: &mut Criterion) {
    let settings = Settings {
        trials: Some(250_000),
        threads: Some(2),
        ..Settings::default()
    };
    let mut group = c.benchmark_group("fight variants");
    group.sample_size(10);
    let prepare = |count: usize| {
        let variants: String = (1..=count)
            .map(|v| {
                format!(
                    "\n[[variant]]\nname = \"bonus {v}\"\nset = {{ \"A.blade.bonus\" = [{}, {}] }}\n",
                    10 + v,
                    5 + v
                )
            })
            .collect();
        let text = format!("{}{variants}", party_text());
        let scenario = Scenario::parse("party.toml", text).unwrap();
        Prepared::from_scenario(scenario, &settings).unwrap()
    };
    for count in [0, 1, 2, 4] {
        let prepared = prepare(count);
        group.bench_function(format!("party 4v4/{count} variants"), |b| {
            b.iter(|| black_box(prepared.run(&settings, &Silent, &AtomicBool::new(false))))
        });
    }
    // What one variant adds (see `common::added_cost`): a +1 to hit, coupled to the
    // baseline (it skips the trials where each of its attacks keeps the baseline's
    // outcome); a heavier blade, whose other outcomes make it play every trial, each
    // from the fighter's first turn (it changes only the fighter's turns); more hit
    // points for the fighter, which repeats the baseline's trials in which the fighter
    // never drops (it skips them); and the fighter moved, which changes every
    // combatant's turns (its own and every attack at it), so it plays every trial whole.
    let (without, with) = (prepare(0), prepare(1));
    common::added_cost(
        &mut group,
        "party 4v4/1 variant's added cost",
        &settings,
        &without,
        &with,
    );
    for (name, change) in [
        ("uncoupled", "set = { \"A.blade.damage\" = \"1d10+5\" }"),
        ("tougher", "set = { \"A.hp\" = 45 }"),
        ("moved", "move = { A = [0, 1] }"),
    ] {
        let text = format!(
            "{}\n[[variant]]\nname = \"{name}\"\n{change}\n",
            party_text()
        );
        let variant =
            Prepared::from_scenario(Scenario::parse("party.toml", text).unwrap(), &settings)
                .unwrap();
        common::added_cost(
            &mut group,
            &format!("party 4v4/1 {name} variant's added cost"),
            &settings,
            &without,
            &variant,
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion draws them with system fonts, which a fresh machine may lack
    // (it then panics); the figures are in the terminal output and target/criterion/.
    config = Criterion::default().without_plots();
    targets = fights, fight_variants
}
criterion_main!(benches);

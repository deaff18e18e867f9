//! The fight engines against hand-computed fractions, and Monte Carlo against the exact
//! engine on generated fights.

use std::sync::atomic::AtomicBool;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::exact::exact_fight_within;
use super::*;
use crate::engine::{EngineConfig, Figure, SamplerKind};
use crate::scenario::Scenario;
use crate::stats::proportion_z;

fn fight(text: &str) -> Fight {
    let scenario = Scenario::parse("fight.toml", text).unwrap_or_else(|e| panic!("{e}"));
    Fight::from_scenario(&scenario).unwrap().expect("a fight")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// Two pf1 duellists, 5 hp and Con 10 each, +0 for exactly 5 (immune to crits): a hit
/// on 10+ against AC 10 (11/20) leaves the other disabled at 0 hp, unable to act, and the
/// fight is over. `b_keys` gives B's AC and Dex.
fn duel(initiative: &str, b_keys: &str) -> String {
    format!(
        r#"
system = "pf1"
[encounter]
initiative = "{initiative}"
rounds = 3
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 5
con = 10
init = 2
immune_to_crits = true
[[combatant.attack]]
name = "club"
bonus = 0
damage = "5"
[[combatant]]
token = "B"
side = "b"
hp = 5
con = 10
immune_to_crits = true
{b_keys}
[[combatant.attack]]
name = "club"
bonus = 0
damage = "5"
"#
    )
}

/// Listed: A first. Round 1: A wins 11/20; B wins 9/20 · 11/20 = 99/400; undecided
/// 81/400. Round 2 adds the same split of the 81/400 left: A 11/20 · 81/400 more.
#[test]
fn listed_duel() {
    let f = fight(&duel("listed", "ac = 10"));
    let e = exact_fight(&f).unwrap();
    assert!(close(e.won[0][0], 11.0 / 20.0), "{:?}", e.won[0]);
    assert!(close(e.won[0][1], 99.0 / 400.0));
    assert!(close(e.won[1][0], 11.0 / 20.0 * (1.0 + 81.0 / 400.0)));
    assert!(close(e.ended_in[0], 1.0 - 81.0 / 400.0));
    assert!(close(
        e.status[0][1][Status::Disabled as usize],
        11.0 / 20.0
    ));
    assert!(close(
        e.status[0][0][Status::Disabled as usize],
        99.0 / 400.0
    ));
    // Nobody attacks a disabled combatant, and the fight ended before its turn.
    assert!(close(e.status[2][1][Status::Dying as usize], 0.0));
    assert!(close(e.taken[0][1], 5.0 * 11.0 / 20.0));
    // Attacks made: A's club every round the fight is still on at its turn, 1 + 81/400 +
    // (81/400)²; B's after each miss of A's, 9/20 of that. Neither has a Dex bonus, so the
    // flat-footed club is the same attack: one summary row each.
    let attacks = f.attacks();
    assert_eq!(attacks.len(), 2);
    let rounds_on = 1.0 + 81.0 / 400.0 + (81.0f64 / 400.0).powi(2);
    assert!(close(e.made[attacks[0].id], rounds_on), "{:?}", e.made);
    assert!(close(e.made[attacks[1].id], rounds_on * 9.0 / 20.0));
    assert!(close(attacks[0].exact.unwrap().p_hit, 11.0 / 20.0));
}

/// The work bound counts the states after every turn of every turn order. Listed, each
/// turn leaves one fight going (both unhurt: a hit ends it), so 3 rounds × 2 turns go
/// through 6 states: a bound of 6 gives the figures, 5 gives none, on 1 thread or 2.
/// Rolled with equal init, two orders of 6 each: 12.
#[test]
fn the_exact_fight_gives_up_past_its_work_bound() {
    let listed = fight(&duel("listed", "ac = 10"));
    let rolled = fight(&duel("rolled", "ac = 12\ndex = 2"));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            for (f, work) in [(&listed, 6), (&rolled, 12)] {
                assert_eq!(exact_fight_within(f, work), exact_fight(f));
                assert!(exact_fight_within(f, work).is_ok());
                assert_eq!(
                    exact_fight_within(f, work - 1),
                    Err(format!(
                        "the fight goes through more than {} states over every turn of every turn order (minutes of work)",
                        work - 1
                    ))
                );
            }
        });
    }
}

/// Rolled, both init +2 (B's from its dex): each goes first half the time. B has AC 12
/// with Dex +2, so flat-footed (before its first turn) it has AC 10.
/// A first (1/2): A hits flat-footed B on 10+ (11/20); else B hits A (11/20).
/// B first (1/2): B hits A (11/20); else A hits B, no longer flat-footed, on 12+ (9/20).
/// A wins round 1: 1/2·11/20 + 1/2·9/20·9/20 = 301/800; B: 99/800 + 220/800 = 319/800.
#[test]
fn rolled_duel_with_flat_footed() {
    let f = fight(&duel("rolled", "ac = 12\ndex = 2"));
    assert_eq!((f.fighters[0].init, f.fighters[1].init), (2, 2));
    let e = exact_fight(&f).unwrap();
    assert!(close(e.won[0][0], 301.0 / 800.0), "{:?}", e.won[0]);
    assert!(close(e.won[0][1], 319.0 / 800.0), "{:?}", e.won[0]);
    // A's club at flat-footed B is its own attack (AC 10, not 12), made only when A goes
    // first (1/2); A's at B after B's first turn is a second row; A has no Dex, so B's
    // club at A is one.
    let attacks = f.attacks();
    assert_eq!(attacks.len(), 3);
    let flat = attacks
        .iter()
        .find(|a| a.flat_footed)
        .expect("a flat-footed row");
    assert!(close(e.made[flat.id], 1.0 / 2.0), "{:?}", e.made);
    assert!(close(flat.exact.unwrap().p_hit, 11.0 / 20.0));
}

/// A three-way fight where A always hits (+100: all but a natural 1, 19/20) for 6 and
/// picks B first (equal expected damage, both immune to crits; B has fewer hp left than
/// C); C has 1000 hp and no attacks, so the fight goes on. Listed order A, B, C.
fn bleeder(system: &str, b_keys: &str) -> Fight {
    fight(&format!(
        r#"
system = "{system}"
[encounter]
initiative = "listed"
rounds = 2
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 100
[[combatant.attack]]
name = "axe"
bonus = 100
damage = "6"
[[combatant]]
token = "B"
side = "b"
ac = 10
hp = 5
immune_to_crits = true
{b_keys}
[[combatant]]
token = "C"
side = "b"
ac = 10
hp = 1000
immune_to_crits = true
"#
    ))
}

fn status(e: &ExactFight, round: usize, who: usize, status: Status) -> f64 {
    e.status[round - 1][who][status as usize]
}

/// pf1, B Con 10: dropped to −1 in round 1 (19/20), its check the same round: d20 − 1 ≥ 10,
/// 10/20. Round 2: at −2 it needs 12+ (9/20); the 1/20 still up is dropped again (19/20)
/// and checks at −1 (1/2).
/// Stable after 2: 19/40 + 19/40·9/20 + 1/20·19/20·1/2 = 570/800; dying 228/800; up 1/400.
#[test]
fn pf1_dying_checks() {
    let e = exact_fight(&bleeder("pf1", "con = 10")).unwrap();
    assert!(close(status(&e, 1, 1, Status::Stable), 19.0 / 40.0));
    assert!(close(status(&e, 1, 1, Status::Dying), 19.0 / 40.0));
    assert!(close(status(&e, 2, 1, Status::Stable), 570.0 / 800.0));
    assert!(close(status(&e, 2, 1, Status::Dying), 228.0 / 800.0));
    assert!(close(status(&e, 2, 1, Status::Up), 1.0 / 400.0));
}

/// pf1, B Con 3 (modifier −4, dead at −3): at −1 it needs d20 ≥ 15 (6/20), at −2 ≥ 16
/// (5/20); two failures reach −3. Dead after round 2: 19/20 · 14/20 · 15/20 = 399/800.
#[test]
fn pf1_bleeds_out() {
    let e = exact_fight(&bleeder("pf1", "con = 3")).unwrap();
    assert!(close(status(&e, 2, 1, Status::Dead), 399.0 / 800.0));
    assert!(close(
        status(&e, 1, 1, Status::Stable),
        19.0 / 20.0 * 6.0 / 20.0
    ));
}

/// d20 Modern, B Con 10 (6 damage is not massive): dying at −1, 10% a turn to stabilise.
/// Round 1: stable 19/200, dying 171/200, up 1/20.
#[test]
fn d20modern_dying_checks() {
    let e = exact_fight(&bleeder("d20modern", "con = 10")).unwrap();
    assert!(close(status(&e, 1, 1, Status::Stable), 19.0 / 200.0));
    assert!(close(status(&e, 1, 1, Status::Dying), 171.0 / 200.0));
}

/// Starfinder, B with 5 HP and 4 Resolve: 6 damage leaves it at 0 HP, 1 past it (less
/// than its 5 HP: alive), dying; on its turn it spends 1 RP (¼ of 4) to stabilise, and
/// on its next turn 1 RP to regain 1 HP and act. A acts before B, and never targets a
/// stable B. After round 1: stable 19/20. After round 2: up 19/20 + 1/20·1/20 = 381/400,
/// stable 1/20 · 19/20 = 19/400.
#[test]
fn starfinder_resolve() {
    let e = exact_fight(&bleeder("starfinder", "resolve = 4")).unwrap();
    assert!(close(status(&e, 1, 1, Status::Stable), 19.0 / 20.0));
    assert!(close(status(&e, 2, 1, Status::Up), 381.0 / 400.0));
    assert!(close(status(&e, 2, 1, Status::Stable), 19.0 / 400.0));
}

/// Starfinder, B without Resolve: dead at 0 HP, 19/20 in round 1.
#[test]
fn starfinder_monster_dies_at_zero() {
    let e = exact_fight(&bleeder("starfinder", "")).unwrap();
    assert!(close(status(&e, 1, 1, Status::Dead), 19.0 / 20.0));
}

/// Starfinder, B with 1 Resolve that it cannot spend twice: dying with 1 RP stabilises
/// (cost 1); with `resolve = 1` it revives with 0 RP next round. Dropped again in round 2
/// (A hits the revived B, 19/20) it is dying with no RP: it dies at the end of its turn.
#[test]
fn starfinder_without_resolve_left_dies() {
    let e = exact_fight(&bleeder("starfinder", "resolve = 1")).unwrap();
    assert!(close(status(&e, 1, 1, Status::Stable), 19.0 / 20.0));
    // Round 2: A attacks C (B is stable), B revives: up. Nobody dies yet.
    assert!(close(status(&e, 2, 1, Status::Dead), 0.0));
}

/// A disabled pf1 combatant (B at exactly 0 hp from a 5-damage hit) attacks once on its
/// turn and then takes 1 damage: dying. C (1000 hp) keeps the fight going.
#[test]
fn disabled_acts_once_then_is_dying() {
    let f = fight(
        r#"
system = "pf1"
[encounter]
initiative = "listed"
rounds = 1
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 100
immune_to_crits = true
[[combatant.attack]]
name = "axe"
bonus = 100
damage = "5"
[[combatant]]
token = "B"
side = "b"
ac = 10
hp = 5
con = 10
immune_to_crits = true
[[combatant.attack]]
name = "dagger"
bonus = 100
damage = "2"
[[combatant]]
token = "C"
side = "b"
ac = 10
hp = 1000
immune_to_crits = true
"#,
    );
    let e = exact_fight(&f).unwrap();
    // B disabled (19/20) still stabs A once, then is at −1, dying; up (1/20) it stabs A
    // once too: 2 · 19/20 dealt either way.
    assert!(close(status(&e, 1, 1, Status::Dying), 19.0 / 20.0));
    assert!(close(e.dealt[0][1], 2.0 * 19.0 / 20.0));
}

/// Random small fights: 1v1, 1v2, 2v2 in every system, every tactic, dying rules, on a
/// small open map (so reach and range decide who can attack whom).
fn generated(seed: u64) -> String {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let systems = ["pf1", "pf1-variant", "d20modern", "starfinder"];
    let tactics = ["best", "weakest", "nearest", "random", "hold"];
    let system = systems[seed as usize % 4];
    let sizes = [(1, 1), (1, 2), (2, 2)][rng.random_range(0..3)];
    // Rolled initiative multiplies the states by the orders (24 for four): 2v2 fights
    // are listed, to stay small.
    let initiative = if sizes != (2, 2) && rng.random_bool(0.5) {
        "rolled"
    } else {
        "listed"
    };
    let mut map = vec![vec!['.'; 6]; 3];
    let mut combatants = String::new();
    let tokens = ['A', 'B', 'X', 'Y'];
    let mut used = 0;
    for (side, count) in [("heroes", sizes.0), ("foes", sizes.1)] {
        for _ in 0..count {
            let token = tokens[used];
            loop {
                let (row, col) = (rng.random_range(0..3), rng.random_range(0..6));
                if map[row][col] == '.' {
                    map[row][col] = token;
                    break;
                }
            }
            combatants += &format!(
                "[[combatant]]\ntoken = \"{token}\"\nside = \"{side}\"\nac = {}\ndex = {}\nhp = {}\ntactic = \"{}\"\n",
                rng.random_range(10..=16),
                rng.random_range(0..=2),
                rng.random_range(3..=12),
                tactics[rng.random_range(0..5)]
            );
            combatants += &match system {
                "starfinder" if rng.random_bool(0.5) => {
                    format!("resolve = {}\n", rng.random_range(1..=4))
                }
                "starfinder" => String::new(),
                _ => format!("con = {}\n", rng.random_range(3..=12)),
            };
            combatants += &format!(
                "[[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = {}\ndamage = \"1d{}+{}\"\nrange_increment = 60\n",
                rng.random_range(0..=8),
                [4, 6, 8][rng.random_range(0..3)],
                rng.random_range(0..=3)
            );
            if rng.random_bool(0.5) {
                combatants += &format!(
                    "[[combatant.attack]]\nname = \"claws\"\nkind = \"melee\"\nbonus = [{}, {}]\ndamage = \"1d4+2\"\n",
                    rng.random_range(2..=6),
                    rng.random_range(-3..=1)
                );
            }
            used += 1;
        }
    }
    let rows: Vec<String> = map.iter().map(|r| r.iter().collect()).collect();
    format!(
        "system = \"{system}\"\nmap = \"\"\"\n{}\n\"\"\"\n[encounter]\ninitiative = \"{initiative}\"\nrounds = {}\n{combatants}",
        rows.join("\n"),
        rng.random_range(1..=4)
    )
}

/// How many standard errors an estimate lies from the exact value (its interval is
/// ±1.96 standard errors).
fn z(e: crate::stats::Estimate, exact: f64) -> f64 {
    let se = e.half_width() / crate::stats::z_critical();
    if se > 0.0 {
        (e.point - exact) / se
    } else if (e.point - exact).abs() < 1e-9 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// Every figure of `tally` against the exact engine: |z| ≤ 5.
fn agrees(f: &Fight, tally: &FightTally, e: &ExactFight, what: &str) {
    let n = f.fighters.len();
    let sides = f.sides.len();
    let mut checked = Vec::new();
    for round in 1..=f.rounds as usize {
        for side in 0..=sides {
            checked.push((
                format!("won r{round} side {side}"),
                z(tally.won(round, side), e.won[round - 1][side]),
            ));
        }
        checked.push((
            format!("ended in r{round}"),
            z(tally.ended_in(round), e.ended_in[round - 1]),
        ));
        for who in 0..n {
            for s in Status::ALL {
                let exact = e.status[round - 1][who][s as usize];
                checked.push((
                    format!("r{round} {who} {}", s.key()),
                    z(tally.status(round, who, s), exact),
                ));
            }
            checked.push((
                format!("r{round} {who} taken"),
                z(tally.taken(round, who), e.taken[round - 1][who]),
            ));
            checked.push((
                format!("r{round} {who} dealt"),
                z(tally.dealt(round, who), e.dealt[round - 1][who]),
            ));
        }
    }
    for side in 0..sides {
        checked.push((
            format!("side {side} lost down"),
            z(tally.lost_down(side), e.lost_down[side]),
        ));
        checked.push((
            format!("side {side} lost dead"),
            z(tally.lost_dead(side), e.lost_dead[side]),
        ));
    }
    // Attacks made: a profile is used at most once per order and routine of a turn, so a
    // trial's count X ≤ most = rounds × (orders + 1) and Var X ≤ E[X²] ≤ most · E[X].
    let most =
        f.rounds as f64 * (f.fighters.iter().map(|x| x.orders.len()).max().unwrap_or(0) + 1) as f64;
    let trials = tally.trials() as f64;
    for a in f.attacks() {
        let figures = tally.attack(f, a.id);
        let (exact_made, mean) = (e.made[a.id], figures.made() as f64 / trials);
        let se = (most * exact_made / trials).sqrt();
        let z_made = if se > 0.0 {
            (mean - exact_made) / se
        } else if mean == 0.0 {
            0.0
        } else {
            f64::INFINITY
        };
        checked.push((format!("attack {} made", a.id), z_made));
        // Per attack made: the proportions against their exact variance; the mean
        // damage, whose interval uses the sample variance, from 100 attacks on.
        let exact = a.exact.expect("generated attacks have tables");
        let made = figures.made();
        if made > 0 {
            let (hit, crit) = (figures.hit(), figures.crit());
            checked.push((
                format!("attack {} hit", a.id),
                proportion_z(hit.successes, made, exact.p_hit),
            ));
            checked.push((
                format!("attack {} crit", a.id),
                proportion_z(crit.successes, made, exact.p_crit),
            ));
        }
        if made >= 100 {
            checked.push((
                format!("attack {} damage", a.id),
                z(figures.damage().estimate(), exact.mean_damage),
            ));
        }
    }
    for (name, z) in checked {
        assert!(z.abs() <= 5.0, "{what}: {name}: z = {z}");
    }
}

/// 32 generated fights, each through both samplers (20,000 trials, fixed seeds): every
/// per-round status, win, fight-length, damage and side-loss figure within |z| ≤ 5 of
/// the exact engine. A fight's exact figures must sum to 1 per combatant and round.
#[test]
fn monte_carlo_agrees_with_the_exact_fight() {
    let stop = AtomicBool::new(false);
    for seed in 0..32 {
        let text = generated(seed);
        let f = fight(&text);
        let e = exact_fight(&f).unwrap_or_else(|why| panic!("{why}\n{text}"));
        for round in &e.status {
            for statuses in round {
                assert!(close(statuses.iter().sum::<f64>(), 1.0), "{text}");
            }
        }
        // Sums of branches round off past 0 or 1 unless kept within (a combatant
        // certainly up summed to 1.0000000000003835).
        let chances = (e.status.iter().flatten().flatten())
            .chain(e.won.iter().flatten())
            .chain(&e.ended_in)
            .chain(&e.lost_down)
            .chain(&e.lost_dead);
        for &p in chances {
            assert!((0.0..=1.0).contains(&p), "{p} is no chance\n{text}");
        }
        for sampler in [SamplerKind::Table, SamplerKind::Dice] {
            let config = EngineConfig {
                sampler,
                ..EngineConfig::new(seed, 20_000)
            };
            let tally = simulate_fight(&f, &config, &|_| (), &stop);
            agrees(&f, &tally, &e, &format!("seed {seed} {sampler:?}\n{text}"));
        }
    }
}

/// The same fight on 1 and 2 threads: the same counts.
#[test]
fn threads_do_not_change_the_counts() {
    let f = fight(&generated(5));
    let stop = AtomicBool::new(false);
    let run = |threads| {
        let config = EngineConfig {
            threads: Some(threads),
            ..EngineConfig::new(9, 150_000)
        };
        simulate_fight(&f, &config, &|_| (), &stop)
    };
    assert_eq!(run(1), run(2));
}

/// Orders last while their target is up; then the tactic picks the whole routine. A's
/// order is its axe at B (adjacent); C stands 35 ft away, out of the axe's reach. Round 1:
/// the axe drops B (19/20). Round 2: with B down, A's bow (+100 for 1) shoots C: C has
/// taken 19/20 · 19/20 = 361/400 on average by the end of round 2, nothing in round 1.
/// The same with the `random` tactic, whose routine goes to the one enemy left: it chooses
/// the routine as `best` does (before, it kept to the order's axe, which cannot reach C,
/// and C took nothing).
#[test]
fn orders_end_when_their_targets_are_down() {
    for tactic in ["best", "random"] {
        let f = fight(&orders_fight(tactic));
        let e = exact_fight(&f).unwrap();
        assert!(close(e.taken[0][2], 0.0));
        assert!(
            close(e.taken[1][2], 361.0 / 400.0),
            "{tactic}: {:?}",
            e.taken
        );
    }
}

/// [`orders_end_when_their_targets_are_down`]'s fight, A acting by `tactic`.
fn orders_fight(tactic: &str) -> String {
    format!(
        r#"
system = "pf1"
map = "AB.....C"
[encounter]
initiative = "listed"
rounds = 2
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 100
tactic = "{tactic}"
[[combatant.attack]]
name = "axe"
kind = "melee"
bonus = 100
damage = "6"
[[combatant.attack]]
name = "bow"
kind = "ranged"
bonus = 100
damage = "1"
range_increment = 100
[[combatant]]
token = "B"
side = "b"
ac = 10
hp = 5
con = 10
immune_to_crits = true
[[combatant]]
token = "C"
side = "b"
ac = 10
hp = 1000
immune_to_crits = true
[[plan]]
attacker = "A"
target = "B"
attack = "axe"
"#
    )
}

/// `best` and `weakest` pick different targets. A (+0, 5 damage, one round, listed) faces
/// B (AC 10, 100 hp) and C (AC 20, 3 hp), both immune to crits. `best` weighs the mean
/// damage: 5 · 11/20 at B (a hit on 10+), 5 · 1/20 at C (a natural 20), so it swings at B,
/// which takes 5 · 11/20 = 2.75 and C nothing. `weakest` swings at C, which has fewer hp
/// left: C takes 5 · 1/20 = 0.25 and B nothing.
#[test]
fn best_and_weakest_pick_their_targets() {
    let text = |tactic: &str| {
        format!(
            r#"
system = "pf1"
[encounter]
initiative = "listed"
rounds = 1
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 10
tactic = "{tactic}"
[[combatant.attack]]
name = "club"
bonus = 0
damage = "5"
[[combatant]]
token = "B"
side = "b"
ac = 10
hp = 100
immune_to_crits = true
[[combatant]]
token = "C"
side = "b"
ac = 20
hp = 3
immune_to_crits = true
"#
        )
    };
    let best = exact_fight(&fight(&text("best"))).unwrap();
    assert!(
        close(best.taken[0][1], 5.0 * 11.0 / 20.0),
        "{:?}",
        best.taken
    );
    assert!(close(best.taken[0][2], 0.0));
    let weakest = exact_fight(&fight(&text("weakest"))).unwrap();
    assert!(close(weakest.taken[0][1], 0.0), "{:?}", weakest.taken);
    assert!(close(weakest.taken[0][2], 5.0 / 20.0));
}

/// A one-round pf1 fight on `map` in listed order: O (AC 10, 1000 hp, immune to crits)
/// acts first and by `weakest` clubs R (AC 10, 1 hp, Con 10) for 5; then the combatant and
/// plan line `attacker` act, then R.
fn o_clubs_r(map: &str, attacker: &str) -> Fight {
    fight(&format!(
        r#"
system = "pf1"
map = """
{map}
"""
[encounter]
initiative = "listed"
rounds = 1
[[combatant]]
token = "O"
side = "monsters"
ac = 10
hp = 1000
immune_to_crits = true
tactic = "weakest"
[[combatant.attack]]
name = "club"
bonus = 0
damage = "5"
{attacker}
[[combatant]]
token = "R"
side = "party"
ac = 10
hp = 1
con = 10
[[combatant.attack]]
name = "dagger"
bonus = 0
damage = "1"
"#
    ))
}

/// Asserts that `attacker` made two attacks in the exact fight `e`: one as the map draws
/// it, unmarked and with `before.0` in the roll (`roll` gives an attack's mark and that
/// part of its roll), in `before.1` of fights; the other, once a creature it depended on
/// dropped, marked and with `after.0`, in `after.1`.
fn made_before_and_after<T: PartialEq + std::fmt::Debug>(
    f: &Fight,
    e: &ExactFight,
    attacker: &str,
    roll: impl Fn(&FightAttack) -> (bool, T),
    before: (T, f64),
    after: (T, f64),
) {
    let made: Vec<_> = (f.attacks().into_iter())
        .filter(|a| a.plan.line(a.plan.slots()[a.slot].line).attacker == attacker)
        .filter(|a| e.made[a.id] > 0.0)
        .map(|a| (roll(&a), e.made[a.id]))
        .collect();
    assert_eq!(made.len(), 2, "{made:?}");
    let found = |marked: bool, (part, p): &(T, f64)| {
        made.iter()
            .any(|((mark, got), made)| *mark == marked && got == part && close(*made, *p))
    };
    assert!(found(false, &before), "{made:?}");
    assert!(found(true, &after), "{made:?}");
}

/// A flanking partner that drops no longer flanks. F and R flank O on the map. O acts
/// first (listed) and, by `weakest`, clubs R (1 hp, AC 10): a hit on 10+ (11/20) leaves R
/// dying, threatening nobody. Then F swings at O (AC 10, immune to crits) for 5: flanked
/// (+2) while R stands, a hit on 8+ (13/20), else on 10+ (11/20). F's damage dealt:
/// 5 · (9/20 · 13/20 + 11/20 · 11/20) = 5 · 238/400 = 2.975; its flanked attack is made
/// in 9/20 of fights, the one without its partner in 11/20.
#[test]
fn a_flanking_partner_that_drops_no_longer_flanks() {
    let f = o_clubs_r(
        ".F.\n.O.\n.R.",
        r#"
[[combatant]]
token = "F"
side = "party"
ac = 30
hp = 100
[[combatant.attack]]
name = "sword"
bonus = 0
damage = "5"
[[plan]]
attacker = "F"
target = "O"
attack = "sword"
"#,
    );
    let e = exact_fight(&f).unwrap();
    assert!(close(e.dealt[0][1], 2.975), "{:?}", e.dealt[0]);
    // Flanked while R stands (9/20), without it once R is down (11/20).
    let flanking = |a: &FightAttack| {
        let line = a.plan.line(a.plan.slots()[a.slot].line);
        (a.partners_down, line.modifiers.flanking)
    };
    made_before_and_after(
        &f,
        &e,
        "F (F)",
        flanking,
        (true, 9.0 / 20.0),
        (false, 11.0 / 20.0),
    );
    let config = EngineConfig::new(3, 20_000);
    let tally = simulate_fight(&f, &config, &|_| (), &AtomicBool::new(false));
    agrees(&f, &tally, &e, "flanking partner");
}

/// Where an outcome only adds its damage (`Fight::adds_damage_only`), the exact engine
/// shifts a group's members by it instead of applying the rules to each. On every
/// generated fight, each such outcome of each attack, at each damage its target can have
/// taken while up, gives what the rules give (`Fight::target_after`): the damage added
/// while below the threshold it names, dead from there on.
#[test]
fn an_outcome_that_only_adds_damage_is_what_the_rules_give() {
    let mut checked = 0;
    for seed in 0..32 {
        let f = fight(&generated(seed));
        for profile in &f.profiles {
            let target = profile.target;
            let start = f.start()[target];
            for &(effect, _) in &profile.branches {
                let Some(dead_from) = f.adds_damage_only(target, start, &effect) else {
                    continue;
                };
                for was in 0..f.up_below[target] {
                    let now = f.target_after(target, start.with_taken(was), &effect);
                    if was + effect.damage < dead_from {
                        assert_eq!(now, start.with_taken(was + effect.damage), "seed {seed}");
                    } else {
                        assert_eq!(f.status(target, &now), Status::Dead, "seed {seed}");
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} cases");
}

/// `pick` compares a tactic's first key as [`turn::ordered_bits`] gives it: those order as
/// the floats do, negative below positive, -0 equal to 0 (a target worth 0 mean damage is
/// no better than another worth 0).
#[test]
fn a_floats_bits_order_as_the_float() {
    let xs = [
        f64::NEG_INFINITY,
        -1e300,
        -13.5,
        -1.0,
        -1e-300,
        -0.0,
        0.0,
        1e-300,
        0.25,
        13.5,
        1e300,
        f64::INFINITY,
    ];
    for a in xs {
        for b in xs {
            let (x, y) = (turn::ordered_bits(a), turn::ordered_bits(b));
            assert_eq!(x.cmp(&y), a.partial_cmp(&b).unwrap(), "{a} against {b}");
        }
    }
}

/// Every chance of a turn drawn from one stream and written down, the damage taken and
/// dealt summed: two ways of playing a turn that ask for the same chances in the same
/// order and get the same answers leave the same log.
struct Logged<'a> {
    rng: Pcg64Mcg,
    effects: &'a [Vec<OutcomeEffect>],
    /// Each chance or hit: its kind and two numbers that say what it was.
    log: Vec<(char, i64, i64)>,
    taken: Vec<i64>,
    dealt: Vec<i64>,
}

impl turn::Chances for Logged<'_> {
    /// Any outcome of the profile's table, uniformly: every effect comes up often.
    fn attack(&mut self, profile: ProfileId) -> OutcomeEffect {
        let effects = &self.effects[profile];
        let index = self.rng.random_range(0..effects.len());
        self.log.push(('a', profile as i64, index as i64));
        effects[index]
    }

    fn stabilises(&mut self, p_stable: f64) -> bool {
        let stable = self.rng.random::<f64>() < p_stable;
        self.log
            .push(('s', p_stable.to_bits() as i64, i64::from(stable)));
        stable
    }

    fn pick(&mut self, among: usize) -> usize {
        let index = self.rng.random_range(0..among);
        self.log.push(('p', among as i64, index as i64));
        index
    }

    fn dealt(&mut self, actor: usize, hit: turn::Dealt) {
        if hit.struck.is_some() {
            self.log.push(('x', actor as i64, 0));
        }
        for (who, damage) in hit.amounts() {
            self.log.push(('d', who as i64, damage));
            self.taken[who] += damage;
            self.dealt[actor] += damage;
        }
    }
}

/// A turn played through the small-step machine, each pending chance drawn as it comes:
/// how the exact engine steps through a turn, and what Monte Carlo's
/// [`straight::Layout::play`] must equal.
fn machine_turn(f: &Fight, standings: &mut [turn::Standing], actor: usize, chances: &mut Logged) {
    use turn::{Chances, Pending};
    let mut t = turn::Turn::new(actor);
    loop {
        match f.advance(standings, &mut t) {
            Pending::Over => return,
            Pending::Attack { profile } => {
                let effect = chances.attack(profile);
                let hit = f.resolve_attack(standings, &mut t, profile, &effect);
                chances.dealt(actor, hit);
            }
            Pending::Dying { p_stable } => {
                let stable = chances.stabilises(p_stable);
                f.resolve_dying(standings, &mut t, stable);
            }
            Pending::Pick { among } => {
                let index = chances.pick(among);
                f.resolve_pick(standings, &mut t, index);
            }
        }
    }
}

/// The fights [`the_straight_turn_plays_as_the_machine`] plays: the 64 generated fights,
/// the orders fight with each tactic, and every fight of `experiments/` (orders, flanking
/// partners, soft cover that strikes, grapplers, `random` and `hold`).
fn every_kind_of_fight() -> Vec<String> {
    let mut texts: Vec<String> = (0..64).map(generated).collect();
    for tactic in ["best", "weakest", "nearest", "random", "hold"] {
        texts.push(orders_fight(tactic));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut files: Vec<_> = (std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("[encounter]") {
            texts.push(text);
        }
    }
    texts
}

/// The combatants in `standings` that are not dead, a bit each.
fn alive(standings: &[turn::Standing]) -> u64 {
    (standings.iter().enumerate()).fold(0, |set, (who, s)| set | u64::from(s.alive()) << who)
}

/// Monte Carlo's straight turn ([`straight::Layout::play`]) against the machine the exact
/// engine steps through, turn by turn, on [`every_kind_of_fight`], 300 trials each: both
/// turns from the same standings and the same stream must ask for the same chances, leave
/// the same standings and damage taken and dealt; `play` must leave its board as the
/// standings give it (who is up, who is flat-footed), and every combatant outside the set
/// it says it touched as it was. The turns played must include random picks, dying checks, disabled turns, a stable creature
/// back up on a Resolve Point, hits that struck a creature instead, and turns `play`
/// skips as changing nothing (a dead combatant's, a stable one's).
#[test]
fn the_straight_turn_plays_as_the_machine() {
    let (mut turns, mut disabled, mut back_up) = (0, 0, 0);
    let (mut skipped_dead, mut skipped_stable) = (0, 0);
    let mut kinds = std::collections::BTreeMap::new();
    for (k, text) in every_kind_of_fight().iter().enumerate() {
        let f = fight(text);
        let n = f.fighters.len();
        let layout = straight::Layout::new(&f);
        let effects: Vec<Vec<OutcomeEffect>> =
            f.profiles.iter().map(|p| p.effects.clone()).collect();
        let mut rng = Pcg64Mcg::seed_from_u64(k as u64);
        for trial in 0..300 {
            let mut board = layout.board(&f.start());
            for _ in 0..f.rounds {
                for i in 0..n {
                    let actor = (i + trial) % n;
                    let seed = rng.random::<u64>();
                    let chances = || Logged {
                        rng: Pcg64Mcg::seed_from_u64(seed),
                        effects: &effects,
                        log: Vec::new(),
                        taken: vec![0; n],
                        dealt: vec![0; n],
                    };
                    let (mut straight, mut machine) = (chances(), chances());
                    let before = board.standings[..n].to_vec();
                    let mut by_machine = before.clone();
                    machine_turn(&f, &mut by_machine, actor, &mut machine);
                    let touched = layout.play(&mut board, actor, &mut straight);
                    let standings = &board.standings[..n];
                    let what = format!("fight {k}, trial {trial}, actor {actor}\n{text}");
                    assert_eq!(standings, by_machine, "{what}");
                    assert_eq!(straight.log, machine.log, "{what}");
                    assert_eq!(straight.taken, machine.taken, "{what}");
                    assert_eq!(straight.dealt, machine.dealt, "{what}");
                    // A dead creature is never attacked, so whether it is flat-footed
                    // does not matter (its standing no longer says).
                    let flat_footed = (standings.iter().enumerate())
                        .fold(0, |set, (who, s)| set | u64::from(f.flat_footed(s)) << who);
                    let alive = alive(standings);
                    assert_eq!(board.up, f.up(standings), "{what}");
                    assert_eq!(board.fresh & alive, flat_footed & alive, "{what}");
                    for who in (0..n).filter(|&who| touched & 1 << who == 0) {
                        assert_eq!(standings[who], before[who], "{what}");
                        assert_eq!((straight.taken[who], straight.dealt[who]), (0, 0), "{what}");
                    }
                    for &(kind, ..) in &straight.log {
                        *kinds.entry(kind).or_insert(0) += 1;
                    }
                    let was = f.status(actor, &before[actor]);
                    disabled += usize::from(was == Status::Disabled);
                    back_up += usize::from(was == Status::Stable && board.up & 1 << actor != 0);
                    let skipped = touched == 0;
                    skipped_dead += usize::from(skipped && was == Status::Dead);
                    skipped_stable += usize::from(skipped && was == Status::Stable);
                    turns += 1;
                }
            }
        }
    }
    let seen = format!(
        "{turns} turns, {disabled} disabled, {back_up} back up, skipped {skipped_dead} dead and \
         {skipped_stable} stable, {kinds:?}"
    );
    assert!(turns > 100_000 && disabled > 0 && back_up > 0, "{seen}");
    assert!(skipped_dead > 0 && skipped_stable > 0, "{seen}");
    assert!(
        ['p', 's', 'x'].iter().all(|k| kinds.contains_key(k)),
        "{seen}"
    );
}

/// `Tables::in_reach` and `Tables::reaches` against their definition, on
/// [`every_kind_of_fight`]: bit `t` of `in_reach[attack × stride + i]` is set exactly when
/// `t` is an enemy the attack has an `i`-th iterative at; of `reaches`, when any attack
/// reaches `t`.
#[test]
fn reach_bits_are_the_options() {
    for text in every_kind_of_fight() {
        let f = fight(&text);
        for me in &f.fighters {
            let t = &me.tables;
            for (attack, at) in me.options.iter().enumerate() {
                for i in 0..t.stride {
                    for (who, options) in at.iter().enumerate() {
                        let enemy = f.fighters[who].side != me.side;
                        let has = enemy && options.as_ref().is_some_and(|o| o.len() > i);
                        let bit = t.in_reach[attack * t.stride + i] & 1 << who != 0;
                        assert_eq!(
                            bit, has,
                            "{} → {who}, attack {attack} #{i}\n{text}",
                            me.label
                        );
                    }
                }
            }
            for who in 0..f.fighters.len() {
                let enemy = f.fighters[who].side != me.side;
                let any = enemy && me.options.iter().any(|o| o[who].is_some());
                assert_eq!(
                    t.reaches & 1 << who != 0,
                    any,
                    "{} → {who}\n{text}",
                    me.label
                );
            }
        }
    }
}

/// A duel's text with B's club made a crossbow (a ranged attack).
fn with_ranged_b(text: &str) -> String {
    let at = text.rfind("name = \"club\"").expect("B's club");
    format!(
        "{}name = \"crossbow\"\nkind = \"ranged\"\n{}",
        &text[..at],
        &text[at + "name = \"club\"\n".len()..]
    )
}

/// A's club reaches nobody four squares away; B's crossbow reaches A: only A is noted,
/// and with the map gone (everyone in reach) nobody is.
#[test]
fn a_combatant_that_reaches_no_enemy_is_noted() {
    let text = duel("listed", "ac = 10")
        .replace("[encounter]", "map = \"\"\"\nA...B\n\"\"\"\n[encounter]");
    let notes = fight(&with_ranged_b(&text)).notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("A (A) can make no attack at any enemy from where it stands"),
        "{notes:?}"
    );
    assert!(fight(&duel("listed", "ac = 10")).notes().is_empty());
}

/// B without its club has no attack: it is noted as one that never attacks.
#[test]
fn a_combatant_without_attacks_is_noted() {
    let text = duel("listed", "ac = 10");
    let at = text.rfind("[[combatant.attack]]").expect("B's club");
    let notes = fight(&text[..at]).notes();
    assert_eq!(
        notes,
        ["B (B) has no attack, so it never attacks: it stays in the fight until it is down"]
    );
}

/// A fight says, as a plan does, when the map's `improved` squares give no attack their
/// cover, once (its plan, of scripted lines, does not): here the slit stands below B,
/// beside the duellists' lines, and a fight's `check` lists no lines, so the note does
/// not send the user there. With B's crossbow shooting A through a slit, no note.
#[test]
fn improved_squares_no_attack_passes_are_noted_in_a_fight() {
    let with_map = |map: &str| {
        duel("listed", "ac = 10").replace(
            "[encounter]",
            &format!(
                "map = \"\"\"\n{map}\n\"\"\"\n[legend]\n\"|\" = {{ blocks = true, improved = true }}\n[encounter]"
            ),
        )
    };
    let aside = with_map("AB\n.|");
    assert_eq!(
        fight(&aside).notes(),
        [
            "The map's `improved` square at (1,1) blocks none of the lines that decide an attack's cover in this experiment, so no attack gets the cover it gives."
        ]
    );
    let scenario = Scenario::parse("fight.toml", aside).unwrap();
    assert!(Plan::from_scenario(&scenario).unwrap().notes().is_empty());
    let notes = fight(&with_ranged_b(&with_map("A|B"))).notes();
    assert_eq!(notes.len(), 1, "A's club reaches nobody: {notes:?}");
    assert!(
        notes[0].starts_with("A (A) can make no attack"),
        "{notes:?}"
    );
}

/// An ally that drops no longer makes a shot one into melee (RULES.md §10: an unconscious
/// friend is engaged with nobody). R stands beside O; C shoots at O from afar. O acts
/// first (listed) and, by `weakest`, clubs R (1 hp, AC 10): a hit on 10+ (11/20) leaves R
/// dying. Then C shoots at O (AC 10, immune to crits) for 5: into melee (−4) while R
/// stands, a hit on 14+ (7/20), else on 10+ (11/20). C's damage dealt:
/// 5 · (9/20 · 7/20 + 11/20 · 11/20) = 5 · 184/400 = 2.3; its shot into melee is made in
/// 9/20 of fights, the one with R down in 11/20.
#[test]
fn an_ally_that_drops_no_longer_makes_a_shot_into_melee() {
    let f = o_clubs_r(
        "C....\n.....\n..O..\n..R..",
        r#"
[[combatant]]
token = "C"
side = "party"
ac = 30
hp = 100
[[combatant.attack]]
name = "crossbow"
kind = "ranged"
bonus = 0
damage = "5"
range_increment = 100
[[plan]]
attacker = "C"
target = "O"
attack = "crossbow"
"#,
    );
    let e = exact_fight(&f).unwrap();
    assert!(close(e.dealt[0][1], 2.3), "{:?}", e.dealt[0]);
    // Into melee (−4) while R stands (9/20), without it once R is down (11/20).
    let into_melee = |a: &FightAttack| {
        let line = a.plan.line(a.plan.slots()[a.slot].line);
        (a.allies_down, line.modifiers.into_melee)
    };
    made_before_and_after(
        &f,
        &e,
        "C (C)",
        into_melee,
        (-4, 9.0 / 20.0),
        (0, 11.0 / 20.0),
    );
    let config = EngineConfig::new(3, 20_000);
    let tally = simulate_fight(&f, &config, &|_| (), &AtomicBool::new(false));
    agrees(&f, &tally, &e, "ally in melee");
}

/// d20 Modern: a shot that may strike the creature giving the target soft cover faces
/// that creature's helpless Defense once it is down. G and B (no attacks) act first, so
/// nobody is flat-footed. X clubs the bodyguard G (hp 1) for 2: +20 against 17 misses
/// only on a natural 1, so G is dying in 19/20 of fights. Then A shoots the boss B
/// (hp 1) through G, +5 against 16 + 4 (one-half cover) = 20:
/// - G up (1/20): B is hit on 15+ and, since 16 beats G's Defense only without its Dex
///   bonus, on 16 too: 7/20; G is struck on 17–19, 3/20;
/// - G down (19/20): helpless, Defense 5 + 0 and no Dex bonus, so every total of 16–19
///   strikes G (4/20) and B is hit on 15+ only: 6/20.
///
/// B is down after round 1 in 1/20 · 7/20 + 19/20 · 6/20 = 121/400 of fights (140/400 if
/// G kept its Defense); A's shot is made as the map stands in 1/20, with G helpless in
/// 19/20.
#[test]
fn a_fallen_covering_creature_is_struck_with_its_helpless_defense() {
    let f = fight(
        r#"
system = "d20modern"
map = """
A.G.B
..X..
"""
[encounter]
initiative = "listed"
rounds = 1
[[combatant]]
token = "G"
side = "gang"
ac = 17
dex = 3
hp = 1
con = 10
[[combatant]]
token = "B"
side = "gang"
ac = 16
hp = 1
con = 10
[[combatant]]
token = "X"
side = "agents"
ac = 15
hp = 10
[[combatant.attack]]
name = "fists"
bonus = 20
damage = "2"
[[combatant]]
token = "A"
side = "agents"
ac = 15
hp = 10
[[combatant.attack]]
name = "pistol"
kind = "ranged"
bonus = 5
damage = "2"
[[plan]]
attacker = "X"
target = "G"
attack = "fists"
[[plan]]
attacker = "A"
target = "B"
attack = "pistol"
"#,
    );
    let e = exact_fight(&f).unwrap();
    let b_down = 1.0 - status(&e, 1, 1, Status::Up);
    assert!(close(b_down, 121.0 / 400.0), "{b_down}");
    made_before_and_after(
        &f,
        &e,
        "A (A)",
        |a| (a.struck_down, ()),
        ((), 1.0 / 20.0),
        ((), 19.0 / 20.0),
    );
    let config = EngineConfig::new(5, 20_000);
    let tally = simulate_fight(&f, &config, &|_| (), &AtomicBool::new(false));
    agrees(&f, &tally, &e, "fallen covering creature");
}

/// A fight's distribution of each combatant's total damage taken. A hits B (AC 11, no
/// attacks, 100 hp) with +0 for 3 (crit 20/×2) once a round for two rounds: a hit on 11+
/// (1/2), a natural 20 a threat (1/20) confirmed on 11+ (1/2), so one attack deals 0 in
/// 1/2, 3 in 19/40 and 6 in 1/40. Over two attacks, in 1,600ths: 0 in 400, 3 in
/// 2 · 20 · 19 = 760, 6 in 19² + 2 · 20 · 1 = 401, 9 in 2 · 19 · 1 = 38 and 12 in 1. A
/// takes nothing: 0 in every trial. The histogram's mean is the fight's mean damage
/// taken by the last round.
#[test]
fn a_fight_tallies_each_combatants_total_damage_taken() {
    let f = fight(
        r#"
system = "pf1"
map = "AB"
[encounter]
initiative = "listed"
rounds = 2
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 10
[[combatant.attack]]
name = "club"
bonus = 0
damage = "3"
[[combatant]]
token = "B"
side = "b"
ac = 11
hp = 100
con = 10
"#,
    );
    let trials = 40_000;
    let config = EngineConfig::new(11, trials);
    let tally = simulate_fight(&f, &config, &|_| (), &AtomicBool::new(false));
    assert_eq!(tally.damage_taken(0), [trials]);
    let expected = [(0, 400), (3, 760), (6, 401), (9, 38), (12, 1)];
    let b = tally.damage_taken(1);
    assert_eq!(b.len(), 13, "{b:?}");
    for (total, &count) in b.iter().enumerate() {
        let share = expected
            .iter()
            .find(|(d, _)| *d == total)
            .map_or(0, |e| e.1);
        let z = proportion_z(count, trials, f64::from(share) / 1600.0);
        assert!(
            z.abs() <= 5.0,
            "total {total}: {count} of {trials}, z = {z}"
        );
    }
    let sum: u64 = (b.iter().enumerate()).map(|(d, &c)| d as u64 * c).sum();
    let mean = tally.taken(2, 1).point;
    assert!((sum as f64 / trials as f64 - mean).abs() < 1e-12, "{mean}");
}

/// A duel whose one attack a variant changes: A (+`bonus`, `damage`, crits 20/×2, and
/// `a_keys`) at B (AC 15, 100 hp, no attack) for one round.
fn one_swing(bonus: i64, damage: &str, a_keys: &str) -> Fight {
    fight(&format!(
        "system = \"pf1\"\n[encounter]\nrounds = 1\n[[combatant]]\ntoken = \"A\"\nside = \"a\"\nac = 10\nhp = 10\n{a_keys}\n\
         [[combatant.attack]]\nname = \"blade\"\nbonus = {bonus}\ndamage = \"{damage}\"\n\
         [[combatant]]\ntoken = \"B\"\nside = \"b\"\nac = 15\nhp = 100\n"
    ))
}

/// The +10 variant of a +5 attack repeats the baseline's one-swing fight where the
/// swing's word keeps the baseline's outcome. By hand, in 400ths (d20, then a
/// confirmation roll on a 20): +5 misses 180, hits 209, crits 11; +10 misses 80, hits
/// 304, crits 16. Each hit's and each crit's damage comes with the same chance in both,
/// so a word keeps its outcome with probability Σ min = (80 + 209 + 11)/400 = 3/4. A
/// variant that changes nothing repeats every trial; one whose damage differs has other
/// outcomes, and one whose tactic differs may choose otherwise: neither couples.
#[test]
fn a_fight_variant_that_changes_only_chances_repeats_the_baseline_where_each_draw_keeps() {
    let baseline = one_swing(5, "1d8+2", "");
    let trials = 100_000;
    let sharper = one_swing(10, "1d8+2", "");
    let share = simulate::repeated_share(&baseline, &sharper, trials).expect("coupled");
    let z = proportion_z((share * trials as f64).round() as u64, trials as u64, 0.75);
    assert!(z.abs() <= 5.0, "share {share}, z = {z:.2}");
    let same = simulate::repeated_share(&baseline, &baseline, trials).expect("coupled");
    assert_eq!(same, 1.0);
    let heavier = one_swing(5, "1d10+2", "");
    let holding = one_swing(5, "1d8+2", "tactic = \"hold\"");
    for other in [heavier, holding] {
        assert!(!baseline.same_but_chances(&other));
        assert_eq!(simulate::repeated_share(&baseline, &other, 10), None);
    }
}

/// A coupled variant that does not play the trials repeating the baseline's gives the
/// same sums, to the integer, as when it plays every trial (its own tally counted): on
/// generated fights whose first combatant's bow gets +2. Some trials repeat, and the
/// variant's own tally, drawn in step with the baseline's, agrees with its exact fight.
#[test]
fn a_coupled_fight_variant_that_skips_repeats_sums_as_if_it_played_them() {
    let config = EngineConfig::new(11, 20_000);
    let mut coupled = 0;
    for seed in 0..24 {
        let text = generated(seed);
        let (sharper, _) = raised(&text, "bonus", 2);
        let (baseline, variant) = (fight(&text), fight(&sharper));
        if !variant.same_but_chances(&baseline) {
            continue;
        }
        coupled += 1;
        skips_as_it_would_play(
            &baseline,
            &variant,
            &config,
            &format!("seed {seed}\n{sharper}"),
        );
    }
    assert!(coupled >= 12, "{coupled} of 24 coupled");
}

/// `text` with the number of its first `key = N` raised by `by`, and N.
fn raised(text: &str, key: &str, by: i64) -> (String, i64) {
    let at = text.find(&format!("{key} = ")).expect("the key") + key.len() + " = ".len();
    let end = at + text[at..].find('\n').expect("a line");
    let was: i64 = text[at..end].parse().expect("a number");
    (format!("{}{}{}", &text[..at], was + by, &text[end..]), was)
}

/// `variant`, coupled to `baseline`, repeats some of the baseline's trials; skipping
/// them gives the same sums as playing them (see [`sums_as_if_played`]), and the
/// variant's own tally agrees with its exact fight.
fn skips_as_it_would_play(baseline: &Fight, variant: &Fight, config: &EngineConfig, what: &str) {
    let share = simulate::repeated_share(baseline, variant, 2_000).expect("coupled");
    assert!(share > 0.0, "{what}: no trial repeats");
    let playing = sums_as_if_played(baseline, variant, config, what);
    let exact = exact_fight(variant).unwrap_or_else(|why| panic!("{why}\n{what}"));
    let own = playing.into_tallies().remove(1);
    agrees(variant, &own, &exact, what);
}

/// A variant that changes only the first combatant's hit points (3 more) repeats each
/// trial in which that combatant takes less than its baseline hit points (the first
/// threshold of either), wherever no tactic reads them; skipping those trials gives the
/// same sums, to the integer, as playing them (counted), on generated fights, and the
/// variant's own tally agrees with its exact fight.
#[test]
fn a_variant_with_more_hit_points_repeats_the_trials_that_never_reach_them() {
    let config = EngineConfig::new(17, 20_000);
    let mut coupled = 0;
    for seed in 0..24 {
        let text = generated(seed);
        let (tougher, hp) = raised(&text, "hp", 3);
        let (baseline, variant) = (fight(&text), fight(&tougher));
        let Some(below) = variant.alike_below(&baseline) else {
            continue;
        };
        coupled += 1;
        assert_eq!(below, [(0, hp)], "seed {seed}");
        skips_as_it_would_play(
            &baseline,
            &variant,
            &config,
            &format!("seed {seed}\n{tougher}"),
        );
    }
    assert!(coupled >= 12, "{coupled} of 24 coupled");
}

/// A combatant's hit points are read only by its standing and by a tactic's tie break
/// between targets whose keys are equal. Heroes A (10 hp) and B (12 hp) with the same AC
/// are X's targets: with `best`, X's keys at them tie, so X shoots the one with fewer hit
/// points left, A in the baseline (10 < 12) and B once A has 15 (15 > 12), from the first
/// shot on: no trial can be told a repeat. So with `weakest`. With `nearest` (no tie break
/// by hit points) or B's AC 15 (keys that never tie), A's 15 hit points change nothing
/// until A takes 10 damage; so with A's Con, dead 10 + Con from either.
#[test]
fn only_a_tie_break_or_dropping_tells_more_hit_points_apart() {
    let text = |a_hp: i32, a_con: i32, b_ac: i32, x_tactic: &str| {
        format!(
            "system = \"pf1\"\nmap = \"\"\"\nA..X\nB...\n\"\"\"\n[encounter]\ninitiative = \"listed\"\nrounds = 3\n\
             [[combatant]]\ntoken = \"A\"\nside = \"heroes\"\nac = 14\nhp = {a_hp}\ncon = {a_con}\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 4\ndamage = \"1d8\"\nrange_increment = 60\n\
             [[combatant]]\ntoken = \"B\"\nside = \"heroes\"\nac = {b_ac}\nhp = 12\ncon = 10\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 4\ndamage = \"1d8\"\nrange_increment = 60\n\
             [[combatant]]\ntoken = \"X\"\nside = \"foes\"\nac = 14\nhp = 20\ncon = 10\ntactic = \"{x_tactic}\"\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 4\ndamage = \"1d8\"\nrange_increment = 60\n"
        )
    };
    let below = |b_ac: i32, x_tactic: &str, a_hp: i32, a_con: i32| {
        let baseline = fight(&text(10, 10, b_ac, x_tactic));
        fight(&text(a_hp, a_con, b_ac, x_tactic)).alike_below(&baseline)
    };
    assert_eq!(below(14, "best", 15, 10), None);
    assert_eq!(below(14, "weakest", 15, 10), None);
    assert_eq!(below(14, "nearest", 15, 10), Some(vec![(0, 10)]));
    assert_eq!(below(15, "best", 15, 10), Some(vec![(0, 10)]));
    assert_eq!(below(15, "best", 10, 14), Some(vec![(0, 10)]));
    assert_eq!(below(14, "best", 10, 10), Some(vec![]));
    let share = |a_hp: i32| {
        let (baseline, variant) = (text(10, 10, 15, "best"), text(a_hp, 10, 15, "best"));
        simulate::repeated_share(&fight(&baseline), &fight(&variant), 2_000)
    };
    assert_eq!(share(10), Some(1.0), "the same fight repeats every trial");
    let tougher = share(15).expect("coupled");
    assert!(0.0 < tougher && tougher < 1.0, "{tougher}");
}

/// A Starfinder combatant that spends Resolve to get back up has its damage taken set to
/// 1 short of 0 HP, lower than it reached: a trial in which A (4 Stamina + 6 HP, down at
/// 10) drops, stabilises and gets back up at 9 while B keeps the fight going must not
/// pass for a repeat of one where it never dropped, for a variant whose A has 2 Stamina
/// more (down at 12). Skipping or playing, the same sums (logging A's damage at the end
/// instead, P(a hero down) read 0.773 skipping against 0.807 playing).
#[test]
fn getting_back_up_on_resolve_is_no_repeat() {
    let text = |stamina: i32| {
        format!(
            "system = \"starfinder\"\nmap = \"AB.X\"\n[encounter]\ninitiative = \"listed\"\nrounds = 8\n\
             [[combatant]]\ntoken = \"A\"\nside = \"heroes\"\nac = 12\nhp = 6\nstamina = {stamina}\nresolve = 4\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 0\ndamage = \"1d4\"\nrange_increment = 60\n\
             [[combatant]]\ntoken = \"B\"\nside = \"heroes\"\nac = 30\nhp = 60\nstamina = 0\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 0\ndamage = \"1d4\"\nrange_increment = 60\n\
             [[combatant]]\ntoken = \"X\"\nside = \"foes\"\nac = 25\nhp = 40\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 8\ndamage = \"1d4+2\"\nrange_increment = 60\n"
        )
    };
    let (baseline, variant) = (fight(&text(4)), fight(&text(6)));
    assert_eq!(variant.alike_below(&baseline), Some(vec![(0, 10)]));
    let config = EngineConfig::new(5, 20_000);
    sums_as_if_played(&baseline, &variant, &config, "back up on Resolve");
}

/// Where nobody can get back up, a combatant's down and dead by round are steps (the
/// first round of each); with Resolve to get up on, bytes a round. A Starfinder baseline
/// whose combatants have no Resolve gives steps, its variant whose A has 4 gives bytes, so
/// the baseline's steps are read as bytes round by round: each model's P(down) and P(dead)
/// by round must then be its own tally's, count for count (reading a step as 1 only
/// after its round, A's P(down at round 1) read 0 in the baseline).
#[test]
fn steps_read_as_bytes_count_as_the_tally_does() {
    // Without the key, a hero has no Resolve Points.
    let text = |resolve: &str| {
        format!(
            "system = \"starfinder\"\nmap = \"A.X\"\n[encounter]\ninitiative = \"listed\"\nrounds = 6\n\
             [[combatant]]\ntoken = \"A\"\nside = \"heroes\"\nac = 12\nhp = 3\nstamina = 0\n{resolve}\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 4\ndamage = \"1d6\"\nrange_increment = 60\n\
             [[combatant]]\ntoken = \"X\"\nside = \"foes\"\nac = 14\nhp = 12\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 8\ndamage = \"1d4+2\"\nrange_increment = 60\n"
        )
    };
    let (baseline, variant) = (fight(&text("")), fight(&text("resolve = 4\n")));
    assert!(!baseline.can_get_back_up() && variant.can_get_back_up());
    let stop = AtomicBool::new(false);
    let config = EngineConfig::new(3, 20_000);
    let fights = [&baseline, &variant];
    let paired = simulate_fights_paired(&fights, 0..2, &config, &|_| (), &stop);
    let mut down_early = 0.0;
    for (model, tally) in paired.tallies.iter().enumerate() {
        for (f, &figure) in paired.figures().iter().enumerate() {
            let own = match figure {
                Figure::FighterDown { fighter, round } => {
                    1.0 - tally.status(round, fighter, Status::Up).point
                }
                Figure::FighterDead { fighter, round } => {
                    tally.status(round, fighter, Status::Dead).point
                }
                _ => continue,
            };
            let value = paired.value(model, f, true).point;
            assert!(
                (value - own).abs() < 1e-12,
                "model {model} {figure:?}: {value} against {own}"
            );
            if (model, figure)
                == (
                    0,
                    Figure::FighterDown {
                        fighter: 0,
                        round: 1,
                    },
                )
            {
                down_early = value;
            }
        }
    }
    assert!(down_early > 0.1, "A down at round 1: {down_early}");
}

/// The paired run of `variant` against `baseline`, its tally counted (so it plays every
/// trial), after checking that every value and difference is the same, to the integer,
/// when it is not counted (so it may skip or resume trials).
fn sums_as_if_played(
    baseline: &Fight,
    variant: &Fight,
    config: &EngineConfig,
    what: &str,
) -> crate::engine::PairedTally<FightTally> {
    let stop = AtomicBool::new(false);
    let fights = [baseline, variant];
    let run = |counted| simulate_fights_paired(&fights, counted, config, &|_| (), &stop);
    let (sparing, playing) = (run(0..1), run(0..2));
    sparing.assert_same_as(&playing, 1, what);
    playing
}

/// A variant that changes only the last combatant's bow (a die more: other outcomes, so
/// not coupled) plays each trial it does not count from the baseline's state at that
/// combatant's first turn, and gives the same sums, to the integer, as when it plays
/// every trial (counted), on generated fights. By hand: in a listed order the last
/// combatant's first turn is the last of round 1 (round 0, place n − 1, 0-based), so
/// every trial that gets there resumes there (one that ends before plays whole).
#[test]
fn a_variant_resumes_the_baseline_at_the_first_turn_it_changes_and_sums_as_if_it_played_all() {
    let config = EngineConfig::new(13, 5_000);
    let mut resumed = 0;
    for seed in 0..24 {
        let text = generated(seed);
        let bow = text.rfind("name = \"bow\"").expect("a bow");
        let at = bow + text[bow..].find("damage = \"1d").expect("its damage");
        let heavier = format!("{}damage = \"2d{}", &text[..at], &text[at + 12..]);
        let (baseline, variant) = (fight(&text), fight(&heavier));
        let last = baseline.fighters.len() - 1;
        let differ = variant
            .turns_that_differ(&baseline)
            .expect("only turns differ");
        assert_eq!(differ & !(1 << last), 0, "seed {seed}: {differ:b}");
        if differ != 0 {
            resumed += 1;
            let points = simulate::resume_points(&baseline, &variant, 2_000);
            let kept: Vec<(usize, usize)> = points.iter().flatten().copied().collect();
            assert!(!kept.is_empty(), "seed {seed}: no trial resumes");
            assert!(
                simulate::resumes_from_kept_state(&baseline, &variant, 200),
                "seed {seed}: a trial played whole"
            );
            if baseline.initiative == Initiative::Listed {
                assert!(
                    kept.iter().all(|&p| p == (0, last)),
                    "seed {seed}: {kept:?}"
                );
            }
        }
        sums_as_if_played(&baseline, &variant, &config, &format!("seed {seed}"));
    }
    assert!(resumed >= 12, "{resumed} of 24 resume");
}

/// A change to a combatant's own attack or tactic touches its own turns alone; one to its
/// AC, the turns of whoever attacks it; one to its hit points, the standings every turn
/// reads, so no turn can be told apart. A variant resumes only where a trial can open
/// with a turn it does not change.
#[test]
fn a_change_touches_the_turns_that_read_it() {
    let text = |a_bonus: i32, b_tactic: &str, x_ac: i32, x_hp: i32| {
        format!(
            "system = \"pf1\"\nmap = \"\"\"\nA..X\nB...\n\"\"\"\n[encounter]\ninitiative = \"rolled\"\nrounds = 3\n\
             [[combatant]]\ntoken = \"A\"\nside = \"heroes\"\nac = 14\nhp = 10\ncon = 10\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = {a_bonus}\ndamage = \"1d8\"\nrange_increment = 60\n\
             [[combatant]]\ntoken = \"B\"\nside = \"heroes\"\nac = 14\nhp = 10\ncon = 10\ntactic = \"{b_tactic}\"\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 4\ndamage = \"1d8\"\nrange_increment = 60\n\
             [[combatant]]\ntoken = \"X\"\nside = \"foes\"\nac = {x_ac}\nhp = {x_hp}\ncon = 10\n\
             [[combatant.attack]]\nname = \"bow\"\nkind = \"ranged\"\nbonus = 4\ndamage = \"1d8\"\nrange_increment = 60\n"
        )
    };
    let baseline = fight(&text(4, "best", 14, 10));
    let differ = |variant: String| fight(&variant).turns_that_differ(&baseline);
    assert_eq!(differ(text(4, "best", 14, 10)), Some(0));
    assert_eq!(differ(text(6, "best", 14, 10)), Some(0b001));
    assert_eq!(differ(text(4, "weakest", 14, 10)), Some(0b010));
    assert_eq!(differ(text(4, "best", 16, 10)), Some(0b011));
    assert_eq!(differ(text(4, "best", 14, 12)), None);
    // X's AC and X's own bow as well: every combatant's turns change, so no trial can
    // open with one that does not, and the variant plays every trial whole. With X's AC
    // alone, it resumes at A's or B's first turn (past X's in the third of the trials
    // that X opens, in a rolled order of three).
    let sharper_x = |text: String| {
        let at = text.rfind("bonus = 4").expect("X's bow");
        format!(
            "{}bonus = 7{}",
            &text[..at],
            &text[at + "bonus = 4".len()..]
        )
    };
    let everyone = sharper_x(text(4, "best", 16, 10));
    assert_eq!(differ(everyone.clone()), Some(0b111));
    assert!(!baseline.can_open_with_another(0b111));
    let resumed = |variant: &str| {
        let points = simulate::resume_points(&baseline, &fight(variant), 2_000);
        points.iter().flatten().count()
    };
    assert_eq!(resumed(&everyone), 0);
    assert!(resumed(&text(4, "best", 16, 10)) > 0);
}

//! Each system's distinctive rules on small experiments whose figures are worked out by
//! hand (the fraction and its reasoning beside each case). Every case goes the whole way —
//! TOML text, map geometry, rule tables, plan — and each figure must equal the hand
//! fraction in the exact engine (to rounding) and lie within 5 standard errors of it in a
//! seeded Monte Carlo run.

use d20odds::{
    EngineConfig, Exact, Plan, Proportion, Scenario, Tally, compute_exact, mean_z, proportion_z,
    simulate,
};

const TRIALS: u64 = 200_000;
const Z_BOUND: f64 = 5.0;

/// A figure of a run: per plan slot (0-based, in plan order) or per target token and
/// round (1-based).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Figure {
    Hit(usize),
    Crit(usize),
    Mean(usize),
    /// P(another creature is struck instead: the one giving cover, or the grappling
    /// partner).
    Struck(usize),
    Down(char, usize),
    Dead(char, usize),
}

pub(crate) struct Case {
    pub(crate) name: &'static str,
    pub(crate) system: &'static str,
    pub(crate) rounds: u32,
    /// Map, legend, combatants and plan, in TOML.
    pub(crate) body: &'static str,
    /// Each figure with its hand-computed value as numerator / denominator.
    pub(crate) expect: &'static [(Figure, i64, i64)],
}

use Figure::*;

/// The exact value and the Monte Carlo z-score of one figure.
fn measure(plan: &Plan, tally: &Tally, exact: &Exact, figure: Figure) -> (f64, f64) {
    let slot = |i: usize| (tally.slot(plan, i), exact.slots[i].unwrap());
    let z = |counted: Proportion, e: f64| proportion_z(counted.successes, counted.trials, e);
    match figure {
        Hit(i) => {
            let (attacks, e) = slot(i);
            (e.p_hit, z(attacks.hit(), e.p_hit))
        }
        Crit(i) => {
            let (attacks, e) = slot(i);
            (e.p_crit, z(attacks.crit(), e.p_crit))
        }
        Struck(i) => {
            let (attacks, e) = slot(i);
            (e.p_struck, z(attacks.struck(), e.p_struck))
        }
        Mean(i) => {
            let (attacks, e) = slot(i);
            let damage = attacks.damage();
            let z = mean_z(damage.sum, damage.squares, damage.n, e.mean_damage);
            (e.mean_damage, z)
        }
        Down(token, round) | Dead(token, round) => {
            let t = plan
                .target_ids()
                .find(|&t| plan.target(t).label.ends_with(&format!("({token})")))
                .unwrap_or_else(|| panic!("no target {token}"));
            let exact = exact.target(t).unwrap().rounds[round - 1];
            let counted = tally.round(t, round - 1);
            let (e, n) = match figure {
                Down(..) => (exact.p_down, counted.down),
                _ => (exact.p_dead, counted.dead),
            };
            (e, z(n, e))
        }
    }
}

pub(crate) fn check(cases: &[Case]) {
    assert!(cases.len() >= 6, "at least 6 scenarios per system");
    check_cases(cases);
}

/// Runs each case through the exact engine and a seeded Monte Carlo run.
pub(crate) fn check_cases(cases: &[Case]) {
    for case in cases {
        let text = format!(
            "system = \"{}\"\ntrials = {TRIALS}\nseed = 11\nrounds = {}\n{}",
            case.system, case.rounds, case.body
        );
        let scenario = Scenario::parse(format!("{}.toml", case.name), text)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let plan = Plan::from_scenario(&scenario).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let exact = compute_exact(&plan);
        let config = EngineConfig::new(scenario.seed, scenario.trials);
        let tally = simulate(&plan, &config, &|_| ());
        for &(figure, numerator, denominator) in case.expect {
            let want = numerator as f64 / denominator as f64;
            let (value, z) = measure(&plan, &tally, &exact, figure);
            assert!(
                (value - want).abs() <= 1e-12,
                "{} {figure:?}: exact {value} != {numerator}/{denominator}",
                case.name
            );
            assert!(
                z.abs() <= Z_BOUND,
                "{} {figure:?}: Monte Carlo z = {z:.2}",
                case.name
            );
        }
    }
}

#[test]
fn pathfinder_1e() {
    check(&[
        Case {
            // 2d6+4 ×2 = 4d6+8 (12..32) against 20 hp, Fort +5 against DC 10 + damage: dead
            // at 20+ damage, else the save fails below 5 + damage (a natural 20 saves).
            // Summed over the 1296 rolls of 4d6: 25589/25920.
            name: "coup-de-grace",
            system: "pf1",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 5, damage = "2d6+4" }] },
  { token = "T", ac = 15, hp = 20, fort = 5, conditions = ["helpless"] },
]
plan = [{ attacker = "A", target = "T", attack = "sword", action = "coup-de-grace" }]"#,
            expect: &[(Crit(0), 1, 1), (Dead('T', 1), 25589, 25920)],
        },
        Case {
            // Improved cover: Reflex +3 +4 = +7 against DC 17 saves on 10+ (11/20). Improved
            // evasion: a failure (9/20) takes half of 6d6, E[⌊6d6/2⌋] = (21 − ½)/2 = 41/4;
            // a success nothing. Mean 9/20 · 41/4 = 369/80.
            name: "improved-cover-fireball",
            system: "pf1",
            rounds: 1,
            body: r#"map = "W...T"
combatant = [
  { token = "W", ac = 12, hp = 10, attack = [{ name = "fireball", kind = "area", damage = "6d6", dc = 17 }] },
  { token = "T", ac = 15, hp = 90, reflex = 3 },
]
plan = [{ attacker = "W", target = "T", attack = "fireball", cover = "improved" }]"#,
            expect: &[(Hit(0), 9, 20), (Mean(0), 369, 80), (Crit(0), 0, 1)],
        },
        Case {
            // The cleric stands in the line. Arrow: soft cover +4 AC, 16 + 4 = 20, +10 hits on
            // 10+ (11/20); ×3 threat on a 20 confirmed on 10+: 11/400. Burning hands from the
            // archer: soft cover gives no Reflex bonus; +2 against DC 15 fails on 12- (3/5):
            // 3/5 · 7 + 2/5 · E[⌊2d6/2⌋] = 21/5 + 2/5 · 13/4 = 11/2.
            name: "soft-cover",
            system: "pf1",
            rounds: 1,
            body: r#"map = "A.C.T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [
      { name = "bow", kind = "ranged", bonus = 10, damage = "1d8", crit = "20/x3" },
      { name = "burning hands", kind = "area", damage = "2d6", dc = 15 },
  ] },
  { token = "C", side = "A", ac = 15, hp = 10 },
  { token = "T", ac = 16, hp = 90, reflex = 2 },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "A", target = "T", attack = "burning hands" },
]"#,
            expect: &[
                (Hit(0), 11, 20),
                (Crit(0), 11, 400),
                (Hit(1), 3, 5),
                (Mean(1), 11, 2),
            ],
        },
        Case {
            // Helpless, AC 18 with Dex +3: Dex counts as −5 and −4 against melee, so 18 − 3 −
            // 5 − 4 = 6: +0 hits on 6+ (3/4), threat on 20 confirmed on 6+: 3/80. Ranged:
            // 18 − 3 − 5 = 10, and B shoots into the melee where A fights T (−4): hits on
            // 14+ (7/20).
            name: "helpless",
            system: "pf1",
            rounds: 1,
            body: r#"map = "ATB"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "club", bonus = 0, damage = "1d6" }] },
  { token = "B", side = "A", ac = 15, hp = 10, attack = [{ name = "bow", kind = "ranged", bonus = 0, damage = "1d6" }] },
  { token = "T", ac = 18, dex = 3, hp = 90, conditions = ["helpless"] },
]
plan = [
  { attacker = "A", target = "T", attack = "club" },
  { attacker = "B", target = "T", attack = "bow" },
]"#,
            expect: &[(Hit(0), 3, 4), (Crit(0), 3, 80), (Hit(1), 7, 20)],
        },
        Case {
            // T lies in darkness and A has no darkvision: total concealment, so the coup de
            // grace takes two rounds and lands at the end of the second. ×2 of 10 = 20
            // against 30 hp and Fort +0 against DC 30: only a natural 20 saves. Dead after
            // round 1: 0; after round 2: 19/20.
            name: "two-round-coup-de-grace",
            system: "pf1",
            rounds: 2,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 5, damage = "10" }] },
  { token = "T", ac = 15, hp = 30, conditions = ["unconscious"], terrain = ":" },
]
plan = [{ attacker = "A", target = "T", attack = "sword", action = "coup-de-grace" }]"#,
            expect: &[(Dead('T', 1), 0, 1), (Dead('T', 2), 19, 20)],
        },
        Case {
            // Prone against a ranged attack: +4 AC; partial cover +2: 15 + 6 = 21. +10 hits
            // on 11+ (1/2); threat on 20 confirmed on 11+: 1/40.
            name: "prone-partial-cover",
            system: "pf1",
            rounds: 1,
            body: r#"map = "A...T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "bow", kind = "ranged", bonus = 10, damage = "1d8" }] },
  { token = "T", ac = 15, hp = 90, conditions = ["prone"] },
]
plan = [{ attacker = "A", target = "T", attack = "bow", cover = "partial" }]"#,
            expect: &[(Hit(0), 1, 2), (Crit(0), 1, 40)],
        },
        Case {
            // Evasion: Reflex +5 against DC 15 saves on 10+ (11/20) and takes nothing; a
            // failure (9/20) takes 3d6: 9/20 · 21/2 = 189/40.
            name: "evasion",
            system: "pf1",
            rounds: 1,
            body: r#"map = "W..R"
combatant = [
  { token = "W", ac = 12, hp = 10, attack = [{ name = "lightning", kind = "area", damage = "3d6", dc = 15 }] },
  { token = "R", ac = 17, hp = 90, reflex = 5, evasion = "evasion" },
]
plan = [{ attacker = "W", target = "R", attack = "lightning" }]"#,
            expect: &[(Hit(0), 9, 20), (Mean(0), 189, 40)],
        },
    ]);
}

#[test]
fn pathfinder_variant() {
    check(&[
        Case {
            // A longspear reaches past the ally C: the variant's soft cover (+2) counts for
            // melee too: 15 + 2 = 17, +7 hits on 10+ (11/20); ×3 threat on 20: 11/400.
            name: "reach-through-an-ally",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = "ACT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "longspear", bonus = 7, damage = "1d8", crit = "20/x3", reach = 10, reach_weapon = true }] },
  { token = "C", side = "A", ac = 15, hp = 10 },
  { token = "T", ac = 15, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "longspear" }]"#,
            expect: &[(Hit(0), 11, 20), (Crit(0), 11, 400)],
        },
        Case {
            // Higher ground counts for ranged attacks in the variant when the attacker
            // stands at least half the target's height above it: 5 ft over a Medium
            // target. +9 + 1 against 20 hits on 10+ (11/20).
            name: "higher-ground-ranged",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = "A...T"
combatant = [
  { token = "A", ac = 15, hp = 10, elevation = 5, attack = [{ name = "bow", kind = "ranged", bonus = 9, damage = "1d8" }] },
  { token = "T", ac = 20, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "bow" }]"#,
            expect: &[(Hit(0), 11, 20)],
        },
        Case {
            // Improved cover (+8): 12 + 8 = 20, +10 hits on 10+ (11/20).
            name: "improved-cover",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = "A...T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "bow", kind = "ranged", bonus = 10, damage = "1d8" }] },
  { token = "T", ac = 12, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "bow", cover = "improved" }]"#,
            expect: &[(Hit(0), 11, 20)],
        },
        Case {
            // The variant's soft cover gives +1 Reflex: +3 against DC 15 fails on 11-
            // (11/20): 11/20 · 7 + 9/20 · 13/4 = 85/16.
            name: "soft-cover-reflex",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = "A.C.T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "burning hands", kind = "area", damage = "2d6", dc = 15 }] },
  { token = "C", side = "A", ac = 15, hp = 10 },
  { token = "T", ac = 16, hp = 90, reflex = 2 },
]
plan = [{ attacker = "A", target = "T", attack = "burning hands" }]"#,
            expect: &[(Hit(0), 11, 20), (Mean(0), 85, 16)],
        },
        Case {
            // Improved cover against an area: +4 Reflex (+6 against DC 15 fails on 8-, 2/5),
            // half damage on a failure and none on a success: 2/5 · 13/4 = 13/10.
            name: "improved-cover-area",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = "A...T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "burning hands", kind = "area", damage = "2d6", dc = 15 }] },
  { token = "T", ac = 16, hp = 90, reflex = 2 },
]
plan = [{ attacker = "A", target = "T", attack = "burning hands", cover = "improved" }]"#,
            expect: &[(Hit(0), 2, 5), (Mean(0), 13, 10)],
        },
        Case {
            // A low wall counts in the variant only when both creatures are Medium or
            // smaller: the Large ogre's reach attack over it meets no cover (PF1 would give
            // +4). +10 against 20 hits on 10+ (11/20); ×3 threat on 20: 11/400.
            name: "low-wall-large-attacker",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = """
OO=T
OO..
"""
combatant = [
  { token = "O", size = "large", ac = 15, hp = 40, attack = [{ name = "greataxe", bonus = 10, damage = "3d6", crit = "20/x3" }] },
  { token = "T", ac = 20, hp = 90 },
]
plan = [{ attacker = "O", target = "T", attack = "greataxe" }]"#,
            expect: &[(Hit(0), 11, 20), (Crit(0), 11, 400)],
        },
    ]);
}

#[test]
fn d20_modern() {
    check(&[
        Case {
            // The bodyguard G (Defense 17, Dex +3) gives the boss one-half cover: 16 + 4 =
            // 20, +5 hits on 15+ (6/20). Totals 16–19 miss only because of the cover: 17–19
            // beat G's Defense and strike G (3/20); 16 beats it only without its Dex, so the
            // boss is hit after all. Boss: 6/20 + 1/20 = 7/20.
            name: "striking-the-cover",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "A.G.B"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "pistol", kind = "ranged", bonus = 5, damage = "2d6" }] },
  { token = "G", ac = 17, dex = 3, hp = 90 },
  { token = "B", ac = 16, hp = 90 },
]
plan = [{ attacker = "A", target = "B", attack = "pistol" }]"#,
            expect: &[(Hit(0), 7, 20), (Struck(0), 3, 20)],
        },
        Case {
            // X drops the bodyguard G (hp 1) first: +20 against 17 misses only on a natural
            // 1 (19/20). Down, G is helpless: Defense 5 + 0 and no Dex bonus, so A's shot at
            // the boss through G (+5 against 16 + 4 = 20, hits on 15+, 6/20) strikes G on
            // every total of 16–19 (4/20). Up, G is struck on 17–19 and the boss hit on 16
            // too (7/20). The boss (hp 1) goes down with a hit: 19/20 · 6/20 + 1/20 · 7/20
            // = 121/400.
            name: "striking-a-fallen-cover",
            system: "d20modern",
            rounds: 1,
            body: r#"map = """
A.G.B
..X..
"""
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "pistol", kind = "ranged", bonus = 5, damage = "2" }] },
  { token = "X", ac = 15, hp = 10, attack = [{ name = "fists", bonus = 20, damage = "2" }] },
  { token = "G", ac = 17, dex = 3, hp = 1 },
  { token = "B", ac = 16, hp = 1 },
]
plan = [
  { attacker = "X", target = "G", attack = "fists" },
  { attacker = "A", target = "B", attack = "pistol" },
]"#,
            expect: &[
                (Hit(0), 19, 20),
                (Hit(1), 7, 20),
                (Struck(1), 3, 20),
                (Hit(2), 6, 20),
                (Struck(2), 4, 20),
                (Down('B', 1), 121, 400),
            ],
        },
        Case {
            // A helpless Large thug has Defense 5 − 1 = 4: +0 hits on 4+ (17/20); a 19–20
            // threat confirmed on 4+: 2/20 · 17/20 = 17/200.
            name: "helpless-defense",
            system: "d20modern",
            rounds: 1,
            body: r#"map = """
AUU
.UU
"""
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "knife", bonus = 0, damage = "1d4", crit = "19-20/x2" }] },
  { token = "U", size = "large", ac = 18, dex = 2, hp = 90, conditions = ["unconscious"] },
]
plan = [{ attacker = "A", target = "U", attack = "knife" }]"#,
            expect: &[(Hit(0), 17, 20), (Crit(0), 17, 200)],
        },
        Case {
            // Nine-tenths cover against a grenade: +4 Reflex (+6 against DC 15 fails on 8-,
            // 2/5), half damage on a failure, none on a success: 2/5 · E[⌊4d6/2⌋] = 2/5 ·
            // 27/4 = 27/10.
            name: "nine-tenths-grenade",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "T...S"
combatant = [
  { token = "T", ac = 15, hp = 10, attack = [{ name = "grenade", kind = "area", damage = "4d6", dc = 15 }] },
  { token = "S", ac = 15, hp = 90, reflex = 2 },
]
plan = [{ attacker = "T", target = "S", attack = "grenade", cover = "nine-tenths" }]"#,
            expect: &[(Hit(0), 2, 5), (Mean(0), 27, 10)],
        },
        Case {
            // Dense foliage from the legend: three-quarters concealment, 30%. +7 against 13
            // hits on 6+ (3/4) · 7/10 = 21/40; a 20 confirmed on 6+, kept 7/10: 21/800.
            name: "concealment-degree",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "A.&&.T"
legend = { "&" = { concealment = 30 } }
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "rifle", kind = "ranged", bonus = 7, damage = "2d8" }] },
  { token = "T", ac = 13, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "rifle" }]"#,
            expect: &[(Hit(0), 21, 40), (Crit(0), 21, 800)],
        },
        Case {
            // A Small dog in the line gives a Medium target no cover in d20 Modern: +4
            // against 12 hits on 8+ (13/20), and nothing can be struck instead.
            name: "small-creature-no-cover",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "P.d.Q"
combatant = [
  { token = "P", ac = 15, hp = 10, attack = [{ name = "pistol", kind = "ranged", bonus = 4, damage = "2d6" }] },
  { token = "d", size = "small", ac = 13, hp = 6 },
  { token = "Q", ac = 12, hp = 90 },
]
plan = [{ attacker = "P", target = "Q", attack = "pistol" }]"#,
            expect: &[(Hit(0), 13, 20), (Struck(0), 0, 1)],
        },
        Case {
            // Coup de grace: ×2 of 3 = 6, Fort +5 against DC 10 + 6 = 16 fails on 10-: 1/2.
            name: "coup-de-grace",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "knife", bonus = 2, damage = "3" }] },
  { token = "T", ac = 15, hp = 20, fort = 5, conditions = ["helpless"] },
]
plan = [{ attacker = "A", target = "T", attack = "knife", action = "coup-de-grace" }]"#,
            expect: &[(Dead('T', 1), 1, 2)],
        },
    ]);
}

#[test]
fn starfinder() {
    check(&[
        Case {
            // Only a natural 20 hits (+5 against 26); its total 25 does not reach the KAC,
            // so it is no critical hit.
            name: "natural-twenty-below-ac",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "A...T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "rifle", kind = "ranged", bonus = 5, damage = "1d8" }] },
  { token = "T", ac = 26, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "rifle" }]"#,
            expect: &[(Hit(0), 1, 20), (Crit(0), 0, 1)],
        },
        Case {
            // +10 against 20 hits on 10+ (11/20); a natural 20 reaches AC: crit 1/20, damage
            // doubled: 10/20 · 9/2 + 1/20 · 9 = 27/10. (A threat range or multiplier is
            // refused: tests/bad_inputs/crit-range-in-starfinder.toml.)
            name: "crit-on-twenty",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "A...T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "rifle", kind = "ranged", bonus = 10, damage = "1d8" }] },
  { token = "T", ac = 20, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "rifle" }]"#,
            expect: &[(Hit(0), 11, 20), (Crit(0), 1, 20), (Mean(0), 27, 10)],
        },
        Case {
            // EAC 14 and KAC 18: a laser (+5 vs EAC) hits on 9+ (3/5), a club (+5 vs KAC)
            // on 13+ (2/5).
            name: "eac-and-kac",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [
      { name = "laser", kind = "ranged", bonus = 5, damage = "1d4", vs = "eac" },
      { name = "club", bonus = 5, damage = "1d6", vs = "kac" },
  ] },
  { token = "T", eac = 14, kac = 18, hp = 90 },
]
plan = [
  { attacker = "A", target = "T", attack = "laser" },
  { attacker = "A", target = "T", attack = "club" },
]"#,
            expect: &[(Hit(0), 3, 5), (Hit(1), 2, 5)],
        },
        Case {
            // Coup de grace: DC 10 + level 5 whatever the damage; Fort +3 saves on 12+, so
            // 11/20 die.
            name: "coup-de-grace-level",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, level = 5, attack = [{ name = "knife", bonus = 2, damage = "1d6" }] },
  { token = "T", ac = 15, hp = 50, fort = 3, conditions = ["helpless"] },
]
plan = [{ attacker = "A", target = "T", attack = "knife", action = "coup-de-grace" }]"#,
            expect: &[(Dead('T', 1), 11, 20), (Crit(0), 1, 1)],
        },
        Case {
            // Against a crit-immune target the coup de grace is a plain automatic hit: no
            // critical damage, no save, mean 7/2.
            name: "coup-de-grace-crit-immune",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, level = 5, attack = [{ name = "knife", bonus = 2, damage = "1d6" }] },
  { token = "T", ac = 15, hp = 50, fort = 3, conditions = ["helpless"], immune_to_crits = true },
]
plan = [{ attacker = "A", target = "T", attack = "knife", action = "coup-de-grace" }]"#,
            expect: &[
                (Hit(0), 1, 1),
                (Crit(0), 0, 1),
                (Mean(0), 7, 2),
                (Dead('T', 1), 0, 1),
            ],
        },
        Case {
            // Improved cover gives +4 Reflex but no evasion: +6 against DC 15 fails on 8-
            // (2/5) for full damage, a success takes half: 2/5 · 7 + 3/5 · 13/4 = 19/4.
            name: "improved-cover-area",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "A...T"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "grenade", kind = "area", damage = "2d6", dc = 15 }] },
  { token = "T", ac = 16, hp = 90, reflex = 2 },
]
plan = [{ attacker = "A", target = "T", attack = "grenade", cover = "improved" }]"#,
            expect: &[(Hit(0), 2, 5), (Mean(0), 19, 4)],
        },
        Case {
            // Helpless: Dex counts as −5 and melee attacks get +4: KAC 16 with Dex +2 becomes
            // 9; +0 + 4 hits on 5+ (4/5).
            name: "helpless",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "club", bonus = 0, damage = "1d6" }] },
  { token = "T", ac = 16, dex = 2, hp = 90, conditions = ["helpless"] },
]
plan = [{ attacker = "A", target = "T", attack = "club" }]"#,
            expect: &[(Hit(0), 4, 5)],
        },
    ]);
}

/// Invisible T stands in the open with 8 free squares around it (a guess is 1 of 9), A
/// 10 ft from it, B (blindsense) and C (blindsight) 15 ft from it.
const UNSEEN: &str = r#"map = """
.B...
.A.T.
.C...
"""
combatant = [
  { token = "A", ac = 15, attack = [{ name = "bow", kind = "ranged", bonus = 5, damage = "1d6" }] },
  { token = "B", ac = 15, senses = ["blindsense 30"], attack = [{ name = "bow", kind = "ranged", bonus = 5, damage = "1d6" }] },
  { token = "C", ac = 15, senses = ["blindsight 15"], attack = [{ name = "bow", kind = "ranged", bonus = 5, damage = "1d6" }] },
  { token = "T", ac = 15, hp = 90, conditions = ["invisible"] },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "B", target = "T", attack = "bow" },
  { attacker = "C", target = "T", attack = "bow" },
  { attacker = "A", target = "T", attack = "bow", pinpointed = true },
]"#;

#[test]
fn unseen_targets_have_total_concealment_in_every_system() {
    // +5 against AC 15 hits on 10+ (11/20); a 20 threatens, confirmed on 10+ (11/400).
    // Unseen: 50% miss chance, and the square guessed among 9 (1/18 of every hit):
    // 11/360, crits 11/7200. Blindsense pinpoints the square: 11/40 (crits 11/800).
    // Blindsight within range ignores the concealment: 11/20. Starfinder crits are a
    // natural 20 reaching AC: 1/20, unseen 1/360, pinpointed 1/40. The variant rolls the
    // d% first; the product is the same.
    let pf1_like = |name, system| Case {
        name,
        system,
        rounds: 1,
        body: UNSEEN,
        expect: &[
            (Hit(0), 11, 360),
            (Crit(0), 11, 7200),
            (Hit(1), 11, 40),
            (Crit(1), 11, 800),
            (Hit(2), 11, 20),
            (Crit(2), 11, 400),
            (Hit(3), 11, 40),
        ],
    };
    check_cases(&[
        pf1_like("invisible-pf1", "pf1"),
        pf1_like("invisible-variant", "pf1-variant"),
        Case {
            name: "invisible-starfinder",
            system: "starfinder",
            rounds: 1,
            body: UNSEEN,
            expect: &[
                (Hit(0), 11, 360),
                (Crit(0), 1, 360),
                (Hit(1), 11, 40),
                (Crit(1), 1, 40),
                (Hit(2), 11, 20),
                (Crit(2), 1, 20),
            ],
        },
        Case {
            // d20 Modern has `blinded` now: everything the blinded attacker attacks has total
            // concealment, guessed (11/360) unless the plan pinpoints it (11/40).
            name: "blinded-d20modern",
            system: "d20modern",
            rounds: 1,
            body: r#"map = """
.....
.A.T.
.....
"""
combatant = [
  { token = "A", ac = 15, conditions = ["blinded"], attack = [{ name = "pistol", kind = "ranged", bonus = 5, damage = "2d6" }] },
  { token = "T", ac = 15, hp = 90 },
]
plan = [
  { attacker = "A", target = "T", attack = "pistol" },
  { attacker = "A", target = "T", attack = "pistol", pinpointed = true },
]"#,
            expect: &[
                (Hit(0), 11, 360),
                (Crit(0), 11, 7200),
                (Hit(1), 11, 40),
                (Crit(1), 11, 800),
            ],
        },
    ]);
}

/// A shoots T 25 ft away (the third 10-ft increment) while F, A's ally, threatens T; P
/// has Precise Shot.
const RANGE_AND_MELEE: &str = r#"map = """
A....T
....F.
......
.....P
"""
combatant = [
  { token = "A", ac = 15, attack = [{ name = "bow", kind = "ranged", bonus = 13, damage = "1d8", range_increment = 10 }] },
  { token = "P", side = "A", ac = 15, precise_shot = true, attack = [{ name = "bow", kind = "ranged", bonus = 5, damage = "1d8" }] },
  { token = "F", side = "A", ac = 15, attack = [{ name = "sword", bonus = 0, damage = "1d8" }] },
  { token = "T", ac = 15, hp = 90 },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "P", target = "T", attack = "bow" },
]"#;

#[test]
fn range_increments_and_shooting_into_melee() {
    // A: +13, third increment −4, into melee −4: +5 against AC 15 hits on 10+ (11/20), a
    // 20 confirmed on 10+ (11/400). P: Precise Shot, no increment: +5, the same. In
    // Starfinder there is no into-melee penalty: A is +9, hits on 6+ (3/4); P +5 (11/20);
    // crits a natural 20 reaching AC (1/20).
    let pf1_like = |name, system| Case {
        name,
        system,
        rounds: 1,
        body: RANGE_AND_MELEE,
        expect: &[
            (Hit(0), 11, 20),
            (Crit(0), 11, 400),
            (Hit(1), 11, 20),
            (Crit(1), 11, 400),
        ],
    };
    check_cases(&[
        pf1_like("range-pf1", "pf1"),
        pf1_like("range-variant", "pf1-variant"),
        pf1_like("range-d20modern", "d20modern"),
        Case {
            name: "range-starfinder",
            system: "starfinder",
            rounds: 1,
            body: RANGE_AND_MELEE,
            expect: &[
                (Hit(0), 3, 4),
                (Crit(0), 1, 20),
                (Hit(1), 11, 20),
                (Crit(1), 1, 20),
            ],
        },
    ]);
}

#[test]
fn smaller_fidelity_rules() {
    check_cases(&[
        Case {
            // d20 Modern footnote 1: prone's ranged +4 does not apply next to the attacker.
            // A (adjacent): +5 against 15 hits on 10+ (11/20), crits 11/400. B (15 ft): 19,
            // hits on 14+ (7/20), crits 7/400.
            name: "prone-footnote",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "AT..B"
combatant = [
  { token = "A", ac = 15, attack = [{ name = "pistol", kind = "ranged", bonus = 5, damage = "2d6" }] },
  { token = "B", ac = 15, attack = [{ name = "pistol", kind = "ranged", bonus = 5, damage = "2d6" }] },
  { token = "T", ac = 15, hp = 90, conditions = ["prone"] },
]
plan = [
  { attacker = "A", target = "T", attack = "pistol" },
  { attacker = "B", target = "T", attack = "pistol" },
]"#,
            expect: &[
                (Hit(0), 11, 20),
                (Crit(0), 11, 400),
                (Hit(1), 7, 20),
                (Crit(1), 7, 400),
            ],
        },
        Case {
            // Entangled (PF1): −2 on attacks and −4 Dex, so −4 on ranged attacks and −2 AC.
            // A shoots at +9 − 4 = +5 against 17 − 2 = 15: 11/20. B strikes at +7 − 2 = +5:
            // 11/20.
            name: "entangled",
            system: "pf1",
            rounds: 1,
            body: r#"map = "A..TB"
combatant = [
  { token = "A", ac = 15, conditions = ["entangled"], attack = [{ name = "bow", kind = "ranged", bonus = 9, damage = "1d6" }] },
  { token = "B", ac = 15, conditions = ["entangled"], attack = [{ name = "sword", bonus = 7, damage = "1d6" }] },
  { token = "T", ac = 17, hp = 90, conditions = ["entangled"] },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "B", target = "T", attack = "sword" },
]"#,
            expect: &[(Hit(0), 11, 20), (Hit(1), 11, 20)],
        },
        Case {
            // A creature's own concealment: blur 20% keeps 4/5 of 11/20 = 11/25 (crits 11/500);
            // displacement 50% is not total concealment: no guess, 11/40.
            name: "blur-and-displacement",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
A.T
...
..D
"""
combatant = [
  { token = "A", ac = 15, attack = [{ name = "bow", kind = "ranged", bonus = 5, damage = "1d6" }] },
  { token = "T", ac = 15, hp = 90, concealment = 20 },
  { token = "D", ac = 15, hp = 90, concealment = 50 },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "A", target = "D", attack = "bow" },
]"#,
            expect: &[(Hit(0), 11, 25), (Crit(0), 11, 500), (Hit(1), 11, 40)],
        },
    ]);
}

/// Where conditions meet: a Dex penalty before a lost Dex bonus, flat-footed once in
/// Starfinder, a posture against cover in d20 Modern, invisibility against blindsight, and
/// sneak attack against concealment.
#[test]
fn conditions_combine_as_the_texts_say() {
    check_cases(&[
        Case {
            // PF1 entangled is −4 Dex: the Dex modifier +3 becomes +1, which flat-footed then
            // loses: AC 15 − 3 = 12 (not 15 − 2 − 3 = 10). +0 hits on 12+: 9/20; a 20
            // threatens and confirms on 12+: 9/400. Helpless (Dex counts as −5, −4 against
            // melee) and entangled: 15 − 3 − 5 − 4 = 3 whatever the Dex penalty; −3 hits on
            // 6+: 15/20, crits 15/400. Grappled (the condition text: −2 on attacks, −4 Dex),
            // B strikes the grappled G at +5 − 2 = +3 against 17 − 2 = 15: 12+, 9/20.
            name: "a-dex-penalty-before-a-lost-dex-bonus",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
AT....
H.....
....BG
"""
combatant = [
  { token = "A", side = "a", ac = 15, attack = [{ name = "sword", bonus = 0, damage = "1d4" }, { name = "club", bonus = -3, damage = "1d4" }] },
  { token = "B", side = "a", ac = 15, conditions = ["grappled"], attack = [{ name = "sword", bonus = 5, damage = "1d4" }] },
  { token = "T", side = "t", ac = 15, dex = 3, hp = 90, conditions = ["entangled", "flat-footed"] },
  { token = "H", side = "t", ac = 15, dex = 3, hp = 90, conditions = ["entangled", "helpless"] },
  { token = "G", side = "t", ac = 17, hp = 90, conditions = ["grappled"] },
]
plan = [
  { attacker = "A", target = "T", attack = "sword" },
  { attacker = "A", target = "H", attack = "club" },
  { attacker = "B", target = "G", attack = "sword" },
]"#,
            expect: &[
                (Hit(0), 9, 20),
                (Crit(0), 9, 400),
                (Hit(1), 15, 20),
                (Crit(1), 15, 400),
                (Hit(2), 9, 20),
            ],
        },
        Case {
            // Starfinder flat-footed is −2 AC once, however many sources: an invisible
            // attacker against a stunned target, KAC 20 − 2 = 18 (not 16). +0 hits on 18+:
            // 3/20; a natural 20 reaching 18 crits: 1/20; 1d4 is 5/2 a hit, 5 a crit (rolled
            // twice): 2/20 · 5/2 + 1/20 · 5 = 1/2. Pinned (−4, and flat-footed) against an
            // invisible attacker: 20 − 4 − 2 = 14 (not 12): 7/20.
            name: "flat-footed-once",
            system: "starfinder",
            rounds: 1,
            body: r#"map = """
AT
BP
"""
combatant = [
  { token = "A", side = "a", ac = 15, conditions = ["invisible"], attack = [{ name = "blade", bonus = 0, damage = "1d4" }] },
  { token = "B", side = "a", ac = 15, conditions = ["invisible"], attack = [{ name = "blade", bonus = 0, damage = "1d4" }] },
  { token = "T", side = "t", ac = 20, hp = 90, conditions = ["stunned"] },
  { token = "P", side = "t", ac = 20, hp = 90, conditions = ["pinned"] },
]
plan = [
  { attacker = "A", target = "T", attack = "blade" },
  { attacker = "B", target = "P", attack = "blade" },
]"#,
            expect: &[
                (Hit(0), 3, 20),
                (Crit(0), 1, 20),
                (Mean(0), 1, 2),
                (Hit(1), 7, 20),
            ],
        },
        Case {
            // d20 Modern Ambiguity 15: the wall gives half cover (+4, 2 of 4 lines). Kneeling
            // (+2 ranged) or the cover raised to three-quarters (+7), the better: Defense
            // 10 + 7 = 17, never 10 + 4 + 2 + 3. +0 hits on 17+: 4/20; a 20 threatens and
            // confirms on 17+: 4/400.
            name: "kneeling-raises-cover",
            system: "d20modern",
            rounds: 1,
            body: KNEELING_BEHIND_A_WALL,
            expect: &[(Hit(0), 4, 20), (Crit(0), 4, 400)],
        },
        Case {
            // The same wall, the target prone (+4 ranged): +4 + 4 = +8 beats
            // three-quarters' +7: Defense 18, hits on 18+: 3/20, crits 3/400.
            name: "prone-keeps-its-bonus",
            system: "d20modern",
            rounds: 1,
            body: KNEELING_BEHIND_A_WALL.replace("kneeling", "prone").leak(),
            expect: &[(Hit(0), 3, 20), (Crit(0), 3, 400)],
        },
        Case {
            // PF1: T's blindsight 30 reaches the invisible A, so A gets neither +2 nor T's
            // Dex: +0 against 15 hits on 15+: 6/20, crits 6/400, and no sneak attack: 1d4 is
            // (6/20 − 6/400) · 5/2 + 6/400 · 5 = 63/80. U cannot see A: +2 against
            // 15 − 3 = 12 hits on 10+: 11/20, crits 11/400, and 1d6 sneak attack (7/2, never
            // doubled): (11/20 − 11/400) · (5/2 + 7/2) + 11/400 · (5 + 7/2) = 539/160.
            name: "blindsight-sees-the-invisible-attacker",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
UAT
"""
combatant = [
  { token = "A", side = "a", ac = 15, conditions = ["invisible"], attack = [{ name = "sword", bonus = 0, damage = "1d4", precision = "1d6" }] },
  { token = "T", side = "t", ac = 15, dex = 3, hp = 90, senses = ["blindsight 30"] },
  { token = "U", side = "t", ac = 15, dex = 3, hp = 90 },
]
plan = [
  { attacker = "A", target = "T", attack = "sword" },
  { attacker = "A", target = "U", attack = "sword" },
]"#,
            expect: &[
                (Hit(0), 6, 20),
                (Crit(0), 6, 400),
                (Mean(0), 63, 80),
                (Hit(1), 11, 20),
                (Mean(1), 539, 160),
            ],
        },
        Case {
            // PF1: no sneak attack on a target with concealment. R flanks T with F (+2):
            // +2 against 12 hits on 10+ (11/20) and the fog lets 4/5 through: 11/25; crits
            // 11/20 · 1/20 · 4/5 = 11/500; 1d4 only: (11/25 − 11/500) · 5/2 + 11/500 · 5 =
            // 231/200. Out of the fog, G flanked by R and F takes the 1d6 too: 11/20 hits,
            // 11/400 crits, (11/20 − 11/400) · 6 + 11/400 · 17/2 = 539/160.
            name: "no-sneak-attack-into-concealment",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
.~~~.....
.RTF.SGQ.
.~~~.....
"""
combatant = [
  { token = "R", side = "p", ac = 10, terrain = "~", attack = [{ name = "dagger", bonus = 0, damage = "1d4", precision = "1d6" }] },
  { token = "F", side = "p", ac = 10, terrain = "~", attack = [{ name = "sword", bonus = 0, damage = "1d8" }] },
  { token = "S", side = "p", ac = 10, attack = [{ name = "dagger", bonus = 0, damage = "1d4", precision = "1d6" }] },
  { token = "Q", side = "p", ac = 10, attack = [{ name = "sword", bonus = 0, damage = "1d8" }] },
  { token = "T", side = "t", ac = 12, hp = 90, terrain = "~" },
  { token = "G", side = "t", ac = 12, hp = 90 },
]
plan = [
  { attacker = "R", target = "T", attack = "dagger" },
  { attacker = "S", target = "G", attack = "dagger" },
]"#,
            expect: &[
                (Hit(0), 11, 25),
                (Crit(0), 11, 500),
                (Mean(0), 231, 200),
                (Hit(1), 11, 20),
                (Mean(1), 539, 160),
            ],
        },
    ]);
}

/// d20 Modern: A shoots at T, kneeling behind the corner of a wall that blocks 2 of the 4
/// lines (half cover).
const KNEELING_BEHIND_A_WALL: &str = r#"map = """
........
.A......
........
.....#..
......T.
........
"""
combatant = [
  { token = "A", side = "a", ac = 10, attack = [{ name = "pistol", kind = "ranged", bonus = 0, damage = "1d4" }] },
  { token = "T", side = "t", ac = 10, hp = 90, conditions = ["kneeling"] },
]
plan = [{ attacker = "A", target = "T", attack = "pistol" }]"#;

#[test]
fn a_shot_at_a_grappler_strikes_one_of_the_pair_at_random() {
    check_cases(&[
        Case {
            // d20 Modern, Defense Modifiers footnote 3: T grapples R; both are grappling and
            // lose their Dex bonus. A's shot (+9, −4 into melee: M, A's ally, is engaged
            // with T) strikes T or R at random, each 1/2. Against T, 16 − 3 = 13: hits on
            // 8+ (13/20) → 1/2 · 13/20 = 13/40; a 20 confirmed on 8+ → 1/2 · 13/400 =
            // 13/800; mean 2d6 (7): (13/40 − 13/800) · 7 + 13/800 · 14 = 1911/800.
            // Against R, 17 − 1 = 16: hits on 11+ (1/2) → R struck 1/2 · 1/2 = 1/4, and
            // with 1 hp R is down whenever struck: 1/4. M's melee baton is not shared out:
            // +3 against T's 13 hits on 10+, 11/20.
            name: "grappling-pair",
            system: "d20modern",
            rounds: 1,
            body: r#"map = """
A...TR
....M.
"""
combatant = [
  { token = "A", side = "agency", ac = 15, attack = [{ name = "pistol", kind = "ranged", bonus = 9, damage = "2d6" }] },
  { token = "M", side = "agency", ac = 15, attack = [{ name = "baton", bonus = 3, damage = "1d6" }] },
  { token = "T", side = "gang", ac = 16, dex = 3, hp = 90, grappling_with = "R" },
  { token = "R", side = "agency", ac = 17, dex = 1, hp = 1 },
]
plan = [
  { attacker = "A", target = "T", attack = "pistol" },
  { attacker = "M", target = "T", attack = "baton" },
]"#,
            expect: &[
                (Hit(0), 13, 40),
                (Crit(0), 13, 800),
                (Mean(0), 1911, 800),
                (Struck(0), 1, 4),
                (Down('R', 1), 1, 4),
                (Hit(1), 11, 20),
            ],
        },
        Case {
            // The pair works both ways: the key is on T, the shot is at R (no ally of A is
            // engaged with R: +9, and T gives R no soft cover though it stands in the
            // line). R at 16 is hit on 7+: 1/2 · 14/20 = 7/20; T at 13 is struck on 4+:
            // 1/2 · 17/20 = 17/40.
            name: "grappling-pair-either-way",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "A...TR"
combatant = [
  { token = "A", side = "agency", ac = 15, attack = [{ name = "pistol", kind = "ranged", bonus = 9, damage = "2d6" }] },
  { token = "T", side = "gang", ac = 16, dex = 3, hp = 90, grappling_with = "R" },
  { token = "R", side = "rivals", ac = 17, dex = 1, hp = 90 },
]
plan = [{ attacker = "A", target = "R", attack = "pistol" }]"#,
            expect: &[(Hit(0), 7, 20), (Struck(0), 17, 40)],
        },
    ]);
}

/// A plan line goes on as written while the creatures it depends on fall: at a target
/// that is down (unconscious, so helpless), without the flanking of a partner that is
/// down, without the penalty for shooting into melee once the engaged ally is down
/// (RULES.md §5, §10). Each such attack is a slot of its own after the plan's (`Hit(1)`,
/// `Hit(2)`…), made only in its situation.
#[test]
fn plan_lines_follow_who_is_down() {
    check_cases(&[
        Case {
            // Round 1 at AC 20: a natural 20 hits (1/20), confirmed on a 20 (1/400, 4
            // damage: −3 hp), else 2 (−1 hp); down either way, dead at −4. Round 2 the
            // target is helpless: Dex 0 counts −5 and melee gets +4, AC 11: hits on 11+
            // (1/2), confirmed crits 1/40. Dead by round 2: from −1 only a crit (−5),
            // from −3 any hit: 19/400 · 1/40 + 1/400 · 1/2 = 39/16000.
            name: "target-down-is-helpless",
            system: "pf1",
            rounds: 2,
            body: r#"map = "AT"
combatant = [
  { token = "A", side = "a", ac = 15, attack = [{ name = "sword", bonus = 0, damage = "2" }] },
  { token = "T", side = "t", ac = 20, hp = 1, con = 4 },
]
plan = [{ attacker = "A", target = "T", attack = "sword" }]"#,
            expect: &[
                (Hit(0), 1, 20),
                (Hit(1), 1, 2),
                (Crit(1), 1, 40),
                (Down('T', 1), 1, 20),
                (Dead('T', 2), 39, 16000),
            ],
        },
        Case {
            // d20 Modern: a helpless defender's Defense is 5 + its size modifier (5): +0
            // hits on 5+ (4/5), a 20 confirmed on 5+ (1/25); it was hit on a 20 alone.
            name: "target-down-is-helpless-d20modern",
            system: "d20modern",
            rounds: 2,
            body: r#"map = "AT"
combatant = [
  { token = "A", side = "a", ac = 15, attack = [{ name = "bat", bonus = 0, damage = "2" }] },
  { token = "T", side = "t", ac = 20, hp = 1, con = 10 },
]
plan = [{ attacker = "A", target = "T", attack = "bat" }]"#,
            expect: &[(Hit(0), 1, 20), (Hit(1), 4, 5), (Crit(1), 1, 25)],
        },
        Case {
            // M kills P (AC 5, 1 hp) unless it rolls a 1: 19/20. A flanks T with P while
            // P stands: +2 vs AC 12 hits on 10+ (11/20); once P is dead, on 12+ (9/20).
            // T (1 hp) is down after any hit: 1/20 · 11/20 + 19/20 · 9/20 = 91/200.
            name: "flanking-partner-down",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
.....
.ATP.
..M..
"""
combatant = [
  { token = "A", side = "p", ac = 15, attack = [{ name = "sword", bonus = 0, damage = "2" }] },
  { token = "P", side = "p", ac = 5, hp = 1, attack = [{ name = "club", bonus = 0, damage = "1" }] },
  { token = "T", side = "m", ac = 12, hp = 1, con = 10 },
  { token = "M", side = "m", ac = 10, attack = [{ name = "claw", bonus = 100, damage = "10" }] },
]
plan = [
  { attacker = "M", target = "P", attack = "claw" },
  { attacker = "A", target = "T", attack = "sword" },
]"#,
            expect: &[
                (Hit(0), 19, 20),
                (Hit(1), 11, 20),
                (Hit(2), 9, 20),
                (Down('T', 1), 91, 200),
            ],
        },
        Case {
            // F fights T beside it; S shoots T from 35 ft, into melee (−4): hits on 16+
            // (1/4); once M has killed F (19/20), on 12+ (9/20). T down: 1/20 · 1/4 +
            // 19/20 · 9/20 = 11/25.
            name: "ally-in-melee-down",
            system: "pf1",
            rounds: 1,
            body: r#"map = "S......TFM"
combatant = [
  { token = "S", side = "p", ac = 15, attack = [{ name = "crossbow", kind = "ranged", bonus = 0, damage = "2", range_increment = 100 }] },
  { token = "F", side = "p", ac = 5, hp = 1, attack = [{ name = "club", bonus = 0, damage = "1" }] },
  { token = "T", side = "m", ac = 12, hp = 1, con = 10 },
  { token = "M", side = "m", ac = 10, attack = [{ name = "claw", bonus = 100, damage = "10" }] },
]
plan = [
  { attacker = "M", target = "F", attack = "claw" },
  { attacker = "S", target = "T", attack = "crossbow" },
]"#,
            expect: &[(Hit(1), 1, 4), (Hit(2), 9, 20), (Down('T', 1), 11, 25)],
        },
    ]);
}

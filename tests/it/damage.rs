//! Damage the way the game deals it (precision and extra dice, damage reduction) and who
//! dies in each system (RULES.md §9, §10), on small experiments worked out by hand: each
//! figure must equal its fraction in the exact engine and lie within 5 standard errors of
//! it in a seeded Monte Carlo run (the same check as `systems.rs`).

use crate::systems::Figure::*;
use crate::systems::{Case, check_cases};

#[test]
fn pathfinder_1e_damage() {
    check_cases(&[
        Case {
            // B flanks with A: +5 + 2 against 15 hits on 8+ (13/20); a 20 confirmed on 8+:
            // 13/400. Sneak attack 1d6 is added once, crit or not: hits deal 4 + 7/2, crits
            // 8 + 7/2: (247 · 15/2 + 13 · 23/2)/400 = 1001/200.
            name: "sneak-attack-flanking",
            system: "pf1",
            rounds: 1,
            body: r#"map = "ATB"
combatant = [
  { token = "A", side = "party", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 5, damage = "4", precision = "1d6" }] },
  { token = "B", side = "party", ac = 15, hp = 10, attack = [{ name = "club", bonus = 0, damage = "1d4" }] },
  { token = "T", ac = 15, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "sword" }]"#,
            expect: &[(Hit(0), 13, 20), (Crit(0), 13, 400), (Mean(0), 1001, 200)],
        },
        Case {
            // A flat-footed target (AC 11): hit 1/2, crit 1/40. A shoots from 4 diagonals,
            // 30 ft by the 5/10 count: sneak attack applies, (19 · 11/2 + 1 · 15/2)/40 =
            // 14/5. B from 5 diagonals, 35 ft: no sneak attack, (19 · 2 + 4)/40 = 21/20.
            name: "sneak-attack-within-30-ft",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
A.........
..........
..........
..........
....T.....
..........
..........
..........
..........
.........B
"""
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "bow", kind = "ranged", bonus = 0, damage = "2", precision = "1d6" }] },
  { token = "B", side = "A", ac = 15, hp = 10, attack = [{ name = "bow", kind = "ranged", bonus = 0, damage = "2", precision = "1d6" }] },
  { token = "T", ac = 11, hp = 90, conditions = ["flat-footed"] },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "B", target = "T", attack = "bow" },
]"#,
            expect: &[(Hit(0), 1, 2), (Mean(0), 14, 5), (Mean(1), 21, 20)],
        },
        Case {
            // DR 5 against 1d4+2: a hit deals 0, 0, 0 or 1 (mean 1/4) and is still a hit; a
            // crit 2d4+4 − 5 (mean 4): 19/40 · 1/4 + 1/40 · 4 = 7/32. Adamantine ignores
            // the DR: 19/40 · 9/2 + 1/40 · 9 = 189/80.
            name: "damage-reduction",
            system: "pf1",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [
      { name = "sword", bonus = 0, damage = "1d4+2" },
      { name = "adamantine", bonus = 0, damage = "1d4+2", bypass_dr = true },
  ] },
  { token = "T", ac = 11, hp = 90, dr = 5 },
]
plan = [
  { attacker = "A", target = "T", attack = "sword" },
  { attacker = "A", target = "T", attack = "adamantine" },
]"#,
            expect: &[(Hit(0), 1, 2), (Mean(0), 7, 32), (Mean(1), 189, 80)],
        },
        Case {
            // Coup de grace: ×2 of 2 plus sneak attack 1d6 = 5..10, mean 15/2; Fort +0
            // against DC 10 + 5..10 fails on 14..19 faces: (14 + … + 19)/120 = 33/40.
            name: "coup-de-grace-sneak-attack",
            system: "pf1",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 5, damage = "2", precision = "1d6" }] },
  { token = "T", ac = 15, hp = 30, conditions = ["helpless"] },
]
plan = [{ attacker = "A", target = "T", attack = "sword", action = "coup-de-grace" }]"#,
            expect: &[(Crit(0), 1, 1), (Mean(0), 15, 2), (Dead('T', 1), 33, 40)],
        },
        Case {
            // Both flat-footed at AC 11, neither takes sneak attack: T is immune to it
            // (19/40 · 2 + 1/40 · 4 = 21/20), U is immune to critical hits (1/2 · 2 = 1).
            name: "precision-immunities",
            system: "pf1",
            rounds: 1,
            body: r#"map = "TAU"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 0, damage = "2", precision = "1d6" }] },
  { token = "T", ac = 11, hp = 90, conditions = ["flat-footed"], immune_to_precision = true },
  { token = "U", ac = 11, hp = 90, conditions = ["flat-footed"], immune_to_crits = true },
]
plan = [
  { attacker = "A", target = "T", attack = "sword" },
  { attacker = "A", target = "U", attack = "sword" },
]"#,
            expect: &[(Mean(0), 21, 20), (Mean(1), 1, 1)],
        },
        Case {
            // Hits 19/20 for 1d6+2 against 4 hp and Con 4: down at 4+ (5/6): 19/24; dead at
            // −4 hp, 8 damage (1/6): 19/120.
            name: "dead-at-minus-con",
            system: "pf1",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 100, damage = "1d6+2" }] },
  { token = "T", ac = 10, hp = 4, con = 4, immune_to_crits = true },
]
plan = [{ attacker = "A", target = "T", attack = "sword" }]"#,
            expect: &[(Down('T', 1), 19, 24), (Dead('T', 1), 19, 120)],
        },
    ]);
}

#[test]
fn pathfinder_variant_damage() {
    check_cases(&[
        Case {
            // Invisible archers: +2 to hit and the target (AC 13, Dex +2) loses its Dex:
            // +0 against 11 hits 1/2, crit 1/40. From 30 ft sneak attack applies (14/5);
            // from 35 ft it does not (21/20).
            name: "invisible-archers",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = "A.....T......B"
combatant = [
  { token = "A", ac = 15, hp = 10, conditions = ["invisible"], attack = [{ name = "bow", kind = "ranged", bonus = -2, damage = "2", precision = "1d6" }] },
  { token = "B", side = "A", ac = 15, hp = 10, conditions = ["invisible"], attack = [{ name = "bow", kind = "ranged", bonus = -2, damage = "2", precision = "1d6" }] },
  { token = "T", ac = 13, dex = 2, hp = 90 },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "B", target = "T", attack = "bow" },
]"#,
            expect: &[(Hit(0), 1, 2), (Mean(0), 14, 5), (Mean(1), 21, 20)],
        },
        Case {
            // As in pf1: down 19/24, dead at −Con 19/120.
            name: "dead-at-minus-con",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 100, damage = "1d6+2" }] },
  { token = "T", ac = 10, hp = 4, con = 4, immune_to_crits = true },
]
plan = [{ attacker = "A", target = "T", attack = "sword" }]"#,
            expect: &[(Down('T', 1), 19, 24), (Dead('T', 1), 19, 120)],
        },
    ]);
}

#[test]
fn d20_modern_damage() {
    check_cases(&[
        Case {
            // Extra 1d4 is not doubled; DR 2 comes off each hit: hits 1d6+1d4−2 (mean 4),
            // crits 2d6+1d4−2 (mean 15/2): 19/40 · 4 + 1/40 · 15/2 = 167/80.
            name: "extra-damage-and-dr",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "knife", bonus = 0, damage = "1d6", extra_damage = "1d4" }] },
  { token = "T", ac = 11, hp = 90, dr = 2 },
]
plan = [{ attacker = "A", target = "T", attack = "knife" }]"#,
            expect: &[(Hit(0), 1, 2), (Crit(0), 1, 40), (Mean(0), 167, 80)],
        },
        Case {
            // Hits 19/20 for 1d20 against 5 hp: down at 5+ (16/20): 19/25; dead at −10 hp,
            // 15+ (6/20), whatever the Con of 30: 57/200. No hit exceeds Con 30.
            name: "dead-at-minus-ten",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "bat", bonus = 100, damage = "1d20" }] },
  { token = "T", ac = 10, hp = 5, con = 30, immune_to_crits = true },
]
plan = [{ attacker = "A", target = "T", attack = "bat" }]"#,
            expect: &[(Down('T', 1), 19, 25), (Dead('T', 1), 57, 200)],
        },
        Case {
            // 1d20 against 50 hp and Con 10: 11+ (1/2) is massive damage; Fort +4 against
            // DC 15 fails on 10- (1/2): down at −1 hp with 19/20 · 1/2 · 1/2 = 19/80, never
            // dead.
            name: "massive-damage",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "bat", bonus = 100, damage = "1d20" }] },
  { token = "T", ac = 10, hp = 50, con = 10, fort = 4, immune_to_crits = true },
]
plan = [{ attacker = "A", target = "T", attack = "bat" }]"#,
            expect: &[(Down('T', 1), 19, 80), (Dead('T', 1), 0, 1)],
        },
        Case {
            // Only a critical hit (19/400) deals 12 > Con 10; it is one attack, one save
            // (fails 1/2): down 19/800.
            name: "massive-damage-crit-counts-once",
            system: "d20modern",
            rounds: 1,
            body: r#"map = "AT"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "bat", bonus = 100, damage = "6" }] },
  { token = "T", ac = 10, hp = 50, con = 10, fort = 4 },
]
plan = [{ attacker = "A", target = "T", attack = "bat" }]"#,
            expect: &[(Crit(0), 19, 400), (Down('T', 1), 19, 800)],
        },
    ]);
}

#[test]
fn starfinder_damage() {
    check_cases(&[
        Case {
            // Trick attack at 40 ft (no range limit): flat-footed −2 makes AC 11, hit 1/2, a
            // natural 20 crits (1/20): 9/20 · 11/2 + 1/20 · 15/2 = 57/20. U is immune to
            // critical hits but not to trick attack: 1/2 · 11/2 = 11/4. V is not flat-
            // footed: no trick attack, 9/20 · 2 + 1/20 · 4 = 11/10.
            name: "trick-attack",
            system: "starfinder",
            rounds: 1,
            body: r#"map = """
U.A.......T
...........
...........
..V........
"""
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "pistol", kind = "ranged", bonus = 0, damage = "2", precision = "1d6" }] },
  { token = "T", ac = 13, hp = 90, conditions = ["flat-footed"] },
  { token = "U", ac = 13, hp = 90, conditions = ["flat-footed"], immune_to_crits = true },
  { token = "V", ac = 11, hp = 90 },
]
plan = [
  { attacker = "A", target = "T", attack = "pistol" },
  { attacker = "A", target = "U", attack = "pistol" },
  { attacker = "A", target = "V", attack = "pistol" },
]"#,
            expect: &[
                (Hit(0), 1, 2),
                (Crit(0), 1, 20),
                (Mean(0), 57, 20),
                (Mean(1), 11, 4),
                (Mean(2), 11, 10),
            ],
        },
        Case {
            // Hits 19/20 for 1d20+10. T (10 Stamina, 10 HP, Resolve): down at 20+ (11/20):
            // 209/400; dead when 10 or more is left past 0 HP, at 30 (1/20): 19/400. U (5
            // Stamina, 20 HP, no Resolve) dies at 0 HP, 25+ (6/20): 57/200.
            name: "stamina-and-resolve",
            system: "starfinder",
            rounds: 1,
            body: r#"map = "TAU"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "club", bonus = 100, damage = "1d20+10" }] },
  { token = "T", ac = 10, hp = 10, stamina = 10, resolve = 3, immune_to_crits = true },
  { token = "U", ac = 10, hp = 20, stamina = 5, immune_to_crits = true },
]
plan = [
  { attacker = "A", target = "T", attack = "club" },
  { attacker = "A", target = "U", attack = "club" },
]"#,
            expect: &[
                (Down('T', 1), 209, 400),
                (Dead('T', 1), 19, 400),
                (Down('U', 1), 57, 200),
                (Dead('U', 1), 57, 200),
            ],
        },
        Case {
            // 10 Stamina, 10 HP, Resolve; hits 19/20. T takes 8 a hit: down after 3 hits
            // ((19/20)³ = 6859/8000 by round 3), and never dies: no one hit leaves 10 past
            // 0 HP. W takes 12 a hit: the second leaves 4 past 0 HP, the third 12: dead by
            // round 3 only after three hits of three: 6859/8000.
            name: "resolve-one-hit-kills",
            system: "starfinder",
            rounds: 4,
            body: r#"map = "TAW"
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [
      { name = "light", bonus = 100, damage = "8" },
      { name = "heavy", bonus = 100, damage = "12" },
  ] },
  { token = "T", ac = 10, hp = 10, stamina = 10, resolve = 1, immune_to_crits = true },
  { token = "W", ac = 10, hp = 10, stamina = 10, resolve = 1, immune_to_crits = true },
]
plan = [
  { attacker = "A", target = "T", attack = "light" },
  { attacker = "A", target = "W", attack = "heavy" },
]"#,
            expect: &[
                (Down('T', 3), 6859, 8000),
                (Dead('T', 4), 0, 1),
                (Dead('W', 2), 0, 1),
                (Dead('W', 3), 6859, 8000),
            ],
        },
    ]);
}

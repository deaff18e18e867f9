//! The geometry rules of issue #11 on small experiments, worked out by hand like
//! `systems.rs` (whose harness they share): wall faces, reach judged as ranged, low
//! obstacles, a flanking partner's line of effect, spreads and `partial_cover = false`.

use super::systems::Figure::*;
use super::systems::{Case, check};

#[test]
fn geometry_rules_change_the_numbers() {
    check(&[
        Case {
            // Straight down a clear corridor the lines along the walls' faces are clear: no
            // cover. +5 against 15 hits on 10+ (11/20); threat on 20 confirmed on 10+:
            // 11/400. (Faces that blocked gave cover: 7/20.)
            name: "corridor",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
######
A....T
######
"""
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "bow", kind = "ranged", bonus = 5, damage = "1d8" }] },
  { token = "T", ac = 15, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "bow" }]"#,
            expect: &[(Hit(0), 11, 20), (Crit(0), 11, 400)],
        },
        Case {
            // Cover Example #2: the Large ogre's reach attack is judged as a ranged attack, so
            // the rogue by the wall has no cover: +7 against 18 hits on 11+ (1/2), crit 1/40.
            // Her rapier at the ogre crosses the wall in adjacent melee: 17 + 4 = 21, +8 hits
            // on 13+ (2/5).
            name: "ogre-reach",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
..OO.
.#OO.
.R...
"""
combatant = [
  { token = "O", size = "large", ac = 17, hp = 90, attack = [{ name = "greatclub", bonus = 7, damage = "2d8+7" }] },
  { token = "R", ac = 18, hp = 90, attack = [{ name = "rapier", bonus = 8, damage = "1d6" }] },
]
plan = [
  { attacker = "O", target = "R", attack = "greatclub" },
  { attacker = "R", target = "O", attack = "rapier" },
]"#,
            expect: &[(Hit(0), 1, 2), (Crit(0), 1, 40), (Hit(1), 2, 5)],
        },
        Case {
            // Every line crosses the low wall or a seam of it, yet it is low: cover (+4 AC, +2 Reflex), not
            // the variant's improved cover. Bow: 19, +8 hits on 11+ (1/2), crit 1/40.
            // Burning hands: Reflex +3 + 2 against DC 15 fails on 9- (9/20) for 2d6, a
            // success takes half, no improved evasion: 9/20 · 7 + 11/20 · 13/4 = 79/16.
            name: "low-wall-variant",
            system: "pf1-variant",
            rounds: 1,
            body: r#"map = """
..=..
A.=.T
..=..
"""
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [
      { name = "bow", kind = "ranged", bonus = 8, damage = "1d8" },
      { name = "burning hands", kind = "area", damage = "2d6", dc = 15 },
  ] },
  { token = "T", ac = 15, hp = 90, reflex = 3 },
]
plan = [
  { attacker = "A", target = "T", attack = "bow" },
  { attacker = "A", target = "T", attack = "burning hands" },
]"#,
            expect: &[
                (Hit(0), 1, 2),
                (Crit(0), 1, 40),
                (Hit(1), 9, 20),
                (Mean(1), 79, 16),
            ],
        },
        Case {
            // d20 Modern: "standing behind a 3-ft. high wall" is one-quarter cover (+2), not
            // nine-tenths: 17, +5 hits on 12+ (9/20); threat on 20 confirmed on 12+: 9/400.
            name: "low-wall-d20modern",
            system: "d20modern",
            rounds: 1,
            body: r#"map = """
..=..
A.=.T
..=..
"""
combatant = [
  { token = "A", ac = 15, hp = 10, attack = [{ name = "pistol", kind = "ranged", bonus = 5, damage = "2d6" }] },
  { token = "T", ac = 15, hp = 90 },
]
plan = [{ attacker = "A", target = "T", attack = "pistol" }]"#,
            expect: &[(Hit(0), 9, 20), (Crit(0), 9, 400)],
        },
        Case {
            // P stands diagonally opposite the fighter, but across the corner where two walls
            // meet: no line of effect, so it does not threaten and nobody flanks. +5 against
            // 15 hits on 10+ (11/20), not 12/20.
            name: "partner-behind-walls",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
P#..
#T..
..F.
"""
combatant = [
  { token = "F", ac = 15, hp = 10, attack = [{ name = "sword", bonus = 5, damage = "1d6" }] },
  { token = "P", side = "F", ac = 15, hp = 10, attack = [{ name = "claw", bonus = 5, damage = "1d4" }] },
  { token = "T", ac = 15, hp = 90 },
]
plan = [{ attacker = "F", target = "T", attack = "sword" }]"#,
            expect: &[(Hit(0), 11, 20)],
        },
        Case {
            // A fireball spread from (1,2) reaches T round the wall (15 ft, radius 20): no
            // line of effect needed and no Reflex bonus from cover. Reflex +3 against DC 17
            // fails on 13- (13/20) for 6d6, a success takes half of it (E = 41/4):
            // 13/20 · 21 + 7/20 · 41/4 = 1379/80. As a burst it could not reach T at all.
            name: "fireball-spread",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
W....
..#..
..#T.
"""
combatant = [
  { token = "W", ac = 12, hp = 10, attack = [{ name = "fireball", kind = "area", damage = "6d6", dc = 17, shape = "spread", radius = 20 }] },
  { token = "T", ac = 15, hp = 90, reflex = 3 },
]
plan = [{ attacker = "W", target = "T", attack = "fireball", origin = [1, 2] }]"#,
            expect: &[(Hit(0), 13, 20), (Mean(0), 1379, 80)],
        },
        Case {
            // Starfinder spreads go round corners too: Reflex +2 against DC 15 fails on 12-
            // (3/5) for 2d6, a success takes half: 3/5 · 7 + 2/5 · 13/4 = 11/2.
            name: "grenade-spread",
            system: "starfinder",
            rounds: 1,
            body: r#"map = """
W....
..#..
..#T.
"""
combatant = [
  { token = "W", ac = 12, hp = 10, attack = [{ name = "grenade", kind = "area", damage = "2d6", dc = 15, shape = "spread", radius = 15 }] },
  { token = "T", ac = 15, hp = 90, reflex = 2 },
]
plan = [{ attacker = "W", target = "T", attack = "grenade", origin = [1, 2] }]"#,
            expect: &[(Hit(0), 3, 5), (Mean(0), 11, 2)],
        },
        Case {
            // Cover Example #4 with partial cover turned off: one blocked line is full cover,
            // +4 instead of +2: 19, +8 hits on 11+ (1/2), crit 1/40.
            name: "partial-cover-off",
            system: "pf1",
            rounds: 1,
            body: r#"map = """
S.........
..........
..........
.....#OO..
......OO..
"""
options = { partial_cover = false }
combatant = [
  { token = "S", ac = 12, hp = 10, attack = [{ name = "ray", kind = "ranged", bonus = 8, damage = "2d6" }] },
  { token = "O", size = "large", ac = 15, hp = 90 },
]
plan = [{ attacker = "S", target = "O", attack = "ray" }]"#,
            expect: &[(Hit(0), 1, 2), (Crit(0), 1, 40)],
        },
    ]);
}

//! Invariants on random small maps: symmetry under translation and mirroring, and
//! monotonicity of cover and concealment when obstacles are added.

use proptest::prelude::*;

use super::*;

/// A random map with an attacker, a target and a bystander on it.
#[derive(Clone, Debug)]
struct Scene {
    rows: Vec<String>,
    attacker: Space,
    target: Space,
    other: Space,
}

const SYMBOLS: &[char] = &[
    '.', '.', '.', '.', '.', '.', '.', '.', '#', '#', '#', '=', '~', '%', ',', ':', '|', '^',
];

fn legend() -> [(char, Terrain); 3] {
    [
        (
            '%',
            Terrain {
                concealment: 30,
                ..Terrain::FLOOR
            },
        ),
        (
            '|',
            Terrain {
                blocks: true,
                improved: true,
                ..Terrain::FLOOR
            },
        ),
        (
            '^',
            Terrain {
                elevation: 10,
                ..Terrain::FLOOR
            },
        ),
    ]
}

fn scene() -> impl Strategy<Value = Scene> {
    (4..=12i32, 4..=12i32)
        .prop_flat_map(|(w, h)| {
            let cells = proptest::collection::vec(0..SYMBOLS.len(), (w * h) as usize);
            let spot = move |side_max: i32| {
                (1..=side_max).prop_flat_map(move |side| (0..=w - side, 0..=h - side, Just(side)))
            };
            (Just((w, h)), cells, spot(2), spot(2), spot(1))
        })
        .prop_filter_map("creatures overlap", |((w, _), cells, a, t, o)| {
            let space = |(x, y, side)| Space::new(x, y, side);
            let (attacker, target, other) = (space(a)?, space(t)?, space(o)?);
            let overlap = |p: &Space, q: &Space| p.squares().any(|s| q.contains(s));
            if overlap(&attacker, &target) || overlap(&attacker, &other) || overlap(&target, &other)
            {
                return None;
            }
            let rows = cells
                .chunks(w as usize)
                .map(|r| r.iter().map(|&i| SYMBOLS[i]).collect())
                .collect();
            Some(Scene {
                rows,
                attacker,
                target,
                other,
            })
        })
}

fn grid(rows: &[String]) -> Grid {
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    match parse(&refs, &legend()) {
        Ok(map) => map.grid,
        Err(e) => panic!("generated map does not parse: {e}"),
    }
}

fn ctx<'a>(attack: Approach, creatures: &'a [Space], vision: Vision, config: Config) -> Ctx<'a> {
    Ctx {
        attack,
        creatures,
        vision,
        config,
    }
}

/// PF1 cover bonus from walls alone: monotone in `k`.
fn by_k(t: &LineTally) -> i32 {
    match (t.adjacent, t.k) {
        (_, 0) => 0,
        (false, 1) => 2,
        _ => 4,
    }
}

/// PF1 cover bonus with soft and improved cover.
fn full(t: &LineTally) -> i32 {
    let walls = if t.improved && t.k > 0 { 8 } else { by_k(t) };
    walls.max(if t.soft { 4 } else { 0 })
}

fn configs() -> [Config; 2] {
    let hv = Config {
        low_wall_both: true,
        concealment_whole_space: false,
    };
    [Config::default(), hv]
}

/// Every verdict of a scene that must not depend on where the map is or which way round.
fn verdicts(s: &Scene) -> Vec<String> {
    let g = grid(&s.rows);
    let creatures = [s.attacker, s.target, s.other];
    let (a, t, o) = (&s.attacker, &s.target, &s.other);
    let mut out = Vec::new();
    for config in configs() {
        for attack in [Approach::Ranged, Approach::Melee] {
            for vision in [
                Vision::default(),
                Vision {
                    low_light: true,
                    darkvision: false,
                },
            ] {
                let c = ctx(attack, &creatures, vision, config);
                let v = cover(&g, a, t, &c, &full);
                out.push(format!("cover {:?} {}", v.tally, v.total));
                let v = concealment(&g, a, t, &c);
                out.push(format!(
                    "conceal {} {} {} {}",
                    v.miss_chance, v.total, v.terrain, v.light
                ));
            }
        }
    }
    let c = ctx(
        Approach::Ranged,
        &creatures,
        Vision::default(),
        Config::default(),
    );
    out.push(format!("k-only {:?}", cover(&g, a, t, &c, &by_k).tally));
    out.push(format!(
        "flank {} {}",
        flanking(a, o, t).is_some(),
        flanking(o, a, t).is_some()
    ));
    out.push(format!("reach {} {}", distance(a, t), adjacent(a, t)));
    for feet in [0, 5, 10, 15] {
        for weapon in [false, true] {
            out.push(format!(
                "threat {}",
                threatens(a, t, Reach { feet, weapon })
            ));
        }
    }
    out.push(format!(
        "elevation {} {}",
        ground_elevation(&g, a, 0),
        ground_elevation(&g, t, 5)
    ));
    out
}

fn moved(s: &Scene, f: impl Fn(&Space) -> Space, rows: Vec<String>) -> Scene {
    Scene {
        rows,
        attacker: f(&s.attacker),
        target: f(&s.target),
        other: f(&s.other),
    }
}

fn remap(s: &Space, x: i32, y: i32) -> Space {
    Space::new(x, y, s.side()).unwrap_or(*s)
}

fn width(s: &Scene) -> i32 {
    s.rows.first().map_or(0, |r| r.chars().count() as i32)
}

fn translated(s: &Scene, dx: i32, dy: i32) -> Scene {
    let w = width(s) as usize + dx as usize;
    let mut rows = vec![".".repeat(w); dy as usize];
    rows.extend(s.rows.iter().map(|r| ".".repeat(dx as usize) + r));
    moved(s, |p| remap(p, p.x() + dx, p.y() + dy), rows)
}

fn mirrored_left_right(s: &Scene) -> Scene {
    let w = width(s);
    let rows = s.rows.iter().map(|r| r.chars().rev().collect()).collect();
    moved(s, |p| remap(p, w - p.x() - p.side(), p.y()), rows)
}

fn mirrored_top_bottom(s: &Scene) -> Scene {
    let h = s.rows.len() as i32;
    let rows = s.rows.iter().rev().cloned().collect();
    moved(s, |p| remap(p, p.x(), h - p.y() - p.side()), rows)
}

fn transposed(s: &Scene) -> Scene {
    let w = width(s) as usize;
    let rows = (0..w)
        .map(|x| s.rows.iter().filter_map(|r| r.chars().nth(x)).collect())
        .collect();
    moved(s, |p| remap(p, p.y(), p.x()), rows)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn translation_and_mirroring_change_no_verdict(s in scene(), dx in 0..4i32, dy in 0..4i32) {
        let base = verdicts(&s);
        prop_assert_eq!(&verdicts(&translated(&s, dx, dy)), &base);
        prop_assert_eq!(&verdicts(&mirrored_left_right(&s)), &base);
        prop_assert_eq!(&verdicts(&mirrored_top_bottom(&s)), &base);
        prop_assert_eq!(&verdicts(&transposed(&s)), &base);
    }

    #[test]
    fn a_new_wall_never_lowers_cover(s in scene(), pick in 0usize..144) {
        let g = grid(&s.rows);
        let creatures = [s.attacker, s.target, s.other];
        let open: Vec<Square> = (0..g.height() as i32)
            .flat_map(|y| (0..g.width() as i32).map(move |x| Square { x, y }))
            .filter(|q| g.terrain(*q) == Terrain::FLOOR && !creatures.iter().any(|c| c.contains(*q)))
            .collect();
        prop_assume!(!open.is_empty());
        let mut walled = g.clone();
        walled.set(open[pick % open.len()], Terrain::WALL);
        for config in configs() {
            for attack in [Approach::Ranged, Approach::Melee] {
                let c = ctx(attack, &creatures, Vision::default(), config);
                let (before, after) = (cover(&g, &s.attacker, &s.target, &c, &by_k), cover(&walled, &s.attacker, &s.target, &c, &by_k));
                prop_assert!(after.tally.k >= before.tally.k, "{:?} -> {:?}", before.tally, after.tally);
                prop_assert!(after.total || !before.total);
                let score = |g: &Grid| full(&cover(g, &s.attacker, &s.target, &c, &full).tally);
                prop_assert!(score(&walled) >= score(&g));
            }
        }
    }

    #[test]
    fn removing_a_wall_never_raises_cover(s in scene(), pick in 0usize..144) {
        let g = grid(&s.rows);
        let obstacles: Vec<Square> = (0..g.height() as i32)
            .flat_map(|y| (0..g.width() as i32).map(move |x| Square { x, y }))
            .filter(|q| {
                let t = g.terrain(*q);
                t.blocks || t.low || t.improved
            })
            .collect();
        prop_assume!(!obstacles.is_empty());
        let mut cleared = g.clone();
        cleared.set(obstacles[pick % obstacles.len()], Terrain::FLOOR);
        let creatures = [s.attacker, s.target, s.other];
        for config in configs() {
            for attack in [Approach::Ranged, Approach::Melee] {
                let c = ctx(attack, &creatures, Vision::default(), config);
                let verdict = |g: &Grid| cover(g, &s.attacker, &s.target, &c, &full);
                let (before, after) = (verdict(&g), verdict(&cleared));
                prop_assert!(full(&after.tally) <= full(&before.tally), "{:?} -> {:?}", before.tally, after.tally);
                prop_assert!(before.total || !after.total);
                let k = |g: &Grid| cover(g, &s.attacker, &s.target, &c, &by_k).tally.k;
                prop_assert!(k(&cleared) <= k(&g));
            }
        }
    }

    #[test]
    fn new_fog_never_lowers_the_miss_chance(s in scene(), x in 0..12i32, y in 0..12i32, fog in 10u8..=60) {
        let g = grid(&s.rows);
        let q = Square { x: x % g.width() as i32, y: y % g.height() as i32 };
        let old = g.terrain(q);
        let mut fogged = g.clone();
        fogged.set(q, Terrain { concealment: old.concealment.max(fog), ..old });
        let creatures = [s.attacker, s.target, s.other];
        for config in configs() {
            for attack in [Approach::Ranged, Approach::Melee] {
                let c = ctx(attack, &creatures, Vision::default(), config);
                let before = concealment(&g, &s.attacker, &s.target, &c);
                let after = concealment(&fogged, &s.attacker, &s.target, &c);
                prop_assert!(after.miss_chance >= before.miss_chance, "{} -> {}", before.miss_chance, after.miss_chance);
            }
        }
    }
}

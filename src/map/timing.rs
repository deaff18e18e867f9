//! The heatmap workload, timed: run with
//! `cargo test --release -- --ignored --nocapture heatmap`.

use super::*;

/// A Large target tried on every open placement of a 60×60 map with ~10% walls (and 5%
/// fog), judged against 4 attackers: cover, concealment, threat, and flanking with each
/// other attacker when threatening. Release target: under 2 s.
#[test]
#[ignore]
fn heatmap_timing() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut roll = |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let attackers =
        [(5, 5), (50, 8), (10, 52), (45, 47)].map(|(x, y)| Space::new(x, y, 1).unwrap());
    let rows: Vec<String> = (0..60)
        .map(|y| {
            (0..60)
                .map(|x| {
                    let square = Square { x, y };
                    match roll(100) {
                        _ if attackers.iter().any(|a| a.contains(square)) => '.',
                        0..10 => '#',
                        10..15 => '~',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = parse(&refs, &[]).unwrap().grid;
    let start = std::time::Instant::now();
    let (mut placements, mut hidden, mut flanks) = (0, 0, 0);
    for y in 0..59 {
        for x in 0..59 {
            let target = Space::new(x, y, 2).unwrap();
            let open = target.squares().all(|s| !grid.terrain(s).blocks)
                && !attackers
                    .iter()
                    .any(|a| target.squares().any(|s| a.contains(s)));
            if !open {
                continue;
            }
            placements += 1;
            let creatures = [
                attackers[0],
                attackers[1],
                attackers[2],
                attackers[3],
                target,
            ];
            for a in &attackers {
                let ctx = Ctx {
                    attack: Attack::Ranged,
                    creatures: &creatures,
                    vision: Vision::default(),
                    config: Config::default(),
                };
                hidden += usize::from(cover(&grid, a, &target, &ctx, &|t| i32::from(t.k)).total);
                hidden += usize::from(concealment(&grid, a, &target, &ctx).total);
                let reach = Reach {
                    feet: 5,
                    weapon: false,
                };
                if threatens(a, &target, reach) {
                    flanks += attackers
                        .iter()
                        .filter(|p| flanking(a, p, &target).is_some())
                        .count();
                }
            }
        }
    }
    let elapsed = start.elapsed();
    println!(
        "{placements} placements × 4 attackers in {elapsed:?} ({hidden} total, {flanks} flanks)"
    );
    assert!(placements > 2000, "{placements}");
    let limit = if cfg!(debug_assertions) { 60.0 } else { 2.0 };
    assert!(elapsed.as_secs_f64() < limit, "{elapsed:?}");
}

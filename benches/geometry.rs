//! Geometry alone, for a heatmap: a Large target tried on every open placement of a 60×60
//! map with ~10% walls and 5% fog, judged against 4 attackers — cover, concealment,
//! threat, and flanking with each other attacker when threatening. Goal: under 2 s.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use d20odds::map::{
    Approach, Config, Ctx, Grid, Reach, Space, Square, Vision, concealment, cover, flanking, parse,
    threatens,
};

/// A fixed pseudo-random 60×60 map (an LCG, so the map is the same on every run).
fn battlefield(attackers: &[Space]) -> Grid {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut roll = |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let rows: Vec<String> = (0..60)
        .map(|y| {
            (0..60)
                .map(|x| match roll(100) {
                    _ if attackers.iter().any(|a| a.contains(Square { x, y })) => '.',
                    0..10 => '#',
                    10..15 => '~',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    parse(&refs, &[]).expect("a valid map").grid
}

/// Every verdict of every placement; returns counts so nothing is optimised away.
fn heatmap_geometry(grid: &Grid, attackers: &[Space; 4]) -> (usize, usize, usize) {
    let (mut placements, mut hidden, mut flanks) = (0, 0, 0);
    let reach = Reach {
        feet: 5,
        weapon: false,
    };
    for y in 0..59 {
        for x in 0..59 {
            let target = Space::new(x, y, 2).expect("on the map");
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
            let ctx = Ctx {
                attack: Approach::Ranged,
                creatures: &creatures,
                vision: Vision::default(),
                config: Config::default(),
            };
            for a in attackers {
                hidden += usize::from(cover(grid, a, &target, &ctx, &|t| i32::from(t.k)).total);
                hidden += usize::from(concealment(grid, a, &target, &ctx).total);
                if threatens(a, &target, reach) {
                    flanks += attackers
                        .iter()
                        .filter(|p| flanking(a, p, &target).is_some())
                        .count();
                }
            }
        }
    }
    (placements, hidden, flanks)
}

fn geometry(c: &mut Criterion) {
    let attackers =
        [(5, 5), (50, 8), (10, 52), (45, 47)].map(|(x, y)| Space::new(x, y, 1).expect("valid"));
    let grid = battlefield(&attackers);
    let mut group = c.benchmark_group("geometry");
    group.sample_size(10);
    group.bench_function("heatmap 60x60, Large target, 4 attackers", |b| {
        b.iter(|| black_box(heatmap_geometry(&grid, &attackers)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion draws them with system fonts, which a fresh machine may lack
    // (it then panics); the figures are in the terminal output and target/criterion/.
    config = Criterion::default().without_plots();
    targets = geometry
}
criterion_main!(benches);

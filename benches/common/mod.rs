//! What the benches share: timing what a variant adds to a run.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;
use d20odds::run::{Prepared, Settings, Silent};

/// Benches what running `with` (an experiment with variants) adds to running `without`
/// (the same experiment without them), in runs of `without`, measured pair by pair: each
/// sample times the two back to back (in alternating order), so that the machine's drift,
/// which between separate benches can exceed the gap measured, weighs on both alike.
/// Criterion prints, per sample, (Σ with − Σ without) / Σ without as if it were
/// seconds: 1 s reads as one run.
pub fn added_cost(
    group: &mut BenchmarkGroup<WallTime>,
    name: &str,
    settings: &Settings,
    without: &Prepared,
    with: &Prepared,
) {
    let run = |prepared: &Prepared| {
        let started = Instant::now();
        let ran = prepared.run(settings, &Silent, &AtomicBool::new(false));
        black_box(ran.is_ok());
        started.elapsed()
    };
    group.bench_function(format!("{name} (s = runs)"), |b| {
        b.iter_custom(|iters| {
            let (mut base, mut variant) = (Duration::ZERO, Duration::ZERO);
            for i in 0..iters {
                if i % 2 == 0 {
                    base += run(without);
                    variant += run(with);
                } else {
                    variant += run(with);
                    base += run(without);
                }
            }
            let added = (variant.as_secs_f64() - base.as_secs_f64()) / base.as_secs_f64();
            Duration::from_secs_f64(added.max(0.0) * iters as f64)
        })
    });
}

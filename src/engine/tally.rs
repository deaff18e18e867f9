//! Integer counters of a batch of trials. Tallies of disjoint blocks merge by addition,
//! so the result is the same whichever thread ran which block.

use crate::plan::Plan;

/// Per target and round: trials in which the target was down / dead by the end of the
/// round, and the sums of damage taken so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundTally {
    pub down: u64,
    pub dead: u64,
    pub damage_sum: u128,
    pub damage_squares: u128,
}

/// Everything counted over some trials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub trials: u64,
    /// Per slot: how often each outcome index occurred (attacks made, by outcome).
    pub outcomes: Vec<Vec<u64>>,
    /// Per target: one entry per round.
    pub rounds: Vec<Vec<RoundTally>>,
    /// Per target: how many trials ended with each total of damage taken.
    pub damage: Vec<Vec<u64>>,
}

impl Tally {
    /// An empty tally shaped for a plan.
    pub fn zero(plan: &Plan) -> Self {
        let damage = (0..plan.targets.len())
            .map(|t| vec![0; max_damage_taken(plan, t) as usize + 1])
            .collect();
        Self {
            trials: 0,
            outcomes: plan
                .slots
                .iter()
                .map(|s| vec![0; s.profile.layout().len()])
                .collect(),
            rounds: vec![vec![RoundTally::default(); plan.rounds as usize]; plan.targets.len()],
            damage,
        }
    }

    /// Adds another tally of the same plan.
    pub fn merge(mut self, other: Tally) -> Tally {
        self.trials += other.trials;
        add_all(&mut self.outcomes, &other.outcomes);
        add_all(&mut self.damage, &other.damage);
        for (mine, theirs) in self.rounds.iter_mut().zip(&other.rounds) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.down += t.down;
                m.dead += t.dead;
                m.damage_sum += t.damage_sum;
                m.damage_squares += t.damage_squares;
            }
        }
        self
    }

    /// Attacks made by a slot.
    pub fn attacks_made(&self, slot: usize) -> u64 {
        self.outcomes[slot].iter().sum()
    }
}

fn add_all(into: &mut [Vec<u64>], from: &[Vec<u64>]) {
    for (a, b) in into.iter_mut().zip(from) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
}

/// Most counters one tally may hold (every slot's outcome counts plus every target's
/// damage histogram). Several tallies are alive at once while blocks merge, so this is
/// what keeps memory bounded (64 MiB a tally) whatever the dice and rounds.
pub const MAX_TALLY_CELLS: u64 = 1 << 23;

/// Refuses a plan whose tally would exceed [`MAX_TALLY_CELLS`]: the plan line (index) of
/// its largest attack and why.
pub fn check_tally_size(plan: &Plan) -> Result<(), (usize, String)> {
    let cells = tally_cells(plan);
    if cells <= MAX_TALLY_CELLS {
        return Ok(());
    }
    let line = plan
        .slots
        .iter()
        .max_by_key(|s| s.profile.layout().max_damage())
        .map_or(0, |s| s.line);
    Err((
        line,
        format!(
            "too large to simulate: counting every damage total this plan can deal over {} round(s) takes {} counters, more than the limit of {MAX_TALLY_CELLS}; use smaller dice, fewer attacks or fewer rounds",
            plan.rounds, cells
        ),
    ))
}

/// The counters of one tally of `plan`: every slot's outcome counts and every target's
/// damage histogram.
pub fn tally_cells(plan: &Plan) -> u64 {
    let outcomes: u64 = plan
        .slots
        .iter()
        .map(|s| s.profile.layout().len() as u64)
        .sum();
    let damage: u64 = (0..plan.targets.len())
        .map(|t| {
            u64::try_from(max_damage_taken(plan, t))
                .unwrap_or(0)
                .saturating_add(1)
        })
        .fold(0, u64::saturating_add);
    outcomes.saturating_add(damage)
}

/// The most damage a target can take in one trial: every attack at it dealing its most,
/// and every attack that can strike it as cover striking it for its most; plus the jump
/// to −1 hp of a failed massive-damage save, where one can happen.
pub fn max_damage_taken(plan: &Plan, target: usize) -> i64 {
    let mut can_drop = false;
    let per_round: i64 = plan
        .slots
        .iter()
        .map(|s| {
            let layout = s.profile.layout();
            let own = if s.target == target {
                can_drop |= layout.can_drop();
                layout.max_damage()
            } else {
                0
            };
            let as_cover = if s.covering == Some(target) {
                can_drop |= layout.can_drop();
                layout.max_struck_damage()
            } else {
                0
            };
            own.saturating_add(as_cover)
        })
        .fold(0, i64::saturating_add);
    let drop = plan.targets[target]
        .dropped_to
        .filter(|_| can_drop)
        .unwrap_or(0);
    per_round
        .saturating_mul(i64::from(plan.rounds))
        .saturating_add(drop)
}

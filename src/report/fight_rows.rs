//! A fight's tables (SPEC §6): who has won by each round (`encounter.csv`), every
//! combatant's status by round (`combatants.csv`), how long the fight lasts
//! (`fight_length.csv`) and each side at the end (`sides.csv`), every figure beside its
//! exact value where the exact fight was computed.

use super::rows::{AttackRow, DamageRow, RoundRow, attack_row};
use super::table::{Column, Row};
use crate::encounter::{ExactFight, Fight, FightTally, Status};
use crate::stats::Estimate;

/// A fight's results.
#[derive(Debug, Clone, PartialEq)]
pub struct FightReport {
    /// Rounds the fight may last.
    pub rounds: usize,
    pub encounter: Vec<EncounterRow>,
    pub combatants: Vec<CombatantRow>,
    pub length: Vec<LengthRow>,
    pub sides: Vec<SideRow>,
}

/// `encounter.csv`: one side (or `nobody`, or `undecided`) in one round.
#[derive(Debug, Clone, PartialEq)]
pub struct EncounterRow {
    pub round: usize,
    pub side: String,
    /// Won by the end of the round (for `undecided`: not over yet).
    pub p_won: Estimate,
}

/// `combatants.csv`: one combatant at the end of one round.
#[derive(Debug, Clone, PartialEq)]
pub struct CombatantRow {
    pub combatant: String,
    pub side: String,
    pub round: usize,
    /// P(each [`Status`]), in [`Status::ALL`] order.
    pub status: [Estimate; 5],
    pub mean_damage_taken: Estimate,
    pub mean_damage_dealt: Estimate,
}

/// `fight_length.csv`: the fight ended in this round.
#[derive(Debug, Clone, PartialEq)]
pub struct LengthRow {
    pub round: usize,
    pub p_ended: Estimate,
}

/// `sides.csv`: one side at the end of the fight.
#[derive(Debug, Clone, PartialEq)]
pub struct SideRow {
    pub side: String,
    pub p_won: Estimate,
    /// At least one member not able to act (down, dying, stable or dead).
    pub p_lost_member_down: Estimate,
    pub p_lost_member_dead: Estimate,
}

/// The heading of a fight's attacks table.
pub const FIGHT_ATTACKS: &str = "Attacks made in the fight (figures per attack made)";

/// Added to an attack's name in the summary when its target had not acted yet.
pub const FLAT_FOOTED_TARGET: &str = " (flat-footed target)";

/// Marks an attack of a fight made without the map's flanking: every partner was down.
pub const PARTNERS_DOWN: &str = " (flanking partners down)";

/// Marks an attack of a fight made without the penalty for shooting into melee: every
/// ally engaged with the target was down.
pub const ALLIES_DOWN: &str = " (allies in melee down)";

/// Marks an attack of a fight made once the creature it may strike instead was helpless
/// (d20 Modern: its Defense 5 + size, no Dex bonus to save it).
pub const STRUCK_DOWN: &str = " (creature struck instead down, helpless)";

/// The name of the rows of fights nobody won (no side left able to act).
pub const NOBODY: &str = "nobody";
/// The name of the rows of fights not over yet.
pub const UNDECIDED: &str = "undecided";

impl FightReport {
    /// The tables of `tally`, beside `exact` where it was computed.
    pub fn new(fight: &Fight, tally: &FightTally, exact: Option<&ExactFight>) -> FightReport {
        let rounds = fight.rounds as usize;
        let sides = fight.sides.len();
        let side_name = |s: usize| {
            fight
                .sides
                .get(s)
                .map_or(NOBODY, String::as_str)
                .to_string()
        };
        let mut encounter = Vec::new();
        let mut combatants = Vec::new();
        for round in 1..=rounds {
            let won = |s: usize| exact.map(|e| e.won[round - 1][s]);
            for side in 0..=sides {
                encounter.push(EncounterRow {
                    round,
                    side: side_name(side),
                    p_won: tally.won(round, side).with_exact(won(side)),
                });
            }
            encounter.push(EncounterRow {
                round,
                side: UNDECIDED.into(),
                p_won: (tally.undecided(round)).with_exact(
                    exact.map(|e| (1.0 - e.won[round - 1].iter().sum::<f64>()).max(0.0)),
                ),
            });
        }
        for (who, f) in fight.fighters.iter().enumerate() {
            for round in 1..=rounds {
                let at = |s: Status| exact.map(|e| e.status[round - 1][who][s as usize]);
                combatants.push(CombatantRow {
                    combatant: f.label.clone(),
                    side: side_name(f.side),
                    round,
                    status: Status::ALL.map(|s| tally.status(round, who, s).with_exact(at(s))),
                    mean_damage_taken: (tally.taken(round, who))
                        .with_exact(exact.map(|e| e.taken[round - 1][who])),
                    mean_damage_dealt: (tally.dealt(round, who))
                        .with_exact(exact.map(|e| e.dealt[round - 1][who])),
                });
            }
        }
        let length = (1..=rounds)
            .map(|round| LengthRow {
                round,
                p_ended: tally
                    .ended_in(round)
                    .with_exact(exact.map(|e| e.ended_in[round - 1])),
            })
            .collect();
        let sides = (0..sides)
            .map(|side| SideRow {
                side: side_name(side),
                p_won: tally
                    .won(rounds, side)
                    .with_exact(exact.map(|e| e.won[rounds - 1][side])),
                p_lost_member_down: tally
                    .lost_down(side)
                    .with_exact(exact.map(|e| e.lost_down[side])),
                p_lost_member_dead: tally
                    .lost_dead(side)
                    .with_exact(exact.map(|e| e.lost_dead[side])),
            })
            .collect();
        FightReport {
            rounds,
            encounter,
            combatants,
            length,
            sides,
        }
    }

    /// `summary.csv` of a fight: one row per attack made in some trial, or made with a
    /// probability above 0 by the exact fight, its figures per attack made; an attack at a
    /// flat-footed target, once its flanking partners are down, once its allies in melee
    /// are, or once the creature it may strike instead is, is its own row, marked in the
    /// attack's name.
    pub fn attack_rows(
        fight: &Fight,
        tally: &FightTally,
        exact: Option<&ExactFight>,
    ) -> Vec<AttackRow> {
        (fight.attacks().into_iter())
            .filter_map(|a| {
                let figures = tally.attack(fight, a.id);
                let made_exactly = exact.is_some_and(|e| e.made[a.id] > 0.0);
                (figures.made() > 0 || made_exactly).then(|| {
                    let mut row = attack_row(a.plan, a.slot, figures, a.exact);
                    if a.partners_down {
                        row.attack += PARTNERS_DOWN;
                        // The fight took the map's flanking away, not the plan line.
                        row.set_by_plan.flanking = false;
                    }
                    if a.allies_down {
                        row.attack += ALLIES_DOWN;
                    }
                    if a.struck_down {
                        row.attack += STRUCK_DOWN;
                    }
                    if a.flat_footed {
                        row.attack += FLAT_FOOTED_TARGET;
                    }
                    row
                })
            })
            .collect()
    }

    /// Whether its figures stand beside the exact fight's.
    pub fn is_exact(&self) -> bool {
        self.sides.iter().any(|side| side.p_won.exact.is_some())
    }

    /// `damage.csv` of a fight: each combatant's totals of damage taken from attacks by
    /// the end of the fight that some trial ended with.
    pub fn damage_rows(fight: &Fight, tally: &FightTally) -> Vec<DamageRow> {
        let mut rows = Vec::new();
        for (who, f) in fight.fighters.iter().enumerate() {
            for (damage, &trials) in tally.damage_taken(who).iter().enumerate() {
                if trials > 0 {
                    rows.push(DamageRow {
                        target: f.label.clone(),
                        damage,
                        probability: Estimate::proportion(trials, tally.trials()),
                    });
                }
            }
        }
        rows
    }

    /// `rounds.csv` of a fight: every combatant's P(not able to act), P(dead) and damage
    /// taken by the end of each round, so the round table and chart show the fight.
    pub fn round_rows(&self) -> Vec<RoundRow> {
        (self.combatants.iter())
            .map(|c| RoundRow {
                target: c.combatant.clone(),
                round: c.round,
                p_down: c.p_down(),
                p_dead: c.status[Status::Dead as usize],
                mean_damage: c.mean_damage_taken,
            })
            .collect()
    }

    /// The fight in a sentence: who wins how often, and how soon it is over, e.g. "Winner
    /// within 8 rounds: party in 99.97% of fights (monsters 0.00%, undecided 0.03%).
    /// Fights most often end in round 3 (38.10%); half are over by round 3. These are
    /// exact values; …" (a side's name may be singular or plural, so it is never the
    /// subject of a verb). Each figure is its exact value where computed, else the
    /// simulated one, and the last sentence says which.
    pub fn verdict(&self) -> String {
        let mut sides: Vec<&SideRow> = self.sides.iter().collect();
        sides.sort_by(|a, b| best(&b.p_won).total_cmp(&best(&a.p_won)));
        let Some(leader) = sides.first() else {
            return String::new();
        };
        let mut others: Vec<String> = (sides[1..].iter())
            .map(|s| format!("{} {}", s.side, percent(best(&s.p_won))))
            .collect();
        for other in [NOBODY, UNDECIDED] {
            if let Some(r) = self.at_end(other).filter(|r| best(&r.p_won) > 0.0) {
                others.push(format!("{other} {}", percent(best(&r.p_won))));
            }
        }
        let mut out = format!(
            "Winner within {} rounds: {} in {} of fights",
            self.rounds,
            leader.side,
            percent(best(&leader.p_won))
        );
        if !others.is_empty() {
            out += &format!(" ({})", others.join(", "));
        }
        out += ".";
        let likeliest = (self.length.iter())
            .max_by(|a, b| best(&a.p_ended).total_cmp(&best(&b.p_ended)))
            .filter(|l| best(&l.p_ended) > 0.0);
        if let Some(l) = likeliest {
            out += &format!(
                " Fights most often end in round {} ({})",
                l.round,
                percent(best(&l.p_ended))
            );
            let mut ended = 0.0;
            let half = self.length.iter().find(|l| {
                ended += best(&l.p_ended);
                ended >= 0.5
            });
            out += &match half {
                Some(h) => format!("; half are over by round {}.", h.round),
                None => format!("; more than half are not over by round {}.", self.rounds),
            };
        }
        out += match leader.p_won.exact {
            Some(_) => " These are exact values; the tables give the simulated ones beside them.",
            None => " These are simulated values.",
        };
        out
    }

    /// The row of `side` (a side's name, [`NOBODY`] or [`UNDECIDED`]) at the last round.
    pub fn at_end(&self, side: &str) -> Option<&EncounterRow> {
        (self.encounter.iter()).find(|r| r.round == self.rounds && r.side == side)
    }
}

/// A figure's exact value where computed, else its simulated one.
fn best(e: &Estimate) -> f64 {
    e.exact.unwrap_or(e.point)
}

/// A probability as a percentage with two decimals.
fn percent(p: f64) -> String {
    format!("{:.2}%", 100.0 * p)
}

impl CombatantRow {
    /// P(not able to act: disabled, dying, stable or dead), the complement of up.
    pub fn p_down(&self) -> Estimate {
        let up = self.status[Status::Up as usize];
        Estimate {
            point: 1.0 - up.point,
            lo: 1.0 - up.hi,
            hi: 1.0 - up.lo,
            exact: up.exact.map(|e| 1.0 - e),
        }
    }
}

impl Row for EncounterRow {
    const NAME: &'static str = "encounter";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::int("round", |r: &Self| r.round as i64),
            Column::text("side", |r: &Self| r.side.clone()),
        ];
        columns.extend(Column::estimates(&[("p_won", |r: &Self| r.p_won)]));
        columns
    }
}

impl Row for CombatantRow {
    const NAME: &'static str = "combatants";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![
            Column::text("combatant", |r: &Self| r.combatant.clone()),
            Column::text("side", |r: &Self| r.side.clone()),
            Column::int("round", |r: &Self| r.round as i64),
        ];
        columns.extend(Column::estimates(&[
            ("p_up", |r: &Self| r.status[0]),
            ("p_disabled", |r: &Self| r.status[1]),
            ("p_dying", |r: &Self| r.status[2]),
            ("p_stable", |r: &Self| r.status[3]),
            ("p_dead", |r: &Self| r.status[4]),
            ("mean_damage_taken", |r: &Self| r.mean_damage_taken),
            ("mean_damage_dealt", |r: &Self| r.mean_damage_dealt),
        ]));
        columns
    }
}

impl Row for LengthRow {
    const NAME: &'static str = "fight_length";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![Column::int("round", |r: &Self| r.round as i64)];
        columns.extend(Column::estimates(&[("p_ended", |r: &Self| r.p_ended)]));
        columns
    }
}

impl Row for SideRow {
    const NAME: &'static str = "sides";
    type Layout = ();

    fn columns((): &()) -> Vec<Column<Self>> {
        let mut columns = vec![Column::text("side", |r: &Self| r.side.clone())];
        columns.extend(Column::estimates(&[
            ("p_won", |r: &Self| r.p_won),
            ("p_lost_member_down", |r: &Self| r.p_lost_member_down),
            ("p_lost_member_dead", |r: &Self| r.p_lost_member_dead),
        ]));
        columns
    }
}

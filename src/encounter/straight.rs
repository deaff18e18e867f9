//! Monte Carlo's turn, played straight through: the rules of the machine in `turn.rs`
//! ([`Fight::advance`] and its `resolve_*` steps) without the stops, each chance drawn
//! as it comes, on a compact layout of the fight. A combatant's numbers are rows of
//! [`LANES`] entries indexed by its number (masked to fit, so a lookup needs no bounds
//! check), who is up and who is still flat-footed are bit sets, and every attack a turn
//! can look up is one entry of one array. Its steps take their rules from `turn.rs` (a
//! turn that starts down, the tactics' dispatch and tie-break, profiles by situation,
//! flanking, hurting, a hit that only adds damage); what is written here is the order of
//! a turn's steps and the lookups of this layout, which mirror the machine's. A test
//! plays both on many kinds of fight and requires the same draws, standings and damage
//! after every turn.

use super::turn::{
    Chances, Dealt, Retarget, Standing, Status, lowest, members, ordered_bits, situation,
};
use super::{AttackAt, Fight, SITUATIONS, Tables};
use crate::scenario::Tactic;

/// Room for every combatant (a fight has at most 52, one per token letter): per-combatant
/// rows have this many entries, and who is who goes in `u64` bit sets.
pub(super) const LANES: usize = 64;

/// `who`'s entry in a row of [`LANES`].
#[inline(always)]
fn lane(who: usize) -> usize {
    who % LANES
}

/// A trial's combatants as Monte Carlo's turn keeps them.
#[derive(Debug, Clone)]
pub(super) struct Board {
    /// Each combatant's standing, in its lane (the lanes past the last combatant unused).
    pub standings: [Standing; LANES],
    /// Who is up (able to act), a bit each.
    pub up: u64,
    /// Who has not had a turn yet, in a system where that leaves it flat-footed (none
    /// in the others), a bit each.
    pub fresh: u64,
}

/// One attack at one target as a turn looks it up.
#[derive(Debug, Clone, Copy, Default)]
struct At {
    /// Its profiles, by [`situation`].
    profiles: [u32; SITUATIONS],
    /// The partners whose threat gives it the map's flanking, the allies whose
    /// engagement gives it the penalty for shooting into melee, and the creature it may
    /// strike instead (see [`AttackAt`]).
    partners: u64,
    allies: u64,
    struck: u64,
}

impl From<&AttackAt> for At {
    fn from(at: &AttackAt) -> At {
        let id = |p: usize| u32::try_from(p).expect("fewer profiles than 2^32");
        At {
            profiles: at.profiles.map(id),
            partners: at.partners,
            allies: at.allies,
            struck: at.struck,
        }
    }
}

/// A scripted plan line: its attack and target, and its iteratives at that target,
/// `len` of them from `start` in [`Layout::at`].
#[derive(Debug, Clone, Copy)]
struct Scripted {
    attack: usize,
    target: usize,
    start: usize,
    len: usize,
}

/// One combatant's numbers for its turns: its [`Tables`], and the per-target ones in
/// rows of [`LANES`].
struct Actor<'f> {
    tactic: Tactic,
    tables: &'f Tables,
    /// Its plan lines, and their targets, a bit each.
    orders: Vec<Scripted>,
    order_targets: u64,
    /// Where its options start in [`Layout::at`]: attack × [`LANES`] targets × the
    /// tables' stride.
    options: usize,
    /// Per target × flat-footed: the `best` key of its best routine there, and that
    /// routine's attack.
    best_key: [[u64; 2]; LANES],
    routine_attack: [[Option<usize>; 2]; LANES],
    /// Per target: the `nearest` key, its distance's [`ordered_bits`].
    nearness: [u64; LANES],
}

/// The line a turn carries out: its attack, its scripted target and where that
/// target's iteratives start in [`Layout::at`] (none for a routine a tactic chose), and
/// how many iteratives it has.
#[derive(Clone, Copy)]
struct Line {
    attack: usize,
    scripted: Option<(usize, usize)>,
    iteratives: usize,
}

/// A fight laid out for Monte Carlo's turn.
pub(super) struct Layout<'f> {
    fight: &'f Fight,
    fighters: usize,
    /// Per combatant: the damage taken from which it is down (never: `i64::MAX`), and
    /// the damage taken at 0 hp, from which the tactics count hit points left.
    up_below: [i64; LANES],
    zero_at: [i64; LANES],
    /// Per combatant: the damage taken at which it is disabled (never: `i64::MIN`).
    disabled_at: [i64; LANES],
    /// The combatants a hit that neither drops nor slays only adds its damage to while
    /// they live, a bit each, and per combatant the damage taken from which that leaves
    /// it dead (see [`Fight::dead_from_added_damage`]).
    adds_only: u64,
    dead_from: [i64; LANES],
    /// Per profile: the creature struck instead on a "struck" outcome.
    struck: Vec<Option<usize>>,
    actors: Vec<Actor<'f>>,
    /// Every attack a turn can look up: each combatant's options, then its orders'.
    at: Vec<At>,
}

/// A turn [`Layout::play`] plays: what its steps share.
struct Play<'b, C> {
    board: &'b mut Board,
    chances: &'b mut C,
    actor: usize,
    /// Disabled: it makes one attack, then takes 1 damage.
    disabled: bool,
    /// It made an attack this turn.
    attacked: bool,
    /// The combatants whose standing, damage taken or dealt it may have changed.
    touched: u64,
}

impl<C: Chances> Play<'_, C> {
    /// The target `retarget` names, a random one drawn now; `None` for nobody.
    fn follow(&mut self, retarget: Retarget) -> Option<usize> {
        match retarget {
            Retarget::To(t) => Some(t),
            Retarget::Random { targets, among } => {
                let index = self.chances.pick(among);
                Some(members(targets).nth(index).expect("a candidate"))
            }
            Retarget::Nobody => None,
        }
    }
}

impl<'f> Layout<'f> {
    /// The layout of `fight`, built once for all its trials.
    pub fn new(fight: &'f Fight) -> Layout<'f> {
        let n = fight.fighters.len();
        assert!(n <= LANES, "at most {LANES} combatants");
        let mut at = Vec::new();
        let mut actors = Vec::with_capacity(n);
        for me in &fight.fighters {
            let t = &me.tables;
            let options = at.len();
            at.resize(options + me.options.len() * LANES * t.stride, At::default());
            for (attack, targets) in me.options.iter().enumerate() {
                for (target, its) in targets.iter().enumerate() {
                    for (i, it) in its.iter().flatten().enumerate() {
                        at[options + (attack * LANES + target) * t.stride + i] = it.into();
                    }
                }
            }
            let mut orders = Vec::with_capacity(me.orders.len());
            for order in &me.orders {
                orders.push(Scripted {
                    attack: order.attack,
                    target: order.target,
                    start: at.len(),
                    len: order.iteratives.len(),
                });
                at.extend(order.iteratives.iter().map(At::from));
            }
            let mut best_key = [[0; 2]; LANES];
            let mut routine_attack = [[None; 2]; LANES];
            let mut nearness = [0; LANES];
            for who in 0..n {
                best_key[who] = [t.best_key[who * 2], t.best_key[who * 2 + 1]];
                routine_attack[who] = [t.routine_attack[who * 2], t.routine_attack[who * 2 + 1]];
                nearness[who] = ordered_bits(me.distance[who] as f64);
            }
            actors.push(Actor {
                tactic: me.tactic,
                tables: t,
                order_targets: me.orders.iter().fold(0, |set, o| set | 1 << o.target),
                orders,
                options,
                best_key,
                routine_attack,
                nearness,
            });
        }
        let mut up_below = [i64::MAX; LANES];
        let mut zero_at = [0; LANES];
        let mut disabled_at = [i64::MIN; LANES];
        let (mut adds_only, mut dead_from) = (0, [i64::MAX; LANES]);
        for who in 0..n {
            up_below[who] = fight.up_below[who];
            zero_at[who] = fight.zero_at(who);
            disabled_at[who] = fight.disabled_at[who];
            if let Some(dead) = fight.dead_from_added_damage(who) {
                adds_only |= 1 << who;
                dead_from[who] = dead;
            }
        }
        Layout {
            fight,
            fighters: n,
            up_below,
            zero_at,
            disabled_at,
            adds_only,
            dead_from,
            struck: fight.profiles.iter().map(|p| p.struck).collect(),
            actors,
            at,
        }
    }

    /// The board of combatants in `standings` (one per combatant).
    pub fn board(&self, standings: &[Standing]) -> Board {
        let mut board = Board {
            standings: [Standing::default(); LANES],
            up: self.fight.up(standings),
            fresh: 0,
        };
        board.standings[..standings.len()].copy_from_slice(standings);
        for (who, s) in standings.iter().enumerate() {
            board.fresh |= u64::from(self.fight.flat_footed(s)) << who;
        }
        board
    }

    /// `actor`'s whole turn on `board`, the chances drawn by `chances` as they come.
    /// Returns the combatants whose standing, damage taken or dealt it may have changed,
    /// a bit each.
    #[inline(always)]
    pub fn play<C: Chances>(&self, board: &mut Board, actor: usize, chances: &mut C) -> u64 {
        let me = 1 << actor;
        // Its turn ends its being flat-footed, whoever it is (without a branch on
        // whether it had a turn before).
        board.fresh &= !me;
        let disabled = if board.up & me != 0 {
            self.fight
                .end_flat_footed(&mut board.standings[lane(actor)]);
            false
        } else if !self.fight.down_turn_matters(&board.standings[lane(actor)]) {
            // Nothing of its changes.
            return 0;
        } else {
            let standings = &mut board.standings[..self.fighters];
            let Some(disabled) = self.fight.start_down_turn(standings, actor, chances) else {
                return me;
            };
            // Starfinder: a Resolve Point may have brought it back up.
            board.up = self.with_up(board, actor);
            disabled
        };
        let mut play = Play {
            board,
            chances,
            actor,
            disabled,
            attacked: false,
            touched: me,
        };
        self.act(&mut play);
        if disabled {
            // The action a disabled creature took costs it 1 hp (dying); it was not up.
            let standings = &mut play.board.standings[..self.fighters];
            self.fight.hurt(standings, actor, 1, false, false);
        }
        play.touched
    }

    /// What a turn does once it may act: its orders while one of their targets is up,
    /// else the routine its tactic chooses.
    #[inline(always)]
    fn act<C: Chances>(&self, play: &mut Play<C>) {
        let me = &self.actors[play.actor];
        if me.order_targets & play.board.up != 0 {
            for order in &me.orders {
                let line = Line {
                    attack: order.attack,
                    scripted: Some((order.target, order.start)),
                    iteratives: order.len,
                };
                if !self.carry_out(play, me, line, order.target) {
                    return;
                }
            }
            return;
        }
        let targets = play.board.up & me.tables.reaches;
        let routine = Retarget::by_tactic(me.tactic, targets, true, || {
            self.pick(play.board, me, None, 0, targets)
        });
        let Some(target) = play.follow(routine) else {
            return;
        };
        let flat = usize::from(self.flat(play.board, target));
        if let Some(attack) = me.routine_attack[lane(target)][flat] {
            let line = Line {
                attack,
                scripted: None,
                iteratives: me.tables.routine[attack],
            };
            self.carry_out(play, me, line, target);
        }
    }

    /// The attacks of one `line`, at `target` first (the line's scripted target, or the
    /// one the tactic chose the routine for); when the target can no longer be attacked,
    /// the rest go where the tactic sends them. Returns whether the turn goes on to the
    /// next line.
    #[inline(always)]
    fn carry_out<C: Chances>(
        &self,
        play: &mut Play<C>,
        me: &Actor,
        line: Line,
        target: usize,
    ) -> bool {
        // A line stops when its attacks are made or no one is left to attack; the next
        // order's come after it, unless the creature is disabled or the tactic chose it.
        let goes_on = !play.disabled && line.scripted.is_some();
        let (actor, mut target, mut iterative) = (play.actor, target, 0);
        loop {
            if iterative >= line.iteratives || (play.disabled && play.attacked) {
                return goes_on;
            }
            let usable = (play.board.up & 1 << target != 0)
                .then(|| self.at(me, line, iterative, target))
                .flatten();
            let at = match usable {
                Some(at) => at,
                None => {
                    let targets = play.board.up & self.in_reach(me, line.attack, iterative);
                    let to = Retarget::by_tactic(me.tactic, targets, false, || {
                        self.pick(play.board, me, Some(line.attack), iterative, targets)
                    });
                    target = match play.follow(to) {
                        Some(t) => t,
                        None => return goes_on,
                    };
                    // A candidate has this iterative of the attack (`Tables::in_reach`).
                    let at = self.at(me, line, iterative, target);
                    at.expect("a candidate's attack")
                }
            };
            let board = &mut *play.board;
            let standings = &board.standings[..self.fighters];
            let flanked = self.fight.flanked(standings, at.partners);
            let engaged = self.fight.engaged(standings, at.allies);
            let covering = self.fight.covering(standings, at.struck);
            let situation = situation(self.flat(board, target), flanked, engaged, covering);
            let profile = at.profiles[situation] as usize;
            let effect = play.chances.attack(profile);
            if self.adds_only & 1 << target != 0 && !effect.drops && !effect.slays {
                // Up, so alive: the damage only adds up.
                let s = &mut board.standings[lane(target)];
                *s = s.after_added(effect.damage, self.dead_from[lane(target)]);
            } else {
                let standings = &mut board.standings[..self.fighters];
                self.fight
                    .hurt(standings, target, effect.damage, effect.drops, effect.slays);
            }
            let struck = self.struck[profile];
            if let Some(other) = struck {
                let standings = &mut board.standings[..self.fighters];
                let damage = effect.struck_damage;
                self.fight
                    .hurt(standings, other, damage, effect.struck_drops, false);
            }
            board.up = self.with_up(board, target);
            play.touched |= 1 << target;
            if let Some(other) = struck {
                board.up = self.with_up(board, other);
                play.touched |= 1 << other;
            }
            let hit = Dealt {
                target,
                to_target: effect.damage,
                struck: struck
                    .map(|other| (other, effect.struck_damage))
                    .filter(|&(_, d)| d > 0),
            };
            play.chances.dealt(actor, hit);
            iterative += 1;
            play.attacked = true;
        }
    }

    /// `who`'s status on `board` (as [`Fight::status`]).
    #[inline(always)]
    pub fn status(&self, board: &Board, who: usize) -> Status {
        let lane = lane(who);
        (board.standings[lane]).status(self.up_below[lane], self.disabled_at[lane])
    }

    /// `board.up` with `who`'s bit set as it is up now.
    #[inline(always)]
    fn with_up(&self, board: &Board, who: usize) -> u64 {
        let up = board.standings[lane(who)].up_below(self.up_below[lane(who)]);
        board.up & !(1 << who) | u64::from(up) << who
    }

    /// Whether `who` is flat-footed.
    #[inline(always)]
    fn flat(&self, board: &Board, who: usize) -> bool {
        board.fresh >> who & 1 != 0
    }

    /// The enemies `me`'s `attack` reaches with its `iterative`-th attack, a bit each
    /// (as the machine's `candidates`).
    fn in_reach(&self, me: &Actor, attack: usize, iterative: usize) -> u64 {
        let t = me.tables;
        if iterative < t.stride {
            t.in_reach[attack * t.stride + iterative]
        } else {
            0
        }
    }

    /// `me`'s `iterative`-th attack of `line` at `target`: the order's own numbers at its
    /// scripted target, the tactic's at any other; `None` where it has none (as the
    /// machine's `attack_at`).
    #[inline(always)]
    fn at(&self, me: &Actor, line: Line, iterative: usize, target: usize) -> Option<At> {
        match line.scripted {
            Some((scripted, start)) if scripted == target => {
                (iterative < line.iteratives).then(|| self.at[start + iterative])
            }
            _ => (self.in_reach(me, line.attack, iterative) & 1 << target != 0).then(|| {
                let stride = me.tables.stride;
                self.at[me.options + (line.attack * LANES + lane(target)) * stride + iterative]
            }),
        }
    }

    /// The target a (non-random) tactic picks among `targets` (a bit each; none without
    /// any), as the machine's `pick`: by [`lowest`] key, none (`weakest`), the distance
    /// (`nearest`), else minus the expected damage of `attack`'s routine from `iterative`
    /// on, or of the best routine (`None`).
    #[inline(always)]
    fn pick(
        &self,
        board: &Board,
        me: &Actor,
        attack: Option<usize>,
        iterative: usize,
        targets: u64,
    ) -> Option<usize> {
        let hp_left = |t: usize| self.zero_at[lane(t)] - board.standings[lane(t)].taken;
        let first = |t: usize| match me.tactic {
            Tactic::Weakest => 0,
            Tactic::Nearest => me.nearness[lane(t)],
            _ => match attack {
                Some(a) => {
                    (me.tables).expected_key_at(self.fighters, a, t, iterative, self.flat(board, t))
                }
                None => me.best_key[lane(t)][usize::from(self.flat(board, t))],
            },
        };
        lowest(targets, me.tactic, first, hp_left)
    }
}

//! One combatant's turn. The exact engine drives it as a small-step machine:
//! [`Fight::advance`] does everything certain until the turn needs a chance (an attack's
//! outcome, a dying check, a random target) or is over; the engine weighs every result of
//! that chance and hands each to the matching `resolve_*`. Monte Carlo plays it straight
//! through (`straight.rs`), drawing each chance as it comes: the same rules without the
//! stops, on a compact layout of the same numbers, taking its steps' rules from here
//! (start of a turn that starts down, the tactics' dispatch and tie-break, profiles by
//! situation, flanking, hurting), checked turn by turn against the machine on generated
//! fights. The rules of SPEC §6 and RULES.md §9 live here and nowhere else.

use super::{AttackAt, Fight, Fighter, Order, ProfileId, Tables};
use crate::attack::OutcomeEffect;
use crate::rules::DyingRule;
use crate::scenario::Tactic;

/// A combatant's state in a fight: damage taken, Resolve Points left and flags. Kept
/// small (16 bytes): the exact engine holds millions of them and is bound by memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Standing {
    pub taken: i64,
    /// At most `MAX_INJURY_NUMBER`.
    resolve: i32,
    flags: u8,
}

const DEAD: u8 = 1;
const STABLE: u8 = 2;
/// It has had a turn: no longer flat-footed.
const ACTED: u8 = 4;

impl Standing {
    /// Its fields folded into one word for the exact engine's state index: equal standings
    /// give equal words (different ones may share one, which costs only a comparison).
    pub fn key(&self) -> u64 {
        (self.taken as u64)
            ^ (i64::from(self.resolve) as u64).rotate_left(32)
            ^ u64::from(self.flags) << 56
    }

    /// Not dead.
    pub fn alive(&self) -> bool {
        self.flags & DEAD == 0
    }

    /// The most damage it has taken since `start`: its damage taken, unless it died (a
    /// dead standing keeps none) or spent Resolve (Starfinder: to stabilise or to get
    /// back up, which lowers it), when it is more than any threshold (`i64::MAX`).
    pub fn most_taken_since(&self, start: &Standing) -> i64 {
        if self.alive() && self.resolve == start.resolve {
            self.taken
        } else {
            i64::MAX
        }
    }

    /// Up (able to act) for a combatant no longer up from `below` damage taken.
    #[inline(always)]
    pub fn up_below(&self, below: i64) -> bool {
        self.alive() && self.taken < below
    }

    /// After a hit that only adds `damage` (see [`Fight::adds_damage_only`]): dead from
    /// `dead_from` damage taken. Without a branch on a miss.
    #[inline(always)]
    pub fn after_added(self, damage: i64, dead_from: i64) -> Standing {
        let after = self.taken + damage;
        if after >= dead_from {
            Standing::DEAD
        } else {
            self.with_taken(after)
        }
    }

    /// Its status, for a combatant down from `down_at` damage taken (never: `i64::MAX`)
    /// and disabled at `disabled_at` (never: `i64::MIN`).
    #[inline(always)]
    pub fn status(&self, down_at: i64, disabled_at: i64) -> Status {
        // Each choice a select, not a branch: Monte Carlo asks for every combatant its
        // round touched, and which it is changes at random.
        let unconscious = if self.taken == disabled_at {
            Status::Disabled
        } else {
            Status::Dying
        };
        let down = if self.flags & STABLE != 0 {
            Status::Stable
        } else {
            unconscious
        };
        let living = if self.taken < down_at {
            Status::Up
        } else {
            down
        };
        if self.flags & DEAD != 0 {
            Status::Dead
        } else {
            living
        }
    }

    /// The same standing with `taken` damage taken.
    pub fn with_taken(self, taken: i64) -> Standing {
        Standing { taken, ..self }
    }

    /// Dead: nothing else about it matters any more, so every dead standing is the same
    /// (the exact engine merges them).
    const DEAD: Standing = Standing {
        taken: 0,
        resolve: 0,
        flags: DEAD,
    };
}

/// `k / 20` for `k` in 0..=20: the chance that `k` faces of a d20 succeed (a table, so a
/// dying check costs no division).
const D20_SHARES: [f64; 21] = {
    let mut shares = [0.0; 21];
    let mut k = 0;
    while k <= 20 {
        shares[k] = k as f64 / 20.0;
        k += 1;
    }
    shares
};

/// Where a combatant stands at the end of a round (RULES.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Able to act (hp ≥ 1).
    Up,
    /// Exactly 0 hp (Pathfinder, d20 Modern): one attack on its turn, then dying.
    Disabled,
    /// Unconscious and losing hit points (or Resolve Points).
    Dying,
    /// Unconscious, no longer dying.
    Stable,
    /// Dead (or destroyed).
    Dead,
}

impl Status {
    /// Every status, in the order tables list them.
    pub const ALL: [Status; 5] = [
        Status::Up,
        Status::Disabled,
        Status::Dying,
        Status::Stable,
        Status::Dead,
    ];

    /// Its name in tables (`p_up`, `p_disabled`…).
    pub fn key(self) -> &'static str {
        match self {
            Status::Up => "up",
            Status::Disabled => "disabled",
            Status::Dying => "dying",
            Status::Stable => "stable",
            Status::Dead => "dead",
        }
    }
}

/// What a turn waits for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Pending {
    /// The outcome of an attack with profile `profile`; then [`Fight::resolve_attack`].
    Attack { profile: ProfileId },
    /// A dying check that stabilises with probability `p_stable`; then
    /// [`Fight::resolve_dying`].
    Dying { p_stable: f64 },
    /// A uniform choice among `among` targets (`random` tactic); then
    /// [`Fight::resolve_pick`].
    Pick { among: usize },
    /// The turn is over.
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Start,
    Choose,
    Attack,
    End,
    Over,
}

/// Where a turn is. Kept small (28 bytes), as [`Standing`]: a combatant is one of at
/// most 52 tokens, so its index fits a byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Turn {
    actor: u8,
    stage: Stage,
    /// The routine's line (an order; 0 for a routine the tactic chose).
    line: u32,
    /// The attack of that line's routine.
    iterative: u32,
    /// Whom the line's attacks go to now.
    target: Option<u8>,
    /// The attack a tactic chose, for a combatant without orders.
    chosen: Option<u32>,
    /// Disabled: it makes one attack, then takes 1 damage.
    disabled: bool,
    attacks_made: u32,
    /// The pending pick chooses the routine's target (not a new target mid-routine).
    picking_routine: bool,
}

/// How a turn starts ([`Fight::begin_turn`]).
enum Begin {
    /// It does nothing more: dead, stable, or its dying rule settled without a chance.
    Over,
    /// It acts (`disabled`: one attack, then 1 damage).
    Acts { disabled: bool },
    /// Dying, it makes a check that stabilises it with this chance.
    Dying { p_stable: f64 },
}

/// What Monte Carlo's straight turn asks of its engine: a draw for each chance as it
/// comes, and word of the damage each attack dealt.
pub(super) trait Chances {
    /// The outcome of an attack with profile `profile`: its effect.
    fn attack(&mut self, profile: ProfileId) -> OutcomeEffect;
    /// Whether a dying check that succeeds with probability `p_stable` stabilises.
    fn stabilises(&mut self, p_stable: f64) -> bool;
    /// A uniform choice among `among` targets: its index.
    fn pick(&mut self, among: usize) -> usize;
    /// `actor`'s attack dealt `hit`.
    fn dealt(&mut self, actor: usize, hit: Dealt);
}

/// Where [`Fight::retarget`] sends the rest of a line, or [`Fight::routine_target`] a
/// routine.
pub(super) enum Retarget {
    /// To this combatant.
    To(usize),
    /// To one of `targets` (a bit each), `among` of them, picked uniformly.
    Random { targets: u64, among: usize },
    /// Nowhere: the line ends.
    Nobody,
}

impl Retarget {
    /// A uniform pick among `targets` (a bit each), or nowhere without any.
    pub(super) fn random(targets: u64) -> Retarget {
        match targets.count_ones() as usize {
            0 => Retarget::Nobody,
            among => Retarget::Random { targets, among },
        }
    }

    /// Where `tactic` sends the rest of a line (`routine` false) or a routine it chooses
    /// itself (`routine` true) among `targets` (a bit each): `hold` sends a line's rest
    /// nowhere and picks a routine as `best`, `random` picks uniformly, the others take
    /// what `pick` gives.
    #[inline(always)]
    pub(super) fn by_tactic(
        tactic: Tactic,
        targets: u64,
        routine: bool,
        pick: impl FnOnce() -> Option<usize>,
    ) -> Retarget {
        match tactic {
            Tactic::Hold if !routine => Retarget::Nobody,
            Tactic::Random => Retarget::random(targets),
            _ => pick().map_or(Retarget::Nobody, Retarget::To),
        }
    }
}

/// Damage an attack's outcome dealt: to its target, and to a creature struck instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Dealt {
    pub target: usize,
    pub to_target: i64,
    pub struck: Option<(usize, i64)>,
}

/// The line being carried out: its attack, its scripted target and iteratives.
struct Line<'a> {
    attack: usize,
    scripted: Option<(usize, &'a [AttackAt])>,
    iteratives: usize,
}

impl<'a> Line<'a> {
    /// A scripted plan line's.
    fn order(order: &'a Order) -> Line<'a> {
        Line {
            attack: order.attack,
            scripted: Some((order.target, &order.iteratives)),
            iteratives: order.iteratives.len(),
        }
    }

    /// The routine of `me`'s `attack` a tactic chose.
    fn routine(me: &Fighter, attack: usize) -> Line<'a> {
        Line {
            attack,
            scripted: None,
            iteratives: me.tables.routine[attack],
        }
    }
}

impl AttackAt {
    /// The profile to roll in `standings`: the flat-footed one while the target is
    /// flat-footed, the one without the map's flanking once no partner threatens, the one
    /// without the penalty for shooting into melee once no ally is engaged with the
    /// target, the one facing the helpless Defense of the creature struck instead once it
    /// is helpless.
    pub(super) fn profile_in(
        self,
        fight: &Fight,
        standings: &[Standing],
        target: usize,
    ) -> ProfileId {
        self.profiles[situation(
            fight.flat_footed(&standings[target]),
            fight.flanked(standings, self.partners),
            fight.engaged(standings, self.allies),
            fight.covering(standings, self.struck),
        )]
    }
}

/// Where [`AttackAt::profiles`] keeps the profile of an attack at a target that is
/// flat-footed or not, flanked or not (every partner down), engaged with an ally or not
/// (every ally down), whose creature struck instead is conscious or not: the bits of
/// [`super::Fight::plans`]' index.
#[inline(always)]
pub(super) fn situation(flat_footed: bool, flanked: bool, engaged: bool, covering: bool) -> usize {
    usize::from(flat_footed)
        | usize::from(!flanked) << 1
        | usize::from(!engaged) << 2
        | usize::from(!covering) << 3
}

impl Dealt {
    /// Each creature hurt and the damage it took.
    pub fn amounts(&self) -> impl Iterator<Item = (usize, i64)> + use<> {
        std::iter::once((self.target, self.to_target)).chain(self.struck)
    }
}

impl Turn {
    /// Its fields folded into one word for the exact engine's state index, as
    /// [`Standing::key`].
    pub fn key(&self) -> u64 {
        let option = |o: Option<usize>| o.map_or(0, |v| v as u64 + 1);
        (self.actor as u64)
            ^ (self.stage as u64) << 8
            ^ (self.line as u64) << 12
            ^ (self.iterative as u64) << 20
            ^ option(self.target()) << 28
            ^ option(self.chosen()) << 36
            ^ u64::from(self.disabled) << 44
            ^ u64::from(self.attacks_made) << 45
            ^ u64::from(self.picking_routine) << 63
    }

    /// The combatant whose turn it is.
    pub fn actor(&self) -> usize {
        usize::from(self.actor)
    }

    /// Whom the routine's attacks go to now (a pending attack's target).
    pub fn target(&self) -> Option<usize> {
        self.target.map(usize::from)
    }

    fn set_target(&mut self, target: Option<usize>) {
        self.target = target.map(|t| u8::try_from(t).expect("at most 52 combatants"));
    }

    /// The attack of the routine's line that is next.
    fn iterative(&self) -> usize {
        self.iterative as usize
    }

    /// The attack a tactic chose, for a combatant without orders.
    fn chosen(&self) -> Option<usize> {
        self.chosen.map(|a| a as usize)
    }

    /// The routine moves past an attack made, whatever its outcome.
    pub fn attack_made(&mut self) {
        self.iterative += 1;
        self.attacks_made += 1;
    }

    pub fn new(actor: usize) -> Turn {
        Turn {
            actor: u8::try_from(actor).expect("at most 52 combatants"),
            stage: Stage::Start,
            line: 0,
            iterative: 0,
            target: None,
            chosen: None,
            disabled: false,
            attacks_made: 0,
            picking_routine: false,
        }
    }
}

impl Fight {
    /// Every combatant's standing before the fight.
    pub(super) fn start(&self) -> Vec<Standing> {
        (self.fighters.iter())
            .map(|f| Standing {
                taken: 0,
                resolve: f.resolve,
                flags: 0,
            })
            .collect()
    }

    /// A combatant's status.
    pub(super) fn status(&self, who: usize, s: &Standing) -> Status {
        s.status(self.up_below[who], self.disabled_at[who])
    }

    /// The damage `who` has taken at 0 hp (none without hit points), from which the
    /// tactics count its hit points left.
    pub(super) fn zero_at(&self, who: usize) -> i64 {
        self.fighters[who].injury.down_at.unwrap_or(0)
    }

    /// Whether `who`, in standing `s`, is up (able to act): [`Fight::status`] is `Up`.
    pub(super) fn is_up(&self, who: usize, s: &Standing) -> bool {
        s.up_below(self.up_below[who])
    }

    /// The side that won once at most one side has anyone able to act: `Some(Some(side))`,
    /// `Some(None)` when nobody is left able to act, `None` while the fight goes on.
    pub(super) fn ended(&self, standings: &[Standing]) -> Option<Option<usize>> {
        self.ended_with(self.up(standings))
    }

    /// Who is up, a bit per combatant.
    pub(super) fn up(&self, standings: &[Standing]) -> u64 {
        // Without a branch per combatant: who is up changes at random.
        (standings.iter().zip(&self.up_below).enumerate()).fold(0, |up, (i, (s, &below))| {
            up | u64::from(s.up_below(below)) << i
        })
    }

    /// [`Fight::ended`] from who is up, a bit per combatant.
    pub(super) fn ended_with(&self, up: u64) -> Option<Option<usize>> {
        let mut able = None;
        for (side, &members) in self.side_members.iter().enumerate() {
            if up & members != 0 {
                if able.is_some() {
                    return None;
                }
                able = Some(side);
            }
        }
        Some(able)
    }

    /// Carries the turn on until it needs a chance or is over. It and the steps it takes
    /// are inlined into the exact engine's loop, which steps through millions of turns
    /// (calling each step cost about a fifth of a fight's instructions when Monte Carlo
    /// stepped through it too).
    #[inline(always)]
    pub(super) fn advance(&self, standings: &mut [Standing], turn: &mut Turn) -> Pending {
        let me = &self.fighters[turn.actor()];
        loop {
            match turn.stage {
                Stage::Start => {
                    if let Some(pending) = self.start_turn(standings, turn) {
                        return pending;
                    }
                }
                Stage::Choose => {
                    turn.stage = Stage::Attack;
                    // Orders are carried out while one of their targets is up; after
                    // that, and without orders, the tactic chooses the whole routine.
                    let ordered =
                        (me.orders.iter()).any(|o| self.is_up(o.target, &standings[o.target]));
                    if !ordered {
                        let up = self.up(standings);
                        match self.routine_target(standings, up, turn.actor()) {
                            Retarget::To(target) => self.choose(standings, turn, target),
                            Retarget::Random { among, .. } => {
                                turn.picking_routine = true;
                                return Pending::Pick { among };
                            }
                            Retarget::Nobody => turn.stage = Stage::End,
                        }
                    }
                }
                Stage::Attack => {
                    if let Some(pending) = self.next_attack(standings, turn) {
                        return pending;
                    }
                }
                Stage::End => {
                    if turn.disabled {
                        // The action a disabled creature took costs it 1 hp (dying).
                        self.hurt(standings, turn.actor(), 1, false, false);
                    }
                    turn.stage = Stage::Over;
                }
                Stage::Over => return Pending::Over,
            }
        }
    }

    /// The start of the turn of `actor`, who is not up (Monte Carlo's turn): its dying
    /// check drawn by `chances`. `Some(disabled)` when it acts after all (disabled, or
    /// back up on a Resolve Point), `None` when its turn is over.
    pub(super) fn start_down_turn<C: Chances>(
        &self,
        standings: &mut [Standing],
        actor: usize,
        chances: &mut C,
    ) -> Option<bool> {
        match self.begin_turn(standings, actor) {
            Begin::Over => None,
            Begin::Acts { disabled } => Some(disabled),
            Begin::Dying { p_stable } => {
                let stable = chances.stabilises(p_stable);
                self.dying_check(standings, actor, stable);
                None
            }
        }
    }

    /// The start of a turn ([`Fight::begin_turn`]) as the machine's stage.
    #[inline(always)]
    fn start_turn(&self, standings: &mut [Standing], turn: &mut Turn) -> Option<Pending> {
        turn.stage = Stage::Over;
        match self.begin_turn(standings, turn.actor()) {
            Begin::Over => None,
            Begin::Acts { disabled } => {
                turn.disabled = disabled;
                turn.stage = Stage::Choose;
                None
            }
            Begin::Dying { p_stable } => Some(Pending::Dying { p_stable }),
        }
    }

    /// The start of `actor`'s turn: flat-footed no more; a dying or stable combatant's
    /// check, or its Resolve spent. A dead combatant's standing stays as it is: every
    /// dead standing is the same (see `Standing::DEAD`).
    #[inline(always)]
    fn begin_turn(&self, standings: &mut [Standing], actor: usize) -> Begin {
        let status = self.status(actor, &standings[actor]);
        if status == Status::Dead {
            return Begin::Over;
        }
        let (me, zero_at) = (&self.fighters[actor], self.zero_at(actor));
        let s = &mut standings[actor];
        self.end_flat_footed(s);
        match (status, self.dying) {
            (Status::Up | Status::Disabled, _) => {
                return Begin::Acts {
                    disabled: status == Status::Disabled,
                };
            }
            (Status::Stable, _) if self.resolve_gets_up(s) => {
                s.resolve -= 1;
                s.taken = zero_at - 1;
                s.flags &= !STABLE;
                return Begin::Acts { disabled: false };
            }
            (Status::Stable | Status::Dead, _) => {}
            (Status::Dying, DyingRule::ConCheck { dc }) => {
                let below_zero = s.taken - zero_at;
                let need = i64::from(dc) - me.con_modifier + below_zero;
                // The d20 rolls that succeed: `need` and up, and a natural 20 always.
                let succeeding = 21 - need.clamp(1, 20);
                return Begin::Dying {
                    p_stable: D20_SHARES[succeeding as usize],
                };
            }
            (Status::Dying, DyingRule::Percent { percent }) => {
                return Begin::Dying {
                    p_stable: f64::from(percent) / 100.0,
                };
            }
            (Status::Dying, DyingRule::Resolve { max_cost }) => {
                let cost = DyingRule::stabilise_cost(i64::from(me.resolve), max_cost);
                if me.resolve > 0 && i64::from(s.resolve) >= cost {
                    s.resolve -= i32::try_from(cost).expect("at most the Resolve Points");
                    s.flags |= STABLE;
                } else if s.resolve == 0 {
                    *s = Standing::DEAD;
                } else {
                    s.resolve -= 1;
                }
            }
        }
        Begin::Over
    }

    /// Whether a turn of a combatant in standing `s`, not up, can change anything: not
    /// when it is dead, nor when it is stable (which it became on a turn of its own, so
    /// it is no longer flat-footed) unless Resolve can get it back up and it has some to
    /// spend ([`Fight::begin_turn`] is then over at once).
    #[inline(always)]
    pub(super) fn down_turn_matters(&self, s: &Standing) -> bool {
        let stable = s.flags & STABLE != 0;
        s.alive() && (!stable || self.resolve_gets_up(s))
    }

    /// Whether a combatant that went down can get back up in a trial (Starfinder, one
    /// with Resolve Points): otherwise down, like dead, lasts to the fight's end.
    pub(super) fn can_get_back_up(&self) -> bool {
        matches!(self.dying, DyingRule::Resolve { .. })
            && self.fighters.iter().any(|f| f.resolve > 0)
    }

    /// Whether a stable combatant in standing `s` spends a Resolve Point at its turn's
    /// start to get back up (Starfinder, with one to spend).
    #[inline(always)]
    fn resolve_gets_up(&self, s: &Standing) -> bool {
        matches!(self.dying, DyingRule::Resolve { .. }) && s.resolve >= 1
    }

    /// The next attack of the routine, or `None` when the stage moved on.
    #[inline(always)]
    fn next_attack(&self, standings: &[Standing], turn: &mut Turn) -> Option<Pending> {
        let Some(line) = self.line(turn) else {
            turn.stage = Stage::End;
            return None;
        };
        if turn.iterative() >= line.iteratives || (turn.disabled && turn.attacks_made >= 1) {
            self.skip_line(turn);
            return None;
        }
        let current = turn.target().or(line.scripted.map(|(t, _)| t));
        let (actor, iterative) = (turn.actor(), turn.iterative());
        let usable = current.filter(|&t| {
            self.is_up(t, &standings[t]) && self.attack_at(actor, &line, iterative, t).is_some()
        });
        let target = match usable {
            Some(t) => t,
            None => {
                let up = self.up(standings);
                match self.retarget(standings, up, actor, line.attack, iterative) {
                    Retarget::To(t) => t,
                    Retarget::Random { among, .. } => return Some(Pending::Pick { among }),
                    Retarget::Nobody => {
                        self.skip_line(turn);
                        return None;
                    }
                }
            }
        };
        turn.set_target(Some(target));
        let at = self.attack_at(actor, &line, iterative, target)?;
        Some(Pending::Attack {
            profile: at.profile_in(self, standings, target),
        })
    }

    /// Applies `effect`, an outcome of the pending attack's profile `profile`.
    #[inline(always)]
    pub(super) fn resolve_attack(
        &self,
        standings: &mut [Standing],
        turn: &mut Turn,
        profile: ProfileId,
        effect: &OutcomeEffect,
    ) -> Dealt {
        let target = turn.target().expect("an attack has a target");
        turn.attack_made();
        self.strike(standings, target, profile, effect)
    }

    /// An attack at `target` with profile `profile` had outcome `effect`: the target, and
    /// a creature struck instead, take its damage.
    #[inline(always)]
    fn strike(
        &self,
        standings: &mut [Standing],
        target: usize,
        profile: ProfileId,
        effect: &OutcomeEffect,
    ) -> Dealt {
        self.hurt(standings, target, effect.damage, effect.drops, effect.slays);
        let struck = self.profiles[profile].struck.map(|other| {
            self.hurt(
                standings,
                other,
                effect.struck_damage,
                effect.struck_drops,
                false,
            );
            (other, effect.struck_damage)
        });
        Dealt {
            target,
            to_target: effect.damage,
            struck: struck.filter(|&(_, d)| d > 0),
        }
    }

    /// A dying check's result: the machine's turn is then over.
    pub(super) fn resolve_dying(&self, standings: &mut [Standing], turn: &mut Turn, stable: bool) {
        self.dying_check(standings, turn.actor(), stable);
        turn.stage = Stage::Over;
    }

    /// `actor`'s dying check came out `stable`, or it loses 1 hp.
    fn dying_check(&self, standings: &mut [Standing], actor: usize, stable: bool) {
        if stable {
            standings[actor].flags |= STABLE;
        } else {
            self.hurt(standings, actor, 1, false, false);
        }
    }

    /// The `random` tactic's choice: the `index`-th of the targets it could pick, for
    /// the whole routine (no orders left) or for the rest of the line.
    pub(super) fn resolve_pick(&self, standings: &[Standing], turn: &mut Turn, index: usize) {
        let up = self.up(standings);
        if turn.picking_routine {
            turn.picking_routine = false;
            let targets = self.candidates(up, turn.actor(), None, 0);
            let target = members(targets).nth(index).expect("a candidate");
            self.choose(standings, turn, target);
        } else {
            let attack = self.line(turn).map(|l| l.attack);
            let targets = self.candidates(up, turn.actor(), attack, turn.iterative());
            turn.set_target(members(targets).nth(index));
        }
    }

    /// `who` takes `damage` (`drops`: a failed massive-damage save; `slays`: dead outright).
    #[inline(always)]
    pub(super) fn hurt(
        &self,
        standings: &mut [Standing],
        who: usize,
        damage: i64,
        drops: bool,
        slays: bool,
    ) {
        // A miss, the commonest outcome, costs no call.
        if damage != 0 || drops || slays {
            standings[who] = self.hurt_one(who, standings[who], damage, drops, slays);
        }
    }

    /// [`Fight::hurt`] on `who`'s standing `s` alone: the standing after. Never inlined:
    /// a Monte Carlo turn inlines every step of a turn, and this one, copied to each of
    /// its hurts, only lengthens that loop (outlined, and with `Target::take` always
    /// inlined, a party-fight trial ran about 470 fewer instructions, callgrind, measured
    /// when Monte Carlo still stepped through the machine).
    #[inline(never)]
    fn hurt_one(&self, who: usize, s: Standing, damage: i64, drops: bool, slays: bool) -> Standing {
        if s.flags & DEAD != 0 || (damage == 0 && !drops && !slays) {
            return s;
        }
        let (taken, dead) = self.fighters[who].injury.take(s.taken, damage, drops);
        if dead || slays {
            Standing::DEAD
        } else {
            s.with_taken(taken)
        }
    }

    /// What outcome `effect` of an attack at `target`, in standing `s`, leaves it in: the
    /// target's part of [`Fight::resolve_attack`].
    pub(super) fn target_after(
        &self,
        target: usize,
        s: Standing,
        effect: &OutcomeEffect,
    ) -> Standing {
        self.hurt_one(target, s, effect.damage, effect.drops, effect.slays)
    }

    /// Whether outcome `effect` on `target`, in standing `s` but for its damage taken,
    /// only adds its damage while the target lives: then `Some` of the damage taken from
    /// which it is dead instead (`i64::MAX`: never), as [`Fight::target_after`] gives;
    /// `None` when the outcome does more (a failed massive-damage save, a kill outright,
    /// Starfinder's overflow).
    pub(super) fn adds_damage_only(
        &self,
        target: usize,
        s: Standing,
        effect: &OutcomeEffect,
    ) -> Option<i64> {
        let plain = s.flags & DEAD == 0 && !effect.drops && !effect.slays;
        self.dead_from_added_damage(target).filter(|_| plain)
    }

    /// The damage taken from which `target` is dead (`i64::MAX`: never) when an outcome
    /// that neither drops nor slays it only adds its damage while it lives (see
    /// [`Fight::adds_damage_only`]); `None` where its rules do more (Starfinder's overflow).
    pub(super) fn dead_from_added_damage(&self, target: usize) -> Option<i64> {
        let injury = &self.fighters[target].injury;
        (injury.overflow_kills.is_none()).then(|| injury.dead_at.unwrap_or(i64::MAX))
    }

    /// The routine's current line.
    fn line(&self, turn: &Turn) -> Option<Line<'_>> {
        let me = &self.fighters[turn.actor()];
        match turn.chosen() {
            Some(attack) => Some(Line::routine(me, attack)),
            None => me.orders.get(turn.line as usize).map(Line::order),
        }
    }

    fn next_line(&self, turn: &mut Turn) {
        turn.line += 1;
        turn.iterative = 0;
        turn.set_target(None);
    }

    /// The rest of the line is not made (hold, or no one to attack).
    fn skip_line(&self, turn: &mut Turn) {
        if turn.disabled || turn.chosen.is_some() {
            turn.stage = Stage::End;
        } else {
            self.next_line(turn);
        }
    }

    /// Where the rest of a line goes when its target can no longer be attacked: to the
    /// enemy up (in `up`) that `actor`'s tactic picks among those its `iterative`-th
    /// `attack` reaches; for `random`, to a uniform pick; for `hold`, nowhere.
    #[inline(always)]
    fn retarget(
        &self,
        standings: &[Standing],
        up: u64,
        actor: usize,
        attack: usize,
        iterative: usize,
    ) -> Retarget {
        let targets = self.candidates(up, actor, Some(attack), iterative);
        let tactic = self.fighters[actor].tactic;
        Retarget::by_tactic(tactic, targets, false, || {
            self.pick(standings, actor, tactic, Some(attack), iterative, targets)
        })
    }

    /// The target of the routine `actor`'s tactic chooses (no orders left): among the
    /// enemies up (in `up`) any of its attacks reaches; `hold` picks as `best` here.
    #[inline(always)]
    fn routine_target(&self, standings: &[Standing], up: u64, actor: usize) -> Retarget {
        let targets = self.candidates(up, actor, None, 0);
        let tactic = self.fighters[actor].tactic;
        Retarget::by_tactic(tactic, targets, true, || {
            self.pick(standings, actor, tactic, None, 0, targets)
        })
    }

    /// `actor`'s `iterative`-th attack of `line` at `target`: the order's own numbers at
    /// its scripted target, the tactic's at any other.
    fn attack_at(
        &self,
        actor: usize,
        line: &Line,
        iterative: usize,
        target: usize,
    ) -> Option<AttackAt> {
        match line.scripted {
            Some((scripted, iteratives)) if scripted == target => {
                iteratives.get(iterative).copied()
            }
            _ => self.fighters[actor].options[line.attack][target]
                .as_ref()
                .and_then(|i| i.get(iterative).copied()),
        }
    }

    /// The enemies up (in `up`, a bit per combatant) that `actor` can attack with
    /// `attack` from its `iterative`-th attack on (with any attack when `None`), a bit each.
    fn candidates(&self, up: u64, actor: usize, attack: Option<usize>, iterative: usize) -> u64 {
        let t = &self.fighters[actor].tables;
        up & match attack {
            Some(a) if iterative < t.stride => t.in_reach[a * t.stride + iterative],
            Some(_) => 0,
            None => t.reaches,
        }
    }

    /// The target a (non-random) tactic picks among `targets` (a bit each; none without
    /// any); `hold` picks as `best` where it must pick at all (a routine it chooses itself).
    #[inline(always)]
    fn pick(
        &self,
        standings: &[Standing],
        actor: usize,
        tactic: Tactic,
        attack: Option<usize>,
        iterative: usize,
        targets: u64,
    ) -> Option<usize> {
        let me = &self.fighters[actor];
        let hp_left = |t: usize| self.zero_at(t) - standings[t].taken;
        let first = |t: usize| match tactic {
            Tactic::Weakest => 0,
            Tactic::Nearest => ordered_bits(me.distance[t] as f64),
            _ => match attack {
                Some(a) => self.expected_key(standings, me, a, t, iterative),
                None => {
                    let flat = usize::from(self.flat_footed(&standings[t]));
                    me.tables.best_key[t * 2 + flat]
                }
            },
        };
        lowest(targets, tactic, first, hp_left)
    }

    /// The `best` tactic's key for `attack`'s attacks from `iterative` on at `target` now
    /// (see [`super::Tables::expected_key`]).
    fn expected_key(
        &self,
        standings: &[Standing],
        me: &Fighter,
        attack: usize,
        target: usize,
        iterative: usize,
    ) -> u64 {
        let flat = self.flat_footed(&standings[target]);
        let n = self.fighters.len();
        me.tables
            .expected_key_at(n, attack, target, iterative, flat)
    }

    /// Whether an attack that flanks with `partners` (a bit per fighter; 0: it does not
    /// depend on anyone) still does: one of them threatens, being up or disabled (a
    /// dying, stable or dead creature threatens nobody).
    #[inline(always)]
    pub(super) fn flanked(&self, standings: &[Standing], partners: u64) -> bool {
        partners == 0 || self.any_conscious(standings, partners)
    }

    /// Whether a ranged attack whose target is engaged in melee with `allies` (a bit per
    /// fighter; 0: with none) still shoots into melee: one of them is conscious, up or
    /// disabled (an unconscious or dead ally is engaged with nobody, RULES.md §10).
    #[inline(always)]
    pub(super) fn engaged(&self, standings: &[Standing], allies: u64) -> bool {
        allies == 0 || self.any_conscious(standings, allies)
    }

    /// Whether the creature an attack may strike instead (`struck`, its bit; 0: none)
    /// has its own Defense still: it is conscious, up or disabled (a dying, stable or
    /// dead creature is helpless).
    #[inline(always)]
    pub(super) fn covering(&self, standings: &[Standing], struck: u64) -> bool {
        struck == 0 || self.any_conscious(standings, struck)
    }

    /// Whether one of `who` (a bit per fighter) is up or disabled.
    #[inline(always)]
    fn any_conscious(&self, standings: &[Standing], who: u64) -> bool {
        members(who).any(|p| matches!(self.status(p, &standings[p]), Status::Up | Status::Disabled))
    }

    /// A combatant whose turn starts, in standing `s`, is flat-footed no more.
    pub(super) fn end_flat_footed(&self, s: &mut Standing) {
        if self.flat_footed_until_first_turn {
            s.flags |= ACTED;
        }
    }

    /// Whether attacks at a combatant in standing `s` face it flat-footed: it has not had
    /// its first turn yet, in a system where that matters.
    pub(super) fn flat_footed(&self, s: &Standing) -> bool {
        self.flat_footed_until_first_turn && s.flags & ACTED == 0
    }

    /// The attack of `actor`'s routine at `target` a tactic chooses: the one with the most
    /// expected damage (ties: the first), from [`super::Tables`]; `None` when none can be
    /// made there.
    fn routine_attack(&self, standings: &[Standing], actor: usize, target: usize) -> Option<usize> {
        let flat = usize::from(self.flat_footed(&standings[target]));
        self.fighters[actor].tables.routine_attack[target * 2 + flat]
    }

    /// A tactic's routine: at `target`, the attack with the most expected damage (ties:
    /// the first), from [`super::Tables`].
    #[inline(always)]
    fn choose(&self, standings: &[Standing], turn: &mut Turn, target: usize) {
        let chosen = self.routine_attack(standings, turn.actor(), target);
        turn.chosen = chosen.map(|a| u32::try_from(a).expect("fewer than 2^32 attacks"));
        turn.set_target(Some(target));
        turn.stage = if chosen.is_some() {
            Stage::Attack
        } else {
            Stage::End
        };
    }
}

impl Tables {
    /// Whether a combatant with these tables and `tactic` may read `target`'s hit points
    /// (one of `fighters`) while it is up: a tactic reads them only to break a tie
    /// between keys ([`lowest`]), so `weakest` where it has another target to compare,
    /// `best` and `hold` where a key at `target` equals one at another target it may pick
    /// among at the same time (flat-footed or not, either).
    pub(super) fn reads_hit_points(&self, fighters: usize, tactic: Tactic, target: usize) -> bool {
        let bit = 1 << target;
        let ties = |key: &dyn Fn(usize, bool) -> u64, among: u64| {
            let keys = |t| [key(t, false), key(t, true)];
            among & bit != 0
                && members(among & !bit)
                    .any(|other| keys(other).iter().any(|k| keys(target).contains(k)))
        };
        match tactic {
            Tactic::Nearest | Tactic::Random => false,
            Tactic::Weakest => self.reaches & bit != 0 && self.reaches & !bit != 0,
            Tactic::Best | Tactic::Hold => {
                let best_key = |t: usize, flat: bool| self.best_key[t * 2 + usize::from(flat)];
                let routine_keys = |attack: usize, iterative: usize| {
                    let key = |t, flat| self.expected_key_at(fighters, attack, t, iterative, flat);
                    ties(&key, self.in_reach[attack * self.stride + iterative])
                };
                ties(&best_key, self.reaches)
                    || (0..self.routine.len())
                        .any(|attack| (0..self.stride).any(|i| routine_keys(attack, i)))
            }
        }
    }

    /// Where [`Tables::expected_key`] keeps the key of `attack`'s routine from
    /// `iterative` on (below `stride`) at `target` (one of `fighters`), flat-footed or not.
    pub(super) fn expected_index(
        stride: usize,
        fighters: usize,
        attack: usize,
        target: usize,
        iterative: usize,
        flat_footed: bool,
    ) -> usize {
        ((attack * fighters + target) * stride + iterative) * 2 + usize::from(flat_footed)
    }

    /// The `best` tactic's key for `attack`'s attacks from `iterative` on at `target`
    /// (one of `fighters`), flat-footed or not: no damage past the longest routine.
    #[inline(always)]
    pub(super) fn expected_key_at(
        &self,
        fighters: usize,
        attack: usize,
        target: usize,
        iterative: usize,
        flat_footed: bool,
    ) -> u64 {
        if iterative >= self.stride {
            return ordered_bits(0.0);
        }
        let at = Tables::expected_index(
            self.stride,
            fighters,
            attack,
            target,
            iterative,
            flat_footed,
        );
        self.expected_key[at]
    }
}

/// The combatants in `set` (bit `i` for fighter `i`), in file order.
pub(super) fn members(set: u64) -> impl Iterator<Item = usize> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

/// The target among `targets` (a bit each; none without any) with the lowest `first`
/// key, the pick of every non-random tactic: ties go to the fewer hp left (`hp_left`;
/// but for `nearest`), then to the first in file order, which is the order `targets`
/// come in.
#[inline(always)]
pub(super) fn lowest(
    targets: u64,
    tactic: Tactic,
    first: impl Fn(usize) -> u64,
    hp_left: impl Fn(usize) -> i64,
) -> Option<usize> {
    let by_hp = tactic != Tactic::Nearest;
    let mut best: Option<(usize, u64)> = None;
    for t in members(targets) {
        let first = first(t);
        let better = best.is_none_or(|(b, most)| {
            first < most || (first == most && by_hp && hp_left(t) < hp_left(b))
        });
        if better {
            best = Some((t, first));
        }
    }
    best.map(|(t, _)| t)
}

/// `x`'s bits as an integer that orders as `x` does (0 and -0 alike); `x` is not NaN.
pub(super) fn ordered_bits(x: f64) -> u64 {
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

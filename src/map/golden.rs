//! Golden maps: one line per case through [`check`], which parses the map, places every
//! letter, asks one question and renders the answer as text.
//!
//! A question reads `A>T KIND [OPTION…]`, or `place`:
//! - `A>T`: attacker letter `A`, target letter `T`;
//! - KIND: `melee` | `ranged` (the cover tally), `melee:SYSTEM` | `ranged:SYSTEM` (the
//!   cover level that system's rules give, through [`crate::verdict`]), `conceal` |
//!   `conceal-melee`, `flank:P` (partner `P`), `threat`, `line:x,y-x,y` (one line between
//!   a corner of each space), `origin:x,y` (an area's cover tally from that point, and the
//!   target's distance from it), `height` (ground elevations, the target flying 5 ft up);
//! - OPTION: `O=2` (letter `O` fills 2×2; default 1), `hv` (variant low walls and
//!   concealment), `partial-off` (`[options] partial_cover = false`), `low-light`,
//!   `darkvision`, `under:~` (paint the target's squares), `paint:x,y,~`, `reach:10` /
//!   `reach:10w` (the attacker's reach, `w` = reach weapon; default 5 ft per square of
//!   space), `partner:10w` (the flank partner's reach).

use super::sight::Sightlines;
use super::*;
use crate::rules::SystemId;
use crate::verdict::{Against, CoverRules, cover_procedure, map_config};

/// Golden-map extras: `|` arrow slit, `^` a platform 10 ft up.
fn legend() -> [(char, Terrain); 2] {
    let slit = Terrain {
        blocks: true,
        improved: true,
        ..Terrain::FLOOR
    };
    let platform = Terrain {
        elevation: 10,
        ..Terrain::FLOOR
    };
    [('|', slit), ('^', platform)]
}

/// PF1 cover as a score (the AC bonus the target would get): the attacker minimises it.
fn pf1_score(t: &LineTally) -> i32 {
    let walls = match (t.adjacent, t.k) {
        (_, 0) => 0,
        (false, 1) => 2,
        _ => 4,
    };
    let walls = if t.improved { 8 } else { walls };
    walls.max(if t.soft { 4 } else { 0 })
}

fn check(map: &[&str], question: &str, expected: &str) {
    let got = answer(map, question).unwrap_or_else(|e| {
        let MapError { row, col, message } = e;
        format!("error {row},{col}: {message}")
    });
    assert_eq!(got, expected, "{question} on {map:#?}");
}

/// A question, parsed.
struct Question<'q> {
    kind: &'q str,
    letters: (char, char),
    sizes: Vec<(char, i32)>,
    config: Config,
    vision: Vision,
    paint: Vec<(Option<Square>, char)>,
    reach: Option<Reach>,
    partner_reach: Option<Reach>,
    partial_cover: bool,
}

fn question(text: &str) -> Question<'_> {
    let mut words = text.split_whitespace();
    let head = words.next().unwrap_or_default();
    let kind = if head == "place" {
        head
    } else {
        words.next().unwrap_or_default()
    };
    let letters: Vec<char> = head.chars().collect();
    let mut q = Question {
        kind,
        letters: (letters[0], letters[letters.len() - 1]),
        sizes: Vec::new(),
        config: Config::default(),
        vision: Vision::default(),
        paint: Vec::new(),
        reach: None,
        partner_reach: None,
        partial_cover: true,
    };
    let reach = |r: &str| Reach {
        feet: r.trim_end_matches('w').parse().unwrap(),
        weapon: r.ends_with('w'),
    };
    for word in words {
        let (key, value) = word.split_once([':', '=']).unwrap_or((word, ""));
        match key {
            "hv" => {
                q.config.low_wall_both = true;
                q.config.concealment_whole_space = false;
            }
            "partial-off" => q.partial_cover = false,
            "low-light" => q.vision.low_light = true,
            "darkvision" => q.vision.darkvision = true,
            "under" => q.paint.push((None, value.parse().unwrap())),
            "paint" => {
                let [x, y, symbol] = value.splitn(3, ',').collect::<Vec<_>>()[..] else {
                    panic!("paint:x,y,symbol expected in `{word}`")
                };
                let square = Square {
                    x: x.parse().unwrap(),
                    y: y.parse().unwrap(),
                };
                q.paint.push((Some(square), symbol.parse().unwrap()));
            }
            "reach" => q.reach = Some(reach(value)),
            "partner" => q.partner_reach = Some(reach(value)),
            letter if letter.len() == 1 => {
                q.sizes
                    .push((letter.parse().unwrap(), value.parse().unwrap()));
            }
            _ => panic!("unknown option `{word}`"),
        }
    }
    q
}

fn point(text: &str) -> Point {
    let (x, y) = text.split_once(',').unwrap();
    Point {
        x: x.parse().unwrap(),
        y: y.parse().unwrap(),
    }
}

fn answer(map: &[&str], text: &str) -> Result<String, MapError> {
    let q = question(text);
    let legend = legend();
    let mut parsed = parse(map, &legend)?;
    let mut spaces = Vec::new();
    for token in &parsed.tokens {
        let side = q.sizes.iter().find(|(c, _)| *c == token.letter);
        let side = side.map_or(1, |(_, s)| *s);
        spaces.push((
            token.letter,
            Space::place(token.letter, &token.squares, side)?,
        ));
    }
    if q.kind == "place" {
        return Ok("ok".into());
    }
    let space = |c: char| {
        let found = spaces.iter().find(|(l, _)| *l == c).map(|(_, s)| *s);
        found.ok_or_else(|| MapError::new(0, 0, format!("no `{c}` on the map")))
    };
    let (a, t) = (space(q.letters.0)?, space(q.letters.1)?);
    let terrain = |symbol: char| {
        let mut all = Terrain::BUILT_IN.iter().chain(legend.iter());
        let found = all.find(|(c, _)| *c == symbol).map(|(_, t)| *t);
        found.unwrap_or_else(|| panic!("no terrain `{symbol}`"))
    };
    for &(square, symbol) in &q.paint {
        let squares: Vec<Square> = square.map_or_else(|| t.squares().collect(), |s| vec![s]);
        for s in squares {
            parsed.grid.set(s, terrain(symbol));
        }
    }
    let grid = &parsed.grid;
    let creatures: Vec<Space> = spaces.iter().map(|(_, s)| *s).collect();
    let natural = |s: &Space| Reach {
        feet: 5 * s.side(),
        weapon: false,
    };
    let flag = |on: bool, name: &str| {
        if on {
            format!(" {name}")
        } else {
            String::new()
        }
    };
    let (kind, arg) = q.kind.split_once(':').unwrap_or((q.kind, ""));
    let melee = kind.ends_with("melee") || kind == "flank";
    let system = (!arg.is_empty() && matches!(kind, "melee" | "ranged"))
        .then(|| arg.parse::<SystemId>().unwrap());
    let attack = match system {
        Some(system) => cover_procedure(system.rules(), melee, q.reach.unwrap_or(natural(&a))),
        None if melee => Approach::Melee,
        None => Approach::Ranged,
    };
    let ctx = Ctx {
        attack,
        creatures: &creatures,
        vision: q.vision,
        config: system.map_or(q.config, |s| map_config(s.rules())),
    };
    let (kind, arg) = q.kind.split_once(':').unwrap_or((q.kind, ""));
    Ok(match kind {
        "melee" | "ranged" => match system {
            Some(system) => {
                let judge = CoverRules {
                    rules: system.rules(),
                    against: if melee {
                        Against::Melee
                    } else {
                        Against::Ranged
                    },
                    partial_cover: q.partial_cover,
                };
                let score = |t: &LineTally| judge.worth(judge.level(t));
                let v = cover(grid, &a, &t, &ctx, &score);
                format!("{}{}", judge.level(&v.tally), flag(v.total, "total"))
            }
            None => tally_text(&cover(grid, &a, &t, &ctx, &pf1_score)),
        },
        "origin" => {
            let origin = point(arg);
            let v = cover_from_point(grid, origin, &t, &ctx, &pf1_score);
            let feet = distance_from_point(origin, &t);
            format!("{} at {feet} ft", tally_text(&v))
        }
        "conceal" | "conceal-melee" => {
            let v = concealment(grid, &a, &t, &ctx);
            let (fog, light) = (flag(v.terrain > 0, "fog"), flag(v.light > 0, "light"));
            let total = flag(v.total, "total");
            format!("{}%{fog}{light}{total}", v.miss_chance)
        }
        "flank" => {
            let partner = arg.chars().next().unwrap_or('?');
            let p = space(partner)?;
            let attacker_reach = q.reach.unwrap_or(natural(&a));
            if !threatens(&a, &t, attacker_reach) {
                format!("{} can't reach", q.letters.0)
            } else if !threatens(&p, &t, q.partner_reach.unwrap_or(natural(&p))) {
                format!("{partner} can't reach")
            } else if !line_of_effect(grid, &p, &t) {
                format!("{partner} has no line of effect")
            } else if let Some(l) = flanking(&a, &p, &t) {
                let (f, t) = (l.from, l.to);
                format!("flanked ({},{})-({},{})", f.x2, f.y2, t.x2, t.y2)
            } else {
                "no line".into()
            }
        }
        "threat" => {
            let feet = distance(&a, &t);
            let yes = threatens(&a, &t, q.reach.unwrap_or(natural(&a)));
            format!("{} at {feet} ft", if yes { "threat" } else { "none" })
        }
        "height" => {
            let (ha, ht) = (ground_elevation(grid, &a, 0), ground_elevation(grid, &t, 5));
            format!("{ha} ft over {ht} ft")
        }
        "line" => {
            let (from, to) = arg.split_once('-').unwrap_or_default();
            let sight = Sightlines::new(grid, &a, &t, &creatures, &q.config);
            let l = sight.get(point(from), point(to));
            let what = match (l.blocked(), l.wall) {
                (false, _) => "clear",
                (true, true) => "wall",
                (true, false) => "blocked",
            };
            what.into()
        }
        _ => format!("unknown question `{text}`"),
    })
}

#[test]
fn adjacent_melee() {
    let ogre = ["..........", "....OO....", "...FOO....", ".........."];
    check(&ogre, "F>O melee O=2", "melee k=0");
    check(&ogre, "O>F melee O=2", "melee k=0");
    // The rogue stands below the wall square; the ogre is up and to her right. Lines from
    // her corners into the ogre's square beside the wall cross the wall, so every pair of
    // squares has blocked lines: the best pair (ogre square (3,1)) has 2 of 16.
    let rogue = ["..OO.", ".#OO.", ".R...", "....."];
    check(&rogue, "R>O melee O=2", "melee k=2");
    // Adjacency is mutual and the candidate pairs are the same both ways.
    check(&rogue, "O>R melee O=2", "melee k=2");
    // The ranged procedure from the ogre's best corner: the line along the wall's face is
    // clear, so she has no cover...
    check(&rogue, "O>R ranged O=2", "k=0");
    // ...which is how Pathfinder judges the ogre's reach (Cover Example #2): the ogre has
    // cover from her, she has none from it; a Medium ogre would be judged in melee.
    check(&rogue, "R>O melee:pf1 O=2", "cover");
    check(&rogue, "O>R melee:pf1 O=2", "none");
    check(&rogue, "O>R melee:pf1-variant O=2", "none");
    check(&rogue, "O>R melee:starfinder O=2", "cover");
    check(&rogue, "O>R melee:pf1 O=2 reach:5", "cover");
    // A reach weapon judges by the ranged procedure too; soft cover then counts only in
    // the variant (RULES.md Ambiguity 6), so pf1 reports no cover rather than `soft`.
    check(&["AgT"], "A>T melee:pf1 reach:10w", "none");
    check(&["AgT"], "A>T melee:pf1-variant reach:10w", "soft");
    // Diagonal neighbours across the corner where two walls meet: no line at all.
    let crook = ["A#", "#T"];
    check(&crook, "A>T melee", "melee k=16 total");
}

#[test]
fn corridors_and_wall_faces() {
    // A line along a wall's face is clear (SPEC §4): straight down a corridor, no cover.
    let corridor = ["######", "A....T", "######"];
    check(&corridor, "A>T ranged", "k=0");
    check(&corridor, "A>T ranged:pf1", "none");
    // Two creatures side by side in a 5-ft corridor, or along one wall, fight without cover.
    check(&["####", ".FO.", "####"], "F>O melee", "melee k=0");
    check(&["####", ".FO.", "...."], "F>O melee", "melee k=0");
    check(&["######", "A....T", "......"], "A>T ranged", "k=0");
    // A wall beside the target, the archer in the open: no cover.
    check(&["......", "A....T", ".....#"], "A>T ranged:pf1", "none");
    check(&["......", "A...#T", "......"], "A>T ranged:pf1", "cover");
    // A creature standing in a doorway, shot from straight in front: no cover; from the
    // side of the room, the door frame hides part of it.
    let doorway = ["...A...", ".......", "###T###", "......."];
    check(&doorway, "A>T ranged:pf1", "none");
    let aside = ["A......", ".......", "###T###", "......."];
    check(&aside, "A>T ranged:pf1", "partial");
    // A long seam inside a thick wall still blocks a line that runs along it.
    check(&["A##.", ".##T"], "A>T line:1,1-3,1", "wall");
}

#[test]
fn ranged_cover() {
    // Cover Example #3: the cleric shoots past the wall's lower end; some lines from her
    // best corner still pass through the wall, so the ogre has cover.
    let cleric = [".......", "C...#..", "....#OO", ".....OO", "......."];
    check(&cleric, "C>O ranged O=2", "k=2");
    check(&cleric, "C>O ranged:pf1 O=2", "cover");
    // Cover Example #4: the wall beside the ogre hides one corner of each of its squares
    // from the sorcerer; she sees more than half of it: partial cover, full cover when the
    // experiment turns partial cover off.
    let sorcerer = ["S.........", "...", "...", ".....#OO..", "......OO.."].map(wide);
    let sorcerer = sorcerer.each_ref().map(String::as_str);
    check(&sorcerer, "S>O ranged O=2", "k=1");
    check(&sorcerer, "S>O ranged:pf1 O=2", "partial");
    check(&sorcerer, "S>O ranged:pf1 O=2 partial-off", "cover");
    check(&sorcerer, "S>O ranged:starfinder O=2 partial-off", "cover");
    // A creature in the line: soft cover, whichever corner.
    check(&["A..g..T"], "A>T ranged", "k=0 soft");
    // A target right behind a one-square pillar: the lines along the pillar's faces are
    // clear, so cover, not total cover.
    let pillar = [".....", "A.#.T", "....."];
    check(&pillar, "A>T ranged", "k=2");
    check(&pillar, "A>T ranged:pf1", "cover");
    // An arrow slit in a wall: blocked lines, flagged improved, yet line of effect.
    check(&["#####", "A.|.T", "#####"], "A>T ranged", "k=4 improved");
}

/// A cover tally as text: `k=2 soft improved low total` (`melee ` first for adjacent melee).
fn tally_text(v: &CoverVerdict) -> String {
    let flag = |on: bool, name: &str| {
        if on {
            format!(" {name}")
        } else {
            String::new()
        }
    };
    format!(
        "{}k={}{}{}{}{}",
        if v.tally.adjacent { "melee " } else { "" },
        v.tally.k,
        flag(v.tally.soft, "soft"),
        flag(v.tally.improved, "improved"),
        flag(v.tally.low > 0, "low"),
        flag(v.total, "total"),
    )
}

/// Pads a map row with floor to 10 squares.
fn wide(row: &str) -> String {
    format!("{row:.<10}")
}

#[test]
fn lines_at_lattice_points() {
    // The line (0,0)–(4,2) passes the lattice point (2,1): the corner of one wall is
    // clear, the corner where two walls meet diagonally is not.
    let (touch, pinch) = (["A....", ".#...", "....T"], ["A.#..", ".#...", "....T"]);
    check(&touch, "A>T line:0,0-4,2", "clear");
    check(&pinch, "A>T line:0,0-4,2", "wall");
    // Along the top faces of the walls (1,1) and (2,1), from (1,1) to (3,1): clear.
    check(&["A...", ".##T"], "A>T line:1,1-3,1", "clear");
    // The attacker's own corner (2,2) where two walls meet diagonally: a line leaving it
    // into the quadrant opposite its square threads the gap and is blocked; one leaving
    // along its own square's edge, past the wall's face, is clear.
    check(&["T...", "..#.", ".#A."], "A>T line:2,2-1,1", "wall");
    check(&["......", "..#...", ".#A..T"], "A>T line:2,2-5,2", "clear");
    // ...but (1,0)–(3,2) only touches the corner (2,1) of the wall (1,1).
    check(&["A....", ".#...", "...T."], "A>T line:1,0-3,2", "clear");
    // A diagonal wall seals the corner: every line crosses a wall or threads a pinch point
    // such as (3,2) on (1,0)–(5,4), so there is no line of effect.
    let sealed = ["A...#", "...#.", "..#..", ".#...", "#...T"];
    check(&sealed, "A>T line:1,0-5,4", "wall");
    check(&sealed, "A>T ranged", "k=4 total");
}

#[test]
fn low_walls() {
    // Low wall 5 ft from the target, 55 ft from the attacker: on a one-row map the lines
    // along its faces are clear, the 2 through it are blocked.
    check(&["A..........=T"], "A>T ranged", "k=2 low");
    // 30 ft from the target counts; 35 ft does not.
    check(&["A..........=.....T"], "A>T ranged", "k=2 low");
    check(&["A..........=......T"], "A>T ranged", "k=0");
    // The attacker strictly closer to the wall ignores it; at equal distance it counts.
    check(&["A=..T"], "A>T ranged", "k=0");
    check(&["A.=.T"], "A>T ranged", "k=2 low");
    // A low wall three squares long: the lines along its seams are blocked too.
    let fence = ["..=..", "A.=.T", "..=.."];
    check(&fence, "A>T ranged", "k=4 low");
    // The variant needs the attacker within 30 ft too.
    check(&["A..........=T"], "A>T ranged hv", "k=0");
    check(&fence, "A>T ranged hv", "k=4 low");
    // A Large attacker: PF1 counts the wall (the target's corner behind it is always
    // blocked); the variant does not, 2½ ft being less than half the ogre's height.
    check(&["OO=T", "OO.."], "O>T ranged O=2", "k=1 low");
    check(&["OO=T", "OO.."], "O>T ranged O=2 hv", "k=0");
    // Low walls are low: every line blocked gives ordinary cover at most, never the
    // variant's improved cover or d20 Modern's nine-tenths...
    check(&fence, "A>T ranged:pf1", "cover");
    check(&fence, "A>T ranged:pf1-variant", "cover");
    check(&fence, "A>T ranged:starfinder", "cover");
    check(&fence, "A>T ranged:d20modern", "quarter");
    check(&["A=", ".T"], "A>T melee:pf1", "cover");
    check(&["A=", ".T"], "A>T melee:d20modern", "quarter");
    // ...while the same lines blocked by a wall give them.
    let slits = ["..|..", "A.|.T", "..|.."];
    check(&slits, "A>T ranged:pf1-variant", "improved");
    check(&slits, "A>T ranged:d20modern", "nine-tenths");
}

#[test]
fn areas_from_a_point() {
    // The wall's seam hides the target from the origin: a burst cannot reach it, while a
    // spread of 15 ft or more goes round the corner (the verdict drops its cover).
    check(
        &["A....", "..#..", "..#T.", "....."],
        "A>T origin:1,2",
        "k=4 total at 15 ft",
    );
    check(
        &["A....", ".....", "...T.", "....."],
        "A>T origin:1,2",
        "k=0 at 15 ft",
    );
}

#[test]
fn concealment_by_fog() {
    let fog = ["A..~~~..", "...~~~F.", "...~~T..", "...~~~.."];
    check(&fog, "A>T conceal", "20% fog");
    // Adjacent melee: only a target entirely inside fog is concealed.
    check(&fog, "F>T conceal-melee", "0%");
    check(&fog, "F>T conceal-melee under:~", "20% fog");
    // A Large target with 3 of its 4 squares in fog: the PF1 whole-space test says no; the
    // variant's line test says yes, since every line to the clear square crosses fog.
    let big = ["F......", ".TT....", ".TT....", "......."];
    let mostly = "F>T conceal-melee T=2 paint:1,1,~ paint:2,1,~ paint:1,2,~";
    check(&big, mostly, "0%");
    check(&big, &format!("{mostly} hv"), "20% fog");
    check(&big, "F>T conceal-melee T=2 under:~", "20% fog");
    // Fog all around the archer: every line leaves through it, so it conceals too.
    check(&["~~~....", "~A~...T", "~~~...."], "A>T conceal", "20% fog");
    // A target standing in fog: the line to its far corner crosses its own square. Fog
    // under the archer alone does not count.
    check(&["A.....T"], "A>T conceal under:~", "20% fog");
    check(&["A.....T"], "A>T conceal paint:0,0,~", "0%");
}

#[test]
fn lighting() {
    let room = ["A.....", "......", ".....T"];
    check(&room, "A>T conceal under:,", "20% light");
    check(&room, "A>T conceal under:, low-light", "0%");
    check(&room, "A>T conceal under:, darkvision", "0%");
    check(&room, "A>T conceal under::", "50% light total");
    check(&room, "A>T conceal under:: low-light", "50% light total");
    check(&room, "A>T conceal under:: darkvision", "0%");
    check(&room, "A>T conceal-melee under::", "50% light total");
    // Light is judged from every square of the target: one lit square shows it.
    let big = ["A.....", "....TT", "....TT"];
    let mixed = "A>T conceal T=2 paint:4,1,: paint:5,1,, paint:4,2,,";
    check(&big, mixed, "0%");
    check(&big, &format!("{mixed} paint:5,2,,"), "20% light");
}

#[test]
fn flanking_and_threat() {
    // A flanking partner must threaten: across the corner where two walls meet it has
    // no line of effect to the target, so no flank (RULES.md §4).
    check(
        &["P#..", "#T..", "..F."],
        "F>T flank:P",
        "P has no line of effect",
    );
    check(
        &["P...", ".T..", "..F."],
        "F>T flank:P",
        "flanked (5,5)-(1,1)",
    );
    let ogre = [".......", ".F.....", "..OOR..", "..OO...", "....C.."];
    check(&ogre, "F>O flank:C O=2", "flanked (3,3)-(9,9)");
    check(&ogre, "F>O flank:R O=2", "no line");
    // The goblin and the ogre flank the sorcerer only thanks to the ogre's 10-ft reach.
    let sorcerer = ["........", ".OO.....", ".OO.....", "....S...", ".....g.."];
    check(&sorcerer, "g>S flank:O O=2", "flanked (11,9)-(5,3)");
    check(&sorcerer, "g>S flank:O O=2 partner:5", "O can't reach");
    // A Large flanker uses whichever of its squares lines up.
    let big = ["OO....", "OOT...", "...F.."];
    check(&big, "O>T flank:F O=2", "flanked (3,1)-(7,5)");
    // A longspear ally next to the target does not threaten it; one step back it does.
    check(&[".FTW."], "F>T flank:W partner:10w", "W can't reach");
    check(&[".FT.W"], "F>T flank:W partner:10w", "flanked (3,1)-(9,1)");
    // 10-ft reach reaches 2 diagonals (15 ft by the count), not a knight's move farther.
    let two_diagonals = ["A....", ".....", "..T.."];
    check(&two_diagonals, "A>T threat reach:10", "threat at 15 ft");
    let knight = ["A....", ".....", ".....", "..T.."];
    check(&knight, "A>T threat reach:10", "none at 20 ft");
    let ogre = ["OO...", "OO...", ".....", "...T."];
    check(&ogre, "O>T threat O=2", "threat at 15 ft");
    check(&["AT"], "A>T threat reach:0", "none at 5 ft");
}

#[test]
fn higher_ground() {
    // A Large creature with one square on the platform stands on it.
    let ogre = ["OO.T", "OO.."];
    check(&ogre, "O>T height O=2 paint:1,1,^", "10 ft over 5 ft");
    check(&ogre, "O>T height O=2 under:^", "0 ft over 15 ft");
}

#[test]
fn map_and_placement_errors() {
    let large = "`O` is Large: its letter must fill a 2×2 block";
    let three = format!("error 0,0: {large}; found 3 squares");
    check(&["OO..", "O..."], "place O=2", &three);
    let in_a_row = format!("error 0,2: {large}; found 4 squares spanning 4×1");
    check(&["OOOO"], "place O=2", &in_a_row);
    check(&["OO", "OO"], "place O=2", "ok");
    let ragged = "squares wide but the first row is";
    let short = format!("error 1,2: this row is 2 {ragged} 4; every row must be as wide");
    check(&["....", "..", "...."], "place", &short);
    let long = format!("error 1,3: this row is 5 {ragged} 3; every row must be as wide");
    check(&["...", "....."], "place", &long);
    let unknown = "unknown map symbol `?`: define it in [legend] or use one of . # = ~ , :";
    check(&["..?"], "place", &format!("error 0,2: {unknown}"));
    let blank = "a blank is no map symbol: every square is one character, `.` for open floor";
    check(&[". .."], "place", &format!("error 0,1: {blank}"));
    let side = "`A` has a space side of 7 squares; sizes have 1 to 6";
    check(&["A"], "place A=7", &format!("error 0,0: {side}"));
}

#[test]
fn verdicts_carry_the_deciding_lines() {
    let rows = [
        "S.........",
        "..........",
        "..........",
        ".....#OO..",
        "......OO..",
    ];
    let map = parse(&rows, &[]).unwrap();
    let sorcerer = Space::new(0, 0, 1).unwrap();
    let ogre = Space::new(6, 3, 2).unwrap();
    let creatures = [sorcerer, ogre];
    let ctx = Ctx {
        attack: Approach::Ranged,
        creatures: &creatures,
        vision: Vision::default(),
        config: Config::default(),
    };
    let v = cover(&map.grid, &sorcerer, &ogre, &ctx, &pf1_score);
    // Square (6,3) has both hidden corners, so the first best candidate in scan order is
    // square (7,3) from corner (0,0).
    assert_eq!(v.corner, Some(Point { x: 0, y: 0 }));
    assert_eq!(
        (v.from, v.to),
        (Square { x: 0, y: 0 }, Square { x: 7, y: 3 })
    );
    let blocked: Vec<_> = v.lines.iter().filter(|l| l.blocked()).collect();
    assert_eq!(blocked.len(), 1);
    assert_eq!(
        (blocked[0].to, blocked[0].wall),
        (Point { x: 7, y: 4 }, true)
    );
    assert_eq!(v.lines.len(), 4);

    let fog = parse(&["A.~.T"], &[]).unwrap();
    let (a, t) = (Space::new(0, 0, 1).unwrap(), Space::new(4, 0, 1).unwrap());
    let c = concealment(
        &fog.grid,
        &a,
        &t,
        &Ctx {
            creatures: &[a, t],
            ..ctx
        },
    );
    assert_eq!(c.squares, vec![(Square { x: 2, y: 0 }, 20)]);
    assert_eq!((c.lines.len(), c.to), (4, Some(Square { x: 4, y: 0 })));
    let melee = cover(
        &fog.grid,
        &a,
        &Space::new(1, 0, 1).unwrap(),
        &Ctx {
            attack: Approach::Melee,
            ..ctx
        },
        &pf1_score,
    );
    assert_eq!((melee.corner, melee.lines.len()), (None, 16));
}

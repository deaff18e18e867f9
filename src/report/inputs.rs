//! The experiment as the user wrote it: what `report.html` shows besides the numbers.

use super::charts::{LineKind, Segment};
use super::figures::group;
use crate::map::{Centre, Point, SightLine, Square, Terrain};
use crate::plan::{LineSituation, MapSituation};
use crate::rules::CoverLevel;
use crate::scenario::Scenario;

/// The inputs of one run, for the report: taken from the validated [`Scenario`] and what
/// its planning judged, so the report never reads a file nor judges the map itself.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inputs {
    /// The experiment file's name, e.g. `ogre-corridor.toml`.
    pub file: String,
    /// The experiment file's text, as written.
    pub text: String,
    /// The map rows, one character per square: each creature's letter where it stands,
    /// other squares as in [`Inputs::ground`]. The charts take the creatures and the
    /// map's size from it, the terrain from `ground`.
    pub map: Vec<String>,
    /// The terrain under everything, drawn like [`Inputs::map`] but without the letters:
    /// a creature's squares hold the terrain it stands in (its `terrain`, else floor).
    pub ground: Vec<String>,
    /// Each square's floor height in feet, row by row as [`Inputs::ground`] (a ledge).
    pub floors: Vec<Vec<i32>>,
    /// How the system's ambiguous rules are read (its `RuleSet::interpretations`), then
    /// what the experiment's `[options]` change.
    pub rule_readings: Vec<String>,
    /// The lines that decided each plan line's cover and flanking — the same verdicts
    /// `d20odds check` prints — so the map chart shows why a roll has its modifiers.
    /// Segments of one plan line share a label naming attacker → target and the verdict;
    /// plan lines with the same label (another attack of the same pair) are drawn once.
    pub deciding_lines: Vec<Segment>,
    /// Each variant's moves: from a creature's place in the experiment to its place in
    /// the variant, centre to centre, labelled with the variant's name and the letters
    /// it moves.
    pub variant_moves: Vec<Segment>,
}

impl Inputs {
    /// The inputs of `scenario`, whose planning judged `situations` (one per plan line of
    /// the file, in order).
    pub fn new(scenario: &Scenario, situations: &[LineSituation]) -> Self {
        let (ground, floors) = ground_and_floors(scenario);
        let map = (scenario.map.iter().zip(&ground))
            .map(|(row, under)| {
                (row.chars().zip(under.chars()))
                    .map(|(c, g)| if c.is_ascii_alphabetic() { c } else { g })
                    .collect()
            })
            .collect();
        Self {
            file: scenario.source.path.file_name().map_or_else(
                || scenario.source.path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            text: scenario.source.text.clone(),
            map,
            ground,
            floors,
            rule_readings: scenario
                .system
                .rules()
                .interpretations
                .iter()
                .map(|r| r.to_string())
                .chain(scenario.options.readings())
                .collect(),
            deciding_lines: deciding_lines(situations),
            variant_moves: variant_moves(scenario),
        }
    }
}

/// For every variant that moves creatures, an arrow per creature moved, from the centre
/// of its block on the experiment's map to the centre on the variant's.
fn variant_moves(scenario: &Scenario) -> Vec<Segment> {
    let before = block_centres(&scenario.map);
    let mut moves = Vec::new();
    for variant in &scenario.variants {
        let after = block_centres(&variant.scenario.map);
        let mut letters = Vec::new();
        let mut arrows = Vec::new();
        for &(letter, from) in &before {
            if let Some(&(_, to)) = after.iter().find(|(l, _)| *l == letter)
                && to != from
            {
                letters.push(letter.to_string());
                arrows.push((from, to));
            }
        }
        let label = format!("{}: {} moved", variant.name, letters.join(", "));
        moves.extend(arrows.into_iter().map(|(from, to)| Segment {
            from,
            to,
            kind: LineKind::Moved,
            label: label.clone(),
        }));
    }
    moves
}

/// Each creature letter of a map and the centre of its block, in lattice coordinates.
fn block_centres(map: &[String]) -> Vec<(char, (f64, f64))> {
    let squares = (map.iter().enumerate()).flat_map(|(y, row)| {
        (row.chars().enumerate())
            .filter(|(_, c)| c.is_ascii_alphabetic())
            .map(move |(x, letter)| (letter, (x as f64 + 0.5, y as f64 + 0.5)))
    });
    (group(squares).into_iter())
        .map(|(letter, centres)| {
            let count = centres.len() as f64;
            let sum = (centres.iter()).fold((0.0, 0.0), |s, c| (s.0 + c.0, s.1 + c.1));
            (letter, (sum.0 / count, sum.1 / count))
        })
        .collect()
}

/// For every plan line: the cover lines from the attacker's chosen corner (or an area's
/// origin) to the chosen
/// target square's corners, dashed where they are blocked (by a wall, low wall or
/// improved-cover terrain, or by a creature where the system gives soft cover against
/// this attack), and the line between
/// the flankers' centres when the attacker flanks. In adjacent melee only the blocked
/// ones of the 16 corner-to-corner lines are drawn — all 16 would hide both creatures
/// — or, when none is, one clear line between the two chosen squares' centres.
fn deciding_lines(situations: &[LineSituation]) -> Vec<Segment> {
    let mut segments: Vec<Segment> = Vec::new();
    for situation in situations {
        let Some(map) = &situation.map else {
            continue;
        };
        let verdict = &map.verdict;
        let stops = |l: &SightLine| l.blocked() || (verdict.soft_cover_counts && l.creature);
        let label = verdict_label(situation, map, &stops);
        if segments.iter().any(|s| s.label == label) {
            continue;
        }
        let cover = &verdict.cover_lines;
        let segment = |from, to, kind| Segment {
            from,
            to,
            kind,
            label: label.clone(),
        };
        let drawn: Vec<&SightLine> = cover
            .lines
            .iter()
            .filter(|l| cover.corner.is_some() || stops(l))
            .collect();
        if drawn.is_empty() {
            segments.push(segment(
                square_centre(cover.from),
                square_centre(cover.to),
                LineKind::Clear,
            ));
        }
        for l in drawn {
            let kind = if stops(l) {
                LineKind::Blocked
            } else {
                LineKind::Clear
            };
            segments.push(segment(corner(l.from), corner(l.to), kind));
        }
        if let Some(flank) = verdict.flanking {
            segments.push(segment(
                centre(flank.line.from),
                centre(flank.line.to),
                LineKind::Flanking,
            ));
        }
    }
    segments
}

/// `F → O: partial cover (1 of 4 lines blocked), flanking with C` (an area judged from
/// its origin: `W's fireball from [11, 3] → A: …`, where its lines start), and what the
/// plan overrides, since then the lines did not decide it.
fn verdict_label(
    situation: &LineSituation,
    map: &MapSituation,
    stops: &dyn Fn(&SightLine) -> bool,
) -> String {
    let verdict = &map.verdict;
    let cover = match verdict.cover {
        CoverLevel::None => "no cover".to_string(),
        CoverLevel::Cover => "cover".to_string(),
        level => format!("{level} cover"),
    };
    let lines = &verdict.cover_lines.lines;
    let blocked = lines.iter().filter(|l| stops(l)).count();
    let by_creature = if lines.iter().any(|l| stops(l) && !l.blocked()) {
        ", a creature in the way"
    } else {
        ""
    };
    // An area judged from its origin: the lines start there, not at the attacker.
    let from = match (verdict.origin_distance_ft, verdict.cover_lines.corner) {
        (Some(_), Some(origin)) => format!(
            "{}'s {} from [{}, {}]",
            situation.attacker.token, situation.attack, origin.x, origin.y
        ),
        _ => situation.attacker.token.to_string(),
    };
    let mut label = format!(
        "{from} → {}: {cover} ({blocked} of {} lines blocked{by_creature})",
        situation.target.token,
        lines.len()
    );
    if let Some(partner) = &map.flanking_partner {
        label += &format!(", flanking with {}", partner.token);
    }
    let o = &situation.overridden;
    let overridden: Vec<&str> = [("cover", o.cover), ("flanking", o.flanking)]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect();
    if !overridden.is_empty() {
        label += &format!(" — the plan sets {}", overridden.join(" and "));
    }
    label
}

fn square_centre(s: Square) -> (f64, f64) {
    (f64::from(s.x) + 0.5, f64::from(s.y) + 0.5)
}

fn corner(p: Point) -> (f64, f64) {
    (f64::from(p.x), f64::from(p.y))
}

/// A centre kept in doubled coordinates by the map, in squares.
fn centre(c: Centre) -> (f64, f64) {
    (c.x2 as f64 / 2.0, c.y2 as f64 / 2.0)
}

/// Every square's terrain as its built-in symbol, and its floor height, from the
/// battlefield the map parsed into (creatures' `terrain` included); none without a map.
fn ground_and_floors(scenario: &Scenario) -> (Vec<String>, Vec<Vec<i32>>) {
    let Some(field) = &scenario.battlefield else {
        return (Vec::new(), Vec::new());
    };
    (scenario.map.iter().enumerate())
        .map(|(y, row)| {
            let row: Vec<Terrain> = (0..row.chars().count())
                .map(|x| {
                    let square = Square {
                        x: i32::try_from(x).unwrap_or(i32::MAX),
                        y: i32::try_from(y).unwrap_or(i32::MAX),
                    };
                    field.grid.terrain(square)
                })
                .collect();
            (
                row.iter().map(built_in).collect(),
                row.iter().map(|t| t.elevation).collect(),
            )
        })
        .unzip()
}

/// The built-in map symbol that looks most like a square's terrain, or `|` for an
/// arrow slit, any `improved` square (the map charts draw it as a wall with an opening).
fn built_in(terrain: &Terrain) -> char {
    if terrain.improved {
        '|'
    } else if terrain.blocks {
        '#'
    } else if terrain.low {
        '='
    } else if terrain.dark {
        ':'
    } else if terrain.concealment > 0 {
        '~'
    } else if terrain.dim {
        ','
    } else {
        '.'
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Planned;

    /// The inputs of a scenario as a run takes them, from its planning.
    fn inputs(scenario: &Scenario) -> Inputs {
        let planned = Planned::from_scenario(scenario);
        Inputs::new(scenario, &planned.lines)
    }

    #[test]
    fn legend_symbols_are_drawn_as_built_in_terrain() {
        let showcase = include_str!("../../experiments/ogre-corridor.toml");
        let legend = "\n[legend]\n\"&\" = { blocks = true }\n\"%\" = { concealment = 10 }\n\
                      \"|\" = { low = true }\n\"!\" = { blocks = true, improved = true }\n";
        assert!(
            showcase.contains("#........C.#"),
            "the showcase map has changed"
        );
        let text = showcase.replacen("#........C.#", "#&%|!....C.#", 1) + legend;
        let scenario = Scenario::parse("dir/ogre-corridor.toml", text.as_str()).unwrap();
        let inputs = inputs(&scenario);
        assert_eq!(inputs.file, "ogre-corridor.toml");
        // The arrow slit `!` is drawn as `|`, the map charts' own mark for one.
        assert_eq!(inputs.map[1], "##~=|....C.#");
        assert_eq!(inputs.map[2], "#...FOOR...#");
        assert_eq!(inputs.text, text);
        assert_eq!(
            inputs.rule_readings,
            crate::rules::SystemId::Pf1.rules().interpretations
        );
    }

    /// variant-skirmish's archer H stands on the 5-ft ledge `^` at (0, 2): its square is
    /// floor at 5 ft under the letter; fog-and-darkness's K stands in fog and M in
    /// darkness, which their squares keep under their letters.
    #[test]
    fn the_ground_holds_the_terrain_and_floor_under_each_creature() {
        let skirmish = include_str!("../../experiments/variant-skirmish.toml");
        let scenario = Scenario::parse("variant-skirmish.toml", skirmish).unwrap();
        let ledge = inputs(&scenario);
        assert_eq!(ledge.map[2], "H.....~~...X");
        assert_eq!(ledge.ground[2], "......~~....");
        assert_eq!(ledge.floors[2][..2], [5, 0]);
        let raised = ledge.floors.iter().flatten().filter(|f| **f != 0).count();
        assert_eq!(raised, 1, "only the archer's square is raised");
        let fog = include_str!("../../experiments/fog-and-darkness.toml");
        let scenario = Scenario::parse("fog-and-darkness.toml", fog).unwrap();
        let shaded = inputs(&scenario);
        let under = |letter: char| {
            let (y, x) = (shaded.map.iter().enumerate())
                .find_map(|(y, row)| row.chars().position(|c| c == letter).map(|x| (y, x)))
                .unwrap();
            shaded.ground[y].chars().nth(x).unwrap()
        };
        assert_eq!((under('K'), under('M'), under('F')), ('~', ':', '.'));
    }

    /// A variant moving C from (9, 1) to [10, 4] and R from (7, 2) to [7, 3] gives two
    /// arrows, centre to centre, under one label; a variant moving nothing, none.
    #[test]
    fn each_creature_a_variant_moves_gets_an_arrow() {
        let showcase = include_str!("../../experiments/ogre-corridor.toml");
        let variants = "\n[[variant]]\nname = \"Both step\"\nmove = { R = [7, 3], C = [10, 4] }\n\
                        [[variant]]\nname = \"Better sword\"\nset = { \"F.longsword.bonus\" = [15, 10] }\n";
        let text = format!("{showcase}{variants}");
        let scenario = Scenario::parse("ogre-corridor.toml", text).unwrap();
        let arrow = |from, to| Segment {
            from,
            to,
            kind: LineKind::Moved,
            label: "Both step: C, R moved".into(),
        };
        assert_eq!(
            inputs(&scenario).variant_moves,
            [
                arrow((9.5, 1.5), (10.5, 4.5)),
                arrow((7.5, 2.5), (7.5, 3.5))
            ]
        );
        assert!(
            inputs(&Scenario::parse("o.toml", showcase).unwrap())
                .variant_moves
                .is_empty()
        );
    }

    #[test]
    fn the_lines_that_decided_cover_and_flanking_are_those_check_prints() {
        let text = include_str!("../../experiments/pf1-cover-examples.toml");
        let scenario = Scenario::parse("pf1-cover-examples.toml", text).unwrap();
        let segments = inputs(&scenario).deciding_lines;
        let mut groups: Vec<(&str, [usize; 3])> = Vec::new();
        for s in &segments {
            let at = match groups.iter().position(|(label, _)| *label == s.label) {
                Some(at) => at,
                None => {
                    groups.push((&s.label, [0; 3]));
                    groups.len() - 1
                }
            };
            let kind = [LineKind::Clear, LineKind::Blocked, LineKind::Flanking]
                .iter()
                .position(|k| *k == s.kind)
                .unwrap();
            groups[at].1[kind] += 1;
        }
        // [clear, blocked, flanking] per plan line, from `d20odds check`.
        assert_eq!(
            groups,
            [
                (
                    "F → O: no cover (0 of 16 lines blocked), flanking with C",
                    [1, 0, 1]
                ),
                (
                    "C → O: no cover (0 of 16 lines blocked), flanking with F",
                    [1, 0, 1]
                ),
                ("R → O: cover (2 of 16 lines blocked)", [0, 2, 0]),
                (
                    "A → O: soft cover (2 of 4 lines blocked, a creature in the way)",
                    [2, 2, 0]
                ),
                (
                    "S → O: soft cover (4 of 4 lines blocked, a creature in the way)",
                    [0, 4, 0]
                ),
                // The ogre's 10-ft reach judges cover as a ranged attack.
                ("O → F: no cover (0 of 4 lines blocked)", [4, 0, 0]),
                ("O → R: no cover (0 of 4 lines blocked)", [4, 0, 0]),
            ]
        );
        let archer: Vec<((f64, f64), (f64, f64))> = segments
            .iter()
            .filter(|s| s.label.starts_with("A → O"))
            .map(|s| (s.from, s.to))
            .collect();
        assert_eq!(
            archer,
            [
                ((2.0, 6.0), (4.0, 3.0)),
                ((2.0, 6.0), (5.0, 3.0)),
                ((2.0, 6.0), (4.0, 4.0)),
                ((2.0, 6.0), (5.0, 4.0))
            ],
            "from the chosen corner to the chosen target square's corners"
        );
        let flank = segments
            .iter()
            .find(|s| s.kind == LineKind::Flanking)
            .unwrap();
        assert_eq!((flank.from, flank.to), ((3.5, 3.5), (6.5, 4.5)));
    }

    /// In the house-rule variant a creature in the way gives soft cover against melee and
    /// areas too, so the lines through it are the blocked ones there as well. The
    /// spearman A (reach 10 ft) strikes the bandit T past the squire C from A's top-left
    /// corner (0, 0): the lines to T's lower corners (2, 1) and (3, 1) cross C's square,
    /// the two along the map's top edge do not, 2 of 4. Likewise the bomb B throws at Z,
    /// from B's corner (0, 6): the lines to Z's lower corners (6, 7) and (7, 7) cross g's
    /// square (3, 6) (y = 6 + x/6 and 6 + x/7 are inside it for x in 3..4), the two
    /// along the row's top edge do not.
    #[test]
    fn in_the_variant_a_creature_in_the_way_blocks_melee_and_area_lines_too() {
        let text = include_str!("../../experiments/variant-skirmish.toml");
        let scenario = Scenario::parse("variant-skirmish.toml", text).unwrap();
        let labels: Vec<String> = (inputs(&scenario).deciding_lines.iter())
            .map(|s| s.label.clone())
            .fold(Vec::new(), |mut labels, label| {
                if !labels.contains(&label) {
                    labels.push(label);
                }
                labels
            });
        assert_eq!(
            labels,
            [
                "A → T: soft cover (2 of 4 lines blocked, a creature in the way)",
                "H → X: no cover (0 of 4 lines blocked)",
                "O → Y: no cover (0 of 4 lines blocked)",
                "B → Z: soft cover (2 of 4 lines blocked, a creature in the way)",
            ]
        );
    }

    /// The fireball's lines start at its origin, the corner [11, 3], not at the wizard
    /// on (5, 3), and its labels say so; the coups de grace keep the attacker's token.
    #[test]
    fn an_area_judged_from_its_origin_is_labelled_from_there() {
        let text = include_str!("../../experiments/pf1-coup-de-grace-and-fireball.toml");
        let scenario = Scenario::parse("fireball.toml", text).unwrap();
        let lines = inputs(&scenario).deciding_lines;
        let mut labels: Vec<&str> = lines.iter().map(|s| s.label.as_str()).collect();
        labels.dedup();
        assert_eq!(
            labels,
            [
                "R → S: no cover (0 of 16 lines blocked)",
                "F → D: no cover (0 of 16 lines blocked)",
                "W's fireball from [11, 3] → A: improved cover (4 of 4 lines blocked)",
                "W's fireball from [11, 3] → M: no cover (0 of 4 lines blocked)",
                "W's fireball from [11, 3] → C: no cover (0 of 4 lines blocked)",
                "W's fireball from [11, 3] → O: no cover (0 of 4 lines blocked)",
            ]
        );
        let from_origin = lines.iter().filter(|s| s.label.starts_with("W's"));
        assert!(from_origin.into_iter().all(|s| s.from == (11.0, 3.0)));
    }

    #[test]
    fn a_plan_override_is_named_and_no_map_draws_no_lines() {
        let text = include_str!("../../experiments/pf1-cover-examples.toml").replacen(
            "attack = \"greatclub\"",
            "attack = \"greatclub\"\ncover = \"partial\"",
            1,
        );
        let scenario = Scenario::parse("x.toml", text.as_str()).unwrap();
        let lines = inputs(&scenario).deciding_lines;
        let first = lines.iter().find(|l| l.label.starts_with("O → F")).unwrap();
        assert_eq!(
            first.label,
            "O → F: no cover (0 of 4 lines blocked) — the plan sets cover"
        );
        let mapless = "title = \"t\"\nsystem = \"pf1\"\n[[combatant]]\ntoken = \"A\"\nname = \"a\"\nside = \"x\"\nac = 10\n[[combatant.attack]]\nname = \"hit\"\nbonus = 1\ndamage = \"1d4\"\n[[combatant]]\ntoken = \"B\"\nname = \"b\"\nside = \"y\"\nac = 10\nhp = 5\n[[plan]]\nattacker = \"A\"\ntarget = \"B\"\nattack = \"hit\"\n";
        let scenario = Scenario::parse("m.toml", mapless).unwrap();
        assert!(inputs(&scenario).deciding_lines.is_empty());
    }
}

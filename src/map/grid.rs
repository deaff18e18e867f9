//! The map model: terrain per square, parsed from the map text and a legend.

use super::{MapError, Square};

/// The largest map side, in squares, so that a typo cannot make every query crawl.
pub const MAX_SIDE: usize = 500;

/// What one square holds; the map text picks one per character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terrain {
    /// Blocks line of effect and sight (a wall).
    pub blocks: bool,
    /// A low obstacle: gives cover only under the low-wall distance rules.
    pub low: bool,
    /// An obstacle one can attack through (an arrow slit): it counts as a blocked line,
    /// flagged `improved`, but never removes line of effect.
    pub improved: bool,
    /// Miss chance in percent (0–100) for lines that cross the square.
    pub concealment: u8,
    /// Dim light: judged from the target's squares, not from lines.
    pub dim: bool,
    /// Darkness: judged from the target's squares, not from lines.
    pub dark: bool,
    /// Height of the floor in feet (a raised platform).
    pub elevation: i32,
}

impl Terrain {
    /// `.`: open floor.
    pub const FLOOR: Terrain = Terrain {
        blocks: false,
        low: false,
        improved: false,
        concealment: 0,
        dim: false,
        dark: false,
        elevation: 0,
    };
    /// `#`: a wall.
    pub const WALL: Terrain = Terrain {
        blocks: true,
        ..Terrain::FLOOR
    };
    /// `=`: a low wall.
    pub const LOW_WALL: Terrain = Terrain {
        low: true,
        ..Terrain::FLOOR
    };
    /// `~`: fog, 20% concealment.
    pub const FOG: Terrain = Terrain {
        concealment: 20,
        ..Terrain::FLOOR
    };
    /// `,`: dim light.
    pub const DIM: Terrain = Terrain {
        dim: true,
        ..Terrain::FLOOR
    };
    /// `:`: darkness.
    pub const DARK: Terrain = Terrain {
        dark: true,
        ..Terrain::FLOOR
    };

    /// The built-in legend (SPEC.md §2); a caller's legend overrides it.
    pub const BUILT_IN: [(char, Terrain); 6] = [
        ('.', Terrain::FLOOR),
        ('#', Terrain::WALL),
        ('=', Terrain::LOW_WALL),
        ('~', Terrain::FOG),
        (',', Terrain::DIM),
        (':', Terrain::DARK),
    ];
}

/// The terrain of every square of a rectangular map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    cells: Vec<Terrain>,
}

impl Grid {
    /// Map width in squares (columns).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Map height in squares (rows).
    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether the square lies on the map.
    pub fn contains(&self, square: Square) -> bool {
        self.index(square).is_some()
    }

    /// The square's terrain; squares off the map are open floor, so a line along the
    /// map's border is judged as if the map went on.
    pub fn terrain(&self, square: Square) -> Terrain {
        self.index(square)
            .and_then(|i| self.cells.get(i))
            .copied()
            .unwrap_or(Terrain::FLOOR)
    }

    /// Paints one square, for terrain the map text cannot hold (the light under a creature's
    /// letter); returns `false`, changing nothing, when the square is off the map.
    pub fn set(&mut self, square: Square, terrain: Terrain) -> bool {
        match self.index(square).and_then(|i| self.cells.get_mut(i)) {
            Some(cell) => {
                *cell = terrain;
                true
            }
            None => false,
        }
    }

    fn index(&self, square: Square) -> Option<usize> {
        let x = usize::try_from(square.x).ok()?;
        let y = usize::try_from(square.y).ok()?;
        (x < self.width && y < self.height).then_some(y * self.width + x)
    }
}

/// The squares one letter fills on the map, in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The creature's letter (A–Z, a–z).
    pub letter: char,
    /// Every square showing the letter; [`super::Space::place`] checks they form its space.
    pub squares: Vec<Square>,
}

/// A parsed map: terrain, and the creature letters in order of first appearance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedMap {
    /// Terrain, with floor under every letter.
    pub grid: Grid,
    /// One entry per distinct letter.
    pub tokens: Vec<Token>,
}

/// Parses map rows (one character per square, row 0 at the top; the caller strips line
/// ends). Letters are creatures standing on floor and are never looked up in the legend;
/// every other character comes from `legend` first, then from the built-in legend.
pub fn parse(rows: &[&str], legend: &[(char, Terrain)]) -> Result<ParsedMap, MapError> {
    let width = rows.first().map_or(0, |r| r.chars().count());
    if width == 0 {
        return Err(MapError::new(0, 0, "the map is empty"));
    }
    if rows.len() > MAX_SIDE {
        return Err(MapError::new(
            MAX_SIDE,
            0,
            format!(
                "the map has {} rows; at most {MAX_SIDE} are allowed",
                rows.len()
            ),
        ));
    }
    if width > MAX_SIDE {
        return Err(MapError::new(
            0,
            MAX_SIDE,
            format!("the map is {width} squares wide; at most {MAX_SIDE} are allowed"),
        ));
    }
    let mut cells = Vec::with_capacity(width * rows.len());
    let mut tokens: Vec<Token> = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            return Err(MapError::new(
                y,
                len.min(width),
                format!(
                    "this row is {len} squares wide but the first row is {width}; every row must be as wide"
                ),
            ));
        }
        for (x, c) in row.chars().enumerate() {
            if c.is_ascii_alphabetic() {
                let square = Square {
                    x: x as i32,
                    y: y as i32,
                };
                match tokens.iter_mut().find(|t| t.letter == c) {
                    Some(token) => token.squares.push(square),
                    None => tokens.push(Token {
                        letter: c,
                        squares: vec![square],
                    }),
                }
                cells.push(Terrain::FLOOR);
            } else {
                cells.push(lookup(c, legend).ok_or_else(|| {
                    let message = match c.is_whitespace() {
                        true => "a blank is no map symbol: every square is one character, `.` \
                                 for open floor"
                            .to_string(),
                        false => format!(
                            "unknown map symbol `{c}`: define it in [legend] or use one of . # = ~ , :"
                        ),
                    };
                    MapError::new(y, x, message)
                })?);
            }
        }
    }
    Ok(ParsedMap {
        grid: Grid {
            width,
            height: rows.len(),
            cells,
        },
        tokens,
    })
}

/// The terrain a symbol stands for: the legend first, then the built-in symbols.
pub fn lookup(c: char, legend: &[(char, Terrain)]) -> Option<Terrain> {
    legend
        .iter()
        .chain(Terrain::BUILT_IN.iter())
        .find(|(symbol, _)| *symbol == c)
        .map(|(_, terrain)| *terrain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_overrides_built_ins_and_letters_are_floor() {
        let arrow_slit = Terrain {
            blocks: true,
            improved: true,
            ..Terrain::FLOOR
        };
        let map = parse(&["#|A", "~.A"], &[('|', arrow_slit), ('~', Terrain::DIM)]).unwrap();
        let at = |x, y| map.grid.terrain(Square { x, y });
        assert_eq!(at(0, 0), Terrain::WALL);
        assert_eq!(at(1, 0), arrow_slit);
        assert_eq!(at(0, 1), Terrain::DIM);
        assert_eq!(at(2, 1), Terrain::FLOOR);
        assert_eq!(at(-1, 0), Terrain::FLOOR);
        assert_eq!(at(3, 0), Terrain::FLOOR);
        assert!(!map.grid.contains(Square { x: 0, y: 2 }));
        let mut grid = map.grid.clone();
        assert!(grid.set(Square { x: 2, y: 1 }, Terrain::DARK));
        assert_eq!(grid.terrain(Square { x: 2, y: 1 }), Terrain::DARK);
        assert!(!grid.set(Square { x: 3, y: 1 }, Terrain::DARK));
        assert_eq!(grid.terrain(Square { x: 3, y: 1 }), Terrain::FLOOR);
        assert_eq!((map.grid.width(), map.grid.height()), (3, 2));
        assert_eq!(
            map.tokens,
            vec![Token {
                letter: 'A',
                squares: vec![Square { x: 2, y: 0 }, Square { x: 2, y: 1 }]
            }]
        );
    }

    #[test]
    fn size_limit_and_empty_map() {
        let wide = ".".repeat(MAX_SIDE + 1);
        let err = parse(&[&wide], &[]).unwrap_err();
        assert_eq!((err.row, err.col), (0, MAX_SIDE));
        let tall = vec!["."; MAX_SIDE + 1];
        let err = parse(&tall, &[]).unwrap_err();
        assert_eq!((err.row, err.col), (MAX_SIDE, 0));
        assert!(parse(&vec!["."; MAX_SIDE], &[]).is_ok());
        assert_eq!(parse(&[], &[]).unwrap_err().message, "the map is empty");
        assert_eq!(parse(&[""], &[]).unwrap_err().message, "the map is empty");
    }
}

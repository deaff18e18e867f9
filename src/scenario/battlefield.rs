//! The map: the [`Battlefield`] a `map` draws (terrain from the built-in symbols and the
//! `[legend]`, each combatant's space, the terrain a combatant stands in).

use toml::Spanned;

use super::Validator;
use super::combatant::{Combatant, CombatantId};
use super::raw::{RawExperiment, RawTerrain};
use crate::error::InputError;
use crate::map::{self, Grid, Space, Terrain};

/// The parsed map: its terrain, and the space of every combatant (by combatant index).
#[derive(Debug, Clone)]
pub struct Battlefield {
    pub grid: Grid,
    pub spaces: Vec<Space>,
}

impl Battlefield {
    /// Where a combatant stands.
    pub fn space(&self, id: CombatantId) -> &Space {
        &self.spaces[id.index()]
    }

    /// The squares where combatant `token`'s whole space fits: on the map, on no blocking
    /// terrain, on no other combatant.
    pub fn placements(&self, token: CombatantId) -> Vec<Space> {
        let side = self.space(token).side();
        let (width, height) = (self.grid.width() as i32, self.grid.height() as i32);
        (0..=height - side)
            .flat_map(|y| (0..=width - side).map(move |x| (x, y)))
            .filter_map(|(x, y)| Space::new(x, y, side))
            .filter(|space| {
                space.squares().all(|s| {
                    self.grid.contains(s)
                        && !self.grid.terrain(s).blocks
                        && self
                            .spaces
                            .iter()
                            .enumerate()
                            .all(|(i, other)| i == token.index() || !other.contains(s))
                })
            })
            .collect()
    }
}

impl Validator<'_> {
    /// The `[legend]`: each symbol one non-letter character, its concealment a percentage.
    pub(super) fn legend(
        &self,
        raw: &RawExperiment,
    ) -> Result<Vec<(char, RawTerrain)>, InputError> {
        raw.legend
            .iter()
            .map(|(symbol, terrain)| {
                let mut chars = symbol.get_ref().chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_ascii_alphabetic() && !c.is_whitespace() => {
                        if terrain.get_ref().concealment > 100 {
                            return Err(self.err(
                                terrain.span(),
                                "concealment is a miss chance in percent: 0 to 100",
                            ));
                        }
                        Ok((c, terrain.get_ref().clone()))
                    }
                    (Some(c), None) if c.is_ascii_alphabetic() => Err(self.err(
                        symbol.span(),
                        format!("`{c}` is a letter: letters are combatant tokens, never terrain"),
                    )),
                    _ => Err(self.err(
                        symbol.span(),
                        "a legend symbol must be exactly one non-space character",
                    )),
                }
            })
            .collect()
    }

    /// The map rows and the battlefield they draw; every letter drawn must belong to a
    /// combatant, and every combatant must fill a block of its size.
    pub(super) fn map(
        &self,
        raw: &RawExperiment,
        legend: &[(char, RawTerrain)],
        combatants: &[Combatant],
    ) -> Result<(Vec<String>, Option<Battlefield>), InputError> {
        let Some(map) = &raw.map else {
            return Ok((Vec::new(), None));
        };
        self.letters_match_combatants(map, raw, combatants)?;
        let text = map.get_ref();
        let lines: Vec<&str> = text.trim_end_matches(['\n', '\r']).lines().collect();
        let row_starts: Vec<usize> = lines
            .iter()
            .scan(0, |start, row| {
                let here = *start;
                *start += row.chars().count() + 1;
                Some(here)
            })
            .collect();
        // Spaces an editor leaves at the end of a row are no squares (no symbol is blank),
        // nor are the blanks every row starts with, an indented map's.
        let rows: Vec<&str> = lines
            .iter()
            .map(|row| row.trim_end_matches([' ', '\t']))
            .collect();
        let indent = (rows.iter())
            .map(|row| row.len() - row.trim_start_matches([' ', '\t']).len())
            .min()
            .unwrap_or(0);
        // The blanks are ASCII: `indent` bytes are as many characters.
        let rows: Vec<&str> = rows.iter().map(|row| &row[indent..]).collect();
        let at = |e: map::MapError| {
            let index = row_starts.get(e.row).copied().unwrap_or(0) + indent + e.col;
            self.source
                .error_at(self.source.offset_in_string(&map.span(), index), e.message)
        };
        let terrain = terrain_table(legend);
        let mut parsed = map::parse(&rows, &terrain).map_err(at)?;
        let spaces = combatants
            .iter()
            .map(|c| {
                let squares = parsed
                    .tokens
                    .iter()
                    .find(|t| t.letter == c.token)
                    .map_or(&[][..], |t| &t.squares[..]);
                Space::place(c.token, squares, c.size.row().squares).map_err(at)
            })
            .collect::<Result<Vec<_>, _>>()?;
        for (raw_c, space) in raw.combatants.iter().zip(&spaces) {
            if let Some(symbol) = &raw_c.get_ref().terrain {
                let under = self.terrain_under(symbol, &terrain)?;
                for square in space.squares() {
                    parsed.grid.set(square, under);
                }
            }
        }
        let rows = rows.into_iter().map(str::to_string).collect();
        Ok((
            rows,
            Some(Battlefield {
                grid: parsed.grid,
                spaces,
            }),
        ))
    }

    /// Every letter drawn is a combatant's token (or the error suggests the combatant it
    /// likely is), and every combatant is drawn.
    fn letters_match_combatants(
        &self,
        map: &Spanned<String>,
        raw: &RawExperiment,
        combatants: &[Combatant],
    ) -> Result<(), InputError> {
        let text = map.get_ref();
        for (i, c) in text.chars().enumerate() {
            if c.is_ascii_alphabetic() && !combatants.iter().any(|k| k.token == c) {
                let offset = self.source.offset_in_string(&map.span(), i);
                let off_map: Vec<String> = combatants
                    .iter()
                    .filter(|k| !text.contains(k.token))
                    .map(|k| k.token.to_string())
                    .collect();
                let likely = off_map
                    .iter()
                    .find(|t| t.eq_ignore_ascii_case(&c.to_string()))
                    .or(match off_map.as_slice() {
                        [only] => Some(only),
                        _ => None,
                    });
                let suggestion = likely.map_or(String::new(), |t| {
                    format!(" (did you mean `{t}`, which is not on the map?)")
                });
                return Err(self.source.error_at(
                    offset,
                    format!("map letter `{c}` has no combatant: add a [[combatant]] with token = \"{c}\"{suggestion}"),
                ));
            }
        }
        for (raw_c, c) in raw.combatants.iter().zip(combatants) {
            if !text.contains(c.token) {
                return Err(self.err(
                    raw_c.get_ref().token.span(),
                    format!(
                        "combatant `{}` is not on the map: draw its letter where it stands",
                        c.token
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The terrain a combatant's `terrain = "…"` names: one symbol of the legend or the
    /// built-in ones that a creature can stand in.
    fn terrain_under(
        &self,
        symbol: &Spanned<String>,
        legend: &[(char, Terrain)],
    ) -> Result<Terrain, InputError> {
        let mut chars = symbol.get_ref().chars();
        let found = match (chars.next(), chars.next()) {
            (Some(c), None) => map::lookup(c, legend),
            _ => None,
        };
        match found {
            Some(t) if !t.blocks => Ok(t),
            Some(_) => Err(self.err(
                symbol.span(),
                "a combatant cannot stand inside blocking terrain",
            )),
            None => Err(self.err(
                symbol.span(),
                format!(
                    "unknown terrain `{}`: expected one map symbol, e.g. \"~\" (fog), \",\" (dim light), \":\" (darkness) or one of the [legend]",
                    symbol.get_ref()
                ),
            )),
        }
    }
}

/// The legend's terrain, as the map parser reads it.
fn terrain_table(legend: &[(char, RawTerrain)]) -> Vec<(char, Terrain)> {
    legend
        .iter()
        .map(|(symbol, t)| {
            let terrain = Terrain {
                blocks: t.blocks,
                low: t.low,
                improved: t.improved,
                concealment: t.concealment,
                dim: t.dim,
                dark: t.dark,
                elevation: t.elevation,
            };
            (*symbol, terrain)
        })
        .collect()
}

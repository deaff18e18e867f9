//! Dice expressions (`2d6+1d4+3`) and critical-hit specs (`19-20/x2`).
//!
//! Parsed once into a small value type; the exact distribution and the sampler both read
//! that same parsed form, so the exact engine and the Monte Carlo engine can never disagree
//! about what an expression means.
//!
//! ```
//! use d20odds::{CritSpec, Dice};
//! let d: Dice = "1d8+3".parse().unwrap();
//! assert_eq!((d.min(), d.max()), (4, 11));
//! let crit: CritSpec = "19-20/x2".parse().unwrap();
//! assert_eq!((crit.threat_min, crit.multiplier), (19, 2));
//! ```

use std::fmt;
use std::str::FromStr;

use rand::RngExt;

/// Most dice in one `NdM` term; beyond it an expression is a typo, not a weapon.
pub const MAX_DICE_PER_TERM: u32 = 1000;
/// Most sides on one die.
pub const MAX_SIDES: u32 = 1000;
/// Largest total of the constants of an expression, in absolute value.
pub const MAX_CONSTANT: i64 = 1_000_000;
/// Largest critical multiplier accepted.
pub const MAX_MULTIPLIER: u32 = 10;

/// A parse failure with the character offset (0-based) inside the parsed text, so callers
/// can point at the exact place in their source file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DiceError {
    /// Where the mistake is, in characters from the start of the expression.
    pub offset: usize,
    /// What is wrong and how to write it instead.
    pub message: String,
}

fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, DiceError> {
    Err(DiceError {
        offset,
        message: message.into(),
    })
}

/// `count` dice with `sides` sides each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiceTerm {
    pub count: u32,
    pub sides: u32,
}

/// A sum of dice terms plus a constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    /// The dice rolled, each term `count`d`sides`.
    pub terms: Vec<DiceTerm>,
    /// Added after the dice (may be negative).
    pub constant: i64,
}

/// The probability of each total from `min` upward (`probs[i]` is P(total = min + i)).
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    pub min: i64,
    pub probs: Vec<f64>,
}

impl Distribution {
    /// The distribution of a constant.
    pub fn point(value: i64) -> Self {
        Self {
            min: value,
            probs: vec![1.0],
        }
    }

    pub fn max(&self) -> i64 {
        self.min + self.probs.len() as i64 - 1
    }

    pub fn mean(&self) -> f64 {
        self.iter().map(|(v, p)| v as f64 * p).sum()
    }

    /// Every (value, probability) pair, lowest value first.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.probs
            .iter()
            .enumerate()
            .map(|(i, &p)| (self.min + i as i64, p))
    }

    /// Every value lowered by `reduction`, never below 0 (damage reduction).
    pub fn reduced_by(&self, reduction: i64) -> Self {
        if reduction == 0 {
            return self.clone();
        }
        let shifted = Self {
            min: self.min - reduction,
            probs: self.probs.clone(),
        };
        shifted.clamped_below(0)
    }

    /// Values below `floor` are moved onto `floor` (minimum damage on a hit).
    pub fn clamped_below(&self, floor: i64) -> Self {
        if self.min >= floor {
            return self.clone();
        }
        let mut probs = vec![0.0; (self.max().max(floor) - floor + 1) as usize];
        for (v, p) in self.iter() {
            probs[(v.max(floor) - floor) as usize] += p;
        }
        Self { min: floor, probs }
    }
}

impl Dice {
    /// The lowest total the dice can roll.
    pub fn min(&self) -> i64 {
        self.terms.iter().map(|t| i64::from(t.count)).sum::<i64>() + self.constant
    }

    /// The highest total the dice can roll.
    pub fn max(&self) -> i64 {
        self.terms
            .iter()
            .map(|t| i64::from(t.count) * i64::from(t.sides))
            .sum::<i64>()
            + self.constant
    }

    /// No dice and no constant: a hit's extra damage when there is none.
    pub fn zero() -> Dice {
        Dice {
            terms: Vec::new(),
            constant: 0,
        }
    }

    /// Both expressions rolled and added: weapon dice with unmultiplied extra dice.
    pub fn plus(&self, other: &Dice) -> Dice {
        Dice {
            terms: self.terms.iter().chain(&other.terms).copied().collect(),
            constant: self.constant + other.constant,
        }
    }

    /// Rolls nothing and adds nothing.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty() && self.constant == 0
    }

    /// The expression rolled `times` times and summed: how a critical hit multiplies dice
    /// and constants alike.
    pub fn repeated(&self, times: u32) -> Dice {
        Dice {
            terms: self
                .terms
                .iter()
                .map(|t| DiceTerm {
                    count: t.count * times,
                    sides: t.sides,
                })
                .collect(),
            constant: self.constant * i64::from(times),
        }
    }

    /// Work (in elementary additions) needed for [`Dice::distribution`]; lets callers
    /// refuse expressions too large to compute exactly before trying.
    pub fn distribution_cost(&self) -> u64 {
        let width = (self.max() - self.min() + 1) as u64;
        self.terms.iter().map(|t| u64::from(t.count)).sum::<u64>() * width
    }

    /// The exact distribution of the total: one sliding-window convolution per die.
    pub fn distribution(&self) -> Distribution {
        let mut probs = vec![1.0];
        for term in &self.terms {
            let sides = term.sides as usize;
            let share = 1.0 / term.sides as f64;
            for _ in 0..term.count {
                let mut next = vec![0.0; probs.len() + sides - 1];
                let mut window = 0.0;
                for (i, slot) in next.iter_mut().enumerate() {
                    if i < probs.len() {
                        window += probs[i];
                    }
                    if i >= sides {
                        window -= probs[i - sides];
                    }
                    *slot = window * share;
                }
                probs = next;
            }
        }
        Distribution {
            min: self.min(),
            probs,
        }
    }

    /// One roll, die by die.
    pub fn sample<R: RngExt + ?Sized>(&self, rng: &mut R) -> i64 {
        let mut total = self.constant;
        for term in &self.terms {
            for _ in 0..term.count {
                total += i64::from(rng.random_range(1..=term.sides));
            }
        }
        total
    }
}

impl FromStr for Dice {
    type Err = DiceError;

    fn from_str(text: &str) -> Result<Self, DiceError> {
        let mut cursor = Cursor {
            chars: text.chars().collect(),
            pos: 0,
        };
        cursor.skip_space();
        if cursor.at_end() {
            return fail(0, "empty dice expression: expected something like `1d8+3`");
        }
        let mut sign = match cursor.peek() {
            Some(lead @ ('+' | '-')) => {
                cursor.pos += 1;
                if lead == '-' { -1 } else { 1 }
            }
            _ => 1,
        };
        let mut dice = Dice {
            terms: Vec::new(),
            constant: 0,
        };
        loop {
            cursor.skip_space();
            dice.add_term(&mut cursor, sign)?;
            cursor.skip_space();
            let Some(operator) = cursor.peek() else {
                break;
            };
            sign = match operator {
                '+' => 1,
                '-' => -1,
                other => {
                    return fail(
                        cursor.pos,
                        format!("unexpected `{other}`: expected `+`, `-` or the end"),
                    );
                }
            };
            cursor.pos += 1;
            cursor.skip_space();
            if cursor.at_end() {
                return fail(
                    cursor.pos,
                    "expression ends after an operator: expected a term",
                );
            }
        }
        Ok(dice)
    }
}

/// Where parsing stands in a dice expression; positions count characters, as error
/// offsets do.
struct Cursor {
    chars: Vec<char>,
    pos: usize,
}

impl Cursor {
    fn at_end(&self) -> bool {
        self.pos == self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// The decimal number at the cursor, if any; too many digits saturate, so the range
    /// checks reject it instead of the number wrapping around.
    fn number(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(u64::from(digit));
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }
}

impl Dice {
    /// Reads the term at the cursor (`NdM` or a number) and adds it with its sign.
    fn add_term(&mut self, cursor: &mut Cursor, sign: i64) -> Result<(), DiceError> {
        let term_start = cursor.pos;
        let count = cursor.number();
        if matches!(cursor.peek(), Some('d' | 'D')) {
            cursor.pos += 1;
            let term = dice_term(cursor, term_start, count, sign)?;
            self.terms.push(term);
        } else if let Some(value) = count {
            self.constant += sign * value.min(MAX_CONSTANT as u64 + 1) as i64;
            if self.constant.abs() > MAX_CONSTANT {
                return fail(
                    term_start,
                    format!("the constants add up to more than {MAX_CONSTANT}"),
                );
            }
        } else {
            return fail(
                cursor.pos,
                "expected a dice term like `2d6` or a number like `3`",
            );
        }
        Ok(())
    }
}

/// Reads the sides of a dice term whose count (if written) and `d` are already read,
/// and checks that the term may be rolled.
fn dice_term(
    cursor: &mut Cursor,
    term_start: usize,
    count: Option<u64>,
    sign: i64,
) -> Result<DiceTerm, DiceError> {
    let sides_start = cursor.pos;
    let Some(sides) = cursor.number() else {
        return fail(
            sides_start,
            "expected the number of sides after `d` (as in `1d8`)",
        );
    };
    let count = count.unwrap_or(1);
    if sign < 0 {
        return fail(
            term_start,
            "dice can only be added (`1d8+1d6`), not subtracted",
        );
    }
    if count == 0 || count > u64::from(MAX_DICE_PER_TERM) {
        return fail(
            term_start,
            format!("number of dice must be 1 to {MAX_DICE_PER_TERM}, got {count}"),
        );
    }
    if sides == 0 || sides > u64::from(MAX_SIDES) {
        return fail(
            sides_start,
            format!("dice must have 1 to {MAX_SIDES} sides, got {sides}"),
        );
    }
    Ok(DiceTerm {
        count: count as u32,
        sides: sides as u32,
    })
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for t in &self.terms {
            if !first {
                f.write_str("+")?;
            }
            write!(f, "{}d{}", t.count, t.sides)?;
            first = false;
        }
        match (first, self.constant) {
            (true, c) => write!(f, "{c}"),
            (false, 0) => Ok(()),
            (false, c) if c > 0 => write!(f, "+{c}"),
            (false, c) => write!(f, "{c}"),
        }
    }
}

/// The natural rolls that threaten a critical hit, and the damage multiplier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CritSpec {
    /// Lowest natural d20 roll that threatens (20 means only a natural 20).
    pub threat_min: u8,
    /// Damage multiplier of a confirmed critical hit.
    pub multiplier: u32,
}

impl Default for CritSpec {
    fn default() -> Self {
        Self {
            threat_min: 20,
            multiplier: 2,
        }
    }
}

impl FromStr for CritSpec {
    type Err = DiceError;

    /// Accepts `20/x2`, `19-20/x2`, `18-20`, `x3` (natural 20 only) and `×` for `x`.
    fn from_str(text: &str) -> Result<Self, DiceError> {
        parse_crit(text).map_err(|e| DiceError {
            offset: text[..e.offset.min(text.len())].chars().count(),
            ..e
        })
    }
}

/// [`CritSpec::from_str`] with error offsets in bytes (always at character boundaries):
/// read character by character, so each mistake is placed where it is and names what
/// belongs there.
fn parse_crit(text: &str) -> Result<CritSpec, DiceError> {
    let mut cursor = CritCursor { text, at: 0 };
    cursor.skip_space();
    let mut spec = CritSpec::default();
    if !cursor.at_multiplier() {
        spec.threat_min = cursor.threat_range()?;
        cursor.skip_space();
        match cursor.peek() {
            None => return Ok(spec),
            Some('/') => {
                cursor.at += 1;
                cursor.skip_space();
                if !cursor.at_multiplier() {
                    return fail(cursor.at, "expected `x` before the multiplier, as in `/x2`");
                }
            }
            Some(c) if is_times(c) => {
                return fail(
                    cursor.at,
                    "expected `/` between the threat range and the multiplier, as in `19-20/x2`",
                );
            }
            Some(c) => {
                return fail(
                    cursor.at,
                    format!(
                        "unexpected `{c}`: expected `/x` and a multiplier (as in `19-20/x2`) or the end"
                    ),
                );
            }
        }
    }
    spec.multiplier = cursor.multiplier()?;
    cursor.skip_space();
    match cursor.peek() {
        None => Ok(spec),
        Some(c) => fail(
            cursor.at,
            format!("unexpected `{c}` after the multiplier: expected the end"),
        ),
    }
}

/// `x`, `X` or `×`: the letter before a crit multiplier.
fn is_times(c: char) -> bool {
    matches!(c, 'x' | 'X' | '×')
}

/// A position in a crit spec, in bytes.
struct CritCursor<'a> {
    text: &'a str,
    at: usize,
}

impl CritCursor<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.at += c.len_utf8();
        }
    }

    fn at_multiplier(&self) -> bool {
        self.peek().is_some_and(is_times)
    }

    /// The digits at the cursor (saturated: a huge number is out of range, not unreadable),
    /// or `None` when there are none.
    fn number(&mut self) -> Option<u64> {
        let digits = self.text[self.at..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(self.text.len() - self.at, |n| n);
        let number = &self.text[self.at..self.at + digits];
        self.at += digits;
        (!number.is_empty()).then(|| number.parse().unwrap_or(u64::MAX))
    }

    /// `19-20`, or `19` alone (the same range): the lowest natural roll that threatens.
    fn threat_range(&mut self) -> Result<u8, DiceError> {
        let start = self.at;
        let Some(low) = self.number() else {
            return fail(
                start,
                "expected a threat range like `19-20` or `x` and a multiplier, as in `19-20/x2` or `x3`",
            );
        };
        let low = match u8::try_from(low) {
            Ok(v) if (2..=20).contains(&v) => v,
            _ => {
                return fail(
                    start,
                    format!("threat range must start at 2 to 20, got {low}"),
                );
            }
        };
        self.skip_space();
        if self.peek() == Some('-') {
            self.at += 1;
            self.skip_space();
            let high_at = self.at;
            match self.number() {
                Some(20) => {}
                Some(high) => {
                    return fail(
                        high_at,
                        format!("a threat range must end at 20, got {high}"),
                    );
                }
                None => return fail(high_at, "expected `20` after `-`, as in `19-20`"),
            }
        }
        Ok(low)
    }

    /// `x3` (or `X3`, `×3`): the damage multiplier of a confirmed critical hit.
    fn multiplier(&mut self) -> Result<u32, DiceError> {
        let start = self.at;
        self.at += self.peek().map_or(0, char::len_utf8);
        self.skip_space();
        let digits_at = self.at;
        match self.number() {
            Some(v) if (2..=u64::from(MAX_MULTIPLIER)).contains(&v) => Ok(v as u32),
            Some(v) => fail(
                start,
                format!("crit multiplier must be 2 to {MAX_MULTIPLIER}, got {v}"),
            ),
            None => fail(digits_at, "expected the multiplier after `x`, as in `x2`"),
        }
    }
}

impl fmt::Display for CritSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.threat_min < 20 {
            write!(f, "{}-20/x{}", self.threat_min, self.multiplier)
        } else {
            write!(f, "20/x{}", self.multiplier)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(text: &str) -> Dice {
        text.parse().unwrap()
    }

    #[test]
    fn parses_terms_and_constants() {
        let d = dice("2d6 + 1d4 - 1");
        assert_eq!(
            d.terms,
            vec![
                DiceTerm { count: 2, sides: 6 },
                DiceTerm { count: 1, sides: 4 }
            ]
        );
        assert_eq!(d.constant, -1);
        assert_eq!(d.to_string(), "2d6+1d4-1");
        assert_eq!(dice("d20").to_string(), "1d20");
        assert_eq!(dice("5").to_string(), "5");
        assert_eq!(dice("-3").to_string(), "-3");
        assert_eq!(dice("0-3"), dice("-3"));
    }

    #[test]
    fn reports_where_the_mistake_is() {
        let cases = [
            ("1d", 2, "sides"),
            ("1d8+", 4, "ends after an operator"),
            ("1d8*2", 3, "unexpected `*`"),
            ("", 0, "empty"),
            ("0d6", 0, "number of dice"),
            ("2000d6", 0, "number of dice"),
            ("1d0", 2, "sides"),
            ("3-1d4", 2, "subtracted"),
            ("1dx", 2, "sides"),
            ("1000000+1", 8, "add up to more than 1000000"),
            ("-1d6", 1, "subtracted"),
        ];
        for (text, offset, fragment) in cases {
            let err = text.parse::<Dice>().unwrap_err();
            assert_eq!(err.offset, offset, "{text}: {err}");
            assert!(err.message.contains(fragment), "{text}: {err}");
        }
    }

    #[test]
    fn distribution_of_two_d6_is_triangular() {
        let dist = dice("2d6").distribution();
        assert_eq!(dist.min, 2);
        let thirty_sixths: Vec<f64> = dist.probs.iter().map(|p| (p * 36.0).round()).collect();
        assert_eq!(
            thirty_sixths,
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
        );
        assert!((dist.mean() - 7.0).abs() < 1e-12);
    }

    #[test]
    fn repeated_rolls_dice_and_constants_again() {
        assert_eq!(dice("1d8+3").repeated(3).to_string(), "3d8+9");
    }

    #[test]
    fn clamping_moves_low_totals_onto_the_floor() {
        let dist = dice("1d4-2").distribution().clamped_below(1);
        assert_eq!(dist.min, 1);
        assert_eq!(dist.probs, vec![0.75, 0.25]);
    }

    #[test]
    fn reduction_piles_low_totals_on_zero() {
        let dist = dice("1d4").distribution().reduced_by(2);
        assert_eq!(dist.min, 0);
        assert_eq!(dist.probs, vec![0.5, 0.25, 0.25]);
        assert_eq!(dice("1d8+2").plus(&dice("2d6")).to_string(), "1d8+2d6+2");
        assert!(Dice::zero().is_zero() && Dice::zero().distribution().probs == vec![1.0]);
    }

    #[test]
    fn crit_specs() {
        let ok = [
            ("19-20/x2", 19, 2),
            ("20/x3", 20, 3),
            ("x4", 20, 4),
            ("18-20", 18, 2),
            ("15-20/×2", 15, 2),
        ];
        for (text, threat_min, multiplier) in ok {
            assert_eq!(
                text.parse::<CritSpec>().unwrap(),
                CritSpec {
                    threat_min,
                    multiplier
                },
                "{text}"
            );
        }
        for bad in ["19-21/x2", "1-20", "20/2", "20/x1", "abc", "19-20/x99"] {
            assert!(bad.parse::<CritSpec>().is_err(), "{bad}");
        }
        let multiplier = "\u{a0}19-20/×1".parse::<CritSpec>().unwrap_err();
        assert_eq!(multiplier.offset, 7, "counted in characters: {multiplier}");
    }

    #[test]
    fn crit_errors_point_at_the_character_and_say_what_belongs_there() {
        let cases = [
            (
                "19-20x2",
                5,
                "expected `/` between the threat range and the multiplier",
            ),
            ("19-21/x2", 3, "a threat range must end at 20, got 21"),
            ("19-/x2", 3, "expected `20` after `-`"),
            ("20/2", 3, "expected `x` before the multiplier"),
            ("19-20/x", 7, "expected the multiplier after `x`"),
            ("19-20/x2x", 8, "unexpected `x` after the multiplier"),
            ("1-20", 0, "start at 2 to 20, got 1"),
            ("abc", 0, "expected a threat range like `19-20`"),
            ("19,20/x2", 2, "unexpected `,`"),
            ("20/x11", 3, "crit multiplier must be 2 to 10, got 11"),
        ];
        for (text, offset, fragment) in cases {
            let err = text.parse::<CritSpec>().unwrap_err();
            assert_eq!(err.offset, offset, "{text}: {err}");
            assert!(err.message.contains(fragment), "{text}: {err}");
        }
    }

    #[test]
    fn sampling_stays_in_range() {
        use rand::SeedableRng;
        let d = dice("3d6+2");
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        for _ in 0..1000 {
            let v = d.sample(&mut rng);
            assert!((d.min()..=d.max()).contains(&v));
        }
    }
}

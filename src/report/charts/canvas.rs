//! Pixel-space drawing primitives over any plotters backend.
//!
//! Charts place data with plotters' coordinate systems, then draw every mark here
//! in absolute pixels, so dashes, markers, bands and map cells look the same in
//! SVG and PNG and one implementation serves both.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{FONT_FAMILY, INK, MIN_TEXT_PX, Marker, Pattern};

/// Result of a drawing step; backend errors are carried as text because their
/// types differ between backends.
pub(super) type Drawn = Result<(), String>;

/// A point in absolute pixels.
pub(super) type Px = (i32, i32);

/// Horizontal and vertical text anchoring.
pub(super) type Anchor = (HPos, VPos);

/// Anchors text by its left end, vertically centred.
pub(super) const LEFT: Anchor = (HPos::Left, VPos::Center);
/// Anchors text by its centre.
pub(super) const CENTER: Anchor = (HPos::Center, VPos::Center);
/// Anchors text by its right end, vertically centred.
pub(super) const RIGHT: Anchor = (HPos::Right, VPos::Center);

/// The whole drawing surface of one chart.
pub(super) struct Canvas<'a, DB: DrawingBackend> {
    root: &'a DrawingArea<DB, Shift>,
    /// Downward text offset as a fraction of the font size (see [`Canvas::bitmap`]).
    text_shift: f64,
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn stroke(color: RGBAColor, width: u32) -> ShapeStyle {
    ShapeStyle {
        color,
        filled: false,
        stroke_width: width,
    }
}

fn fill(color: RGBAColor) -> ShapeStyle {
    ShapeStyle {
        color,
        filled: true,
        stroke_width: 0,
    }
}

impl<'a, DB: DrawingBackend> Canvas<'a, DB> {
    /// A canvas whose backend places text where its anchor says (SVG: the viewer
    /// lays the text out).
    pub(super) fn vector(root: &'a DrawingArea<DB, Shift>) -> Self {
        Self {
            root,
            text_shift: 0.0,
        }
    }

    /// A canvas for the bitmap backend. plotters' ab_glyph text puts the glyphs
    /// about a fifth of the font size above the anchor it was given, so text is
    /// moved down by that much to centre it like the SVG rendering.
    pub(super) fn bitmap(root: &'a DrawingArea<DB, Shift>) -> Self {
        Self {
            root,
            text_shift: 0.2,
        }
    }

    /// The root area, for building plotters charts on parts of it.
    pub(super) fn root(&self) -> &'a DrawingArea<DB, Shift> {
        self.root
    }

    /// Width and height in pixels.
    pub(super) fn size(&self) -> (i32, i32) {
        let (w, h) = self.root.dim_in_pixel();
        (
            i32::try_from(w).unwrap_or(i32::MAX),
            i32::try_from(h).unwrap_or(i32::MAX),
        )
    }

    /// A filled axis-aligned rectangle between two corners.
    pub(super) fn rect(&self, a: Px, b: Px, color: RGBAColor) -> Drawn {
        self.root
            .draw(&Rectangle::new([a, b], fill(color)))
            .map_err(err)
    }

    /// A rectangle outline.
    pub(super) fn frame(&self, a: Px, b: Px, color: RGBAColor, width: u32) -> Drawn {
        self.root
            .draw(&Rectangle::new([a, b], stroke(color, width)))
            .map_err(err)
    }

    /// A filled polygon.
    pub(super) fn polygon(&self, points: Vec<Px>, color: RGBAColor) -> Drawn {
        if points.len() < 3 {
            return Ok(());
        }
        self.root
            .draw(&Polygon::new(points, fill(color)))
            .map_err(err)
    }

    /// A polyline with a dash pattern; sub-pixel precision is kept until the dashes
    /// are cut so patterns do not drift along long lines.
    pub(super) fn line(
        &self,
        points: &[(f64, f64)],
        color: RGBAColor,
        width: u32,
        dash: Pattern,
    ) -> Drawn {
        for run in dash_runs(points, dash.pattern()) {
            if run.len() < 2 {
                continue;
            }
            let px: Vec<Px> = run.iter().map(|&(x, y)| to_px(x, y)).collect();
            self.root
                .draw(&PathElement::new(px, stroke(color, width)))
                .map_err(err)?;
        }
        Ok(())
    }

    /// A filled marker of half-size `r` centred on `at`, outlined in white so it
    /// stays visible over lines and bands of the same colour.
    pub(super) fn marker(&self, at: Px, marker: Marker, color: RGBAColor, r: i32) -> Drawn {
        let (x, y) = at;
        let white = WHITE.to_rgba();
        match marker {
            Marker::Circle => {
                self.root
                    .draw(&Circle::new(at, r + 1, fill(white)))
                    .map_err(err)?;
                self.root
                    .draw(&Circle::new(at, r, fill(color)))
                    .map_err(err)
            }
            Marker::Square => {
                self.rect((x - r - 1, y - r - 1), (x + r + 1, y + r + 1), white)?;
                self.rect((x - r, y - r), (x + r, y + r), color)
            }
            Marker::Cross => {
                for (dx, dy) in [(1, 1), (1, -1)] {
                    let ends = [
                        ((x - dx * r) as f64, (y - dy * r) as f64),
                        ((x + dx * r) as f64, (y + dy * r) as f64),
                    ];
                    self.line(&ends, white, 5, Pattern::Solid)?;
                }
                for (dx, dy) in [(1, 1), (1, -1)] {
                    let ends = [
                        ((x - dx * r) as f64, (y - dy * r) as f64),
                        ((x + dx * r) as f64, (y + dy * r) as f64),
                    ];
                    self.line(&ends, color, 3, Pattern::Solid)?;
                }
                Ok(())
            }
            Marker::Triangle | Marker::InvTriangle | Marker::Diamond => {
                let shape = |r: i32| -> Vec<Px> {
                    let r1 = r + r / 3;
                    match marker {
                        Marker::Triangle => vec![(x, y - r1), (x + r1, y + r), (x - r1, y + r)],
                        Marker::InvTriangle => vec![(x, y + r1), (x + r1, y - r), (x - r1, y - r)],
                        _ => vec![(x, y - r1), (x + r1, y), (x, y + r1), (x - r1, y)],
                    }
                };
                self.polygon(shape(r + 2), white)?;
                self.polygon(shape(r), color)
            }
        }
    }

    /// An open ring, used for exact values so they read as "target" around the
    /// simulated marker.
    pub(super) fn ring(&self, at: Px, r: i32) -> Drawn {
        self.root
            .draw(&Circle::new(at, r, stroke(INK.to_rgba(), 2)))
            .map_err(err)
    }

    /// Horizontal text, never smaller than [`MIN_TEXT_PX`] so it prints at 8 pt or more.
    pub(super) fn text(&self, s: &str, at: Px, px: u32, color: RGBColor, anchor: Anchor) -> Drawn {
        let px = px.max(MIN_TEXT_PX);
        let style = text_style(px, color, anchor);
        let dy = (self.text_shift * f64::from(px)).round() as i32;
        self.root
            .draw_text(&printable(s), &style, (at.0, at.1 + dy))
            .map_err(err)
    }

    /// Text rotated to read bottom-to-top, for vertical axis descriptions; never smaller
    /// than [`MIN_TEXT_PX`].
    pub(super) fn vertical_text(&self, s: &str, at: Px, px: u32, color: RGBColor) -> Drawn {
        let px = px.max(MIN_TEXT_PX);
        let style = text_style(px, color, CENTER).transform(FontTransform::Rotate270);
        // Rotated a quarter turn anticlockwise, the glyphs' "down" is screen right.
        let dx = (self.text_shift * f64::from(px)).round() as i32;
        self.root
            .draw_text(&printable(s), &style, (at.0 + dx, at.1))
            .map_err(err)
    }

    /// The rendered width of `s`; falls back to an average glyph width if the
    /// font cannot measure it.
    pub(super) fn text_width(&self, s: &str, px: u32) -> i32 {
        let style = text_style(px, INK, LEFT);
        match self.root.estimate_text_size(s, &style) {
            Ok((w, _)) => i32::try_from(w).unwrap_or(i32::MAX),
            Err(_) => {
                let chars = i32::try_from(s.chars().count()).unwrap_or(i32::MAX);
                chars.saturating_mul(i32::try_from(px).unwrap_or(20) * 6 / 10)
            }
        }
    }

    /// `s` on at most two lines of `max_width` pixels: broken after the last word that fits
    /// on the first, the rest shortened with an ellipsis if it is still too long. A title is
    /// worth a second line more than a cut-off end.
    pub(super) fn wrap_two(&self, s: &str, px: u32, max_width: i32) -> Vec<String> {
        if self.text_width(s, px) <= max_width {
            return vec![s.to_string()];
        }
        let breaks = s.match_indices(' ').map(|(i, _)| i);
        let first_end = breaks
            .take_while(|&i| self.text_width(&s[..i], px) <= max_width)
            .last();
        match first_end {
            Some(end) => vec![
                s[..end].to_string(),
                self.fit(s[end..].trim_start(), px, max_width),
            ],
            None => vec![self.fit(s, px, max_width)],
        }
    }

    /// `s`, shortened with an ellipsis until it fits in `max_width` pixels.
    pub(super) fn fit(&self, s: &str, px: u32, max_width: i32) -> String {
        if self.text_width(s, px) <= max_width {
            return s.to_string();
        }
        let chars: Vec<char> = s.chars().collect();
        let shortened = |keep: usize| chars[..keep].iter().collect::<String>() + "…";
        // Binary search for the longest prefix that fits: widths grow with length.
        let (mut fits, mut too_long) = (0, chars.len());
        while too_long - fits > 1 {
            let mid = (fits + too_long) / 2;
            if self.text_width(&shortened(mid), px) <= max_width {
                fits = mid;
            } else {
                too_long = mid;
            }
        }
        if fits == 0 && self.text_width("…", px) > max_width {
            String::new()
        } else {
            shortened(fits)
        }
    }
}

/// Replaces control characters, which XML forbids and fonts cannot draw.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn text_style(px: u32, color: RGBColor, anchor: Anchor) -> TextStyle<'static> {
    TextStyle {
        font: (FONT_FAMILY, f64::from(px)).into_font(),
        color: color.to_backend_color(),
        pos: Pos::new(anchor.0, anchor.1),
    }
}

/// Rounds a sub-pixel position to the pixel grid.
pub(super) fn to_px(x: f64, y: f64) -> Px {
    (x.round() as i32, y.round() as i32)
}

/// Cuts a polyline into the "on" runs of a dash pattern (alternating on/off
/// lengths). An empty pattern keeps the line whole.
fn dash_runs(points: &[(f64, f64)], pattern: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let Some(&first) = points.first() else {
        return Vec::new();
    };
    if pattern.is_empty() || pattern.iter().any(|&l| l <= 0.0) {
        return vec![points.to_vec()];
    }
    let mut runs = Vec::new();
    let mut current = vec![first];
    let mut index = 0;
    let mut left = pattern[0];
    for pair in points.windows(2) {
        let (mut a, b) = (pair[0], pair[1]);
        let mut length = (b.0 - a.0).hypot(b.1 - a.1);
        while length > left {
            let t = left / length;
            let cut = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            if index % 2 == 0 {
                current.push(cut);
                runs.push(std::mem::take(&mut current));
            } else {
                current = vec![cut];
            }
            length -= left;
            a = cut;
            index = (index + 1) % pattern.len();
            left = pattern[index];
        }
        left -= length;
        if index % 2 == 0 {
            current.push(b);
        }
    }
    if index % 2 == 0 && current.len() > 1 {
        runs.push(current);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dashes_cover_the_on_lengths() {
        let runs = dash_runs(&[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], &[4.0, 2.0]);
        let on: f64 = runs
            .iter()
            .flat_map(|r| r.windows(2))
            .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
            .sum();
        // 20 px of line: on 4, off 2 → 4+4+4 (to 16) + 4 (16..20) = 14 px drawn.
        assert!((on - 14.0).abs() < 1e-9, "{on}");
        assert_eq!(runs.len(), 4);
    }

    #[test]
    fn dashes_handle_degenerate_lines() {
        assert!(dash_runs(&[], &[4.0, 2.0]).is_empty());
        assert!(dash_runs(&[(1.0, 1.0)], &[4.0, 2.0]).is_empty());
        assert_eq!(dash_runs(&[(1.0, 1.0), (1.0, 1.0)], &[4.0, 2.0]).len(), 1);
        assert_eq!(dash_runs(&[(0.0, 0.0), (5.0, 0.0)], &[]).len(), 1);
    }
}

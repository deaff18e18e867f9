//! Shared visual vocabulary: font sizes, colours, dash patterns and markers.
//!
//! Series differ in lightness *and* in dash pattern and marker shape, so a chart
//! printed in greyscale still tells them apart.

use plotters::style::RGBColor;

/// The family name the embedded font is registered under; SVG viewers map the same
/// generic name to their own sans-serif font.
pub(super) const FONT_FAMILY: &str = "sans-serif";

/// The smallest text size any chart uses, in pixels. Charts are drawn at about the
/// printable width of A4 and Letter (see [`super::ChartSize`]'s default), and an SVG
/// writes a `px` font as `px × 25/31` user units: 14 px prints at 14 × 25/31 × 703/720
/// CSS px = 11.0 CSS px = 8.3 pt on A4, the narrower of the two.
pub(super) const MIN_TEXT_PX: u32 = 14;
/// Chart title size in pixels.
pub(super) const TITLE_PX: u32 = 20;
/// Panel caption size (one panel per target or measure).
pub(super) const CAPTION_PX: u32 = 16;
/// Axis description size ("probability", "round" …).
pub(super) const AXIS_PX: u32 = 15;
/// Tick label size.
pub(super) const TICK_PX: u32 = MIN_TEXT_PX;
/// Legend text size.
pub(super) const LEGEND_PX: u32 = MIN_TEXT_PX;

/// Text and axis colour: near-black prints crisply without looking harsh on screen.
pub(super) const INK: RGBColor = RGBColor(30, 30, 30);
/// Grid lines, light enough to stay behind the data.
pub(super) const GRID: RGBColor = RGBColor(222, 222, 222);
/// Opacity of the 95% interval bands: light so overlapping bands stay readable.
pub(super) const BAND_ALPHA: f64 = 0.16;
/// Fill of damage bars: mid lightness, so black whiskers and exact ticks stand out.
pub(super) const BAR: RGBColor = RGBColor(120, 150, 190);

/// A line pattern, as alternating on/off dash lengths in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pattern {
    Solid,
    Dashed,
    Dotted,
    DashDot,
    LongDash,
}

impl Pattern {
    /// On/off lengths in pixels; empty for a solid line.
    pub(super) fn pattern(self) -> &'static [f64] {
        match self {
            Self::Solid => &[],
            Self::Dashed => &[9.0, 5.0],
            Self::Dotted => &[2.5, 4.0],
            Self::DashDot => &[11.0, 4.0, 2.5, 4.0],
            Self::LongDash => &[18.0, 6.0],
        }
    }
}

/// A point marker shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
    InvTriangle,
}

/// How one series is drawn: colour, line dash and marker together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SeriesStyle {
    pub(super) color: RGBColor,
    pub(super) dash: Pattern,
    pub(super) marker: Marker,
}

/// Series colours ordered so that neighbours differ strongly in lightness.
const COLOURS: [RGBColor; 8] = [
    RGBColor(8, 48, 107),
    RGBColor(230, 85, 13),
    RGBColor(107, 174, 214),
    RGBColor(165, 15, 21),
    RGBColor(65, 171, 93),
    RGBColor(99, 99, 99),
    RGBColor(253, 174, 107),
    RGBColor(117, 107, 177),
];

/// Dash patterns, in the order the first series take them.
const DASHES: [Pattern; 5] = [
    Pattern::Solid,
    Pattern::Dashed,
    Pattern::Dotted,
    Pattern::DashDot,
    Pattern::LongDash,
];

/// Marker shapes, in the order the first series take them.
const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Diamond,
    Marker::Cross,
    Marker::InvTriangle,
];

/// The style of the `index`-th series. Colours, dashes and markers cycle with
/// different lengths (8, 5 and 6), so no two of the first 120 series look the same,
/// and a party of four against four monsters gets eight distinct colours.
pub(super) fn series_style(index: usize) -> SeriesStyle {
    SeriesStyle {
        color: COLOURS[index % COLOURS.len()],
        dash: DASHES[index % DASHES.len()],
        marker: MARKERS[index % MARKERS.len()],
    }
}

/// Relative luminance in [0, 1], to choose black or white text on a coloured cell.
pub(super) fn luminance(c: RGBColor) -> f64 {
    (0.2126 * f64::from(c.0) + 0.7152 * f64::from(c.1) + 0.0722 * f64::from(c.2)) / 255.0
}

/// A probability as a label beside its point or on its square, in whole percent; a chance
/// that is neither none nor certain never reads as 0% or 100% (`<1%`, `>99%`).
pub(super) fn percent_label(p: f64) -> String {
    match p {
        p if p > 0.0 && p < 0.005 => "<1%".into(),
        p if (0.995..1.0).contains(&p) => ">99%".into(),
        p if !p.is_finite() => "?".into(),
        p => format!("{}%", format_number((p * 100.0).round(), 0)),
    }
}

/// Every label [`percent_label`] can write is at most this wide, in its own characters.
pub(super) const WIDEST_PERCENT_LABELS: [&str; 2] = ["100%", ">99%"];

/// Formats a number for a tick or a table: integers without decimals, others with
/// `decimals` places and trailing zeros trimmed.
pub(super) fn format_number(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".to_string() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0.3% is not none and 99.6% is not certain: only 0 and 1 read 0% and 100%.
    #[test]
    fn percent_labels_never_round_a_chance_to_none_or_certain() {
        let labels = [0.0, -0.0, 0.003, 0.005, 0.16, 0.994, 0.996, 1.0].map(percent_label);
        assert_eq!(
            labels,
            ["0%", "0%", "<1%", "1%", "16%", "99%", ">99%", "100%"]
        );
    }

    #[test]
    fn numbers_are_trimmed() {
        assert_eq!(format_number(0.2, 1), "0.2");
        assert_eq!(format_number(1.0, 2), "1");
        assert_eq!(format_number(-0.0001, 2), "0");
        assert_eq!(format_number(20.0, 0), "20");
        assert_eq!(format_number(0.125, 3), "0.125");
    }

    #[test]
    fn neighbouring_styles_differ_in_lightness_and_shape() {
        for i in 0..COLOURS.len() {
            let (a, b) = (series_style(i), series_style(i + 1));
            assert!(
                (luminance(a.color) - luminance(b.color)).abs() > 0.12,
                "{i}"
            );
            assert!(a.dash != b.dash && a.marker != b.marker);
        }
    }

    #[test]
    fn eight_series_have_eight_colours_and_120_series_120_looks() {
        let colours: Vec<RGBColor> = (0..8).map(|i| series_style(i).color).collect();
        for (i, c) in colours.iter().enumerate() {
            assert!(!colours[..i].contains(c), "series {i} repeats a colour");
        }
        let looks: Vec<SeriesStyle> = (0..120).map(series_style).collect();
        for (i, look) in looks.iter().enumerate() {
            assert!(
                !looks[..i].contains(look),
                "series {i} looks like an earlier one"
            );
        }
        assert_eq!(series_style(120), series_style(0));
    }
}

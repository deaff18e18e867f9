//! Charts and the printable report.
//!
//! Every chart is drawn once by generic code and rendered twice, to SVG (for the
//! HTML report and for users who want to edit the figure) and to PNG (for forums,
//! chats and viewers without SVG support). PNG text uses an embedded DejaVu Sans
//! font, so rendering needs no system font library and works on a bare CI machine.
//!
//! The module depends on nothing else in the project but [`Estimate`] (a figure with its
//! 95% interval and exact value, drawn as the report's tables show it): callers fill the
//! plain input structs below with values they have already computed and formatted.

mod canvas;
mod damage;
mod heatmap;
mod html;
mod legend;
mod lines;
mod map;
mod markdown;
mod render;
mod rounds;
mod style;
mod sweep;
mod xy;

#[cfg(test)]
mod tests;

pub use damage::{
    DamageChart, DamagePoint, LengthChart, PANELS_PER_PAGE, TargetDamage, damage_chart,
    length_chart,
};
pub use heatmap::{HeatmapChart, heatmap_chart};
pub use html::{PageSection, PageTable, ReportInput, SectionContent, report_html};
pub use lines::{LineKind, LinesChart, Segment, lines_chart};
pub use map::{BattleMap, Creature};
pub use markdown::summary_markdown;
pub use rounds::{
    RoundPoint, RoundsChart, SideWins, TargetRounds, WinsChart, down_dead_chart, wins_chart,
};
pub use sweep::{SweepAxis, SweepChart, SweepSeries, sweep_chart};

use std::fmt;

use crate::stats::Estimate;

/// One rendered chart: the same drawing as SVG text and as PNG bytes, so a report
/// folder can offer both without drawing twice in the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chart {
    /// A standalone SVG document (with its XML namespace), scalable for print.
    pub svg: String,
    /// A PNG image of exactly the requested size, for places that cannot show SVG.
    pub png: Vec<u8>,
}

/// The pixel size of a chart; the SVG uses the same numbers as its user units, so
/// both renderings share one layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartSize {
    /// Width in pixels, from [`ChartSize::MIN_WIDTH`] to [`ChartSize::MAX_SIDE`].
    pub width: u32,
    /// Height in pixels, from [`ChartSize::MIN_HEIGHT`] to [`ChartSize::MAX_SIDE`].
    pub height: u32,
}

impl ChartSize {
    /// Below this width titles, axes and legends no longer fit beside each other.
    pub const MIN_WIDTH: u32 = 320;
    /// Below this height there is no room left for the plot between title and legend.
    pub const MIN_HEIGHT: u32 = 240;
    /// Caps the PNG buffer (3 bytes per pixel) at a size any machine can hold.
    pub const MAX_SIDE: u32 = 6000;
}

impl Default for ChartSize {
    /// A landscape size that reads well on screen and is about the printable width of A4
    /// and Letter at 96 px an inch (703 and 720 CSS px), so text prints at its own size.
    fn default() -> Self {
        Self {
            width: 720,
            height: 450,
        }
    }
}

/// Why a chart could not be produced. Odd data (empty, all zero, one point) never
/// is a reason: such charts are drawn with a note instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChartError {
    /// The requested size is outside the limits of [`ChartSize`].
    Size {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// The embedded font could not be loaded (a corrupt build).
    Font,
    /// The drawing backend failed.
    Draw(String),
    /// The PNG encoder failed.
    Png(String),
}

impl fmt::Display for ChartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Size { width, height } => write!(
                f,
                "chart size {width}x{height} is outside {}x{} to {max}x{max}",
                ChartSize::MIN_WIDTH,
                ChartSize::MIN_HEIGHT,
                max = ChartSize::MAX_SIDE
            ),
            Self::Font => write!(f, "the embedded chart font could not be loaded"),
            Self::Draw(msg) => write!(f, "drawing a chart failed: {msg}"),
            Self::Png(msg) => write!(f, "encoding a chart as PNG failed: {msg}"),
        }
    }
}

impl std::error::Error for ChartError {}

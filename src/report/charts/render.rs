//! Renders one drawing to both backends and encodes the bitmap as PNG.

use std::sync::OnceLock;

use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use super::canvas::Canvas;
use super::style::FONT_FAMILY;
use super::{Chart, ChartError, ChartSize};

/// DejaVu Sans, embedded so PNG text needs no system font library (see
/// `assets/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("assets/DejaVuSans.ttf");

/// A chart drawing written once against the generic [`Canvas`], so SVG and PNG
/// come from the same code and always match.
pub(super) trait Figure {
    /// Draws the whole figure onto a canvas of the chart's size.
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String>;
}

/// Registers the embedded font once per process; plotters keeps it in a global table.
fn ensure_font() -> Result<(), ChartError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok =
        *REGISTERED.get_or_init(|| register_font(FONT_FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok { Ok(()) } else { Err(ChartError::Font) }
}

/// Draws `figure` to SVG and to PNG at `size`.
pub(super) fn render(figure: &impl Figure, size: ChartSize) -> Result<Chart, ChartError> {
    let svg = render_svg(figure, size)?;
    let ChartSize { width, height } = size;

    // Both sides are at most MAX_SIDE, so the product fits in usize on any target.
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
        draw_on(figure, &root, Canvas::bitmap(&root))?;
    }
    let png = encode_png(&rgb, width, height)?;
    Ok(Chart { svg, png })
}

/// The SVG half of [`render`], for a figure shown only in the report page.
pub(super) fn render_svg(figure: &impl Figure, size: ChartSize) -> Result<String, ChartError> {
    let ChartSize { width, height } = size;
    let fits = |v: u32, min: u32| (min..=ChartSize::MAX_SIDE).contains(&v);
    if !fits(width, ChartSize::MIN_WIDTH) || !fits(height, ChartSize::MIN_HEIGHT) {
        return Err(ChartError::Size { width, height });
    }
    ensure_font()?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw_on(figure, &root, Canvas::vector(&root))?;
    }
    Ok(svg)
}

fn draw_on<DB: DrawingBackend>(
    figure: &impl Figure,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    canvas: Canvas<'_, DB>,
) -> Result<(), ChartError> {
    root.fill(&WHITE)
        .map_err(|e| ChartError::Draw(e.to_string()))?;
    figure.draw(&canvas).map_err(ChartError::Draw)?;
    root.present().map_err(|e| ChartError::Draw(e.to_string()))
}

fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, ChartError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let png_err = |e: png::EncodingError| ChartError::Png(e.to_string());
    let mut writer = encoder.write_header().map_err(png_err)?;
    writer.write_image_data(rgb).map_err(png_err)?;
    writer.finish().map_err(png_err)?;
    Ok(out)
}

//! Chart tests: every chart on a realistic example and on edge cases.
//!
//! Set `D20ODDS_CHARTS_OUT=DIR` to also write the example charts, the report page
//! and the Markdown summary to DIR for a visual check.

mod edge_cases;
mod examples;
mod fixtures;

use super::{Chart, ChartSize, Estimate};

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// Checks the PNG signature and reads width and height from the IHDR chunk.
pub(super) fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.len() > 33, "PNG too short");
    assert_eq!(png[..8], PNG_SIGNATURE);
    assert_eq!(&png[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&png[16..20]), be(&png[20..24]))
}

/// Parses the SVG as XML and returns all its text content, one string per text node.
pub(super) fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("SVG parses as XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .filter(|t| !t.is_empty())
        .collect()
}

/// Each text element drawing `text` in a rendered SVG, in order: where its text is, and
/// its `attribute` (`"x"` or `"y"`) in pixels.
pub(super) fn text_places(svg: &str, text: &str, attribute: &str) -> Vec<(usize, f64)> {
    let key = format!("{attribute}=\"");
    (svg.match_indices(&format!(">\n{text}\n</text>")))
        .map(|(at, _)| {
            let opening = svg[..at].rfind("<text").expect("its element");
            let value = svg[opening..at].split(&key).nth(1).expect("the attribute");
            let value = value[..value.find('"').expect("closed")].parse();
            (at, value.expect("a number"))
        })
        .collect()
}

/// Checks both renderings and that every expected text is in the SVG.
pub(super) fn check(chart: &Chart, size: ChartSize, expected: &[&str]) {
    assert_eq!(png_size(&chart.png), (size.width, size.height));
    let texts = svg_texts(&chart.svg);
    for e in expected {
        assert!(
            texts.iter().any(|t| t == e),
            "missing text {e:?} in {texts:?}"
        );
    }
    assert!(!chart.svg.contains("<script"));
}

pub(super) fn est(value: f64, half: f64, exact: Option<f64>) -> Estimate {
    Estimate {
        point: value,
        lo: (value - half).max(0.0),
        hi: (value + half).min(1.0),
        exact,
    }
}

//! report.html in a real browser: headless Chromium prints it on A4 and on Letter,
//! poppler counts, reads and renders the pages, and a measuring copy of the page lists
//! every element wider than the printable area.
//!
//! Needs the Debian packages `chromium` and `poppler-utils`, so these tests run only when
//! asked: `D20ODDS_PRINT_TESTS=1 cargo test --release` (`.ci/run` installs the packages and
//! sets it). Without the variable each prints that it was skipped and how to run it; with
//! it and a tool missing, each fails and names the package.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::cli::{d20odds, repo};

/// The page margin of report.html's `@page` rule, in millimetres.
const MARGIN_MM: f64 = 12.0;

/// CSS pixels per millimetre (96 per inch).
const PX_PER_MM: f64 = 96.0 / 25.4;

struct Paper {
    /// The `@page { size }` keyword.
    css: &'static str,
    /// Width and height in millimetres.
    mm: (f64, f64),
    /// How pdfinfo names the size.
    pdfinfo: &'static str,
}

const A4: Paper = Paper {
    css: "A4",
    mm: (210.0, 297.0),
    pdfinfo: "(A4)",
};

const LETTER: Paper = Paper {
    css: "letter",
    mm: (215.9, 279.4),
    pdfinfo: "(letter)",
};

impl Paper {
    /// The width inside the margins, in CSS pixels: the layout width when printing.
    fn printable_px(&self) -> u32 {
        ((self.mm.0 - 2.0 * MARGIN_MM) * PX_PER_MM).floor() as u32
    }
}

/// The variable that turns the print tests on.
const OPT_IN: &str = "D20ODDS_PRINT_TESTS";

/// The programs the print tests run, and the Debian package of each.
const TOOLS: [(&str, &str); 4] = [
    ("chromium", "chromium"),
    ("pdfinfo", "poppler-utils"),
    ("pdftotext", "poppler-utils"),
    ("pdftoppm", "poppler-utils"),
];

/// Whether a print test runs: only with `D20ODDS_PRINT_TESTS=1`. Without it, says on
/// stderr that `test` was skipped and how to run it; with it, fails unless every tool is
/// installed.
fn print_tests_enabled(test: &str) -> bool {
    if std::env::var(OPT_IN).as_deref() != Ok("1") {
        eprintln!(
            "skipped {test}: the print tests need headless Chromium and poppler; run them with \
             {OPT_IN}=1 cargo test --release (after apt-get install -y chromium poppler-utils)"
        );
        return false;
    }
    let missing: Vec<String> = TOOLS
        .iter()
        .filter(|(program, _)| !on_path(program))
        .map(|(program, package)| format!("`{program}` (Debian package {package})"))
        .collect();
    assert!(
        missing.is_empty(),
        "{OPT_IN}=1 asks for the print tests, but {} not installed: apt-get install -y \
         chromium poppler-utils (.ci/run installs them)",
        missing.join(" and ") + if missing.len() == 1 { " is" } else { " are" }
    );
    true
}

/// Whether `program` is an executable file in a folder of `PATH`.
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// Runs an external tool, or fails saying how to install it.
fn tool(program: &str, args: &[&str]) -> Output {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{program}` ({e}). The print tests need headless Chromium and \
             poppler: install the Debian packages with `apt-get install -y chromium \
             poppler-utils` (.ci/run installs them when missing)."
            )
        });
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Headless Chromium with a fresh profile in `work`, no network, no sandbox (CI runs
/// as root), and `args` after the usual flags.
fn chromium(work: &Path, args: &[&str]) -> Output {
    let profile = format!("--user-data-dir={}", work.join("profile").display());
    let mut all = vec![
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        profile.as_str(),
    ];
    all.extend_from_slice(args);
    tool("chromium", &all)
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The report of a shipped experiment, run with few trials into a temporary folder.
fn report(stem: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let experiment = repo().join(format!("experiments/{stem}.toml"));
    let out = d20odds(
        &[
            "run",
            &experiment.display().to_string(),
            "--trials",
            "4000",
            "--quiet",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = dir.path().join("reports").join(stem).join("report.html");
    (dir, html)
}

/// A copy of the page beside it, with `extra` inserted before `</head>` (or `</body>`).
fn copy_with(html: &Path, name: &str, before: &str, extra: &str) -> PathBuf {
    let page = std::fs::read_to_string(html).unwrap();
    assert_eq!(
        page.matches(before).count(),
        1,
        "one {before} in report.html"
    );
    let copy = html.with_file_name(name);
    std::fs::write(&copy, page.replace(before, &format!("{extra}{before}"))).unwrap();
    copy
}

/// Prints `html` on `paper`; returns the PDF.
fn print(html: &Path, paper: &Paper, work: &Path) -> PathBuf {
    let sized = copy_with(
        html,
        &format!("report-{}.html", paper.css),
        "</head>",
        &format!("<style>@page {{ size: {}; }}</style>", paper.css),
    );
    let pdf = work.join(format!("report-{}.pdf", paper.css));
    let to = format!("--print-to-pdf={}", pdf.display());
    chromium(work, &["--no-pdf-header-footer", &to, &file_url(&sized)]);
    pdf
}

/// `Pages:` and `Page size:` of a PDF, from pdfinfo.
fn pdf_info(pdf: &Path) -> (usize, String) {
    let out = tool("pdfinfo", &[&pdf.display().to_string()]);
    let info = String::from_utf8(out.stdout).unwrap();
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("pdfinfo gives no {name}\n{info}"))
    };
    (field("Pages:").parse().unwrap(), field("Page size:"))
}

/// The text of each page, its words joined by single spaces (pdftotext separates pages
/// with form feeds).
fn page_texts(pdf: &Path) -> Vec<String> {
    let out = tool("pdftotext", &["-layout", &pdf.display().to_string(), "-"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // Words only: a sentence may wrap anywhere.
    let mut pages: Vec<String> = text
        .split('\u{c}')
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

/// Width and height of a PNG, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(bytes[..8], *b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// Lays the page out with its print rules at `width` CSS pixels and returns the
/// viewport width and every element whose right edge passes it, found by a script in
/// a measuring copy (the report itself has no script).
fn overflowing(html: &Path, width: u32, work: &Path, extra: &str) -> (u32, Vec<String>) {
    let page = std::fs::read_to_string(html).unwrap();
    assert_eq!(page.matches("@media print").count(), 1, "one print block");
    let measured = html.with_file_name("measure.html");
    let script = r#"<script>
(function () {
  var width = document.documentElement.clientWidth;
  var wide = [];
  document.querySelectorAll("body *").forEach(function (e) {
    var right = e.getBoundingClientRect().right;
    if (right > width + 0.5) {
      var text = (e.textContent || "").trim().slice(0, 50);
      wide.push(e.tagName.toLowerCase() + " right=" + right.toFixed(1) + " " + text);
    }
  });
  var out = document.createElement("pre");
  out.id = "overflow";
  out.textContent = ["width=" + width].concat(wide).join("\n");
  document.body.appendChild(out);
})();
</script>"#;
    let copy = page
        .replace("@media print", "@media all")
        .replace("</body>", &format!("{extra}{script}</body>"));
    std::fs::write(&measured, copy).unwrap();
    let size = format!("--window-size={width},1200");
    let out = chromium(
        work,
        &[
            "--hide-scrollbars",
            &size,
            "--virtual-time-budget=5000",
            "--dump-dom",
            &file_url(&measured),
        ],
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .find("<pre id=\"overflow\">")
        .unwrap_or_else(|| panic!("the measuring script did not run:\n{dom}"));
    let body = &dom[start + "<pre id=\"overflow\">".len()..];
    let body = &body[..body.find("</pre>").expect("the list ends")];
    let mut lines = body.lines();
    let viewport = lines
        .next()
        .and_then(|l| l.strip_prefix("width="))
        .and_then(|w| w.parse().ok())
        .expect("the viewport width");
    (viewport, lines.map(str::to_string).collect())
}

/// CSS pixels in a point (72 points and 96 CSS pixels an inch).
const PX_PER_PT: f64 = 96.0 / 72.0;

/// The smallest chart text the printed report may have, in points.
const MIN_CHART_TEXT_PT: f64 = 8.0;

/// An inline chart of the report: its width in user units, every text's font size, and
/// its first (the title) and last (the legend's last entry) texts.
struct InlineChart {
    width: f64,
    font_sizes: Vec<f64>,
    texts: Vec<String>,
}

/// The value of attribute `name` in the tag that starts `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let end = tag.find('>')?;
    let start = tag[..end].find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// Undoes the escapes an SVG's text content may hold.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Every `<svg>` of the page, in order.
fn inline_charts(page: &str) -> Vec<InlineChart> {
    page.split("<svg ")
        .skip(1)
        .map(|rest| {
            let svg = &rest[..rest.find("</svg>").expect("an svg ends")];
            let width = attribute(&format!(" {svg}"), "width")
                .and_then(|w| w.parse().ok())
                .expect("an svg has a width");
            let mut font_sizes = Vec::new();
            let mut texts = Vec::new();
            for text in svg.split("<text").skip(1) {
                let size = attribute(text, "font-size").and_then(|v| v.parse().ok());
                font_sizes.push(size.expect("a text has a font size"));
                let content = &text[text.find('>').unwrap() + 1..text.find("</text>").unwrap()];
                texts.push(unescape(content.trim()));
            }
            InlineChart {
                width,
                font_sizes,
                texts,
            }
        })
        .collect()
}

/// Each page's lowest inked row as a share of the page height, from a greyscale
/// rendering at 20 dpi (poppler's PGM: a text header, then one byte a pixel).
fn inked_depths(pdf: &Path, work: &Path) -> Vec<f64> {
    let prefix = work.join("depth");
    tool(
        "pdftoppm",
        &[
            "-r",
            "20",
            "-gray",
            &pdf.display().to_string(),
            &prefix.display().to_string(),
        ],
    );
    let mut pages: Vec<PathBuf> = std::fs::read_dir(work)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("depth") && name.ends_with(".pgm")
        })
        .collect();
    pages.sort();
    let depths = pages
        .iter()
        .map(|page| {
            let bytes = std::fs::read(page).unwrap();
            let mut fields = Vec::new();
            let mut at = 0;
            while fields.len() < 4 {
                while bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                let start = at;
                while !bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
            }
            assert_eq!(fields[0], "P5", "a binary greyscale PGM");
            let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
            let pixels = &bytes[at + 1..];
            let last_inked = (0..h)
                .rev()
                .find(|&y| pixels[y * w..(y + 1) * w].iter().any(|&v| v < 160))
                .map_or(0, |y| y + 1);
            last_inked as f64 / h as f64
        })
        .collect();
    for page in pages {
        std::fs::remove_file(page).unwrap();
    }
    depths
}

/// No page but the last ends in its top third: a page left near-blank by a chart or a
/// table pushed whole onto the next.
const MIN_PAGE_DEPTH: f64 = 1.0 / 3.0;

/// The texts of `chart` that print under [`MIN_CHART_TEXT_PT`] when the chart is scaled
/// down to `width` CSS pixels, with their size in points.
fn small_texts(chart: &InlineChart, width: u32) -> Vec<String> {
    let scale = (f64::from(width) / chart.width).min(1.0);
    (chart.font_sizes.iter().zip(&chart.texts))
        .map(|(size, text)| (size * scale / PX_PER_PT, text))
        .filter(|(points, _)| *points < MIN_CHART_TEXT_PT - 1e-9)
        .map(|(points, text)| format!("`{text}` at {points:.2} pt"))
        .collect()
}

/// The pages (1-based) but the last whose ink ends in their top third.
fn near_blank_pages(depths: &[f64]) -> Vec<usize> {
    (depths.iter().enumerate())
        .take(depths.len().saturating_sub(1))
        .filter(|(_, depth)| **depth < MIN_PAGE_DEPTH)
        .map(|(i, _)| i + 1)
        .collect()
}

/// The charts whose title (first text) and legend's last entry (last text) are not on
/// one page, title first; charts are looked for in page order.
fn split_charts(charts: &[InlineChart], texts: &[String]) -> Vec<String> {
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut split = Vec::new();
    let mut page = 0;
    for chart in charts {
        let (first, last) = (words(&chart.texts[0]), words(chart.texts.last().unwrap()));
        let Some(found) = (page..texts.len()).find(|&p| texts[p].contains(&first)) else {
            split.push(format!("`{first}`: on no page"));
            continue;
        };
        page = found;
        let title_at = texts[page].find(&first).unwrap();
        if !texts[page][title_at..].contains(&last) {
            split.push(format!(
                "`{first}`: its legend's last entry `{last}` is not on page {} after it",
                page + 1
            ));
        }
    }
    split
}

/// Prints one report on A4 and Letter and checks the pages, then that nothing is wider
/// than the narrower printable area.
fn check_printed(stem: &str) {
    let (dir, html) = report(stem);
    let work = dir.path();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        !page.to_lowercase().contains("<script"),
        "the report needs no script"
    );
    let sections = page.matches("<section").count();
    let figures = page.matches("<figure>").count();
    let title = page
        .split_once("<h1>")
        .and_then(|(_, rest)| rest.split_once("</h1>"))
        .map(|(t, _)| t.to_string())
        .unwrap();
    // A chart fills the printable width and so about 0.4 of a page's height: at most two
    // share a page. Each section takes at most about a page, the header one more.
    let fewest = figures.div_ceil(2).max(2);
    let most = sections + 2;
    for paper in [A4, LETTER] {
        let pdf = print(&html, &paper, work);
        let (pages, size) = pdf_info(&pdf);
        assert!(
            size.ends_with(paper.pdfinfo),
            "{stem} on {}: page size {size}",
            paper.css
        );
        assert!(
            (fewest..=most).contains(&pages),
            "{stem} on {}: {pages} pages, expected {fewest} to {most} for {sections} sections \
             and {figures} charts",
            paper.css
        );
        let texts = page_texts(&pdf);
        assert_eq!(texts.len(), pages, "{stem} on {}: text per page", paper.css);
        for (i, text) in texts.iter().enumerate() {
            assert!(
                !text.trim().is_empty(),
                "{stem} on {}: page {} is blank",
                paper.css,
                i + 1
            );
        }
        assert!(
            texts[0].contains(&title),
            "{stem} on {}: page 1 lacks the title",
            paper.css
        );
        assert!(
            texts[pages - 1].contains("Same seed and trials give the same numbers."),
            "{stem} on {}: the last page lacks the footer",
            paper.css
        );
        let near_blank = near_blank_pages(&inked_depths(&pdf, work));
        assert!(
            near_blank.is_empty(),
            "{stem} on {}: pages {near_blank:?} are near-blank (ink only in their top third)",
            paper.css
        );
        let split = split_charts(&inline_charts(&page), &texts);
        assert!(
            split.is_empty(),
            "{stem} on {}: charts split across pages:\n{}",
            paper.css,
            split.join("\n")
        );
        let prefix = work.join(format!("page1-{}", paper.css));
        tool(
            "pdftoppm",
            &[
                "-r",
                "50",
                "-f",
                "1",
                "-l",
                "1",
                "-png",
                "-singlefile",
                &pdf.display().to_string(),
                &prefix.display().to_string(),
            ],
        );
        let png = std::fs::read(prefix.with_extension("png")).unwrap();
        let expected = (
            (paper.mm.0 / 25.4 * 50.0).round() as u32,
            (paper.mm.1 / 25.4 * 50.0).round() as u32,
        );
        let (w, h) = png_size(&png);
        assert!(
            w.abs_diff(expected.0) <= 1 && h.abs_diff(expected.1) <= 1,
            "{stem} on {}: page 1 rendered at {w}x{h}, expected {expected:?}",
            paper.css
        );
        assert!(png.len() > 10_000, "{stem}: page 1 has a drawing");
    }
    let width = A4.printable_px().min(LETTER.printable_px());
    let small: Vec<String> = (inline_charts(&page).iter())
        .flat_map(|chart| small_texts(chart, width))
        .collect();
    assert!(
        small.is_empty(),
        "{stem}: chart text under {MIN_CHART_TEXT_PT} pt:\n{}",
        small.join("\n")
    );
    let (viewport, wide) = overflowing(&html, width, work, "");
    assert_eq!(
        viewport, width,
        "the measuring window is the printable width"
    );
    assert!(
        wide.is_empty(),
        "{stem}: wider than the {width}px printable area:\n{}",
        wide.join("\n")
    );
}

/// Every shipped report prints on A4 and Letter by [`check_printed`]'s rules; each
/// failure is listed with its report. Among them: the map and heatmap
/// (pf1-cover-examples), the most targets in one table (goblin-ambush), a sweep
/// (crit-fishing), and a damage chart of eleven targets, taller than a page, printed as
/// page-sized figures beside the widest rolls, "+7 vs Defense 13, 10% miss chance"
/// (d20modern-firefight).
#[test]
fn every_shipped_report_prints_on_a4_and_letter() {
    if !print_tests_enabled("every_shipped_report_prints_on_a4_and_letter") {
        return;
    }
    let mut stems: Vec<String> = std::fs::read_dir(repo().join("experiments"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    assert!(stems.len() >= 19, "{stems:?}");
    let failed: Vec<String> = (stems.iter())
        .filter_map(|stem| {
            let printed = std::panic::catch_unwind(|| check_printed(stem));
            printed.err().map(|e| {
                let message = (e.downcast_ref::<String>().cloned())
                    .or_else(|| e.downcast_ref::<&str>().map(|m| m.to_string()));
                format!("{stem}: {}", message.unwrap_or_default())
            })
        })
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn the_fight_report_prints_its_verdict_on_page_one() {
    if !print_tests_enabled("the_fight_report_prints_its_verdict_on_page_one") {
        return;
    }
    check_printed("pf1-party-vs-ogre");
    let (dir, html) = report("pf1-party-vs-ogre");
    let page = std::fs::read_to_string(&html).unwrap();
    let charts = inline_charts(&page);
    let map = &charts[0];
    assert!(map.texts[0].contains("the map"), "{}", map.texts[0]);
    for paper in [A4, LETTER] {
        let pdf = print(&html, &paper, dir.path());
        let texts = page_texts(&pdf);
        let first = &texts[0];
        for text in [
            "Verdict",
            "Winner within 8 rounds: party in",
            "Each combatant when the fight is over",
            "Fighter (F) party",
            "Goblin sniper (H) monsters",
            "The map, with everyone where they start",
            map.texts.last().unwrap().as_str(),
        ] {
            assert!(
                first.contains(text),
                "page 1 on {} lacks `{text}`:\n{first}",
                paper.css
            );
        }
        assert!(
            !first.contains("Rule readings") && texts[1].contains("Rule readings"),
            "on {} the contents open page 2",
            paper.css
        );
        let all = texts.join(" ");
        let appendix = all.rfind("Appendix: the experiment file").unwrap();
        assert!(
            all.rfind("Rule readings").unwrap() < appendix
                && all[appendix..].contains("[encounter]"),
            "on {} the experiment file is in the appendix, after the rule readings",
            paper.css
        );
    }
}

#[test]
fn the_print_checks_find_a_near_blank_page_and_a_split_chart() {
    assert_eq!(near_blank_pages(&[0.9, 0.2, 0.5, 0.1]), [2]);
    assert!(
        near_blank_pages(&[0.1]).is_empty(),
        "the last page may be short"
    );
    let chart = InlineChart {
        width: 720.0,
        font_sizes: vec![16.0, 12.0],
        texts: vec!["Ogre — who has won".into(), "exact value".into()],
    };
    let whole = ["intro Ogre — who has won 0.5 party exact value".to_string()];
    assert!(split_charts(std::slice::from_ref(&chart), &whole).is_empty());
    let split = [
        "intro Ogre — who has won 0.5".to_string(),
        "party exact value".to_string(),
    ];
    assert_eq!(split_charts(std::slice::from_ref(&chart), &split).len(), 1);
    // 12 user units in a chart 720 px wide, printed 703 px wide: 12 × 703/720 × 0.75 =
    // 8.79 pt; in a chart 960 px wide, 6.59 pt.
    assert!(small_texts(&chart, 703).is_empty());
    let wide = InlineChart {
        width: 960.0,
        ..chart
    };
    assert_eq!(small_texts(&wide, 703), ["`exact value` at 6.59 pt"]);
}

#[test]
fn the_width_measure_finds_an_element_wider_than_the_page() {
    if !print_tests_enabled("the_width_measure_finds_an_element_wider_than_the_page") {
        return;
    }
    let (dir, html) = report("ogre-corridor");
    let width = A4.printable_px();
    let (_, wide) = overflowing(
        &html,
        width,
        dir.path(),
        "<div style=\"width: 2000px\">too wide</div>",
    );
    assert!(
        wide.iter()
            .any(|w| w.starts_with("div ") && w.contains("too wide")),
        "{wide:?}"
    );
}

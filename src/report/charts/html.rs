//! The printable HTML report: one self-contained file (inline CSS, inline SVG, no
//! script, no network) built from a logic-free template, so it can be mailed,
//! archived and printed on A4 or Letter as it is.

/// The page template; `{{name}}` placeholders are filled in one pass.
const TEMPLATE: &str = include_str!("report.html");

/// Everything the report shows, already formatted by the caller.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReportInput {
    /// Experiment title.
    pub title: String,
    /// Rule system, e.g. "pf1".
    pub system: String,
    /// Seed, as shown to the user.
    pub seed: String,
    /// Trials, e.g. "1,000,000".
    pub trials: String,
    /// d20odds version, so a printed sheet says what produced it.
    pub version: String,
    /// The verdict, before the contents; in print it fills the first page alone, so it
    /// can be handed round. Empty: the contents follow the settings.
    pub verdict: Vec<PageSection>,
    /// The report body, in order.
    pub sections: Vec<PageSection>,
    /// How each rule was read (one sentence each), listed after the body.
    pub rule_readings: Vec<String>,
    /// Sections after the rule readings (the experiment file).
    pub appendix: Vec<PageSection>,
}

/// One section of the report; in print a heading stays with what follows it and a
/// chart is never split across pages.
#[derive(Debug, Clone, PartialEq)]
pub struct PageSection {
    /// Section heading, also listed in the contents.
    pub heading: String,
    /// What the section shows.
    pub content: SectionContent,
    /// The contents list names a run of consecutive sections of one group once, by the
    /// group's name (a table per target: one entry, not one per target).
    pub group: Option<&'static str>,
}

/// The body of a section.
#[derive(Debug, Clone, PartialEq)]
pub enum SectionContent {
    /// A table of pre-formatted cells.
    Table(PageTable),
    /// SVG documents produced by this module's charts, one after another: one chart, or
    /// the pages of a chart too tall to print on one, each kept whole on its page. They
    /// are trusted and inlined as they are, less their XML declarations and namespace
    /// attributes.
    Svg(Vec<String>),
    /// Text shown verbatim in a monospace block (the input file, the map).
    Preformatted(String),
    /// Short notes (what a table leaves out, what could not be computed), as a list.
    Notes(Vec<String>),
    /// One paragraph of text.
    Paragraph(String),
}

/// A table with one header row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageTable {
    /// Column headings.
    pub header: Vec<String>,
    /// Rows of cells; a row may be shorter or longer than the header.
    pub rows: Vec<Vec<String>>,
    /// Indices of the columns to right-align (numbers).
    pub numeric_columns: Vec<usize>,
}

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape_html(text: &str) -> String {
    escape(text, true)
}

/// Escapes `&`, `<` and `>` only: enough wherever text can never be inside a tag's
/// attribute (Markdown), and quotes stay readable.
pub fn escape_markup(text: &str) -> String {
    escape(text, false)
}

fn escape(text: &str, quotes: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quotes => out.push_str("&quot;"),
            '\'' if quotes => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Builds the printable report page.
pub fn report_html(input: &ReportInput) -> String {
    let body = input.sections.iter().enumerate();
    let appendix = input.appendix.iter().enumerate();
    let entry = |id: String, heading: &str| {
        format!("<li><a href=\"#{id}\">{}</a></li>\n", escape_html(heading))
    };
    let mut listed: Vec<(usize, String)> = Vec::new();
    for (i, s) in body.clone() {
        match (s.group, listed.last_mut()) {
            (Some(group), Some((first, name))) if input.sections[*first].group == Some(group) => {
                let count = i + 1 - *first;
                *name = format!("{group} ({count})");
            }
            _ => listed.push((i, s.heading.clone())),
        }
    }
    let contents: String = (listed.iter())
        .map(|(i, heading)| entry(format!("section-{}", i + 1), heading))
        .chain([entry("rule-readings".into(), "Rule readings")])
        .chain((appendix.clone()).map(|(i, s)| entry(format!("appendix-{}", i + 1), &s.heading)))
        .collect();
    let verdict: String = if input.verdict.is_empty() {
        String::new()
    } else {
        let sections: String = (input.verdict.iter().enumerate())
            .map(|(i, s)| section_html(&format!("verdict-{}", i + 1), s))
            .collect();
        format!("<div class=\"verdict\">\n{sections}</div>\n")
    };
    let sections: String = body
        .map(|(i, s)| section_html(&format!("section-{}", i + 1), s))
        .collect();
    let ending = appendix_and_footer(&input.appendix);
    let readings: String = if input.rule_readings.is_empty() {
        "<li>No rule needed interpreting.</li>".to_string()
    } else {
        list_items(&input.rule_readings)
    };
    fill(
        TEMPLATE,
        &[
            ("title", escape_html(&input.title)),
            ("system", escape_html(&input.system)),
            ("seed", escape_html(&input.seed)),
            ("trials", escape_html(&input.trials)),
            ("version", escape_html(&input.version)),
            ("verdict", verdict),
            ("contents", contents),
            ("sections", sections),
            ("rule_readings", readings),
            ("ending", ending),
        ],
    )
}

/// The page's closing words.
const FOOTER: &str = "<footer>\n<p>Probabilities are per attack made; intervals are 95%; exact \
values are shown where they could be computed. Same seed and trials give the same numbers.</p>\n\
</footer>\n";

/// Lines of a closing monospace block printed on the footer's page. Chromium does not
/// keep a footer with the end of a long `<pre>` before it (`break-before: avoid` splits
/// the footer instead), so the block's last lines and the footer are one unbreakable
/// whole (`.end`), and the last page never holds the footer alone.
const LINES_KEPT_WITH_FOOTER: usize = 6;

/// The appendix sections and the footer, the footer kept in print with the end of the
/// last section when that is a monospace block.
fn appendix_and_footer(appendix: &[PageSection]) -> String {
    let id = |i: usize| format!("appendix-{}", i + 1);
    let closing = appendix
        .split_last()
        .and_then(|(last, before)| match &last.content {
            SectionContent::Preformatted(text) => Some((before, last, text)),
            _ => None,
        });
    let whole = closing.map_or(appendix, |(before, _, _)| before);
    let mut out: String = (whole.iter().enumerate())
        .map(|(i, s)| section_html(&id(i), s))
        .collect();
    let Some((_, last, text)) = closing else {
        out.push_str(&format!("<div class=\"end\">\n{FOOTER}</div>\n"));
        return out;
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let cut = lines.len().saturating_sub(LINES_KEPT_WITH_FOOTER);
    let (first, rest) = (lines[..cut].concat(), lines[cut..].concat());
    // A block after a cut one goes on from it: no edge between the two.
    let (first, rest_class) = if first.is_empty() {
        (String::new(), "")
    } else {
        (
            format!("<pre class=\"cut\">\n{}</pre>\n", escape_html(&first)),
            " class=\"continued\"",
        )
    };
    let body = format!(
        "{first}<div class=\"end\">\n<pre{rest_class}>\n{}</pre>\n{FOOTER}</div>",
        escape_html(&rest)
    );
    out.push_str(&section_with(&id(whole.len()), &last.heading, &body));
    out
}

/// What opens and closes a placeholder's name in the template.
const PLACEHOLDER_OPEN: &str = "{{";
const PLACEHOLDER_CLOSE: &str = "}}";

/// Replaces each `{{name}}` of the template with its value in a single pass, so a
/// value that itself contains `{{…}}` is never expanded. Unknown names stay as they are.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find(PLACEHOLDER_OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + PLACEHOLDER_OPEN.len()..];
        let value = after.find(PLACEHOLDER_CLOSE).and_then(|end| {
            values
                .iter()
                .find(|(name, _)| *name == &after[..end])
                .map(|(_, v)| (end, v))
        });
        match value {
            Some((end, v)) => {
                out.push_str(v);
                rest = &after[end + PLACEHOLDER_CLOSE.len()..];
            }
            None => {
                out.push_str(PLACEHOLDER_OPEN);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// One chart, inlined, as a figure the printed page does not break.
fn figure_html(svg: &str) -> String {
    format!("<figure>\n{}\n</figure>", inline_svg(svg))
}

fn section_html(id: &str, section: &PageSection) -> String {
    let body = match &section.content {
        SectionContent::Table(t) => table_html(t),
        SectionContent::Svg(svgs) => (svgs.iter().map(|svg| figure_html(svg)))
            .collect::<Vec<_>>()
            .join("\n"),
        // The parser drops a newline right after `<pre>`: this one, never the text's own.
        SectionContent::Preformatted(text) => format!("<pre>\n{}</pre>", escape_html(text)),
        SectionContent::Notes(notes) => {
            format!("<ul class=\"notes\">\n{}</ul>", list_items(notes))
        }
        SectionContent::Paragraph(text) => format!("<p>{}</p>", escape_html(text)),
    };
    section_with(id, &section.heading, &body)
}

/// A section of the page: its heading, then `body` (HTML).
fn section_with(id: &str, heading: &str, body: &str) -> String {
    format!(
        "<section id=\"{id}\">\n<h2>{}</h2>\n{body}\n</section>\n",
        escape_html(heading)
    )
}

/// One escaped `<li>` per text, its `code` spans set as code (as summary.md shows them).
fn list_items(texts: &[String]) -> String {
    texts
        .iter()
        .map(|t| format!("<li>{}</li>\n", code_spans(&escape_html(t))))
        .collect()
}

/// Escaped `text` with each pair of backticks made a `<code>` element; a text with an odd
/// number of backticks keeps them all as they are.
fn code_spans(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + parts.len() * 8);
    for (at, part) in parts.iter().enumerate() {
        match at % 2 {
            1 => out.push_str(&format!("<code>{part}</code>")),
            _ => out.push_str(part),
        }
    }
    out
}

/// Tables with more columns than this get the "wide" style: smaller type and
/// headings turned sideways, so the columns are as narrow as their numbers.
const WIDE_COLUMNS: usize = 10;

fn table_html(table: &PageTable) -> String {
    let class = |i: usize| {
        if table.numeric_columns.contains(&i) {
            " class=\"num\""
        } else {
            ""
        }
    };
    let columns = table
        .rows
        .iter()
        .map(Vec::len)
        .chain([table.header.len()])
        .max()
        .unwrap_or(0);
    let mut out = String::from(if columns > WIDE_COLUMNS {
        "<div class=\"table\"><table class=\"wide\">\n<thead><tr>"
    } else {
        "<div class=\"table\"><table>\n<thead><tr>"
    });
    for (i, h) in table.header.iter().enumerate() {
        // Column names like `effective_bonus` may break after an underscore.
        let heading = escape_html(h).replace('_', "_<wbr>");
        out.push_str(&format!("<th{}><span>{heading}</span></th>", class(i)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    if table.rows.is_empty() {
        out.push_str(&format!(
            "<tr><td class=\"empty\" colspan=\"{}\">no rows</td></tr>\n",
            table.header.len().max(1)
        ));
    }
    for row in &table.rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let text = match table.numeric_columns.contains(&i) {
                true => number_html(cell),
                false => escape_html(cell),
            };
            out.push_str(&format!("<td{}>{text}</td>", class(i)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>");
    out
}

/// A numeric cell, escaped, where a lopsided interval's reaches may go to a line of their
/// own: the cell keeps to one line (`td.num`) but for the space before them, so a table
/// too wide for the page wraps them under the point rather than overflow.
fn number_html(cell: &str) -> String {
    match split_reaches(cell) {
        Some((before, above, below, after)) => format!(
            "{}<span class=\"reach\"> +{}/−{}</span>{}",
            escape_html(before.trim_end()),
            escape_html(above),
            escape_html(below),
            escape_html(after)
        ),
        None => escape_html(cell),
    }
}

/// A cell with a lopsided interval's two reaches written out (`0.0010 +0.0046/−0.0008`,
/// the summary's notation where an interval reaches further on one side): the text
/// before them, the reach above, the reach below and the text after.
fn split_reaches(text: &str) -> Option<(&str, &str, &str, &str)> {
    let slash = text.find("/−")?;
    let plus = text[..slash].rfind('+')?;
    let below_at = slash + "/−".len();
    let below_len = text[below_at..]
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len() - below_at);
    let below_end = below_at + below_len;
    Some((
        &text[..plus],
        &text[plus + 1..slash],
        &text[below_at..below_end],
        &text[below_end..],
    ))
}

/// Prepares an SVG document for inline use: HTML gives `<svg>` its namespace
/// itself, so the XML declaration and namespace attributes (the page's only URLs)
/// are dropped.
fn inline_svg(svg: &str) -> String {
    let body = svg.trim_start();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => rest
            .split_once("?>")
            .map_or("", |(_, after)| after)
            .trim_start(),
        None => body,
    };
    body.replace(" xmlns=\"http://www.w3.org/2000/svg\"", "")
        .replace(" xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lopsided_reaches_split_out_of_a_cell() {
        assert_eq!(
            split_reaches("0.0010 +0.0046/−0.0008 (0.0012)"),
            Some(("0.0010 ", "0.0046", "0.0008", " (0.0012)"))
        );
        assert_eq!(
            split_reaches("0.0000 +0.2425/−0.0000"),
            Some(("0.0000 ", "0.2425", "0.0000", ""))
        );
        assert_eq!(split_reaches("0.5000 ±0.0309"), None);
        assert_eq!(
            number_html("0.0010 +0.0046/−0.0008"),
            "0.0010<span class=\"reach\"> +0.0046/−0.0008</span>"
        );
    }

    fn sample() -> ReportInput {
        ReportInput {
            title: "Ogre <in> the \"corridor\" & {{seed}}".into(),
            system: "pf1".into(),
            seed: "7".into(),
            trials: "1,000,000".into(),
            version: "0.1.0".into(),
            sections: vec![
                PageSection {
                    heading: "Summary".into(),
                    content: SectionContent::Table(PageTable {
                        header: vec!["attack".into(), "P(hit)".into()],
                        rows: vec![
                            vec!["F → O: longsword #1".into(), "0.9501 ±0.0003".into()],
                            vec!["F → O: longsword <#2>".into(), "0.7502 ±0.0006".into()],
                        ],
                        numeric_columns: vec![1],
                    }),
                    group: None,
                },
                PageSection {
                    heading: "Map".into(),
                    content: SectionContent::Preformatted("#####\n#F<O#\n#####".into()),
                    group: None,
                },
                PageSection {
                    heading: "Notes".into(),
                    content: SectionContent::Notes(vec!["Exact <values> not computed.".into()]),
                    group: None,
                },
                PageSection {
                    heading: "Chart".into(),
                    content: SectionContent::Svg(vec![
                        "<?xml version=\"1.0\"?>\n<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"5\" height=\"5\"/></svg>"
                            .into(),
                    ]),
                    group: None,
                },
            ],
            rule_readings: vec!["Soft cover: +4 AC against ranged attacks only.".into()],
            verdict: vec![PageSection {
                heading: "Verdict".into(),
                content: SectionContent::Paragraph("The party <wins>.".into()),
                group: None,
            }],
            appendix: vec![PageSection {
                heading: "Appendix: experiment file".into(),
                content: SectionContent::Preformatted("seed = 7".into()),
                group: None,
            }],
        }
    }

    #[test]
    fn the_last_lines_of_the_file_print_with_the_footer_and_the_rest_before_them() {
        let text: String = (1..=10).map(|i| format!("line {i}\n")).collect();
        let mut input = sample();
        input.appendix[0].content = SectionContent::Preformatted(text);
        let page = report_html(&input);
        assert!(page.contains(
            "<pre class=\"cut\">\nline 1\nline 2\nline 3\nline 4\n</pre>\n<div class=\"end\">\n\
             <pre class=\"continued\">\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n</pre>\n\
             <footer>"
        ));
        assert!(page.contains("</footer>\n</div>\n</section>\n</body>"));
        input.appendix.clear();
        let bare = report_html(&input);
        assert!(bare.contains("</section>\n<div class=\"end\">\n<footer>"));
        assert!(!bare.contains("<pre class=\"cut\">"));
    }

    #[test]
    fn the_verdict_comes_before_the_contents_and_the_appendix_after_the_rule_readings() {
        let page = report_html(&sample());
        let at = |text: &str| page.find(text).unwrap_or_else(|| panic!("{text}"));
        assert!(page.contains("<div class=\"verdict\">\n<section id=\"verdict-1\">"));
        assert!(page.contains("<p>The party &lt;wins&gt;.</p>"));
        assert!(at("The party &lt;wins&gt;.") < at("<nav>"));
        assert!(at("<h2>Rule readings</h2>") < at("<h2>Appendix: experiment file</h2>"));
        assert!(at("<h2>Appendix: experiment file</h2>") < at("<footer>"));
        assert!(page.contains("<a href=\"#appendix-1\">Appendix: experiment file</a>"));
        assert!(
            page.contains("<div class=\"end\">\n<pre>\nseed = 7</pre>\n<footer>"),
            "a short file stays whole, a block of its own, on the footer's page"
        );
        assert!(
            !page.contains("#verdict-1"),
            "the contents do not list the verdict"
        );
        let plain = report_html(&ReportInput::default());
        assert!(!plain.contains("class=\"verdict\""));
    }

    /// Three tables of one group between two sections of none: the contents lists the
    /// group once, by its name and count, linking to its first table; the page still
    /// heads each table with its own heading. Then one table of a group, alone: its own
    /// heading.
    #[test]
    fn the_contents_lists_a_run_of_one_group_once() {
        let table = |heading: &str, group| PageSection {
            heading: heading.into(),
            content: SectionContent::Paragraph(heading.into()),
            group,
        };
        let damage = Some("Damage, per target");
        let mut input = sample();
        input.sections = vec![
            table("Map", None),
            table("Damage: A", damage),
            table("Damage: B", damage),
            table("Damage: C", damage),
            table("Notes", None),
        ];
        let page = report_html(&input);
        let contents = &page[page.find("<nav>").unwrap()..page.find("</nav>").unwrap()];
        let entries: Vec<&str> = (contents.split("<li>").skip(1))
            .map(|e| e.split('>').nth(1).unwrap().trim_end_matches("</a"))
            .collect();
        assert_eq!(entries[..3], ["Map", "Damage, per target (3)", "Notes"]);
        assert!(contents.contains("<a href=\"#section-2\">Damage, per target (3)</a>"));
        assert!(page.contains("<h2>Damage: B</h2>") && page.contains("<h2>Damage: C</h2>"));
        input.sections.truncate(2);
        let page = report_html(&input);
        assert!(page.contains("<a href=\"#section-2\">Damage: A</a>"));
    }

    #[test]
    fn escapes_every_special_character() {
        assert_eq!(
            escape_html("a<b>&\"c\"'d'"),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;"
        );
        assert_eq!(escape_html("plain → text"), "plain → text");
        assert_eq!(escape_html(""), "");
    }

    /// Each pair of backticks in a note becomes code, its text escaped like the rest; an
    /// odd backtick leaves the note's backticks as they are.
    #[test]
    fn notes_set_their_backticked_words_as_code() {
        let notes = [
            "the map's `improved` square, `d20odds check`".to_string(),
            "`<b>` & `x`".to_string(),
            "one ` alone, `two`".to_string(),
        ];
        assert_eq!(
            list_items(&notes),
            "<li>the map&#39;s <code>improved</code> square, <code>d20odds check</code></li>\n\
             <li><code>&lt;b&gt;</code> &amp; <code>x</code></li>\n\
             <li>one ` alone, `two`</li>\n"
        );
    }

    #[test]
    fn fill_is_single_pass() {
        let out = fill(
            "{{a}} {{b}} {{c",
            &[("a", "{{b}}".into()), ("b", "x".into())],
        );
        assert_eq!(out, "{{b}} x {{c");
        assert_eq!(fill("{{unknown}}", &[]), "{{unknown}}");
    }

    #[test]
    fn page_holds_every_heading_row_and_inline_svg() {
        let page = report_html(&sample());
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<h1>Ogre &lt;in&gt; the &quot;corridor&quot; &amp; {{seed}}</h1>"));
        for heading in ["Summary", "Map", "Notes", "Chart", "Rule readings"] {
            assert!(page.contains(&format!(">{heading}</h2>")), "{heading}");
        }
        assert!(page.contains(
            "<tr><td>F → O: longsword #1</td><td class=\"num\">0.9501 ±0.0003</td></tr>"
        ));
        assert!(page.contains("<td>F → O: longsword &lt;#2&gt;</td>"));
        assert!(page.contains("<th class=\"num\"><span>P(hit)</span></th>"));
        assert!(page.contains("<pre>\n#####\n#F&lt;O#\n#####</pre>"));
        assert!(
            page.contains(
                "<ul class=\"notes\">\n<li>Exact &lt;values&gt; not computed.</li>\n</ul>"
            )
        );
        assert!(
            page.contains("<figure>\n<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\"><rect")
        );
        assert!(page.contains("<li>Soft cover: +4 AC against ranged attacks only.</li>"));
        assert!(page.contains("trials <b>1,000,000</b>"));
        assert!(!page.contains("<?xml"));
        // Only the title's own text (in <title> and <h1>) has braces: no placeholder is left.
        assert_eq!(page.matches("{{").count(), 2);
        let lower = page.to_lowercase();
        assert!(!lower.contains("<script"));
        assert!(
            !lower.contains("http"),
            "the page must not reference any URL"
        );
        assert!(!lower.contains("<link") && !lower.contains("@import") && !lower.contains("src="));
    }

    #[test]
    fn print_rules_are_present() {
        let page = report_html(&ReportInput::default());
        for rule in [
            "@page { size: auto; margin: 12mm; }",
            "@media print",
            "break-after: avoid",
            "figure { break-inside: avoid; }",
            ".verdict { break-after: page; }",
            "tr { break-inside: avoid; }",
            "max-width: 100%",
        ] {
            assert!(page.contains(rule), "{rule}");
        }
        assert!(page.contains("No rule needed interpreting."));
    }

    #[test]
    fn wide_tables_are_marked_and_headers_may_break_at_underscores() {
        let html = table_html(&PageTable {
            header: (0..11).map(|i| format!("p_hit_{i}")).collect(),
            ..PageTable::default()
        });
        assert!(html.contains("<table class=\"wide\">"));
        assert!(html.contains("<th><span>p_<wbr>hit_<wbr>0</span></th>"));
    }

    #[test]
    fn empty_tables_say_so() {
        let html = table_html(&PageTable {
            header: vec!["a".into(), "b".into()],
            ..PageTable::default()
        });
        assert!(html.contains("colspan=\"2\">no rows</td>"));
    }
}

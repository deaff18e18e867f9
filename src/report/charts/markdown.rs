//! A short Markdown summary (title, settings and the tables) for pasting into
//! forums, wikis and chats, where charts and the full report do not fit.

use super::html::{PageTable, ReportInput, SectionContent, escape_markup};

/// Builds the Markdown summary: title, one settings line, then every table
/// section as a pipe table and every notes section as a list. Charts and
/// preformatted blocks are left out.
pub fn summary_markdown(input: &ReportInput) -> String {
    let mut out = format!(
        "# {}\n\nsystem **{}** · seed **{}** · trials **{}** · d20odds {}\n",
        inline(&input.title),
        inline(&input.system),
        inline(&input.seed),
        inline(&input.trials),
        inline(&input.version)
    );
    for section in &input.sections {
        let body = match &section.content {
            SectionContent::Table(table) => pipe_table(table),
            SectionContent::Notes(notes) => {
                notes.iter().map(|n| format!("- {}\n", inline(n))).collect()
            }
            SectionContent::Paragraph(text) => format!("{}\n", inline(text)),
            SectionContent::Svg(_) | SectionContent::Preformatted(_) => {
                continue;
            }
        };
        out.push_str(&format!("\n## {}\n\n{body}", inline(&section.heading)));
    }
    out
}

/// Keeps text on one line and escapes `&`, `<` and `>`, so a value (a combatant named
/// `<script>`) can never break the document structure nor reach a Markdown renderer as
/// markup. Quotes stay as written: outside a tag they are plain text, and `&#39;` would
/// show as such to anyone reading the file itself.
fn inline(text: &str) -> String {
    escape_markup(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Escapes a table cell: pipes would end the cell and backslashes could escape them.
fn cell(text: &str) -> String {
    inline(text).replace('\\', "\\\\").replace('|', "\\|")
}

fn pipe_table(table: &PageTable) -> String {
    let columns = table
        .rows
        .iter()
        .map(Vec::len)
        .chain(std::iter::once(table.header.len()))
        .max()
        .unwrap_or(0)
        .max(1);
    let row = |cells: &[String]| {
        let texts: Vec<String> = (0..columns)
            .map(|i| cells.get(i).map_or_else(String::new, |c| cell(c)))
            .collect();
        format!("| {} |\n", texts.join(" | "))
    };
    let rule: Vec<&str> = (0..columns)
        .map(|i| {
            if table.numeric_columns.contains(&i) {
                "---:"
            } else {
                "---"
            }
        })
        .collect();
    let mut out = row(&table.header);
    out.push_str(&format!("| {} |\n", rule.join(" | ")));
    for r in &table.rows {
        out.push_str(&row(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::html::PageSection;
    use super::*;

    #[test]
    fn html_in_names_is_escaped() {
        let input = ReportInput {
            title: "<script>alert(1)</script>".into(),
            system: "pf1".into(),
            seed: "7".into(),
            trials: "1".into(),
            version: "0.1.0".into(),
            sections: vec![PageSection {
                heading: "Summary".into(),
                content: SectionContent::Table(PageTable {
                    header: vec!["attack".into()],
                    rows: vec![vec!["<img src=x onerror=alert(1)>".into()]],
                    numeric_columns: vec![],
                }),
                group: None,
            }],
            rule_readings: vec![],
            ..ReportInput::default()
        };
        let markdown = summary_markdown(&input);
        assert!(!markdown.contains('<'), "{markdown}");
        assert!(markdown.contains("&lt;script&gt;"), "{markdown}");
        assert!(
            markdown.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{markdown}"
        );
    }

    #[test]
    fn quotes_and_apostrophes_stay_as_written() {
        assert_eq!(
            inline("the orc's \"axe\" & <b>"),
            "the orc's \"axe\" &amp; &lt;b&gt;"
        );
    }

    #[test]
    fn tables_become_pipe_tables_and_charts_are_left_out() {
        let input = ReportInput {
            title: "Ogre\nin the corridor".into(),
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
                            vec!["a|b \\ c".into(), "0.95".into(), "extra".into()],
                            vec!["short".into()],
                        ],
                        numeric_columns: vec![1],
                    }),
                    group: None,
                },
                PageSection {
                    heading: "Chart".into(),
                    content: SectionContent::Svg(vec!["<svg/>".into()]),
                    group: None,
                },
                PageSection {
                    heading: "Notes".into(),
                    content: SectionContent::Notes(vec!["one\nline".into(), "two".into()]),
                    group: None,
                },
            ],
            rule_readings: vec![],
            ..ReportInput::default()
        };
        let md = summary_markdown(&input);
        let expected = "# Ogre in the corridor\n\n\
            system **pf1** · seed **7** · trials **1,000,000** · d20odds 0.1.0\n\n\
            ## Summary\n\n\
            | attack | P(hit) |  |\n\
            | --- | ---: | --- |\n\
            | a\\|b \\\\ c | 0.95 | extra |\n\
            | short |  |  |\n\n\
            ## Notes\n\n\
            - one line\n\
            - two\n";
        assert_eq!(md, expected);
        assert!(!md.contains("svg"));
    }
}

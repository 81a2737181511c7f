//! `remindbot-dev readings`: how often the bot reads a message as a person expects. A corpus
//! holds realistic messages, each with the reading its writer expected (written without looking
//! at the parser); this reads every message as a chat would and counts where the due time, the
//! repeat and the task text agree. docs/benchmarks.md quotes its figures; they can be read again
//! from any commit that has the corpus.

mod case;
mod read;
mod tally;
mod verdict;

use std::path::{Path, PathBuf};

use anyhow::Context;

pub use case::{Case, CaseError, ExpectedDue};
pub use read::{Reading, Task, describe, read};
pub use tally::Tally;
pub use verdict::{DueVerdict, Verdict};

/// The corpus committed with the project.
pub const CORPUS_DIR: &str = "tests/fixtures/readings";

/// `remindbot-dev readings`' arguments.
#[derive(Debug, clap::Args)]
pub struct ReadingsArgs {
    /// Corpus files (`LANG|ZONE|NOW|MESSAGE|DUE|REPEAT|TEXT` lines); the committed corpus when
    /// none is given.
    pub files: Vec<PathBuf>,
    /// Print every message's reading, not only those that differ from the expectation.
    #[arg(long)]
    pub all: bool,
}

/// Reads every non-empty, non-comment line of `path`.
pub fn load(path: &Path) -> anyhow::Result<Vec<Case>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| Ok(Case::parse(line, format!("{name}:{}", index + 1))?))
        .collect()
}

/// The committed corpus's files, in name order.
pub fn corpus_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .map(|entry| Ok(entry?.path()))
        .collect::<anyhow::Result<_>>()?;
    files.retain(|path| path.extension().is_some_and(|ext| ext == "tsv"));
    files.sort();
    Ok(files)
}

/// Runs the command: prints each message that differs (or every one with `--all`), then a
/// tally per file and for all.
pub fn run(args: ReadingsArgs) -> anyhow::Result<()> {
    let files = if args.files.is_empty() {
        corpus_files(Path::new(CORPUS_DIR))?
    } else {
        args.files
    };
    let mut total = Tally::default();
    for file in &files {
        let mut tally = Tally::default();
        for case in load(file)? {
            let reading = read(&case);
            let verdict = Verdict::of(&case, &reading);
            tally.add(verdict, case.known().is_some());
            if args.all || !verdict.all_agree() {
                println!("{}", report(&case, &reading, verdict));
            }
        }
        println!("{}", tally.line(&file.display().to_string()));
        total += tally;
    }
    println!("{}", total.line("all"));
    Ok(())
}

/// One message's report: what was expected, what was read, and which parts differ.
fn report(case: &Case, reading: &Reading, verdict: Verdict) -> String {
    let mut marks = verdict.marks();
    if case.known().is_some() && !verdict.reads_right() {
        marks.insert(0, "known");
    }
    let marks = marks.join(",");
    let read = match reading {
        Reading::Asks => "asks when".to_owned(),
        Reading::Refused(why) => format!("refuses: {why}"),
        Reading::Task(task) => format!(
            "{}{}{}{} | {} | {}{}",
            task.due.format(case::TIME_FORMAT),
            task.lead_minutes
                .map(|minutes| format!(" (lead {minutes} min)"))
                .unwrap_or_default(),
            task.second
                .map(|at| format!(" + {}", at.format(case::TIME_FORMAT)))
                .unwrap_or_default(),
            task.other_reading
                .map(|at| format!(" [button {}]", at.format(case::TIME_FORMAT)))
                .unwrap_or_default(),
            task.repeat,
            task.text,
            if task.said.is_empty() {
                String::new()
            } else {
                format!(" | says {}", task.said.join("; "))
            },
        ),
    };
    format!(
        "{} [{}] {} {} {}: {}\n    expected {:?} | {} | {}\n    read     {read}",
        case.origin,
        if marks.is_empty() { "ok" } else { &marks },
        case.lang.as_str(),
        case.zone,
        case.now.format(case::TIME_FORMAT),
        case.message,
        case.due,
        case.repeat,
        case.text,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message of the committed corpus is due when, and repeats as, its writer expected,
    /// and keeps the text expected, but for those marked `known:` (or `text:` for the text
    /// alone), each saying why it is left so: a change to the parser that reads one of them
    /// differently fails here, with the message and both readings.
    #[test]
    fn the_committed_corpus_reads_as_expected_but_for_its_known_lines_and_no_note_is_stale() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(CORPUS_DIR);
        let files = corpus_files(&dir).unwrap();
        assert!(!files.is_empty());
        let mut wrong = Vec::new();
        for file in files {
            let cases = load(&file).unwrap();
            assert!(!cases.is_empty(), "{} is empty", file.display());
            for case in cases {
                let reading = read(&case);
                let verdict = Verdict::of(&case, &reading);
                let text_left = case.known().is_some() || case.text_known().is_some();
                if (!verdict.reads_right() && case.known().is_none())
                    || (!verdict.text_agrees && !text_left)
                {
                    wrong.push(report(&case, &reading, verdict));
                }
                // A note that says why a reading is left must not outlive the fix.
                if verdict.all_agree() && text_left {
                    wrong.push(format!(
                        "{}: reads as expected now; drop its note",
                        case.origin
                    ));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}

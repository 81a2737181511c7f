//! Bot commands: reading them from a message (in groups only those addressed to this bot) and
//! publishing the command menu in each language with setMyCommands.

use teloxide::prelude::*;
use teloxide::types::BotCommand;

use crate::domain::lang::Lang;
use crate::i18n::Tr;

/// A command and its argument text (trimmed, possibly empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Greet, set the language, ask the time zone.
    Start,
    /// How to use the bot.
    Help,
    /// Add a task: text and time.
    Add(String),
    /// The open tasks.
    List,
    /// Finish a task by id.
    Done(String),
    /// Delete a task by id.
    Delete(String),
    /// Change the language.
    Lang(String),
    /// Change the time zone.
    Tz(String),
    /// Show or change the default lead time.
    Settings(String),
    /// Close the question the bot is waiting to have answered.
    Cancel,
    /// The open tasks as files: a calendar (.ics) and a table (.csv).
    Export,
    /// The secret URL of the chat's calendar feed; `new` replaces it (the old one stops working).
    Calendar(String),
    /// Admins: the failed reminders, a page at a time (the argument is the page).
    Failed(String),
    /// Admins: return a failed reminder (an id) or all of them (`all`) to the queue.
    Retry(String),
    /// Admins: the queue's health.
    Stats,
    /// Show, set (a local time) or turn off (`off`) the morning agenda.
    Agenda(String),
    /// Pause a repeat by task id.
    Pause(String),
    /// Resume a paused repeat by task id.
    Resume(String),
    /// A command the bot does not have.
    Unknown,
}

/// What a message is to the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Plain text (a task, or the answer to a question).
    Text,
    /// A command for this bot.
    Command(Command),
    /// A command addressed to another bot (`/start@other_bot`): not ours to answer.
    OtherBot,
}

/// One command: the names it answers to (the first is the one the menu shows), the key of its
/// description in the menu (none for the admins' commands, which stay out of the menu), and the
/// command it reads into from its argument text.
struct Entry {
    names: &'static [&'static str],
    menu: Option<&'static str>,
    read: fn(String) -> Command,
}

/// Every command the bot reads, in the menu's order: [`parse`] and [`menu`] both read this one
/// list, so a command cannot be read without being listed (or listed without being read).
const COMMANDS: [Entry; 18] = [
    Entry {
        names: &["add", "new"],
        menu: Some("cmd-add"),
        read: Command::Add,
    },
    Entry {
        names: &["list", "tasks"],
        menu: Some("cmd-list"),
        read: |_| Command::List,
    },
    Entry {
        names: &["done"],
        menu: Some("cmd-done"),
        read: Command::Done,
    },
    Entry {
        names: &["delete", "del"],
        menu: Some("cmd-delete"),
        read: Command::Delete,
    },
    Entry {
        names: &["agenda"],
        menu: Some("cmd-agenda"),
        read: Command::Agenda,
    },
    Entry {
        names: &["export"],
        menu: Some("cmd-export"),
        read: |_| Command::Export,
    },
    Entry {
        names: &["calendar"],
        menu: Some("cmd-calendar"),
        read: Command::Calendar,
    },
    Entry {
        names: &["settings"],
        menu: Some("cmd-settings"),
        read: Command::Settings,
    },
    Entry {
        names: &["tz", "timezone"],
        menu: Some("cmd-tz"),
        read: Command::Tz,
    },
    Entry {
        names: &["lang", "language"],
        menu: Some("cmd-lang"),
        read: Command::Lang,
    },
    Entry {
        names: &["help"],
        menu: Some("cmd-help"),
        read: |_| Command::Help,
    },
    Entry {
        names: &["start"],
        menu: Some("cmd-start"),
        read: |_| Command::Start,
    },
    Entry {
        names: &["cancel"],
        menu: Some("cmd-cancel"),
        read: |_| Command::Cancel,
    },
    Entry {
        names: &["pause"],
        menu: Some("cmd-pause"),
        read: Command::Pause,
    },
    Entry {
        names: &["resume"],
        menu: Some("cmd-resume"),
        read: Command::Resume,
    },
    Entry {
        names: &["failed"],
        menu: None,
        read: Command::Failed,
    },
    Entry {
        names: &["retry"],
        menu: None,
        read: Command::Retry,
    },
    Entry {
        names: &["stats"],
        menu: None,
        read: |_| Command::Stats,
    },
];

/// Reads `text` (a message) for a bot named `bot_username` (without `@`).
pub fn parse(text: &str, bot_username: &str) -> Input {
    let Some(rest) = text.strip_prefix('/') else {
        return Input::Text;
    };
    let (head, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (name, addressee) = head.split_once('@').unwrap_or((head, ""));
    if !addressee.is_empty() && !addressee.eq_ignore_ascii_case(bot_username) {
        return Input::OtherBot;
    }
    let args = args.trim().to_owned();
    let name = name.to_ascii_lowercase();
    Input::Command(
        COMMANDS
            .iter()
            .find(|entry| entry.names.contains(&name.as_str()))
            .map_or(Command::Unknown, |entry| (entry.read)(args)),
    )
}

/// The command menu in `lang`.
pub fn menu(lang: Lang) -> Vec<BotCommand> {
    let tr = Tr::new(lang);
    COMMANDS
        .iter()
        .filter_map(|entry| Some(BotCommand::new(entry.names[0], tr.t(entry.menu?))))
        .collect()
}

/// Publishes the menu: English as the default, and each language for users of that language.
#[tracing::instrument(skip_all)]
pub async fn publish(bot: &Bot) -> Result<(), teloxide::RequestError> {
    bot.set_my_commands(menu(Lang::En)).await?;
    for lang in Lang::ALL {
        bot.set_my_commands(menu(lang))
            .language_code(lang.as_str())
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_with_their_arguments_and_addressee() {
        let bot = "remind_bot";
        assert_eq!(parse("hello", bot), Input::Text);
        assert_eq!(
            parse("/add pay rent tomorrow", bot),
            Input::Command(Command::Add("pay rent tomorrow".into()))
        );
        assert_eq!(
            parse("/done@Remind_Bot  12 ", bot),
            Input::Command(Command::Done("12".into()))
        );
        assert_eq!(parse("/start@other_bot", bot), Input::OtherBot);
        assert_eq!(parse("/frobnicate", bot), Input::Command(Command::Unknown));
        assert_eq!(parse("/", bot), Input::Command(Command::Unknown));
        assert_eq!(
            parse("/agenda 8:00", bot),
            Input::Command(Command::Agenda("8:00".into()))
        );
        assert_eq!(
            parse("/calendar new", bot),
            Input::Command(Command::Calendar("new".into()))
        );
    }

    /// One of each command; the match makes a new variant fail to compile here until it is added.
    fn one_of_each() -> Vec<Command> {
        let all = vec![
            Command::Start,
            Command::Help,
            Command::Add(String::new()),
            Command::List,
            Command::Done(String::new()),
            Command::Delete(String::new()),
            Command::Lang(String::new()),
            Command::Tz(String::new()),
            Command::Settings(String::new()),
            Command::Cancel,
            Command::Export,
            Command::Calendar(String::new()),
            Command::Failed(String::new()),
            Command::Retry(String::new()),
            Command::Stats,
            Command::Agenda(String::new()),
            Command::Pause(String::new()),
            Command::Resume(String::new()),
            Command::Unknown,
        ];
        for command in &all {
            match command {
                Command::Start
                | Command::Help
                | Command::Add(_)
                | Command::List
                | Command::Done(_)
                | Command::Delete(_)
                | Command::Lang(_)
                | Command::Tz(_)
                | Command::Settings(_)
                | Command::Cancel
                | Command::Export
                | Command::Calendar(_)
                | Command::Failed(_)
                | Command::Retry(_)
                | Command::Stats
                | Command::Agenda(_)
                | Command::Pause(_)
                | Command::Resume(_)
                | Command::Unknown => {}
            }
        }
        all
    }

    #[test]
    fn every_command_is_read_by_its_names_and_in_the_menu_unless_for_admins() {
        let admins_only = ["failed", "retry", "stats"];
        let menu: Vec<String> = menu(Lang::En).into_iter().map(|c| c.command).collect();
        for command in one_of_each() {
            if command == Command::Unknown {
                continue;
            }
            let entries: Vec<&Entry> = COMMANDS
                .iter()
                .filter(|entry| {
                    std::mem::discriminant(&(entry.read)(String::new()))
                        == std::mem::discriminant(&command)
                })
                .collect();
            assert_eq!(entries.len(), 1, "{command:?} is listed once in COMMANDS");
            let entry = entries[0];
            for name in entry.names {
                assert_eq!(
                    std::mem::discriminant(&as_command(&format!("/{name}"))),
                    std::mem::discriminant(&command),
                    "/{name}"
                );
            }
            let shown = menu.iter().any(|shown| shown == entry.names[0]);
            assert_eq!(
                shown,
                !admins_only.contains(&entry.names[0]),
                "{command:?}: in the menu unless it is for admins"
            );
        }
    }

    fn as_command(text: &str) -> Command {
        match parse(text, "remind_bot") {
            Input::Command(command) => command,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn every_menu_entry_fits_telegram() {
        for lang in Lang::ALL {
            for command in menu(lang) {
                assert!((1..=256).contains(&command.description.chars().count()));
                assert!(!command.description.starts_with("cmd-"), "{lang:?}");
            }
        }
    }
}

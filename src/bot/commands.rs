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

/// The commands in the menu, with the key of their description.
const MENU: [(&str, &str); 12] = [
    ("add", "cmd-add"),
    ("list", "cmd-list"),
    ("done", "cmd-done"),
    ("delete", "cmd-delete"),
    ("agenda", "cmd-agenda"),
    ("export", "cmd-export"),
    ("settings", "cmd-settings"),
    ("tz", "cmd-tz"),
    ("lang", "cmd-lang"),
    ("help", "cmd-help"),
    ("start", "cmd-start"),
    ("cancel", "cmd-cancel"),
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
    Input::Command(match name.to_ascii_lowercase().as_str() {
        "start" => Command::Start,
        "help" => Command::Help,
        "add" | "new" => Command::Add(args),
        "list" | "tasks" => Command::List,
        "done" => Command::Done(args),
        "delete" | "del" => Command::Delete(args),
        "lang" | "language" => Command::Lang(args),
        "tz" | "timezone" => Command::Tz(args),
        "settings" => Command::Settings(args),
        "export" => Command::Export,
        "failed" => Command::Failed(args),
        "retry" => Command::Retry(args),
        "stats" => Command::Stats,
        "cancel" => Command::Cancel,
        "agenda" => Command::Agenda(args),
        "pause" => Command::Pause(args),
        "resume" => Command::Resume(args),
        _ => Command::Unknown,
    })
}

/// The command menu in `lang`.
pub fn menu(lang: Lang) -> Vec<BotCommand> {
    let tr = Tr::new(lang);
    MENU.iter()
        .map(|(name, key)| BotCommand::new(*name, tr.t(key)))
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

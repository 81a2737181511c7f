//! The simulated users at the terminal: who is typing, what they say and tap, and what they see
//! (their chats' new and edited bot messages, and the bot's answers to their taps).

use std::time::{Duration, Instant};

use tgsim::types::MessageOrigin;
use tgsim::{Forward, NewUser, SimError, SimHandle};

use super::printer::{self, Printer};

/// Ids of the simulated users: user n (1-based) has id `FIRST_USER_ID + n - 1`.
pub const FIRST_USER_ID: i64 = 1001;

/// The most simulated users (`--users`).
pub const MAX_USERS: u16 = 100;

/// How long the bot's answer to a tap is waited for before it is no longer shown.
const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// The Bot API version of Mini Apps a launch link claims (`tgWebAppVersion`).
const APP_VERSION: &str = "8.0";

const NAMES: &[&str] = &["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];

/// What the user asked for and cannot have.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The simulator refused.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// No bot message in the chat has buttons (or not the one named).
    #[error("no message with buttons{}", .0.map(|id| format!(" with id #{id}")).unwrap_or_default())]
    NoButtons(Option<i64>),
    /// The message has fewer buttons.
    #[error("message #{message} has no button [{button}]")]
    NoSuchButton {
        /// The message.
        message: i64,
        /// The number typed.
        button: usize,
    },
    /// A URL button: it opens a page rather than talking to the bot.
    #[error("that button opens {0}")]
    UrlButton(String),
    /// A Mini App button: it opens the app in Telegram.
    #[error("that button opens the Mini App; /app prints a link that opens it in a browser")]
    AppButton,
    /// There is no such simulated user.
    #[error("there is no user {0}; /users lists them")]
    NoSuchUser(usize),
}

/// A tap whose answer has not been shown yet.
#[derive(Debug)]
struct Tap {
    query_id: String,
    prefix: String,
    since: Instant,
}

/// The simulated users and what has been shown of their chats.
#[derive(Debug)]
pub struct Session<'a> {
    sim: &'a SimHandle,
    users: Vec<(i64, String)>,
    active: usize,
    printer: Printer,
    taps: Vec<Tap>,
}

impl<'a> Session<'a> {
    /// Creates `count` started users speaking `lang`; user 1 is active.
    pub fn create(sim: &'a SimHandle, count: usize, lang: &str) -> Result<Self, SessionError> {
        let mut users = Vec::with_capacity(count);
        for n in 1..=count {
            let id = user_id(n);
            let name = NAMES
                .get(n - 1)
                .map_or_else(|| format!("User{n}"), |s| (*s).to_owned());
            sim.create_user(NewUser::new(&name).id(id).language(lang))?;
            users.push((id, name));
        }
        Ok(Self {
            sim,
            users,
            active: 0,
            printer: Printer::default(),
            taps: Vec::new(),
        })
    }

    /// Lines describing the users, the active one marked.
    pub fn describe_users(&self) -> Vec<String> {
        self.users
            .iter()
            .enumerate()
            .map(|(i, (id, name))| {
                let mark = if i == self.active { "*" } else { " " };
                format!("{mark} user {}: {name} (Telegram id {id})", i + 1)
            })
            .collect()
    }

    /// Makes user `n` (1-based) the one typing.
    pub fn switch(&mut self, n: usize) -> Result<String, SessionError> {
        let (_, name) = self
            .users
            .get(n.wrapping_sub(1))
            .ok_or(SessionError::NoSuchUser(n))?;
        self.active = n - 1;
        Ok(format!("you are user {n}: {name}"))
    }

    /// The active user sends `text`.
    pub fn say(&self, text: &str) -> Result<(), SessionError> {
        self.say_as(self.active, text)
    }

    /// Every user presses START (sends /start) and, with `zone`, sets it with `/tz`; returns
    /// what they sent, for the terminal.
    pub fn start_all(&self, zone: Option<&str>) -> Result<Vec<String>, SessionError> {
        let mut sent = Vec::new();
        for index in 0..self.users.len() {
            let mut texts = vec!["/start".to_owned()];
            texts.extend(zone.map(|z| format!("/tz {z}")));
            for text in texts {
                self.say_as(index, &text)?;
                sent.push(format!("{}{text}", self.you(index)));
            }
        }
        Ok(sent)
    }

    /// The active user shares a location (as the 📍 button under the zone question does).
    pub fn share_location(&self, latitude: f64, longitude: f64) -> Result<(), SessionError> {
        self.sim
            .user_shares_location(self.users[self.active].0, latitude, longitude)?;
        Ok(())
    }

    /// The active user forwards a message with `text` to the bot, as from someone who hides
    /// their account in forwards and wrote it a minute ago.
    pub fn forward(&self, text: &str) -> Result<(), SessionError> {
        let origin = MessageOrigin::HiddenUser {
            date: self.sim.clock().unix_ms / 1000 - 60,
            sender_user_name: "A friend".to_owned(),
        };
        self.sim
            .user_forwards(self.users[self.active].0, Forward::text(origin, text))?;
        Ok(())
    }

    fn say_as(&self, index: usize, text: &str) -> Result<(), SessionError> {
        self.sim.user_says(self.users[index].0, text)?;
        Ok(())
    }

    /// The active user taps button `button` of `message` (default: the latest bot message with
    /// buttons in their chat).
    pub fn press(&mut self, button: usize, message: Option<i64>) -> Result<(), SessionError> {
        let chat_id = self.users[self.active].0;
        let transcript = self.sim.transcript(chat_id)?;
        let entry = transcript
            .iter()
            .rev()
            .filter(|e| e.from_bot && !e.buttons.is_empty())
            .find(|e| message.is_none_or(|id| e.message_id == id))
            .ok_or(SessionError::NoButtons(message))?;
        let view = printer::numbered(entry)
            .get(button.wrapping_sub(1))
            .copied()
            .ok_or(SessionError::NoSuchButton {
                message: entry.message_id,
                button,
            })?;
        let data = match (&view.callback_data, &view.url, &view.web_app) {
            (Some(data), _, _) => data,
            (None, None, Some(_)) => return Err(SessionError::AppButton),
            (None, url, _) => {
                return Err(SessionError::UrlButton(url.clone().unwrap_or_default()));
            }
        };
        let query_id = self
            .sim
            .tap(chat_id, entry.message_id, Some(chat_id), data)?;
        self.taps.push(Tap {
            query_id,
            prefix: self.prefix(self.active),
            since: Instant::now(),
        });
        Ok(())
    }

    /// A URL of the Mini App at `app_url` (`http://127.0.0.1:…/app/`) that opens it in a browser
    /// as the active user, as Telegram opens it: the user's launch data, signed with the bot's
    /// token, in the fragment (`#tgWebAppData=…`), where the page reads it. The app accepts the
    /// data for an hour (its default limit on the age of launch data).
    pub fn app_link(&self, app_url: &str) -> Result<String, SessionError> {
        let init_data = self.sim.init_data(self.users[self.active].0)?;
        let fragment = form_urlencoded::Serializer::new(String::new())
            .append_pair("tgWebAppData", &init_data)
            .append_pair("tgWebAppVersion", APP_VERSION)
            .append_pair("tgWebAppPlatform", "web")
            .finish();
        Ok(format!("{app_url}#{fragment}"))
    }

    /// What is new in every user's chat, and the answers to taps (`bot> (popup) Done ✅`).
    pub fn poll(&mut self) -> Result<Vec<String>, SessionError> {
        let mut lines = Vec::new();
        for index in 0..self.users.len() {
            let chat_id = self.users[index].0;
            let transcript = self.sim.transcript(chat_id)?;
            let prefix = self.prefix(index);
            lines.extend(self.printer.update(chat_id, &prefix, &transcript));
        }
        let sim = self.sim;
        self.taps.retain(
            |tap| match sim.callback(&tap.query_id).and_then(|c| c.answer) {
                Some(answer) => {
                    if let Some(text) = answer.text {
                        let kind = if answer.show_alert { "alert" } else { "popup" };
                        lines.push(format!("{}({kind}) {text}", tap.prefix));
                    }
                    false
                }
                None => tap.since.elapsed() < ANSWER_WAIT,
            },
        );
        Ok(lines)
    }

    /// `you> ` with one user, `you[n]> ` with several: the echo of what a user sent.
    pub fn you(&self, index: usize) -> String {
        self.prefix(index).replacen("bot", "you", 1)
    }

    /// The active user's index (0-based).
    pub fn active(&self) -> usize {
        self.active
    }

    /// The active user's first name.
    pub fn active_name(&self) -> &str {
        &self.users[self.active].1
    }

    /// `bot> ` with one user, `bot[n]> ` with several.
    fn prefix(&self, index: usize) -> String {
        if self.users.len() == 1 {
            "bot> ".to_owned()
        } else {
            format!("bot[{}]> ", index + 1)
        }
    }
}

/// The Telegram ids every sandbox user may have.
pub fn all_ids() -> std::ops::RangeInclusive<i64> {
    user_id(1)..=user_id(usize::from(MAX_USERS))
}

/// The Telegram id of user `n` (1-based).
pub fn user_id(n: usize) -> i64 {
    FIRST_USER_ID + i64::try_from(n).unwrap_or(i64::MAX - FIRST_USER_ID) - 1
}

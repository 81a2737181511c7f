//! The terminal side: a thread that reads standard input line by line (a TTY or a pipe), and the
//! parser that tells the sandbox's own commands from what the user says to the bot.

use std::time::Duration;

use tokio::sync::mpsc;

/// The longest `/wait`.
const MAX_WAIT: Duration = Duration::from_secs(600);

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Send this text to the bot as the active user.
    Say(String),
    /// Press button `button` (1-based) of message `message`, or of the latest message with buttons.
    Press {
        /// The button's number as printed.
        button: usize,
        /// The message's id (`#7`), when not the latest.
        message: Option<i64>,
    },
    /// Share a location as the active user (as the 📍 button does).
    Location {
        /// Latitude, −90…90.
        latitude: f64,
        /// Longitude, −180…180.
        longitude: f64,
    },
    /// Forward a message with this text to the bot as the active user.
    Forward(String),
    /// Stop reading input for this long while the chat goes on (for scripts).
    Wait(Duration),
    /// Become simulated user `n` (1-based).
    As(usize),
    /// Print a local URL that opens the Mini App as the active user.
    App,
    /// List the simulated users.
    Users,
    /// Show the sandbox's commands.
    Help,
    /// Stop everything and exit.
    Quit,
    /// An empty line.
    Nothing,
}

/// A sandbox command typed wrong.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// `/press` without a valid button number (or with a bad message id).
    #[error("usage: /press <button> [#message], e.g. /press 1 or /press 2 #7")]
    Press,
    /// `/wait` without a number of seconds up to 600.
    #[error("usage: /wait <seconds>, e.g. /wait 5 (at most 600)")]
    Wait,
    /// `/as` without a valid user number.
    #[error("usage: /as <user>, e.g. /as 2")]
    As,
    /// `/location` without a latitude and a longitude on Earth.
    #[error("usage: /location <latitude> <longitude>, e.g. /location 41.31 69.28")]
    Location,
    /// `/forward` without a text.
    #[error("usage: /forward <text>, e.g. /forward see you at 5")]
    Forward,
}

/// The sandbox's own commands, for `/sandbox`.
pub const HELP: &[&str] = &[
    "anything else you type is sent to the bot as the active user",
    "<n> or /press <n>   press button [n] of the latest message with buttons",
    "/press <n> #<id>    press button [n] of message #<id>",
    "/say <text>         send <text> as it is (e.g. a bare number, or /quit to the bot)",
    "/location <lat> <lon>  share a location (the zone of that place), e.g. /location 41.31 69.28",
    "/forward <text>     forward a message with <text> to the bot (then say when to be reminded)",
    "/wait <seconds>     read no input for a while; the chat goes on (for scripts)",
    "/app                a link that opens the Mini App in a browser as the active user (for an hour)",
    "/as <n>             become simulated user <n>",
    "/users              list the simulated users",
    "/sandbox            this help",
    "/quit               stop everything and exit (also end of input, or Ctrl-C)",
];

/// Reads one typed line.
pub fn parse(line: &str) -> Result<Input, InputError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Input::Nothing);
    }
    if let Ok(button) = line.parse::<usize>() {
        return Ok(Input::Press {
            button,
            message: None,
        });
    }
    let (head, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let args = args.trim();
    match head {
        "/say" => Ok(Input::Say(args.to_owned())),
        "/press" => parse_press(args),
        "/as" => args.parse().map(Input::As).map_err(|_| InputError::As),
        "/wait" => args
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .filter(|d| *d <= MAX_WAIT)
            .map(Input::Wait)
            .ok_or(InputError::Wait),
        "/location" => parse_location(args),
        "/forward" if args.is_empty() => Err(InputError::Forward),
        "/forward" => Ok(Input::Forward(args.to_owned())),
        "/app" => Ok(Input::App),
        "/users" => Ok(Input::Users),
        "/sandbox" => Ok(Input::Help),
        "/quit" | "/exit" => Ok(Input::Quit),
        _ => Ok(Input::Say(line.to_owned())),
    }
}

fn parse_press(args: &str) -> Result<Input, InputError> {
    let mut words = args.split_whitespace();
    let button = words
        .next()
        .and_then(|w| w.parse().ok())
        .ok_or(InputError::Press)?;
    let message = match words.next() {
        None => None,
        Some(word) => Some(
            word.trim_start_matches('#')
                .parse()
                .map_err(|_| InputError::Press)?,
        ),
    };
    if words.next().is_some() {
        return Err(InputError::Press);
    }
    Ok(Input::Press { button, message })
}

fn parse_location(args: &str) -> Result<Input, InputError> {
    let numbers: Vec<f64> = args
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| InputError::Location)?;
    match numbers[..] {
        [latitude, longitude]
            if (-90.0..=90.0).contains(&latitude) && (-180.0..=180.0).contains(&longitude) =>
        {
            Ok(Input::Location {
                latitude,
                longitude,
            })
        }
        _ => Err(InputError::Location),
    }
}

/// Reads standard input on its own thread (a blocking read cannot be cancelled, so it must not
/// hold up the runtime's shutdown); the channel closes at end of input.
pub fn spawn_reader() -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel(16);
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if sender.blocking_send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(button: usize, message: Option<i64>) -> Input {
        Input::Press { button, message }
    }

    #[test]
    fn commands_and_text() {
        let cases = [
            ("", Ok(Input::Nothing)),
            ("  2 ", Ok(press(2, None))),
            ("/press 1", Ok(press(1, None))),
            ("/press 3 #7", Ok(press(3, Some(7)))),
            ("/press 3 7", Ok(press(3, Some(7)))),
            ("/press", Err(InputError::Press)),
            ("/press x", Err(InputError::Press)),
            ("/press 1 #x", Err(InputError::Press)),
            ("/as 2", Ok(Input::As(2))),
            ("/as", Err(InputError::As)),
            ("/wait 1.5", Ok(Input::Wait(Duration::from_millis(1500)))),
            ("/wait -1", Err(InputError::Wait)),
            ("/wait 601", Err(InputError::Wait)),
            ("/users", Ok(Input::Users)),
            ("/app", Ok(Input::App)),
            ("/sandbox", Ok(Input::Help)),
            ("/quit", Ok(Input::Quit)),
            ("/say 15", Ok(Input::Say("15".into()))),
            (
                "/location 41.31 69.28",
                Ok(Input::Location {
                    latitude: 41.31,
                    longitude: 69.28,
                }),
            ),
            (
                "/location -33.9, 151.2",
                Ok(Input::Location {
                    latitude: -33.9,
                    longitude: 151.2,
                }),
            ),
            ("/location", Err(InputError::Location)),
            ("/location 41.31", Err(InputError::Location)),
            ("/location 95 10", Err(InputError::Location)),
            ("/location north east", Err(InputError::Location)),
            ("/location NaN 1", Err(InputError::Location)),
            (
                "/forward see you at 5",
                Ok(Input::Forward("see you at 5".into())),
            ),
            ("/forward", Err(InputError::Forward)),
            ("/list", Ok(Input::Say("/list".into()))),
            (
                "buy milk in 3 seconds",
                Ok(Input::Say("buy milk in 3 seconds".into())),
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), expected, "{line:?}");
        }
    }
}

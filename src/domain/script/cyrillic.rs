//! Uzbek in the Cyrillic script: the bot's Uzbek (written in Latin in `locales/uz`) turned into
//! Cyrillic letter by letter, by the rules of the 1995 Latin alphabet read backwards (`sh` ш,
//! `ch` ч, `o'` ў, `g'` ғ, `q` қ, `h` ҳ, `x` х, `yo` ё, `ya` я, `yu` ю, `ye` е, `e` э at the
//! start of a word or after a vowel, the separating apostrophe ъ), with the loanwords whose
//! Cyrillic spelling is not a transliteration (`sentabr` сентябр) listed.
//!
//! Only the bot's own words change. What is kept as it is: the text passed in `keep` (a task's
//! text and other values put into a message), HTML tags and entities, commands (`/list`), URLs,
//! file and zone names (`tasks.ics`, `Asia/Tashkent`), acronyms (`UTC+5`, `IANA`), the names of
//! products written in Latin in every script (`Google Calendar`) and numbers.

/// Names of products that Uzbek in Cyrillic writes in Latin, as their makers do (the calendar
/// apps `/calendar` names).
const PRODUCT_NAMES: &[&str] = &["Apple", "Calendar", "Google", "Outlook", "Thunderbird"];

/// Loanwords spelt in Cyrillic as in Russian, by their Latin stem (matched at a word's start).
const LOANWORD_STEMS: &[(&str, &str)] = &[
    ("sentabr", "сентябр"),
    ("oktabr", "октябр"),
    ("iyun", "июн"),
    ("iyul", "июл"),
    ("nyu-york", "нью-йорк"),
];

/// The apostrophes Uzbek Latin is written with (o‘, g‘ and the separating tutuq belgisi).
fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | 'ʻ' | 'ʼ' | '‘' | '’' | '`')
}

/// `text` in Cyrillic (see the module docs); no text is kept but what the rules keep.
pub fn to_cyrillic(text: &str) -> String {
    to_cyrillic_keeping(text, &[])
}

/// `text` in Cyrillic, keeping every occurrence of the strings in `keep` (values that were put
/// into the message, such as a task's text) exactly as they are.
pub fn to_cyrillic_keeping(text: &str, keep: &[&str]) -> String {
    let mut kept = vec![false; text.len()];
    for value in keep.iter().filter(|v| !v.is_empty()) {
        for (at, _) in text.match_indices(value) {
            kept[at..at + value.len()].fill(true);
        }
    }
    let mut out = String::with_capacity(text.len() * 2);
    let mut start = 0;
    while start < text.len() {
        let protected = kept[start];
        let end = (start..text.len())
            .find(|&i| kept[i] != protected && text.is_char_boundary(i))
            .unwrap_or(text.len());
        if protected {
            out.push_str(&text[start..end]);
        } else {
            convert_markup_aware(&text[start..end], &mut out);
        }
        start = end;
    }
    out
}

/// Converts `text`, copying HTML tags (`<b>`) and entities (`&amp;`) unchanged.
fn convert_markup_aware(text: &str, out: &mut String) {
    let mut rest = text;
    while !rest.is_empty() {
        let next = rest.find(['<', '&']).unwrap_or(rest.len());
        convert_words(&rest[..next], out);
        rest = &rest[next..];
        let Some(first) = rest.chars().next() else {
            break;
        };
        let markup_end = match first {
            '<' => rest.find('>').map(|i| i + 1),
            _ => rest
                .char_indices()
                .skip(1)
                .take(10)
                .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '#'))
                .filter(|(_, c)| *c == ';')
                .map(|(i, _)| i + 1),
        };
        let end = markup_end.unwrap_or(first.len_utf8());
        if markup_end.is_some() {
            out.push_str(&rest[..end]);
        } else {
            convert_words(&rest[..end], out);
        }
        rest = &rest[end..];
    }
}

/// Converts each word of `text`, keeping white space and technical words as they are.
fn convert_words(text: &str, out: &mut String) {
    let mut word_start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(start) = word_start.take() {
                convert_word(&text[start..i], out);
            }
            out.push(c);
        } else if word_start.is_none() {
            word_start = Some(i);
        }
    }
    if let Some(start) = word_start {
        convert_word(&text[start..], out);
    }
}

/// Whether a word is technical and stays in Latin: a command, a URL, a path or zone name, a file
/// name, an address, an acronym, a product's name.
fn is_technical(word: &str) -> bool {
    if word.contains(['/', '@', '_', '#', '\\']) {
        return true;
    }
    let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
    if PRODUCT_NAMES.contains(&bare) {
        return true;
    }
    let chars: Vec<char> = word.chars().collect();
    let inner_dot = chars
        .windows(3)
        .any(|w| w[0].is_alphanumeric() && w[1] == '.' && w[2].is_alphabetic());
    let leading_dot = chars.len() > 1 && chars[0] == '.' && chars[1].is_alphabetic();
    let letters: Vec<char> = chars
        .iter()
        .copied()
        .filter(|c| c.is_alphabetic())
        .collect();
    let acronym = letters.len() >= 2 && letters.iter().all(char::is_ascii_uppercase);
    inner_dot || leading_dot || acronym
}

/// Converts one word (no white space in it).
fn convert_word(word: &str, out: &mut String) {
    if is_technical(word) {
        out.push_str(word);
        return;
    }
    let chars: Vec<char> = word.chars().collect();
    let lower: Vec<char> = chars.iter().map(|c| c.to_ascii_lowercase()).collect();
    let mut i = 0;
    // Where the current run of letters began: `e` there is `э`, loanword stems match there.
    let mut at_word_start = true;
    let mut previous_vowel = false;
    while i < chars.len() {
        let upper = chars[i].is_uppercase();
        let at = |offset: usize| lower.get(i + offset).copied().unwrap_or(' ');
        let apostrophe_at =
            |offset: usize| lower.get(i + offset).is_some_and(|c| is_apostrophe(*c));
        if at_word_start && let Some((stem, cyrillic)) = loanword(&lower[i..]) {
            // Each hyphenated part keeps the case of its first letter (`Nyu-York` Нью-Йорк).
            let source: String = chars[i..i + stem].iter().collect();
            for (n, (latin, part)) in source.split('-').zip(cyrillic.split('-')).enumerate() {
                if n > 0 {
                    out.push('-');
                }
                push_cased(out, part, latin.starts_with(char::is_uppercase));
            }
            i += stem;
            at_word_start = false;
            previous_vowel = false;
            continue;
        }
        let (cyrillic, used, vowel): (&str, usize, bool) = match at(0) {
            'o' if apostrophe_at(1) => ("ў", 2, true),
            'g' if apostrophe_at(1) => ("ғ", 2, false),
            's' if apostrophe_at(1) && at(2) == 'h' => ("сҳ", 3, false),
            's' if at(1) == 'h' => ("ш", 2, false),
            'c' if at(1) == 'h' => ("ч", 2, false),
            'y' if at(1) == 'o' && !apostrophe_at(2) => ("ё", 2, true),
            'y' if at(1) == 'u' => ("ю", 2, true),
            'y' if at(1) == 'a' => ("я", 2, true),
            'y' if at(1) == 'e' => ("е", 2, true),
            'e' if at_word_start || previous_vowel => ("э", 1, true),
            c if is_apostrophe(c)
                && i > 0
                && chars[i - 1].is_alphabetic()
                && chars.get(i + 1).is_some_and(|n| n.is_alphabetic()) =>
            {
                ("ъ", 1, false)
            }
            c => match letter(c) {
                Some((cyrillic, vowel)) => (cyrillic, 1, vowel),
                None => {
                    // Not a Latin letter (a digit, a quote, punctuation, Cyrillic, an emoji):
                    // it stays, and a letter after it starts a word unless it is a letter too.
                    out.push(chars[i]);
                    at_word_start = !chars[i].is_alphabetic();
                    previous_vowel = false;
                    i += 1;
                    continue;
                }
            },
        };
        push_cased(out, cyrillic, upper);
        i += used;
        at_word_start = false;
        previous_vowel = vowel;
    }
}

/// The loanword stem at the start of `lower`, if any: its length in characters and its Cyrillic.
fn loanword(lower: &[char]) -> Option<(usize, &'static str)> {
    LOANWORD_STEMS.iter().find_map(|(stem, cyrillic)| {
        let len = stem.chars().count();
        (lower.len() >= len && lower[..len].iter().copied().eq(stem.chars()))
            .then_some((len, *cyrillic))
    })
}

/// A single Latin letter in Cyrillic, and whether it is a vowel.
fn letter(c: char) -> Option<(&'static str, bool)> {
    Some(match c {
        'a' => ("а", true),
        'b' => ("б", false),
        'c' => ("ц", false),
        'd' => ("д", false),
        'e' => ("е", true),
        'f' => ("ф", false),
        'g' => ("г", false),
        'h' => ("ҳ", false),
        'i' => ("и", true),
        'j' => ("ж", false),
        'k' => ("к", false),
        'l' => ("л", false),
        'm' => ("м", false),
        'n' => ("н", false),
        'o' => ("о", true),
        'p' => ("п", false),
        'q' => ("қ", false),
        'r' => ("р", false),
        's' => ("с", false),
        't' => ("т", false),
        'u' => ("у", true),
        'v' | 'w' => ("в", false),
        'x' => ("х", false),
        'y' => ("й", false),
        'z' => ("з", false),
        _ => return None,
    })
}

/// Appends `cyrillic` with its first letter in upper case when the Latin one was.
fn push_cased(out: &mut String, cyrillic: &str, upper: bool) {
    let mut chars = cyrillic.chars();
    match chars.next() {
        Some(first) if upper => {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
        _ => out.push_str(cyrillic),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_follow_the_alphabet() {
        let cases = [
            (
                "Salom! Men vazifalaringizni eslatib turaman.",
                "Салом! Мен вазифаларингизни эслатиб тураман.",
            ),
            ("o'zbekcha", "ўзбекча"),
            ("O‘zbekcha", "Ўзбекча"),
            ("yo'q", "йўқ"),
            ("Yo‘q", "Йўқ"),
            ("ko'pi bilan", "кўпи билан"),
            ("ba'zilarini", "баъзиларини"),
            ("ma'lumot", "маълумот"),
            ("Is'hoq", "Исҳоқ"),
            ("bog'", "боғ"),
            ("shanba, chorshanba", "шанба, чоршанба"),
            ("Ertaga ertalab", "Эртага эрталаб"),
            ("yoki", "ёки"),
            ("Yer yuzida", "Ер юзида"),
            ("yanvar", "январ"),
            ("poeziya", "поэзия"),
            ("xabar", "хабар"),
            ("qachon", "қачон"),
            ("tong", "тонг"),
        ];
        for (latin, cyrillic) in cases {
            assert_eq!(to_cyrillic(latin), cyrillic, "{latin}");
        }
    }

    #[test]
    fn loanwords_take_their_cyrillic_spelling() {
        assert_eq!(to_cyrillic("1-sentabr, 2-oktabr"), "1-сентябр, 2-октябр");
        assert_eq!(to_cyrillic("iyun va iyul"), "июн ва июл");
        assert_eq!(to_cyrillic("dekabrda"), "декабрда");
        assert_eq!(to_cyrillic("Nyu-York"), "Нью-Йорк");
    }

    #[test]
    fn product_names_stay_in_latin() {
        assert_eq!(
            to_cyrillic("Apple Calendar, Outlook yoki Thunderbird: (Google — bir marta)"),
            "Apple Calendar, Outlook ёки Thunderbird: (Google — бир марта)"
        );
    }

    #[test]
    fn commands_urls_names_acronyms_numbers_and_markup_stay() {
        let cases = [
            ("/list vazifalaringizni", "/list вазифаларингизни"),
            ("/settings 30 daqiqa", "/settings 30 дақиқа"),
            (
                "https://example.org/a sahifa",
                "https://example.org/a саҳифа",
            ),
            ("Asia/Tashkent (UTC+5)", "Asia/Tashkent (UTC+5)"),
            ("IANA nomi", "IANA номи"),
            ("tasks.ics fayli", "tasks.ics файли"),
            ("12-vazifa, 09:00", "12-вазифа, 09:00"),
            ("<b>Eslatma</b> &amp; matn", "<b>Эслатма</b> &amp; матн"),
            ("✅ Bajarildi", "✅ Бажарилди"),
            ("\"Toshkent\" deb", "\"Тошкент\" деб"),
            ("'Eslatma' so'zi", "'Эслатма' сўзи"),
        ];
        for (latin, cyrillic) in cases {
            assert_eq!(to_cyrillic(latin), cyrillic, "{latin}");
        }
    }

    #[test]
    fn kept_values_are_not_touched() {
        let task = "buy milk o'zbek <b>";
        let text = format!("Bajarildi: {task}. Yana: {task}");
        assert_eq!(
            to_cyrillic_keeping(&text, &[task]),
            format!("Бажарилди: {task}. Яна: {task}")
        );
        assert_eq!(to_cyrillic_keeping("soat 9", &[""]), "соат 9");
    }
}

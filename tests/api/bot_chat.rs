//! The chat beyond the task round trip: groups, lead times, abuse limits, the command menus and
//! questions that survive a restart.

use std::num::NonZeroU32;

use remindbot::domain::lang::Lang;
use remindbot::i18n::{Arg, Tr};

use crate::app::{TestApp, buttons, text};

const BOT: &str = "remindbot_sim_bot";

#[tokio::test]
async fn bot_groups_answer_commands_addressed_to_the_bot_and_get_the_reminders() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::En);
    let ann = app.user("Ann", "en");
    let group = app.group("Team");

    let start = app.say_in(group, ann, &format!("/start@{BOT}")).await;
    assert!(text(&start).contains(&tr.t("tz-ask")), "{start:?}");
    app.tap_reply(group, start.message_id, ann, "z:2").await;

    // Chatter and commands for other bots get no answer: the next reply is the card.
    app.sim
        .user_says_in(group, ann, "hello everyone", None)
        .unwrap();
    app.sim
        .user_says_in(group, ann, "/list@other_bot", None)
        .unwrap();
    let card = app
        .say_in(group, ann, &format!("/add@{BOT} standup tomorrow 10:00"))
        .await;
    assert!(text(&card).contains("standup"), "{card:?}");
    let chat_of_task: i64 = sqlx::query_scalar("select chat_id from tasks")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(chat_of_task, group, "reminders go to the group");
    assert_eq!(app.pending_jobs().await.len(), 1);

    // A member asked "when?" replies to the question (the bot asks for a reply, as a bot in
    // privacy mode sees only replies to it).
    let ask = app.say_in(group, ann, "/add retro").await;
    assert!(text(&ask).contains(&tr.t("ask-when")), "{ask:?}");
    let answer = app
        .sim
        .user_says_in(group, ann, "friday 16:00", Some(ask.message_id))
        .unwrap();
    let card = app
        .replies_after(group, answer.message_id, 1)
        .await
        .remove(0);
    assert!(text(&card).contains("retro"), "{card:?}");
    assert_eq!(app.pending_jobs().await.len(), 2);
    app.stop().await;
}

#[tokio::test]
async fn bot_lead_times_come_from_the_task_or_the_default_setting() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Uz);
    let ann = app.user("Ann", "uz");
    app.say(ann, "/tz +5").await;

    let card = app.say(ann, "uchrashuv ertaga 10:00 30 daqiqa oldin").await;
    let remind = tr.t_with("task-remind", &[("when", Arg::Text(""))]);
    assert!(text(&card).contains(remind.trim()), "{card:?}");
    let job = &app.pending_jobs().await[0];
    let due: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("select due_at from tasks")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(due - job.run_at, chrono::Duration::minutes(30));

    let set = app.say(ann, "/settings 2 soat").await;
    assert!(text(&set).contains("2 soat"), "{set:?}");
    let shown = app.say(ann, "/settings").await;
    assert!(
        text(&shown).contains("2 soat") && text(&shown).contains(&tr.t("settings-usage")),
        "{shown:?}"
    );
    app.say(ann, "sport ertaga 18:00").await;
    let jobs = app.pending_jobs().await;
    let due: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("select due_at from tasks where text = 'sport'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert!(
        jobs.iter()
            .any(|j| due - j.run_at == chrono::Duration::hours(2))
    );
    app.stop().await;
}

#[tokio::test]
async fn bot_limits_stop_floods_and_too_many_tasks_with_a_clear_message() {
    let mut app = TestApp::builder()
        .config(|c| {
            c.bot.user_updates_per_minute = NonZeroU32::new(5).unwrap();
            c.bot.max_open_tasks = 2;
        })
        .start()
        .await;
    let tr = Tr::new(Lang::Ru);
    let ann = app.user("Ann", "ru");
    app.say(ann, "/tz Москва").await;
    app.say(ann, "хлеб завтра в 9").await;
    app.say(ann, "молоко завтра в 10").await;
    let refused = app.say(ann, "сыр завтра в 11").await;
    assert_eq!(
        text(&refused),
        tr.t_with("too-many-tasks", &[("max", Arg::Number(2))])
    );
    assert_eq!(app.pending_jobs().await.len(), 2);

    let list = app.say(ann, "/list").await;
    assert!(
        text(&list).contains("молоко"),
        "the fifth update is still allowed"
    );
    let slowed = app.say(ann, "/list").await;
    assert_eq!(text(&slowed), tr.t("rate-limited"));
    app.sim.user_says(ann, "/list").unwrap();
    let sent = app.sim.user_says(ann, "/help").unwrap();
    assert!(
        app.sim
            .wait_for_bot_message(ann, sent.message_id, std::time::Duration::from_millis(300))
            .await
            .is_err(),
        "over the limit the bot stays silent after one warning"
    );
    app.stop().await;
}

#[tokio::test]
async fn bot_publishes_the_command_menu_in_each_language() {
    let mut app = TestApp::start().await;
    for (code, lang) in [
        ("en", Lang::En),
        ("ru", Lang::Ru),
        ("uz", Lang::Uz),
        ("de", Lang::En),
    ] {
        let user = app.user("Ann", code);
        let menu = app.sim.commands_for(user, Some(user));
        let list = menu
            .iter()
            .find(|c| c.command == "list")
            .expect("a /list entry");
        assert_eq!(list.description, Tr::new(lang).t("cmd-list"), "{code}");
    }
    app.stop().await;
}

#[tokio::test]
async fn bot_questions_survive_a_restart_and_language_changes_apply() {
    let mut app = TestApp::start().await;
    let ann = app.user("Ann", "de");
    app.say(ann, "/tz Europe/Berlin").await;
    let ask = app.say(ann, "water the plants").await;
    assert!(
        text(&ask).contains(&Tr::new(Lang::En).t("ask-when")),
        "{ask:?}"
    );
    let pending: i64 = sqlx::query_scalar("select count(*) from conversations")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(pending, 1, "the question is kept in the database");
    app.restart().await;
    let card = app.say(ann, "tomorrow 7:00").await;
    assert!(text(&card).contains("water the plants"), "{card:?}");

    let choose = app.say(ann, "/lang").await;
    assert_eq!(buttons(&choose), ["l:0", "l:1", "l:2", "l:3"]);
    let (_, set) = app.tap_reply(ann, choose.message_id, ann, "l:1").await;
    assert_eq!(text(&set), Tr::new(Lang::Ru).t("lang-set"));
    let ask = app.say(ann, "полить цветы").await;
    assert!(
        text(&ask).contains(&Tr::new(Lang::Ru).t("ask-when")),
        "{ask:?}"
    );
    let card = app.say(ann, "завтра в 8").await;
    assert!(text(&card).contains("полить цветы"), "{card:?}");
    assert!(
        text(&card).contains(&Tr::new(Lang::Ru).t("task-saved")),
        "{card:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn bot_a_task_sent_before_the_zone_waits_for_it() {
    let mut app = TestApp::start().await;
    let tr = Tr::new(Lang::Ru);
    let ann = app.user("Ann", "ru");
    let ask = app
        .say_expecting(ann, ann, "позвонить маме завтра в 18:00", 2)
        .await
        .remove(0);
    assert!(text(&ask).contains(&tr.t("tz-ask")), "{ask:?}");
    assert!(app.pending_jobs().await.is_empty());
    let before = app.last_message_id(ann);
    app.tap(ann, ask.message_id, ann, "z:2").await;
    let replies = app.replies_after(ann, before, 2).await;
    assert!(text(&replies[0]).contains("Europe/Moscow"), "{replies:?}");
    assert!(text(&replies[1]).contains("позвонить маме"), "{replies:?}");
    assert_eq!(app.pending_jobs().await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn bot_a_recurring_task_given_a_new_time_keeps_repeating() {
    let mut app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Europe/Berlin").await;
    let card = app.say(ann, "every day 8:00 stretch").await;
    let id = buttons(&card)[1].trim_start_matches("e:").to_owned();
    let first = app.pending_jobs().await;
    let (_, ask) = app
        .tap_reply(ann, card.message_id, ann, &format!("e:{id}"))
        .await;
    assert!(text(&ask).contains(&Tr::new(Lang::En).t("ask-edit")));
    let changed = app.say(ann, "10:30").await;
    assert!(text(&changed).contains("🔁"), "{changed:?}");
    assert!(text(&changed).contains("10:30"), "{changed:?}");
    let rule: String = sqlx::query_scalar("select rule from tasks")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(
        rule.starts_with("FREQ=DAILY") && rule.contains("BYHOUR=10;BYMINUTE=30"),
        "{rule}"
    );
    let jobs = app.pending_jobs().await;
    assert_eq!(jobs.len(), 1);
    assert_ne!(jobs[0].id, first[0].id, "the old job is replaced");
    app.stop().await;
}

#[tokio::test]
async fn bot_the_list_pages_and_shows_changes_in_place() {
    let mut app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    app.say(ann, "/tz Asia/Tashkent").await;
    for day in 1..=12 {
        app.say(ann, &format!("task {day} in {day} days")).await;
    }
    // Ten tasks a page.
    let list = app.say(ann, "/list").await;
    assert!(
        text(&list).contains("task 1\n")
            && text(&list).contains("task 10")
            && !text(&list).contains("task 11"),
        "{list:?}"
    );
    assert!(buttons(&list).contains(&"p:1".to_owned()), "{list:?}");

    app.tap(ann, list.message_id, ann, "p:1").await;
    let second = app
        .message_once(ann, list.message_id, |e| {
            text(e).contains("task 11") && text(e).contains("task 12")
        })
        .await;
    let id = buttons(&second)
        .iter()
        .find_map(|d| d.strip_prefix("d:").map(str::to_owned))
        .unwrap();

    let (_, done) = app
        .tap_reply(ann, list.message_id, ann, &format!("d:{id}"))
        .await;
    assert!(text(&done).contains("task 11"), "{done:?}");
    // The page shows the change: the task and its buttons are gone.
    let refreshed = app
        .message_once(ann, list.message_id, |e| {
            !text(e).contains("task 11") && text(e).contains("task 12")
        })
        .await;
    assert!(
        !buttons(&refreshed).contains(&format!("d:{id}")),
        "{refreshed:?}"
    );
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

#[tokio::test]
async fn bot_the_longest_texts_still_fit_telegram() {
    let mut app = TestApp::start().await;
    let ann = app.user("Ann", "ru");
    app.say(ann, "/tz Asia/Tashkent").await;
    let longest = format!("{} & <i>", "😀".repeat(990));
    for hour in 10..15 {
        let card = app.say(ann, &format!("{longest} завтра в {hour}:00")).await;
        assert!(text(&card).contains(&longest), "{card:?}");
    }
    let list = app.say(ann, "/list").await;
    assert!(text(&list).contains('…'), "{list:?}");
    let id = buttons(&list)[0].trim_start_matches("d:").to_owned();
    let (_, done) = app
        .tap_reply(ann, list.message_id, ann, &format!("d:{id}"))
        .await;
    assert!(text(&done).chars().count() < 300, "{done:?}");
    assert_eq!(app.pending_jobs().await.len(), 4);
    assert!(app.refused_sends().is_empty(), "{:?}", app.refused_sends());
    app.stop().await;
}

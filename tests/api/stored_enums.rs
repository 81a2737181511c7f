//! Every value of every enum the bot stores in a column with a CHECK is written to PostgreSQL and
//! read back: a value the code can write and the database refuses (or the reverse) fails here,
//! not in production.

use chrono::{Duration, TimeZone, Utc};
use chrono_tz::Tz;
use pgqueue::QueueConfig;
use remindbot::domain::ids::{ChatId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::store::conversation::{self, Pending};
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::{ChatKind, ReminderKind, TaskState};
use remindbot::store::undo::{self, Change};
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};

use crate::support::TestDb;

/// A task of chat 1 with its first reminder.
async fn a_task(db: &TestDb) -> tasks::Task {
    chats::upsert(&db.pool, ChatId(1), ChatKind::Private, Lang::En)
        .await
        .unwrap();
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let mut tx = db.pool.begin().await.unwrap();
    let task = tasks::create(
        &mut tx,
        &queue,
        &NewTask {
            chat_id: ChatId(1),
            owner_id: UserId(1),
            text: TaskText::parse("stand-up").unwrap(),
            due_at: Utc.with_ymd_and_hms(2030, 1, 1, 9, 0, 0).unwrap(),
            lead: remindbot::domain::lead::Lead::new(Duration::zero()).unwrap(),
            recurrence: None,
            tz: Tz::UTC,
        },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    task
}

#[tokio::test]
async fn every_chat_kind_and_language_is_stored_and_read_back() {
    let db = TestDb::new().await;
    for (n, kind) in (100..).zip(ChatKind::STORED) {
        chats::upsert(&db.pool, ChatId(n), *kind, Lang::En)
            .await
            .unwrap();
        let chat = chats::find(&db.pool, ChatId(n)).await.unwrap().unwrap();
        assert_eq!(chat.kind, *kind);
    }
    for (n, lang) in (200..).zip(Lang::STORED.iter().copied()) {
        chats::upsert(&db.pool, ChatId(n), ChatKind::Private, lang)
            .await
            .unwrap();
        assert_eq!(
            chats::find(&db.pool, ChatId(n))
                .await
                .unwrap()
                .unwrap()
                .lang,
            lang
        );
        chats::set_lang(&db.pool, ChatId(100), lang).await.unwrap();
        assert_eq!(
            chats::find(&db.pool, ChatId(100))
                .await
                .unwrap()
                .unwrap()
                .lang,
            lang
        );
    }
}

#[tokio::test]
async fn every_task_state_and_reminder_kind_is_stored_and_read_back() {
    let db = TestDb::new().await;
    let task_id = a_task(&db).await.id;
    for state in TaskState::STORED {
        let stored: String =
            sqlx::query_scalar("update tasks set state = $2 where id = $1 returning state")
                .bind(task_id)
                .bind(state.as_str())
                .fetch_one(&db.pool)
                .await
                .unwrap_or_else(|e| panic!("{state:?}: {e}"));
        assert_eq!(TaskState::from_stored(&stored), Some(*state));
    }
    for kind in ReminderKind::STORED {
        let stored: String =
            sqlx::query_scalar("update reminders set kind = $2 where task_id = $1 returning kind")
                .bind(task_id)
                .bind(kind.as_str())
                .fetch_one(&db.pool)
                .await
                .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert_eq!(ReminderKind::from_stored(&stored), Some(*kind));
    }
}

#[tokio::test]
async fn every_undo_change_is_stored_and_read_back() {
    let db = TestDb::new().await;
    let task = a_task(&db).await;
    for change in Change::STORED.iter().copied() {
        let mut tx = db.pool.begin().await.unwrap();
        let before = (change != Change::Create).then(|| task.version());
        let id = undo::record(&mut tx, task.id, change, before.as_ref())
            .await
            .unwrap();
        let found = undo::find_for_update(&mut tx, ChatId(1), id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(found.change, change);
        tx.commit().await.unwrap();
    }
}

#[tokio::test]
async fn every_kind_of_open_question_is_stored_and_read_back() {
    let db = TestDb::new().await;
    let task_id = a_task(&db).await.id;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let questions = [
        Pending::NewTaskTime {
            text: "pay rent".into(),
        },
        Pending::EditTask { task_id },
        Pending::SnoozeTime { task_id },
        Pending::TimeZone { text: None },
        Pending::TimeZone {
            text: Some("pay rent tomorrow".into()),
        },
        Pending::QuoteTime {
            quote: "a forwarded message".into(),
            message_id: 7,
        },
        Pending::TimeForForward {
            phrase: "at 9".into(),
            said_at: Utc.with_ymd_and_hms(2030, 1, 1, 8, 59, 0).unwrap(),
        },
    ];
    for question in &questions {
        // A new kind fails to compile here until it is listed above.
        match question {
            Pending::NewTaskTime { .. }
            | Pending::EditTask { .. }
            | Pending::SnoozeTime { .. }
            | Pending::TimeZone { .. }
            | Pending::QuoteTime { .. }
            | Pending::TimeForForward { .. } => {}
        }
        let mut conn = db.pool.acquire().await.unwrap();
        conversation::ask(&mut conn, &queue, ChatId(1), UserId(1), question)
            .await
            .unwrap();
        let read = conversation::pending(&db.pool, ChatId(1), UserId(1))
            .await
            .unwrap();
        assert_eq!(read.as_ref(), Some(question));
    }
}

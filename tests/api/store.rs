//! Tasks and their reminder jobs change together, in one transaction.

use chrono::{Duration, TimeZone, Utc};
use chrono_tz::Tz;
use pgqueue::{JobState, Queue, QueueConfig};
use remindbot::domain::ids::{ChatId, TaskId, UserId};
use remindbot::domain::lang::Lang;
use remindbot::domain::recurrence::{Frequency, Recurrence};
use remindbot::store::tasks::{self, NewTask, TaskText};
use remindbot::store::types::ChatKind;
use remindbot::store::{OUTBOX_QUEUE, chats, outbox_queue};

use crate::support::{TestDb, job_of_reminder, job_states, jobs_in};

fn daily_nine(chat_id: i64) -> NewTask {
    NewTask {
        chat_id: ChatId(chat_id),
        owner_id: UserId(chat_id),
        text: TaskText::parse("stand-up").unwrap(),
        // 09:00 in Berlin on the day before the DST change.
        due_at: Utc.with_ymd_and_hms(2026, 3, 28, 8, 0, 0).unwrap(),
        lead: remindbot::domain::lead::Lead::new(Duration::minutes(15)).unwrap(),
        recurrence: Some(
            Recurrence::new(
                Frequency::Daily,
                chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(),
            )
            .unwrap(),
        ),
        tz: Tz::Europe__Berlin,
    }
}

/// A fresh database, its outbox queue and a private chat `chat_id` in `lang`.
async fn db_with_chat(chat_id: i64, lang: Lang) -> (TestDb, Queue) {
    let db = TestDb::new().await;
    let queue = outbox_queue(db.pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    chats::upsert(&db.pool, ChatId(chat_id), ChatKind::Private, lang)
        .await
        .unwrap();
    (db, queue)
}

/// `(tasks, reminders, jobs)`.
async fn counts(db: &TestDb) -> (i64, i64, i64) {
    let (tasks, reminders): (i64, i64) =
        sqlx::query_as("select (select count(*) from tasks), (select count(*) from reminders)")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    let jobs = job_states(&db.pool).await.iter().map(|(_, n)| n).sum();
    (tasks, reminders, jobs)
}

#[tokio::test]
async fn a_task_and_its_reminder_job_commit_or_roll_back_together() {
    let (db, queue) = db_with_chat(42, Lang::Ru).await;

    let mut tx = db.pool.begin().await.unwrap();
    tasks::create(&mut tx, &queue, &daily_nine(42))
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(counts(&db).await, (0, 0, 0));

    let mut tx = db.pool.begin().await.unwrap();
    let task = tasks::create(&mut tx, &queue, &daily_nine(42))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(counts(&db).await, (1, 1, 1));
    let (reminder, fire_at): (i64, chrono::DateTime<Utc>) =
        sqlx::query_as("select id, fire_at from reminders")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    let run_at = job_of_reminder(&db.pool, reminder).await.run_at;
    assert_eq!(fire_at, task.due_at - Duration::minutes(15));
    assert_eq!(run_at, fire_at);
    let mut conn = db.pool.acquire().await.unwrap();
    assert!(
        tasks::find(&mut conn, ChatId(43), task.id)
            .await
            .unwrap()
            .is_none(),
        "another chat's task"
    );
}

#[tokio::test]
async fn the_next_occurrence_keeps_the_wall_time_across_dst_and_is_scheduled_once() {
    let (db, queue) = db_with_chat(7, Lang::En).await;
    let mut conn = db.pool.acquire().await.unwrap();
    let task = tasks::create(&mut conn, &queue, &daily_nine(7))
        .await
        .unwrap();

    let mut tx = db.pool.begin().await.unwrap();
    assert!(
        tasks::schedule_next_occurrence(&mut tx, &queue, &task)
            .await
            .unwrap()
            .is_some()
    );
    tx.commit().await.unwrap();
    let moved = tasks::find(&mut conn, ChatId(7), task.id)
        .await
        .unwrap()
        .unwrap();
    // 09:00 CEST on 29 March is 07:00 UTC (it was 08:00 UTC the day before).
    assert_eq!(
        moved.due_at,
        Utc.with_ymd_and_hms(2026, 3, 29, 7, 0, 0).unwrap()
    );
    // Scheduling the same occurrence again (a re-run job) adds nothing.
    assert!(
        tasks::schedule_occurrence(&mut conn, &queue, &moved, moved.due_at)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(counts(&db).await, (1, 2, 2));
}

#[tokio::test]
async fn done_on_a_recurring_reminder_keeps_the_next_occurrence() {
    let (db, queue) = db_with_chat(9, Lang::En).await;
    let mut conn = db.pool.acquire().await.unwrap();
    let task = tasks::create(&mut conn, &queue, &daily_nine(9))
        .await
        .unwrap();
    // Delivery sends today's reminder as message 77 and moves the task to tomorrow.
    let job = queue.claim("w", 1).await.unwrap().remove(0);
    let mut tx = db.pool.begin().await.unwrap();
    sqlx::query(
        "update reminders set sent = true, sent_at = now(), message_id = 77 where job_id = $1",
    )
    .bind(job.id)
    .execute(&mut *tx)
    .await
    .unwrap();
    queue.complete(&mut *tx, &job).await.unwrap();
    tx.commit().await.unwrap();
    tasks::schedule_next_occurrence(&mut conn, &queue, &task)
        .await
        .unwrap();
    let tomorrow = tasks::find(&mut conn, ChatId(9), task.id)
        .await
        .unwrap()
        .unwrap()
        .due_at;

    // Done under today's reminder: tomorrow stays scheduled.
    let done = tasks::finish_from_reminder(&mut conn, &queue, ChatId(9), task.id, 77)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(done.due_at, tomorrow);
    let pending = jobs_in(&db.pool, JobState::Pending).await;
    assert_eq!(pending, 1, "tomorrow's reminder was cancelled");

    // Done from the list (no reminder message) closes the current occurrence: the next is the
    // schedule's first slot after both it and now (these dates are long past), never one in the
    // past that would ring at once; still at 09:00 in Berlin.
    let moved = tasks::finish(&mut conn, &queue, ChatId(9), task.id)
        .await
        .unwrap()
        .unwrap();
    let now = crate::support::db_now(&db.pool).await;
    assert!(moved.due_at > now && moved.due_at > tomorrow, "{moved:?}");
    assert!(moved.due_at - now <= Duration::days(1), "{moved:?}");
    assert_eq!(
        moved.due_at.with_timezone(&Tz::Europe__Berlin).time(),
        chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap()
    );
    // Another chat cannot finish it.
    assert!(
        tasks::finish_from_reminder(&mut conn, &queue, ChatId(10), task.id, 77)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn the_per_task_admin_and_metrics_look_ups_are_served_by_indexes() {
    let db = TestDb::new().await;
    devtools::bench::explain::seed(&db.pool, 20_000)
        .await
        .unwrap();
    // With sequential scans priced out, a statement still reading a table sequentially has no
    // index that serves it.
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .after_connect(|conn, _| {
            Box::pin(async move {
                sqlx::query("set enable_seqscan = off")
                    .execute(conn)
                    .await?;
                Ok(())
            })
        })
        .connect(db.url())
        .await
        .unwrap();
    for explained in devtools::bench::explain::explain_all(&pool, 1)
        .await
        .unwrap()
    {
        assert!(!explained.scans_a_table(), "{explained:?}");
    }
    // The queue's own reads are its tests' business (crates/pgqueue); here they only have to run.
    let timed = devtools::bench::explain::time_queue_reads(&pool, 1)
        .await
        .unwrap();
    assert!(timed.iter().all(|t| t.median_ms >= 0.0), "{timed:?}");
}

#[tokio::test]
async fn retention_purges_what_is_old_and_keeps_what_is_not() {
    let (db, queue) = db_with_chat(42, Lang::En).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let mut tx = db.pool.begin().await.unwrap();
        ids.push(
            tasks::create(&mut tx, &queue, &daily_nine(42))
                .await
                .unwrap()
                .id,
        );
        tx.commit().await.unwrap();
    }
    // Task 0 was finished 100 days ago, task 1 yesterday; task 2 is open with a reminder sent
    // 100 days ago; task 3 is open and untouched.
    for (task, age) in [(ids[0], 100), (ids[1], 1)] {
        sqlx::query(
            "update tasks set state = 'done', updated_at = now() - make_interval(days => $2)
             where id = $1",
        )
        .bind(task)
        .bind(age)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    sqlx::query(
        "update reminders set sent = true, sent_at = now() - interval '100 days'
         where task_id = $1",
    )
    .bind(ids[2])
    .execute(&db.pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into conversations (chat_id, user_id, kind, text, created_at) values
             (42, 1, 'new_task_time', 'old', now() - interval '2 hours'),
             (42, 2, 'new_task_time', 'fresh', now())",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into admin_actions (actor, action, at) values
             ('cli:old', 'retry', now() - interval '100 days'), ('cli:new', 'retry', now())",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into paid_broadcast_days (day, spent_tenths) values
             ((now() at time zone 'UTC')::date - 100, 5), ((now() at time zone 'UTC')::date, 7)",
    )
    .execute(&db.pool)
    .await
    .unwrap();

    let purged = remindbot::store::retention::purge(
        &db.pool,
        remindbot::store::retention::Keep {
            data: std::time::Duration::from_secs(90 * 86_400),
            updates: std::time::Duration::from_secs(7 * 86_400),
        },
    )
    .await
    .unwrap();
    assert_eq!(
        (
            purged.tasks,
            purged.reminders,
            purged.conversations,
            purged.admin_actions,
            purged.paid_broadcast_days
        ),
        (1, 1, 1, 1, 1)
    );
    let tasks_left: Vec<TaskId> = sqlx::query_scalar("select id from tasks order by id")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    assert_eq!(tasks_left, ids[1..]);
    let reminders_of_open: i64 =
        sqlx::query_scalar("select count(*) from reminders where task_id = any($1)")
            .bind(&ids[2..])
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(
        reminders_of_open, 1,
        "the old sent reminder went, the pending one stayed"
    );
    let texts: Vec<String> = sqlx::query_scalar("select text from conversations")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    assert_eq!(texts, ["fresh"]);
    let spent_today: Vec<i64> = sqlx::query_scalar("select spent_tenths from paid_broadcast_days")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    assert_eq!(spent_today, [7], "today's paid-broadcast spending is kept");
}

#[tokio::test]
async fn queue_depth_is_exact_on_a_small_table_and_close_on_a_large_one() {
    let db = TestDb::new().await;
    devtools::bench::explain::seed(&db.pool, 1000)
        .await
        .unwrap();
    let small = pgqueue::maintenance::depth(&db.pool, OUTBOX_QUEUE)
        .await
        .unwrap();
    assert!(!small.estimated);
    let count = |depth: &pgqueue::maintenance::Depth, state: &str| {
        depth
            .states
            .iter()
            .find(|(s, _)| s.as_str() == state)
            .unwrap()
            .1
    };
    assert_eq!(count(&small, "pending"), 900);
    assert_eq!(count(&small, "failed"), 10);
    assert_eq!(small.due_now, 1);
    assert!(small.oldest_due_secs.unwrap() >= 60.0);

    let db = TestDb::new().await;
    devtools::bench::explain::seed(&db.pool, 50_000)
        .await
        .unwrap();
    let large = pgqueue::maintenance::depth(&db.pool, OUTBOX_QUEUE)
        .await
        .unwrap();
    assert!(large.estimated);
    let pending = count(&large, "pending");
    assert!((44_000..=46_000).contains(&pending), "{pending}");
    assert_eq!(large.due_now, 50);
}

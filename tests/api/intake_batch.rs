//! The update workers' batches: several chats' updates handled in one transaction, each in a
//! savepoint, so that one that fails takes only its own effects back.

use crate::app::{TestApp, text};
use crate::support::{WAIT, eventually};

const SAVED: &str = "Task saved";

/// How many of the bot's messages in `user`'s chat contain `needle`.
fn bot_messages_with(app: &TestApp, user: i64, needle: &str) -> usize {
    app.sim
        .transcript(user)
        .unwrap_or_default()
        .iter()
        .filter(|e| e.from_bot && text(e).contains(needle))
        .count()
}

async fn scalar(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.pool).await.unwrap()
}

/// Five chats' tasks wait while one transaction is held up, then go as one batch with a sixth
/// chat's task whose first attempt fails (a trigger refuses it once): the five are answered once
/// each, committed in the same transaction as the failed attempt; the failing one is retried and
/// answered once; its chat's next update is handled only after it, in order.
#[tokio::test]
async fn a_failing_update_in_a_batch_takes_back_only_its_own_effects() {
    let mut app = TestApp::builder()
        .config(|c| {
            c.intake.update_workers = 1;
            c.intake.update_batch = 16;
            c.delivery.rate_per_chat_per_sec = 0;
        })
        .start()
        .await;
    // The first attempt to save the task "boom" fails; the trigger notes when its transaction
    // began (sequences are not rolled back).
    sqlx::raw_sql(
        "create sequence boom_tries;
         create sequence boom_began;
         create function boom() returns trigger language plpgsql as $$
         begin
             if nextval('boom_tries') = 1 then
                 perform setval('boom_began', (extract(epoch from now()) * 1000000)::bigint);
                 raise exception 'boom';
             end if;
             return new;
         end $$;
         create trigger boom before insert on tasks for each row
             when (new.text = 'boom') execute function boom();",
    )
    .execute(&app.pool)
    .await
    .unwrap();

    let holder = app.user("Holder", "en");
    app.say(holder, "/tz Asia/Tashkent").await;
    let others: Vec<i64> = (0..5)
        .map(|i| app.user(&format!("Other{i}"), "en"))
        .collect();
    let boomer = app.user("Boomer", "en");
    for user in others.iter().chain([&boomer]) {
        app.say(*user, "/tz Asia/Tashkent").await;
    }

    // The holder's chat row is locked: the one transaction handling updates waits on it.
    let lock = hold_the_batch_on(&app, holder).await;
    for (i, other) in others.iter().enumerate() {
        app.sim
            .user_says(*other, &format!("other {i} tomorrow 9:00"))
            .unwrap();
    }
    app.sim.user_says(boomer, "boom tomorrow 9:00").unwrap();
    app.sim
        .user_says(boomer, "after boom tomorrow 10:00")
        .unwrap();
    // Everyone's first update is claimed (the boomer's second waits for the first).
    eventually(WAIT, "the updates claimed", || async {
        scalar(
            &app,
            "select count(*) from jobs where queue = 'updates' and state = 'running'",
        )
        .await
            == 7
    })
    .await;
    lock.commit().await.unwrap();

    eventually(WAIT, "each other chat's confirmation", || async {
        others
            .iter()
            .all(|other| bot_messages_with(&app, *other, SAVED) >= 1)
    })
    .await;
    eventually(WAIT * 2, "the boomer's two confirmations", || async {
        bot_messages_with(&app, boomer, SAVED) >= 2
    })
    .await;

    // The failed attempt's transaction committed others' updates.
    let with_failure = scalar(
        &app,
        "select count(*) from updates
         where handled_at = to_timestamp((select last_value from boom_began) / 1000000.0)",
    )
    .await;
    assert!(
        with_failure >= 1,
        "the failed attempt shared its transaction with other chats' updates"
    );
    for other in &others {
        assert_eq!(bot_messages_with(&app, *other, SAVED), 1, "answered once");
    }
    assert_eq!(
        bot_messages_with(&app, holder, SAVED),
        1,
        "the holder answered once"
    );
    let boomer_saved: Vec<String> = app
        .sim
        .transcript(boomer)
        .unwrap()
        .iter()
        .filter(|e| e.from_bot && text(e).contains(SAVED))
        .map(|e| text(e).to_owned())
        .collect();
    assert_eq!(boomer_saved.len(), 2, "{boomer_saved:?}");
    assert!(
        !boomer_saved[0].contains("after boom") && boomer_saved[1].contains("after boom"),
        "in order: {boomer_saved:?}"
    );
    let boomer_tasks: Vec<String> =
        sqlx::query_scalar("select text from tasks where chat_id = $1 order by id")
            .bind(boomer)
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(boomer_tasks, ["boom", "after boom"]);
    assert_eq!(scalar(&app, "select count(*) from tasks").await, 8);
    let boom_attempts = scalar(
        &app,
        "select j.attempts::bigint from jobs j join updates u on u.id = (j.payload->>'inbox_id')::bigint
         where u.raw->'message'->>'text' = 'boom tomorrow 9:00'",
    )
    .await;
    assert_eq!(boom_attempts, 2, "the failing update was tried again once");
    app.stop().await;
}

/// While a batch waits, one of its chats' jobs loses its lease (the job is put back and claimed
/// again, as the reaper and another worker would): the batch's completion finds the lost lease,
/// and the chat's task is saved and answered once, by the new claim, while the batch's other
/// chats are answered once each, on their first attempt.
#[tokio::test]
async fn a_lost_lease_in_a_batch_saves_nothing_twice() {
    let mut app = TestApp::builder()
        .config(|c| {
            c.intake.update_workers = 1;
            c.intake.update_batch = 16;
            c.delivery.rate_per_chat_per_sec = 0;
        })
        .start()
        .await;
    let holder = app.user("Holder", "en");
    let others: Vec<i64> = (0..3)
        .map(|i| app.user(&format!("Other{i}"), "en"))
        .collect();
    let victim = app.user("Victim", "en");
    for user in [holder, victim].iter().chain(&others) {
        app.say(*user, "/tz Asia/Tashkent").await;
    }

    // The holder's chat row is locked: the one transaction handling updates waits on it.
    let lock = hold_the_batch_on(&app, holder).await;
    for (i, other) in others.iter().enumerate() {
        app.sim
            .user_says(*other, &format!("other {i} tomorrow 9:00"))
            .unwrap();
    }
    app.sim.user_says(victim, "lost tomorrow 9:00").unwrap();
    eventually(WAIT, "the updates claimed", || async {
        scalar(
            &app,
            "select count(*) from jobs where queue = 'updates' and state = 'running'",
        )
        .await
            == 5
    })
    .await;
    // The victim's running job is put back: it is claimed again while its first claim waits
    // for the next batch.
    sqlx::query(
        "update jobs set state = 'pending', run_at = now(), locked_until = null, locked_by = null
         where id = (select j.id from jobs j join updates u on u.id = (j.payload->>'inbox_id')::bigint
                     where u.raw->'message'->>'text' = 'lost tomorrow 9:00')",
    )
    .execute(&app.pool)
    .await
    .unwrap();
    eventually(WAIT, "the victim's job claimed again", || async {
        scalar(
            &app,
            "select count(*) from jobs j join updates u on u.id = (j.payload->>'inbox_id')::bigint
             where u.raw->'message'->>'text' = 'lost tomorrow 9:00'
               and j.state = 'running' and j.claims = 2",
        )
        .await
            == 1
    })
    .await;
    lock.commit().await.unwrap();

    eventually(WAIT * 2, "every chat's confirmation", || async {
        others
            .iter()
            .chain([&holder, &victim])
            .all(|user| bot_messages_with(&app, *user, SAVED) >= 1)
    })
    .await;
    eventually(WAIT, "every update job done", || async {
        scalar(
            &app,
            "select count(*) from jobs where queue = 'updates' and state <> 'done'",
        )
        .await
            == 0
    })
    .await;
    for user in others.iter().chain([&holder, &victim]) {
        assert_eq!(bot_messages_with(&app, *user, SAVED), 1, "answered once");
    }
    let victim_tasks =
        sqlx::query_scalar::<_, i64>("select count(*) from tasks where chat_id = $1")
            .bind(victim)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(victim_tasks, 1, "the victim's task saved once");
    assert_eq!(scalar(&app, "select count(*) from tasks").await, 5);
    let others_attempts = scalar(
        &app,
        "select max(j.attempts)::bigint from jobs j join updates u on u.id = (j.payload->>'inbox_id')::bigint
         where u.raw->'message'->>'text' like 'other %'",
    )
    .await;
    assert_eq!(
        others_attempts, 1,
        "the other chats' updates took one attempt each"
    );
    app.stop().await;
}

/// Locks `holder`'s chat row, has the holder write, and waits until the one transaction handling
/// updates waits on that lock: the updates written next join a batch that is held open until the
/// returned transaction ends.
async fn hold_the_batch_on(
    app: &TestApp,
    holder: i64,
) -> sqlx::Transaction<'static, sqlx::Postgres> {
    let mut lock = app.pool.begin().await.unwrap();
    sqlx::query("select 1 from chats where chat_id = $1 for update")
        .bind(holder)
        .execute(&mut *lock)
        .await
        .unwrap();
    app.sim.user_says(holder, "held up tomorrow 9:00").unwrap();
    eventually(WAIT, "the batch waiting on the lock", || async {
        scalar(
            app,
            "select count(*) from pg_stat_activity
             where wait_event_type = 'Lock' and datname = current_database()",
        )
        .await
            == 1
    })
    .await;
    lock
}

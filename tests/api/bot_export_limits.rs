//! What an `/export` costs and where it stops: its files are built when they are sent (the
//! outbox's jobs carry only which file), a chat asks at most once a minute, and a file over
//! MAX_DOCUMENT_BYTES is replaced by a message saying so.

use pgqueue::JobInfo;
use remindbot::store::OUTBOX_QUEUE;

use crate::app::{TestApp, text};

/// `user` saves `n` tasks, each `phrase` with its number, confirmed with `saved`.
async fn save(app: &TestApp, user: i64, n: usize, phrase: &str, saved: &str) {
    app.say(user, "/tz Asia/Tashkent").await;
    for i in 0..n {
        let card = app.say(user, &format!("{phrase} {i} tomorrow 9:00")).await;
        assert!(text(&card).contains(saved), "{card:?}");
    }
}

/// Every outbox job, all states.
async fn outbox_jobs(app: &TestApp) -> Vec<JobInfo> {
    pgqueue::list(&app.pool, OUTBOX_QUEUE, None, i64::MAX)
        .await
        .expect("the outbox's jobs")
}

#[tokio::test]
async fn an_exports_jobs_carry_no_file_and_a_second_export_within_a_minute_is_refused() {
    let mut app = TestApp::start().await;
    let ann = app.user("Ann", "en");
    save(
        &app,
        ann,
        20,
        "a task with a long enough text to weigh something",
        "Task saved",
    )
    .await;

    let files = app.say_expecting(ann, ann, "/export", 2).await;
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| {
            f.document
                .as_ref()
                .expect("a document")
                .file_size
                .unwrap_or(0)
        })
        .collect();
    assert!(sizes.iter().all(|size| *size > 2000), "{sizes:?}");
    let largest = outbox_jobs(&app)
        .await
        .iter()
        .map(|job| job.payload.to_string().len())
        .max()
        .unwrap();
    assert!(largest < 1000, "an outbox job of {largest} bytes");

    let again = app.say(ann, "/export").await;
    assert!(text(&again).contains("You can ask again in"), "{again:?}");
    // Only the two files of the first export left.
    let documents = app
        .sim
        .transcript(ann)
        .unwrap()
        .iter()
        .filter(|e| e.document.is_some())
        .count();
    assert_eq!(documents, 2);
    app.stop().await;
}

#[tokio::test]
async fn a_file_over_max_document_bytes_is_not_sent_and_the_user_is_told_why() {
    let mut app = TestApp::builder()
        .config(|c| c.delivery.max_document_bytes = 1500)
        .start()
        .await;
    let ann = app.user("Аня", "ru");
    save(
        &app,
        ann,
        20,
        "купить продукты по длинному списку",
        "Задача сохранена",
    )
    .await;

    let answers = app.say_expecting(ann, ann, "/export", 2).await;
    for answer in &answers {
        assert!(answer.document.is_none(), "{answer:?}");
        assert!(text(answer).contains("больше допустимых"), "{answer:?}");
    }
    assert!(text(&answers[0]).contains("tasks.ics"), "{answers:?}");
    assert!(text(&answers[1]).contains("tasks.csv"), "{answers:?}");
    app.stop().await;
}

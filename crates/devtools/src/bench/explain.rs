//! `bench explain`: the look-ups that run on every new task, every admin view and every
//! metrics refresh, measured on large tables. A fresh database gets `--rows` tasks, reminders and
//! jobs (90 % of the jobs pending in the future, 1 % failed, the rest done), a VACUUM ANALYZE, then
//! each statement of ours (on the bot's tables) runs under `EXPLAIN (ANALYZE)`: one line per
//! statement with the plan's nodes (an index scan or a sequential one) and the median execution
//! time. The queue's own reads behind the dashboards (depth, the failed list and count, the last
//! hour's outcomes) are the queue's business: they are timed as the API calls they are, and the
//! queue's tests check that indexes serve them.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use pgqueue::{FailedQuery, JobId, NewJob, QueueConfig, maintenance};
use serde_json::Value;
use sqlx::PgPool;

use devdb::stats::median;
use remindbot::store::outbox::OutboxJob;
use remindbot::store::{OUTBOX_QUEUE, ReminderJob, outbox_queue};

/// Options of `bench explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// Tasks, reminders and jobs to create (each).
    #[arg(long, default_value_t = 1_000_000)]
    pub rows: i64,
    /// Executions of each statement; the median is printed.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
}

/// One statement's plan and timing.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// What the statement is for.
    pub name: &'static str,
    /// The plan's nodes, outermost first, with the relation or index they read.
    pub nodes: Vec<String>,
    /// The median execution time reported by EXPLAIN ANALYZE, in milliseconds.
    pub median_ms: f64,
}

impl Explained {
    /// Whether any node reads one of the bot's tables sequentially.
    pub fn scans_a_table(&self) -> bool {
        self.nodes.iter().any(|node| {
            [
                "tasks",
                "reminders",
                "chats",
                "conversations",
                "admin_actions",
            ]
            .iter()
            .any(|table| *node == format!("Seq Scan on {table}"))
        })
    }
}

/// One of the queue's reads, timed as an API call.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    /// What the call is for.
    pub name: &'static str,
    /// Its median wall time, in milliseconds.
    pub median_ms: f64,
}

/// The statements measured, as the code runs them (`$1`, where a statement has it, is the job ids
/// of the failed list's first page).
const STATEMENTS: &[(&str, &str)] = &[
    (
        "open_tasks_of_owner (each new task)",
        "select count(*) from tasks where owner_id = 4242 and state = 'open'",
    ),
    (
        "admin_failed_reminders",
        "select r.job_id, t.id as task_id, t.text as task_text, t.chat_id, r.fire_at as due_at
         from reminders r left join tasks t on t.id = r.task_id
         where r.job_id = any($1)",
    ),
    (
        "stats_sent_last_hour",
        "select count(*),
                percentile_cont(0.5) within group (order by extract(epoch from sent_at - fire_at))
         from reminders where sent and sent_at > now() - interval '1 hour'",
    ),
    (
        "retention_finished_tasks",
        "select id from tasks
         where state in ('done', 'deleted') and updated_at < now() - interval '90 days'
         limit 5000",
    ),
    (
        "retention_sent_reminders",
        "select id from reminders where sent and sent_at < now() - interval '90 days' limit 5000",
    ),
];

/// Runs the benchmark on a fresh database on the server at `server_url`.
pub async fn run(args: &ExplainArgs, server_url: &str) -> anyhow::Result<()> {
    let database = crate::database::scratch(server_url).await?;
    let pool = database.pool(4).await?;
    let started = std::time::Instant::now();
    seed(&pool, args.rows).await?;
    println!(
        "bench=explain seeded rows={} ms={}",
        args.rows,
        started.elapsed().as_millis()
    );
    for explained in explain_all(&pool, args.runs).await? {
        println!(
            "bench=explain query={:?} ms={:.3} seq_scan_of_a_table={} plan={:?}",
            explained.name,
            explained.median_ms,
            explained.scans_a_table(),
            explained.nodes.join(" > ")
        );
    }
    for timed in time_queue_reads(&pool, args.runs).await? {
        println!(
            "bench=explain query={:?} ms={:.3} timed=api_call",
            timed.name, timed.median_ms
        );
    }
    Ok(())
}

/// Reminders (and their jobs) seeded per batch.
const SEED_BATCH: i64 = 10_000;
/// The error of the seeded failed jobs.
const SEED_ERROR: &str = "Forbidden: bot was blocked by the user";

/// Fills the tables: `rows` tasks over `rows / 10` chats (a tenth of them done), one reminder per
/// task with its job, enqueued through the queue in batches (1 % failed and 9 % done, claimed and
/// finished through the queue as delivery would; the rest pending over the next weeks, a few due
/// now), then VACUUM ANALYZE.
pub async fn seed(pool: &PgPool, rows: i64) -> anyhow::Result<()> {
    let chats = (rows / 10).max(1);
    for statement in [
        "insert into chats (chat_id, kind, lang, tz)
         select g, 'private', 'en', 'UTC' from generate_series(1, $2) g",
        "insert into tasks (chat_id, owner_id, text, due_at, tz, state, updated_at)
         select g % $2 + 1, g % $2 + 1, 'task ' || g, now() + (g % 40000) * interval '1 minute',
                'UTC', case when g % 10 = 0 then 'done' else 'open' end,
                now() - (g % 200) * interval '1 day'
         from generate_series(1, $1) g",
        "insert into reminders (task_id, due_at, fire_at, sent, sent_at)
         select t.id, t.due_at, t.due_at, t.id % 100 between 1 and 9,
                case when t.id % 100 between 1 and 9 then now() - (t.id % 200) * interval '1 day'
                end
         from tasks t",
    ] {
        sqlx::query(statement)
            .bind(rows)
            .bind(chats)
            .execute(pool)
            .await?;
    }
    let queue = outbox_queue(pool.clone(), QueueConfig::new(OUTBOX_QUEUE));
    let now: DateTime<Utc> = sqlx::query_scalar("select now()").fetch_one(pool).await?;
    let mut after = 0_i64;
    loop {
        let batch: Vec<(i64, i64)> =
            sqlx::query_as("select id, task_id from reminders where id > $1 order by id limit $2")
                .bind(after)
                .bind(SEED_BATCH)
                .fetch_all(pool)
                .await?;
        let Some(&(last, _)) = batch.last() else {
            break;
        };
        after = last;
        let task_of: HashMap<i64, i64> = batch.iter().copied().collect();
        // The jobs to finish fell due a day ago: the claim below takes them (oldest first) and
        // none of the pending ones, the earliest of which fell due a minute ago.
        let jobs: Vec<NewJob> = batch
            .iter()
            .map(|&(reminder_id, task)| {
                let run_at = match SeedFate::of(task) {
                    SeedFate::Fail | SeedFate::Complete => now - chrono::Duration::days(1),
                    SeedFate::Pending if task % 1000 == 50 => now - chrono::Duration::minutes(1),
                    SeedFate::Pending => now + chrono::Duration::minutes(task % 40000),
                };
                NewJob::of(&OutboxJob::Reminder(ReminderJob { reminder_id })).run_at(run_at)
            })
            .collect();
        let mut tx = pool.begin().await?;
        let ids = queue.enqueue_many(&mut tx, &jobs).await?;
        // Each reminder points at its job, matched by the job's payload.
        let (reminders, job_ids): (Vec<i64>, Vec<JobId>) = pgqueue::inspect_many(&mut *tx, &ids)
            .await?
            .iter()
            .filter_map(|job| Some((reminder_of(&job.payload)?, job.id)))
            .unzip();
        sqlx::query(
            "update reminders set job_id = u.job_id
             from unnest($1::bigint[], $2::bigint[]) as u(id, job_id) where reminders.id = u.id",
        )
        .bind(&reminders)
        .bind(&job_ids)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;

        let finishing = batch
            .iter()
            .filter(|(_, task)| SeedFate::of(*task) != SeedFate::Pending)
            .count();
        let claimed = queue.claim("seed", finishing as i64).await?;
        anyhow::ensure!(
            claimed.len() == finishing,
            "claimed {} of the {finishing} jobs to finish",
            claimed.len()
        );
        let mut done = Vec::with_capacity(claimed.len());
        for job in &claimed {
            let task = reminder_of(&job.payload).and_then(|r| task_of.get(&r).copied());
            match task.map(SeedFate::of) {
                Some(SeedFate::Fail) => queue.fail(pool, job, SEED_ERROR).await?,
                Some(SeedFate::Complete) => done.push((job.id, job.claim)),
                _ => anyhow::bail!("claimed job {} is not one to finish", job.id),
            }
        }
        let lost = queue.complete_many(&done).await?;
        anyhow::ensure!(lost.is_empty(), "{} completions were lost", lost.len());
    }
    // As autovacuum leaves a table in steady state: statistics fresh, visibility map set.
    sqlx::query("vacuum analyze").execute(pool).await?;
    Ok(())
}

/// What becomes of the seeded job of task `g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeedFate {
    /// 1 %: failed.
    Fail,
    /// 9 %: done (its reminder is sent).
    Complete,
    /// The rest: pending.
    Pending,
}

impl SeedFate {
    fn of(task: i64) -> Self {
        match task % 100 {
            0 => SeedFate::Fail,
            1..=9 => SeedFate::Complete,
            _ => SeedFate::Pending,
        }
    }
}

/// The reminder a seeded job delivers.
fn reminder_of(payload: &Value) -> Option<i64> {
    match serde_json::from_value::<OutboxJob>(payload.clone()).ok()? {
        OutboxJob::Reminder(job) => Some(job.reminder_id),
        OutboxJob::Message(_) | OutboxJob::Agenda(_) | OutboxJob::Export(_) => None,
    }
}

/// Runs every statement `runs` times under EXPLAIN ANALYZE.
pub async fn explain_all(pool: &PgPool, runs: usize) -> anyhow::Result<Vec<Explained>> {
    let failed_ids: Vec<JobId> = pgqueue::failed_jobs(pool, &first_failed_page())
        .await?
        .iter()
        .map(|job| job.id)
        .collect();
    let mut all = Vec::with_capacity(STATEMENTS.len());
    for (name, sql) in STATEMENTS {
        let mut times = Vec::with_capacity(runs);
        let mut nodes = Vec::new();
        for _ in 0..runs.max(1) {
            let explain = format!("explain (analyze, format json) {sql}");
            let query = sqlx::query_scalar(sqlx::AssertSqlSafe(explain));
            let query = if sql.contains("$1") {
                query.bind(&failed_ids)
            } else {
                query
            };
            let plan: Value = query.fetch_one(pool).await?;
            times.push(plan[0]["Execution Time"].as_f64().unwrap_or(f64::NAN));
            nodes.clear();
            collect_nodes(&plan[0]["Plan"], &mut nodes);
        }
        all.push(Explained {
            name,
            nodes,
            median_ms: median(&mut times),
        });
    }
    Ok(all)
}

/// The failed list's first page, as the admin page asks for it.
fn first_failed_page() -> FailedQuery {
    FailedQuery {
        limit: 50,
        ..FailedQuery::default()
    }
}

/// The queue's reads behind the metrics and the admin views.
#[derive(Clone, Copy, Debug)]
enum QueueRead {
    Depth,
    FailedList,
    FailedCount,
    RecentOutcomes,
}

impl QueueRead {
    const ALL: [QueueRead; 4] = [
        QueueRead::Depth,
        QueueRead::FailedList,
        QueueRead::FailedCount,
        QueueRead::RecentOutcomes,
    ];

    fn name(self) -> &'static str {
        match self {
            QueueRead::Depth => "queue_depth (metrics)",
            QueueRead::FailedList => "admin_failed_list",
            QueueRead::FailedCount => "admin_failed_count",
            QueueRead::RecentOutcomes => "stats_recent_outcomes",
        }
    }

    /// Makes the call as the bot does, discarding its answer.
    async fn call(self, pool: &PgPool) -> Result<(), pgqueue::QueueError> {
        match self {
            QueueRead::Depth => {
                maintenance::depth(pool, OUTBOX_QUEUE).await?;
            }
            QueueRead::FailedList => {
                pgqueue::failed_jobs(pool, &first_failed_page()).await?;
            }
            QueueRead::FailedCount => {
                pgqueue::count_failed(pool, None).await?;
            }
            QueueRead::RecentOutcomes => {
                pgqueue::recent_outcomes(pool, Duration::from_secs(3600)).await?;
            }
        }
        Ok(())
    }
}

/// Times each of the queue's reads behind the metrics and the admin views `runs` times.
pub async fn time_queue_reads(pool: &PgPool, runs: usize) -> anyhow::Result<Vec<Timed>> {
    let mut all = Vec::with_capacity(QueueRead::ALL.len());
    for read in QueueRead::ALL {
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs.max(1) {
            let started = Instant::now();
            read.call(pool).await?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        all.push(Timed {
            name: read.name(),
            median_ms: median(&mut times),
        });
    }
    Ok(all)
}

/// The plan's nodes, depth first: `Index Only Scan using tasks_open_by_owner on tasks`.
fn collect_nodes(plan: &Value, out: &mut Vec<String>) {
    let kind = plan["Node Type"].as_str().unwrap_or("?");
    let node = match (plan["Index Name"].as_str(), plan["Relation Name"].as_str()) {
        (Some(index), Some(table)) => format!("{kind} using {index} on {table}"),
        (None, Some(table)) => format!("{kind} on {table}"),
        _ => kind.to_owned(),
    };
    out.push(node);
    if let Some(children) = plan["Plans"].as_array() {
        for child in children {
            collect_nodes(child, out);
        }
    }
}

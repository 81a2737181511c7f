//! `remindbot bench explain`: the look-ups that run on every new task, every admin view and every
//! metrics refresh, measured on large tables. A fresh database gets `--rows` tasks, reminders and
//! jobs (90 % of the jobs pending in the future, 1 % failed, the rest done), a VACUUM ANALYZE, then each
//! statement runs under `EXPLAIN (ANALYZE)`: one line per statement with the plan's nodes (an
//! index scan or a sequential one) and the median execution time.

use serde_json::Value;
use sqlx::PgPool;

use super::median;
use crate::db;

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
    /// Whether the statement is only a reference point (what the code ran before), which is
    /// expected to scan.
    pub fn is_reference(&self) -> bool {
        self.name.starts_with("reference:")
    }

    /// Whether any node reads one of the project's tables sequentially.
    pub fn scans_a_table(&self) -> bool {
        self.nodes.iter().any(|node| {
            ["tasks", "reminders", "jobs", "job_attempts", "chats"]
                .iter()
                .any(|table| *node == format!("Seq Scan on {table}"))
        })
    }
}

/// The statements measured, as the code runs them (`$1` is a user, a queue or a limit).
const STATEMENTS: &[(&str, &str)] = &[
    (
        "open_tasks_of_owner (each new task)",
        "select count(*) from tasks where owner_id = 4242 and state = 'open'",
    ),
    (
        "admin_failed_list",
        "select j.id as job_id, j.queue, t.id as task_id, t.text as task_text, t.chat_id,
                r.fire_at as due_at, j.attempts, j.last_error, j.finished_at as failed_at
         from jobs j
         left join reminders r on r.job_id = j.id
         left join tasks t on t.id = r.task_id
         where j.state = 'failed'
         order by j.finished_at desc nulls last, j.id desc
         limit 50 offset 0",
    ),
    (
        "admin_failed_count",
        "select count(*) from jobs where state = 'failed'",
    ),
    (
        "depth_row_estimate (metrics)",
        "select reltuples::float8 from pg_class where oid = 'jobs'::regclass",
    ),
    (
        "depth_state_estimate (metrics)",
        "select v.state, v.freq::float8
         from pg_stats s,
              unnest(s.most_common_vals::text::text[], s.most_common_freqs) as v(state, freq)
         where s.schemaname = current_schema() and s.tablename = 'jobs' and s.attname = 'state'",
    ),
    (
        "depth_due_now (metrics)",
        "select (select count(*) from (select 1 from jobs
                  where queue = 'reminders' and state = 'pending' and run_at <= now()
                  limit 10000) due),
                (select extract(epoch from now() - min(run_at))::float8 from jobs
                  where queue = 'reminders' and state = 'pending' and run_at <= now())",
    ),
    (
        "stats_sent_last_hour",
        "select count(*),
                percentile_cont(0.5) within group (order by extract(epoch from sent_at - fire_at))
         from reminders where sent and sent_at > now() - interval '1 hour'",
    ),
    (
        "stats_failed_last_hour",
        "select count(*) from jobs
         where state = 'failed' and finished_at > now() - interval '1 hour'",
    ),
    (
        "reference: exact_state_counts (what metrics ran before)",
        "select s.state, count(j.id)
         from unnest(array['pending', 'running', 'done', 'failed', 'cancelled']) as s(state)
         left join jobs j on j.state = s.state
         group by s.state order by s.state",
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
    let database = db::scratch(server_url).await?;
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
    Ok(())
}

/// Fills the tables: `rows` tasks over `rows / 10` chats (a tenth of them done), one reminder per
/// task with its job (1 % failed an hour ago, 9 % done, the rest pending over the next weeks; a
/// few due now), then VACUUM ANALYZE.
pub async fn seed(pool: &PgPool, rows: i64) -> Result<(), sqlx::Error> {
    let chats = (rows / 10).max(1);
    for statement in [
        "insert into chats (chat_id, kind, lang, tz)
         select g, 'private', 'en', 'UTC' from generate_series(1, $2) g",
        "insert into tasks (chat_id, owner_id, text, due_at, tz, state, updated_at)
         select g % $2 + 1, g % $2 + 1, 'task ' || g, now() + (g % 40000) * interval '1 minute',
                'UTC', case when g % 10 = 0 then 'done' else 'open' end,
                now() - (g % 200) * interval '1 day'
         from generate_series(1, $1) g",
        "insert into jobs (queue, payload, run_at, state, attempts, claims, last_error,
                           finished_at)
         select 'reminders', jsonb_build_object('reminder_id', g),
                case when g % 1000 = 50 then now() - interval '1 minute'
                     else now() + (g % 40000) * interval '1 minute' end,
                case when g % 100 = 0 then 'failed'
                     when g % 100 < 10 then 'done' else 'pending' end,
                case when g % 100 < 10 then 1 else 0 end,
                case when g % 100 < 10 then 1 else 0 end,
                case when g % 100 = 0 then 'Forbidden: bot was blocked by the user' end,
                case when g % 100 < 10 then now() - (g % 200) * interval '1 day' end
         from generate_series(1, $1) g",
        "insert into reminders (task_id, due_at, fire_at, job_id, sent, sent_at)
         select t.id, t.due_at, t.due_at, t.id, t.id % 100 between 1 and 9,
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
    // As autovacuum leaves a table in steady state: statistics fresh, visibility map set.
    sqlx::query("vacuum analyze").execute(pool).await?;
    Ok(())
}

/// Runs every statement `runs` times under EXPLAIN ANALYZE.
pub async fn explain_all(pool: &PgPool, runs: usize) -> Result<Vec<Explained>, sqlx::Error> {
    let mut all = Vec::with_capacity(STATEMENTS.len());
    for (name, sql) in STATEMENTS {
        let mut times = Vec::with_capacity(runs);
        let mut nodes = Vec::new();
        for _ in 0..runs.max(1) {
            let explain = format!("explain (analyze, format json) {sql}");
            let plan: Value = sqlx::query_scalar(sqlx::AssertSqlSafe(explain))
                .fetch_one(pool)
                .await?;
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

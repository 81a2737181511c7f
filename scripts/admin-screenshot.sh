#!/usr/bin/env bash
# Opens the admin page in headless Chromium over a demo database with seeded failed reminders,
# signs in through the login form, checks that the failures and their reasons show, and saves a
# screenshot. Usage: scripts/admin-screenshot.sh [output.png]   (default target/admin-screenshot.png)
#
# Needs: PostgreSQL (DATABASE_URL, or the private cluster), psql, Node.js with npm, and Debian's
# chromium package (installed here with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-target/admin-screenshot.png}")
mkdir -p "$(dirname "$out")"

if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is not installed: sudo apt-get install chromium" >&2; exit 1
  fi
fi

cargo build --release --quiet -p remindbot
bin=target/release/remindbot
# DATABASE_URL's server, or the private cluster (started by the `devdb` binary).
if [ -n "${DATABASE_URL:-}" ]; then server=$DATABASE_URL
else server=$(RUST_LOG=warn cargo run -q -p devdb); fi
demo_db=remindbot_admin_demo
demo_url="${server%/*}/$demo_db"
psql -q -v ON_ERROR_STOP=1 "$server" -c "drop database if exists $demo_db with (force)" -c "create database $demo_db"
DATABASE_URL="$demo_url" RUST_LOG=warn "$bin" migrate

psql -q -v ON_ERROR_STOP=1 "$demo_url" <<'SQL'
insert into chats (chat_id, lang, tz) values
  (1001, 'en', 'Europe/Berlin'), (1002, 'ru', 'Europe/Moscow'), (1003, 'uz', 'Asia/Tashkent');
insert into tasks (chat_id, owner_id, text, due_at, tz) values
  (1001, 1001, 'Pay rent <by transfer> & keep the receipt', now() - interval '2 hours', 'Europe/Berlin'),
  (1002, 1002, 'Позвонить маме', now() - interval '50 minutes', 'Europe/Moscow'),
  (1003, 1003, 'Ertaga 18:00 sport', now() - interval '20 minutes', 'Asia/Tashkent');
insert into jobs (queue, payload, state, run_at, attempts, claims, last_error, finished_at)
select 'reminders', jsonb_build_object('reminder_id', t.id), 'pending', t.due_at, 0, 0, null, null
from tasks t;
insert into reminders (task_id, due_at, fire_at, job_id)
select t.id, t.due_at, t.due_at, j.id from tasks t join jobs j on (j.payload->>'reminder_id')::bigint = t.id;
-- Finish each job's attempts through the queue's own transitions, so the trigger keeps history.
update jobs set state = 'running', attempts = 1, claims = 1, locked_until = now() + interval '1 minute',
  claimed_at = now() - interval '30 minutes', locked_by = 'demo-worker';
update jobs set state = 'pending', last_error = 'Bad Gateway', locked_until = null where id in (select id from jobs);
update jobs set state = 'running', attempts = 2, claims = 2, locked_until = now() + interval '1 minute',
  claimed_at = now() - interval '10 minutes';
update jobs set state = 'failed', locked_until = null, finished_at = now() - interval '5 minutes',
  last_error = case (select chat_id from tasks t join reminders r on r.task_id = t.id where r.job_id = jobs.id)
    when 1001 then 'Forbidden: bot was blocked by the user'
    when 1002 then 'Bad Request: chat not found'
    else 'Forbidden: user is deactivated' end;
SQL

token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DATABASE_URL="$demo_url" ADMIN_TOKEN="$token" RUST_LOG=warn "$bin" admin serve --addr "127.0.0.1:$port" &
serve_pid=$!
trap 'kill $serve_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fs -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$port/admin" && break
  sleep 0.1
done

pw=target/playwright
[ -d "$pw/node_modules/playwright-core" ] || npm install --silent --prefix "$pw" playwright-core@1 >/dev/null
BASE="http://127.0.0.1:$port" TOKEN="$token" OUT="$out" PW="$(realpath "$pw")" node - <<'JS'
const { chromium } = require(`${process.env.PW}/node_modules/playwright-core`);
(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${process.env.BASE}/admin/login`);
  await page.fill('input[name=token]', process.env.TOKEN);
  await Promise.all([page.waitForURL('**/admin'), page.click('button[type=submit]')]);
  const body = await page.textContent('body');
  for (const reason of ['bot was blocked by the user', 'chat not found', 'user is deactivated']) {
    if (!body.includes(reason)) throw new Error(`the page does not show "${reason}"`);
  }
  await page.screenshot({ path: process.env.OUT, fullPage: true });
  await browser.close();
  console.log(`saved ${process.env.OUT}`);
})().catch((error) => { console.error(error); process.exit(1); });
JS

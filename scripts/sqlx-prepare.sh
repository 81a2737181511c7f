#!/usr/bin/env bash
# Writes the offline data of the compile-time checked SQL (`sqlx::query!` and friends) to .sqlx/,
# so that a build needs no database. With --check, only compares: exits 1 when .sqlx/ is stale
# (a query changed and its data was not regenerated), as CI does.
#
# Needs PostgreSQL: DATABASE_URL's server, or the private cluster (started by the `devdb` binary).
# A scratch database there gets every migration (the queue's, then the bot's), then the whole
# workspace is checked with the macros online, writing each query's data to a fresh folder.
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
[ "${1:-}" = "--check" ] && check=true

if [ -n "${DATABASE_URL:-}" ]; then server=$DATABASE_URL
else server=$(RUST_LOG=warn cargo run -q -p devdb); fi
db=remindbot_sqlx_prepare
export PGOPTIONS="-c client_min_messages=warning"
url="${server%/*}/$db"
psql -q -v ON_ERROR_STOP=1 "$server" -c "drop database if exists $db with (force)" -c "create database $db"
for migration in crates/pgqueue/migrations/*.sql migrations/*.sql; do
  psql -q -v ON_ERROR_STOP=1 "$url" -f "$migration" >/dev/null
done

out=$(mktemp -d)
trap 'rm -rf "$out"; psql -q "$server" -c "drop database if exists $db with (force)" >/dev/null' EXIT
# The macros run again only where their crate is rebuilt: touch every file that uses them.
grep -rlE 'query(_as|_scalar)?!' --include=*.rs src crates tests | xargs touch
DATABASE_URL="$url" SQLX_OFFLINE=false SQLX_OFFLINE_DIR="$out" \
  cargo check -q --workspace --all-targets --all-features

if $check; then
  if ! diff -r -q .sqlx "$out" >/dev/null 2>&1; then
    echo "the offline query data in .sqlx/ is stale: run scripts/sqlx-prepare.sh and commit .sqlx/" >&2
    diff -r -q .sqlx "$out" >&2 || true
    exit 1
  fi
  echo "sqlx: .sqlx/ is up to date ($(ls .sqlx | wc -l) queries)"
else
  rm -rf .sqlx
  cp -r "$out" .sqlx
  echo "sqlx: wrote $(ls .sqlx | wc -l) queries to .sqlx/"
fi

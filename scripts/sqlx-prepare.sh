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

queue_out=$(mktemp -d); product_out=$(mktemp -d)
trap 'rm -rf "$queue_out" "$product_out"; psql -q "$server" -c "drop database if exists $db with (force)" >/dev/null' EXIT
# The macros run again only where their crate is rebuilt: touch every file that uses them. The
# queue keeps its data in crates/pgqueue/.sqlx (it builds on its own, for other programs too);
# the product and its tests in the workspace's .sqlx.
check_online() { # <package> <out dir> <folders...>
  local package=$1 out=$2; shift 2
  grep -rlE 'query(_as|_scalar)?!' --include=*.rs "$@" | xargs -r touch
  DATABASE_URL="$url" SQLX_OFFLINE=false SQLX_OFFLINE_DIR="$out" \
    cargo check -q -p "$package" --all-targets --all-features
}
check_online pgqueue "$queue_out" crates/pgqueue
check_online remindbot "$product_out" src tests
for file in "$queue_out"/*; do rm -f "$product_out/$(basename "$file")"; done

stale=false
for pair in "crates/pgqueue/.sqlx:$queue_out" ".sqlx:$product_out"; do
  dir=${pair%%:*} out=${pair#*:}
  if $check; then
    if ! diff -r -q "$dir" "$out" >/dev/null 2>&1; then
      echo "the offline query data in $dir/ is stale: run scripts/sqlx-prepare.sh and commit it" >&2
      diff -r -q "$dir" "$out" >&2 || true
      stale=true
    else
      echo "sqlx: $dir/ is up to date ($(ls "$dir" | wc -l) queries)"
    fi
  else
    rm -rf "$dir"
    cp -r "$out" "$dir"
    echo "sqlx: wrote $(ls "$dir" | wc -l) queries to $dir/"
  fi
done
! $stale

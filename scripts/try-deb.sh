#!/usr/bin/env bash
# Installs the package built by scripts/build-deb.sh on this machine, runs the installed binary's
# self-check as the service's user (against the Bot API simulator and the local PostgreSQL),
# verifies the unit with systemd-analyze, and purges the package again, checking that nothing is
# left. Needs root, PostgreSQL on 127.0.0.1:5432 and the simulator's binary (target/debug/tgsim,
# which `cargo build` builds).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(ls -t target/debian/remindbot_*.deb | head -1)
token=123456:PackageCheckTokenPackageCheckToken
db=remindbot_package_check
echo "== dpkg -i $deb"
dpkg -i "$deb"
ls -l /usr/bin/remindbot /etc/remindbot/remindbot.env /usr/lib/systemd/system/remindbot.service
getent passwd remindbot
echo "== systemd-analyze verify"
systemd-analyze verify /usr/lib/systemd/system/remindbot.service
echo "== the installed binary's self-check, as the service's user"
target/debug/tgsim --addr 127.0.0.1:18181 --token "$token" >/dev/null 2>&1 &
sim=$!
psql -q postgres://postgres@127.0.0.1:5432/postgres -c "drop database if exists $db" -c "create database $db"
trap 'kill $sim 2>/dev/null || true; psql -q postgres://postgres@127.0.0.1:5432/postgres -c "drop database if exists $db with (force)"' EXIT
sleep 1
status=0
# From /, so that no .env of a checkout is read.
(cd / && runuser -u remindbot -- env TELOXIDE_TOKEN="$token" TELOXIDE_API_URL=http://127.0.0.1:18181 \
  DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" \
  /usr/bin/remindbot --env-file /etc/remindbot/remindbot.env check) || status=$?
echo "check exited $status"
echo "== apt-get purge"
apt-get purge -y -q remindbot >/dev/null
for left in /usr/bin/remindbot /etc/remindbot /usr/lib/systemd/system/remindbot.service; do
  if [ -e "$left" ]; then echo "left behind: $left" >&2; exit 1; fi
done
if getent passwd remindbot >/dev/null; then echo "the user is left behind" >&2; exit 1; fi
echo "purged: nothing left"
exit "$status"

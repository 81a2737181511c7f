#!/usr/bin/env bash
# Builds the Debian package, target/debian/remindbot_<version>-1_<arch>.deb, with cargo-deb
# (installed on first use): the production binary (the product crate's build, which has no
# simulator, sandbox, benchmarks or private cluster; stripped), the hardened systemd unit, and
# /etc/remindbot/remindbot.env made from .env.example, so that the two never disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null || cargo install cargo-deb --locked
mkdir -p target/deb-assets
python3 - .env.example > target/deb-assets/remindbot.env <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = text.replace(
    "# remindbot configuration. Copy to .env and edit;",
    "# The settings of the remindbot service (systemd reads this file; so does\n"
    "# `remindbot --env-file /etc/remindbot/remindbot.env check`). Edit, then\n"
    "# `systemctl restart remindbot`;",
)
# A server has no private cluster: the database URL is set, the dev tools' settings go.
cluster = re.compile(r"# PostgreSQL URL:.*?# PG_BIN=[^\n]*\n", re.S)
text, n = cluster.subn(
    "# PostgreSQL URL (required). Create the database first:\n"
    "#   sudo -u postgres createuser remindbot && sudo -u postgres createdb -O remindbot remindbot\n"
    "DATABASE_URL=postgres://remindbot@%2Fvar%2Frun%2Fpostgresql/remindbot\n",
    text,
)
assert n == 1, "the private cluster's block of .env.example moved"
text = text.replace(
    "# TELOXIDE_TOKEN_FILE=/run/secrets/teloxide_token",
    "# TELOXIDE_TOKEN_FILE=/etc/remindbot/token",
)
sys.stdout.write(text)
PY
cargo build --release --locked -p remindbot
cargo deb -p remindbot --no-build --strip
ls -l target/debian/*.deb

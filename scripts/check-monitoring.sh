#!/usr/bin/env bash
# Validates the monitoring that ships in deploy/: the alert rules (`promtool check rules`), their
# unit tests (`promtool test rules`), and every PromQL expression of the Grafana dashboard (each
# checked as a recording rule). Needs promtool (Debian: apt-get install prometheus).
set -euo pipefail
cd "$(dirname "$0")/../deploy"
promtool check rules prometheus/remindbot-alerts.yml
(cd prometheus && promtool test rules remindbot-alerts.test.yml)
rules=$(mktemp --suffix=.yml)
trap 'rm -f "$rules"' EXIT
python3 - grafana/remindbot-dashboard.json > "$rules" <<'PY'
import json, sys
dashboard = json.load(open(sys.argv[1]))
print("groups:\n  - name: dashboard\n    rules:")
for panel in dashboard["panels"]:
    for target in panel["targets"]:
        name = f"dashboard:panel{panel['id']}:{target['refId']}"
        print(f"      - record: {name}\n        expr: {json.dumps(target['expr'])}")
PY
echo "the dashboard's expressions:"
promtool check rules "$rules"

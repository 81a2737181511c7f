#!/usr/bin/env bash
# Records every SQL statement of a release (its committed .sqlx data: the text, the result
# columns and the parameter types) in tests/fixtures/previous-release/queries.json. The test
# `upgrades::the_previous_releases_queries_run_unchanged_against_the_new_schema` describes each
# against today's migrations: a release whose migrations would break the replicas still running
# the previous one fails it. Run it with the release's commit whenever a release is cut.
set -euo pipefail
cd "$(dirname "$0")/.."
release=${1:?usage: scripts/snapshot-release-queries.sh <commit of the previous release>}
out=tests/fixtures/previous-release/queries.json
mkdir -p "$(dirname "$out")"
python3 - "$release" > "$out" <<'PY'
import json, subprocess, sys
release = sys.argv[1]
def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout
queries = []
for folder in (".sqlx", "crates/pgqueue/.sqlx"):
    for path in sorted(git("ls-tree", "--name-only", f"{release}:{folder}").split()):
        data = json.loads(git("show", f"{release}:{folder}/{path}"))
        describe = data["describe"]
        params = describe["parameters"].get("Left", [])
        queries.append({
            "query": data["query"],
            "columns": [{"name": c["name"], "type": c["type_info"]} for c in describe["columns"]],
            "parameters": params,
        })
commit = git("rev-parse", release).strip()
json.dump({"release": commit, "queries": queries}, sys.stdout, indent=1, ensure_ascii=False)
print()
PY
echo "recorded $(grep -c '"query"' "$out") statements of $release in $out"

#!/usr/bin/env bash
# The open model's cost: Fusillade's `run` in rate mode against pgbench -R, one prepared point
# select on pgbench_accounts per arrival, on one PostgreSQL, at each of RATES (default 2000 20000).
# What it measures is the injector's CPU per request at a constant arrival rate (the load most
# tests use), not the most a closed loop can push (that is sql-vs-pgbench.sh).
# Each tool runs twice per rate and round, SHORT and LONG seconds (default 10 and 40): the CPU of
# the difference divided by the requests of the difference is the marginal cost per request, which
# leaves out what does not grow with the run (a JVM's start and JIT warm-up, the schema check,
# writing the report's fixed part). ROUNDS rounds (default 2) alternate the tools, pgbench first in
# odd rounds and last in even ones (ABBA), because a shared machine's speed drifts over minutes.
# Printed per rate: the median marginal CPU s per 10,000 requests of each tool and their ratio;
# Fusillade's requests failed by the injector's own limits (queue full, late), its requests that
# failed at the server, and its wall time beyond the load's duration (start to first request, last
# request to the printed report).
# ENGINE (default native) is Fusillade's SQL engine, CLIENTS (default 8) pgbench's clients and
# Fusillade's connections.
# Usage: simulations/bench/sql-open-vs-pgbench.sh [ROUNDS]   (after: mvn -B -q install -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
RATES=${RATES:-2000 20000}
SHORT=${SHORT:-10}
LONG=${LONG:-40}
SCALE=${SCALE:-10}
ENGINE=${ENGINE:-native}
CLIENTS=${CLIENTS:-8}
source simulations/bench/local-postgres.sh
"$PGBIN/pgbench" -h 127.0.0.1 -p "$PGPORT" -U postgres -i -s "$SCALE" -q postgres >/dev/null 2>&1
"$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -q -c "vacuum analyze" -c checkpoint postgres

WORK=$(mktemp -d)
OUT=$WORK/out
RESULTS=$WORK/results
trap 'rm -rf "$WORK"; stop_postgres' EXIT
cat >"$WORK/point.yml" <<EOF
config_name: point-select
seed: 7
queries:
  - name: point
    sql: select abalance from pgbench_accounts where aid = \$1
    params:
      - {type: Integer, distribution: uniform, range: [1, $((SCALE * 100000))]}
load:
  mode: rate
checks: []
EOF

measure() { # COMMAND...: "cpu-seconds wall-seconds" of a finished command, its output in $OUT
  local TIMEFORMAT='%U %S %R'
  { time "$@" >"$OUT" 2>&1; } 2>&1 | awk '{print $1 + $2, $3}'
}

pgbench_run() { # RATE SECONDS: prints "cpu wall requests 0 0"
  local m requests
  m=$(measure "$PGBIN/pgbench" -h 127.0.0.1 -p "$PGPORT" -U postgres -S -M prepared \
    -c "$CLIENTS" -j 2 -R "$1" -T "$2" postgres)
  requests=$(grep -oP 'number of transactions actually processed: \K[0-9]+' "$OUT")
  echo "$m $requests 0 0"
}

fusillade_run() { # RATE SECONDS: prints "cpu wall requests injector-KO server-KO"
  local m
  rm -rf "$WORK/runs"
  m=$(measure java -jar simulations/target/fusillade.jar run "$WORK/point.yml" --url "$PGURL" \
    --setup false --engine "$ENGINE" --pool "$CLIENTS" --rate "$1" --duration "$2s" \
    --output "$WORK/runs")
  # the report's summary.json: per request name, its count and its failures by whose they are
  python3 - "$(find "$WORK/runs" -name summary.json | head -1)" "$m" <<'PY'
import json, sys
r = next(q for q in json.load(open(sys.argv[1]))["requests"] if q["name"] == "point")
ko = r["koByClass"]
print(sys.argv[2], r["count"], ko["injector"], ko["server"] + ko["network"])
PY
}

record() { sed "s/\$/ $1 $2 $round/" | tee -a "$RESULTS"; } # TOOL LENGTH
echo "Fusillade runs on: $(java -version 2>&1 | head -1); pgbench: $("$PGBIN/pgbench" --version)"
echo "columns: cpu-s wall-s requests injector-KO server-KO tool length round; rate $RATES"
for rate in $RATES; do
  for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then
      pgbench_run "$rate" "$SHORT" | record "pgbench-$rate" short
      pgbench_run "$rate" "$LONG" | record "pgbench-$rate" long
    fi
    fusillade_run "$rate" "$SHORT" | record "fusillade-$rate" short
    fusillade_run "$rate" "$LONG" | record "fusillade-$rate" long
    if ((round % 2 == 0)); then
      pgbench_run "$rate" "$SHORT" | record "pgbench-$rate" short
      pgbench_run "$rate" "$LONG" | record "pgbench-$rate" long
    fi
  done
done

echo
python3 - "$RESULTS" "$LONG" "$ENGINE" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
long_seconds = float(sys.argv[2])
runs = {}
for cpu, wall, req, inj, srv, tool, length, rnd in rows:
    runs.setdefault((tool, rnd), {})[length] = (float(cpu), float(wall), int(req), int(inj), int(srv))
def marginal(tool):
    out = []
    for (t, _), r in runs.items():
        if t == tool and "short" in r and "long" in r:
            (c1, _, n1, _, _), (c2, _, n2, _, _) = r["short"], r["long"]
            out.append((c2 - c1) * 10000 / (n2 - n1))
    return statistics.median(out)
rates = sorted({t.split("-")[1] for t, _ in runs}, key=int)
print("median over rounds of the marginal CPU s per 10,000 requests (JVM start excluded)")
for rate in rates:
    p, f = marginal("pgbench-" + rate), marginal("fusillade-" + rate)
    longs = [r["long"] for (t, _), r in runs.items() if t == "fusillade-" + rate and "long" in r]
    print(f"  {rate}/s: pgbench -R {p:.3f}, Fusillade {sys.argv[3]} {f:.3f}: {f / p:.2f}x pgbench")
    print(f"    Fusillade's {long_seconds:.0f} s runs: "
          f"{statistics.median(l[1] for l in longs) - long_seconds:.1f} s of wall time outside the load, "
          f"injector KO {max(l[3] for l in longs)}, server KO {max(l[4] for l in longs)} (worst round)")
PY

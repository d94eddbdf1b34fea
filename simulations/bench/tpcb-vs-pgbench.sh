#!/usr/bin/env bash
# Fusillade's TPC-B-like workload (workloads/tpcb.yml, from YAML with `fusillade run`) beside
# pgbench's built-in TPC-B-like script (pgbench -b tpcb-like -M prepared), the closest shape to the
# OLTP workloads (workloads/tpcc.yml) that a peer runs here: the same five statements a
# transaction, on the same tables (pgbench -i -s SCALE), on one server, Fusillade's own embedded
# PostgreSQL (io.fusillade.bench.EmbeddedPostgresMain, the server `fusillade run` starts), at one
# constant arrival rate (pgbench -R, Fusillade's rate mode: both count latency from each
# transaction's scheduled start). ROUNDS rounds (default 2) alternate the tools, pgbench first in
# odd rounds and last in even ones (ABBA), because a shared machine's speed drifts over minutes.
# Each tool runs SHORT and LONG seconds (default 10 and 40) per round: the latencies and rates are
# the long run's, the CPU the short run's subtracted from the long one's, per transaction of the
# difference: the marginal cost, without what does not grow with a run (a JVM's start and JIT
# warm-up, the report).
# Printed per tool, medians over the rounds: the transactions completed per second, latency p50
# and p99 (pgbench's from its per-transaction log: time plus schedule lag), failed transactions,
# and the load generator's marginal CPU seconds per 10,000 transactions; then Fusillade's ratios to
# pgbench.
# RATE (default 500), SCALE (default 10: 10 branches, 1M accounts), CLIENTS (default 8: pgbench's
# clients, Fusillade's connections), ENGINES (default "jdbc native": JDBC sends each statement and
# the commit as pgbench does, a round trip each; the native engine sends the whole transaction at
# once).
# Usage: simulations/bench/tpcb-vs-pgbench.sh [ROUNDS]
#   (after: mvn -B -q install -DskipTests, which also compiles the test classes it starts the
#   server with)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
RATE=${RATE:-500}
SHORT=${SHORT:-10}
LONG=${LONG:-40}
SCALE=${SCALE:-10}
CLIENTS=${CLIENTS:-8}
ENGINES=${ENGINES:-jdbc native}
if ! command -v pgbench >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/pgbench >/dev/null 2>&1; then
  echo "installing Debian's PostgreSQL client (for pgbench)..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PGBIN=$(dirname "$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench | sort -V | tail -1)")
CP="simulations/target/fusillade.jar:simulations/target/test-classes"

WORK=$(mktemp -d)
# The embedded server runs until its input closes: the coprocess's input is ours.
coproc PG { exec java -cp "$CP" io.fusillade.bench.EmbeddedPostgresMain; }
PG_IN=${PG[1]}
PG_PID=$PG_PID
cleanup() {
  exec {PG_IN}>&- 2>/dev/null || true
  wait "$PG_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
read -r line <&"${PG[0]}"
PGPORT=${line#port=}
read -r line <&"${PG[0]}"
PGURL=${line#url=}
PGARGS=(-h localhost -p "$PGPORT" -U postgres)
"$PGBIN/pgbench" "${PGARGS[@]}" -i -s "$SCALE" -q postgres >/dev/null 2>&1
# Settle the fresh tables before round 1 (autovacuum's analyze, the checkpoint, cold caches).
"$PGBIN/psql" "${PGARGS[@]}" -q -c "vacuum analyze" -c checkpoint postgres
"$PGBIN/pgbench" "${PGARGS[@]}" -b tpcb-like -M prepared -c "$CLIENTS" -j 2 -T 5 postgres \
  >/dev/null 2>&1
RESULTS=$WORK/results

cpu_of() { # COMMAND...: the user+system CPU seconds it used; its output in $WORK/out
  local TIMEFORMAT='%U %S'
  { time "$@" >"$WORK/out" 2>&1; } 2>&1 | awk '{print $1 + $2}'
}

pgbench_run() { # SECONDS: prints "tx/s p50-ms p99-ms failed cpu-s transactions"
  local cpu done_tx failed
  rm -f "$WORK"/pgbench_log.*
  cpu=$(cd "$WORK" && cpu_of "$PGBIN/pgbench" "${PGARGS[@]}" -b tpcb-like -M prepared \
    -c "$CLIENTS" -j 2 -R "$RATE" -T "$1" -l postgres)
  done_tx=$(grep -oP 'number of transactions actually processed: \K[0-9]+' "$WORK/out")
  failed=$(grep -oP 'number of failed transactions: \K[0-9]+' "$WORK/out" || echo 0)
  # per transaction: client, number, time (us), script, epoch, us, lag (us): latency from the
  # scheduled start is time + lag
  cat "$WORK"/pgbench_log.* | python3 -c '
import sys
lat = sorted((int(f[2]) + int(f[6])) / 1000 for f in (l.split() for l in sys.stdin) if len(f) >= 7)
pick = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]
n, seconds = int(sys.argv[1]), float(sys.argv[2])
print(n / seconds, pick(0.5), pick(0.99), sys.argv[3], sys.argv[4], n)' \
    "$done_tx" "$1" "$failed" "$cpu"
}

fusillade_run() { # ENGINE SECONDS: prints "tx/s p50-ms p99-ms failed cpu-s transactions"
  local cpu
  rm -rf "$WORK/runs"
  cpu=$(cpu_of java -Dfusillade.scale="$SCALE" -jar simulations/target/fusillade.jar run \
    workloads/tpcb.yml --url "$PGURL" --setup false --engine "$1" --pool "$CLIENTS" \
    --rate "$RATE" --duration "${2}s" --output "$WORK/runs")
  python3 - "$(find "$WORK/runs" -name summary.json | head -1)" "$cpu" "$2" <<'PY'
import json, sys
r = next(q for q in json.load(open(sys.argv[1]))["requests"] if q["name"] == "tpcb")
ko = sum(r["koByClass"].values())
print((r["count"] - ko) / float(sys.argv[3]), r["p50Ms"], r["p99Ms"], ko, sys.argv[2], r["count"])
PY
}

tool_round() { # TOOL: its short and long runs, one line each: "TOOL short|long ..."
  local length seconds
  for length in short long; do
    seconds=$SHORT
    [ "$length" = long ] && seconds=$LONG
    if [ "$1" = pgbench ]; then
      echo "pgbench $length $(pgbench_run "$seconds")"
    else
      echo "$1 $length $(fusillade_run "$1" "$seconds")"
    fi
  done
}

echo "Fusillade runs on: $(java -version 2>&1 | head -1); $("$PGBIN/pgbench" --version)"
echo "server: Fusillade's embedded PostgreSQL, $("$PGBIN/psql" "${PGARGS[@]}" -tA -c 'show server_version' postgres)"
echo "columns: tool length tx/s p50-ms p99-ms failed cpu-s transactions round; $RATE tx/s, scale $SCALE, $CLIENTS clients"
record() { sed "s/\$/ $round/" | tee -a "$RESULTS"; }
for round in $(seq "$ROUNDS"); do
  if ((round % 2)); then tool_round pgbench | record; fi
  for engine in $ENGINES; do
    tool_round "$engine" | record
  done
  if ((round % 2 == 0)); then tool_round pgbench | record; fi
done

echo
python3 - "$RESULTS" "$ROUNDS" "$RATE" "$LONG" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
tools = []
for r in rows:
    if r[0] not in tools:
        tools.append(r[0])
def runs(tool, length):
    return {r[8]: [float(x) for x in r[2:8]] for r in rows if r[0] == tool and r[1] == length}
med = {}
for t in tools:
    short, long_ = runs(t, "short"), runs(t, "long")
    cpu = [(long_[k][4] - short[k][4]) * 10000 / (long_[k][5] - short[k][5]) for k in long_ if k in short]
    med[t] = [statistics.median(v[c] for v in long_.values()) for c in range(4)] + [statistics.median(cpu)]
print(f"median of {sys.argv[2]} rounds, {sys.argv[3]} transactions/s for {sys.argv[4]} s"
      "    tx/s   p50 ms   p99 ms  failed  CPU s per 10,000 tx (marginal)")
for t in tools:
    name = "pgbench -b tpcb-like -M prepared -R" if t == "pgbench" else f"Fusillade {t}, workloads/tpcb.yml"
    tps, p50, p99, failed, cpu = med[t]
    print(f"  {name:53} {tps:6.0f} {p50:8.2f} {p99:8.2f} {failed:7.0f}  {cpu:.2f}")
for t in tools:
    if t != "pgbench":
        p, f = med["pgbench"], med[t]
        print(f"  Fusillade {t} / pgbench: p50 {f[1] / p[1]:.2f}x, p99 {f[2] / p[2]:.2f}x, CPU {f[4] / p[4]:.2f}x")
PY

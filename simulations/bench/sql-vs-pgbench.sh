#!/usr/bin/env bash
# Fusillade against pgbench on one PostgreSQL: 8 closed-model clients running a prepared point
# select (pgbench -S -M prepared -c 8 -j 2), one after the other, SECONDS each.
# Prints both rates, the ratio, and the CPU seconds each load generator used per 10,000 requests.
# Usage: simulations/bench/sql-vs-pgbench.sh [SECONDS]   (after: mvn -B -q install -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-30}
SCALE=${SCALE:-10}
source simulations/bench/local-postgres.sh
"$PGBIN/pgbench" -h 127.0.0.1 -p "$PGPORT" -U postgres -i -s "$SCALE" -q postgres >/dev/null 2>&1

cpu_of() { # user+system CPU seconds of a finished command, from bash's time
  local TIMEFORMAT='%U %S'
  { time "$@" >"$OUT" 2>&1; } 2>&1 | awk '{print $1 + $2}'
}

OUT=$(mktemp)
pg_cpu=$(cpu_of "$PGBIN/pgbench" -h 127.0.0.1 -p "$PGPORT" -U postgres -S -M prepared -c 8 -j 2 -T "$SECONDS_EACH" postgres)
pg_tps=$(grep -oP 'tps = \K[0-9.]+' "$OUT" | head -1)
pg_requests=$(grep -oP 'number of transactions actually processed: \K[0-9]+' "$OUT")

RUNS=$(mktemp -d)
classpath="simulations/target/fusillade.jar:simulations/target/test-classes"
fu_cpu=$(cpu_of java -Xmx1g -XX:+UseParallelGC --add-opens=java.base/java.lang=ALL-UNNAMED \
  -Dfusillade.runs.dir="$RUNS" -Dsql.url="$PGURL" -Dclients=8 -Dduration="${SECONDS_EACH}s" -Dscale="$SCALE" \
  -cp "$classpath" io.gatling.app.Gatling -s io.fusillade.bench.PointSelectSimulation -rf "$RUNS/gatling" -nr)
run_dir=$(ls -d "$RUNS"/PointSelectSimulation-* | head -1)
summary=$(java -jar simulations/target/fusillade.jar summary "$run_dir")
fu_requests=$(echo "$summary" | awk '$1 == "point" {print $3}')
fu_rate=$(echo "$summary" | awk '$1 == "point" {print $5}')

awk -v pt="$pg_tps" -v pr="$pg_requests" -v pc="$pg_cpu" -v ft="$fu_rate" -v fr="$fu_requests" -v fc="$fu_cpu" 'BEGIN {
  printf "pgbench -S -M prepared -c 8 -j 2: %8.0f requests/s, %.2f CPU s per 10,000 requests\n", pt, pc * 10000 / pr
  printf "Fusillade, 8 closed-model users:  %8.0f requests/s, %.2f CPU s per 10,000 requests (JVM start included)\n", ft, fc * 10000 / fr
  printf "ratio Fusillade / pgbench: %.2fx (goal >= 0.80x)\n", ft / pt
}'
rm -rf "$RUNS" "$OUT"

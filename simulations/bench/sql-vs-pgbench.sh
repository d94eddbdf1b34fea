#!/usr/bin/env bash
# Fusillade against pgbench on one PostgreSQL: 8 closed-model clients running a prepared point
# select (pgbench -S -M prepared -c 8 -j 2), one after the other, SECONDS each: pgbench, then
# Fusillade with its native engine, then with its JDBC engine.
# Prints the rates, the ratios, and the CPU seconds each load generator used per 10,000 requests.
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
fusillade() { # ENGINE: prints "requests rate cpu-seconds"
  local engine=$1 cpu run_dir summary
  # One Gatling event loop per core, as pgbench -j 2 has one thread per core (Gatling's default, two
  # per core, only adds thread switches on a 2-core machine).
  cpu=$(cpu_of java -Xmx1g -XX:+UseParallelGC --add-opens=java.base/java.lang=ALL-UNNAMED \
    -Dio.netty.eventLoopThreads="$(nproc)" \
    -Dfusillade.runs.dir="$RUNS/$engine" -Dsql.url="$PGURL" -Dclients=8 -Dduration="${SECONDS_EACH}s" \
    -Dscale="$SCALE" -Dengine="$engine" \
    -cp "$classpath" io.gatling.app.Gatling -s io.fusillade.bench.PointSelectSimulation -rf "$RUNS/gatling" -nr)
  run_dir=$(ls -d "$RUNS/$engine"/PointSelectSimulation-* | head -1)
  summary=$(java -jar simulations/target/fusillade.jar summary "$run_dir")
  echo "$summary" | awk -v cpu="$cpu" '$1 == "point" {print $3, $5, cpu, $4}'
}
read -r nat_requests nat_rate nat_cpu nat_ko < <(fusillade native)
read -r jdbc_requests jdbc_rate jdbc_cpu jdbc_ko < <(fusillade jdbc)

awk -v pt="$pg_tps" -v pr="$pg_requests" -v pc="$pg_cpu" \
  -v nt="$nat_rate" -v nr="$nat_requests" -v nc="$nat_cpu" -v nk="$nat_ko" \
  -v jt="$jdbc_rate" -v jr="$jdbc_requests" -v jc="$jdbc_cpu" -v jk="$jdbc_ko" 'BEGIN {
  printf "pgbench -S -M prepared -c 8 -j 2:   %8.0f requests/s, %.3f CPU s per 10,000 requests\n", pt, pc * 10000 / pr
  printf "Fusillade, native engine, 8 users: %8.0f requests/s, %.3f CPU s per 10,000 requests, %d KO\n", nt, nc * 10000 / nr, nk
  printf "Fusillade, JDBC engine, 8 users:   %8.0f requests/s, %.3f CPU s per 10,000 requests, %d KO\n", jt, jc * 10000 / jr, jk
  printf "(Fusillade CPU includes its JVM start, about 3 CPU s)\n"
  printf "ratio native / pgbench: %.2fx (goal >= 0.80x); JDBC / pgbench: %.2fx\n", nt / pt, jt / pt
}'
rm -rf "$RUNS" "$OUT"

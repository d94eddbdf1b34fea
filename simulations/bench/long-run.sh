#!/usr/bin/env bash
# A long run: `fusillade run` of a point select at RATE per second (default 1000) for DURATION
# (default 30m) against the embedded PostgreSQL the run starts itself. Every SAMPLE seconds
# (default 30) it samples the run directory's size and the Gatling JVM's heap after a full GC
# (jcmd GC.run, then jstat -gc: the live set, not the garbage waiting for the next collection;
# FORCE_GC=0 reads the old generation as it is instead, without the one full GC per sample).
# At the end it prints the record's bytes per second of run and per file, each file's growth per
# second over the run, and the heap after GC over time: first, middle, last and the slope
# (KB per minute, least squares over the samples after the first minute). A bounded record grows
# by the same number of bytes every second; a flat heap has a slope near 0.
# Usage: simulations/bench/long-run.sh [RATE] [DURATION]   (after: mvn -B -q install -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
RATE=${1:-1000}
DURATION=${2:-30m}
SAMPLE=${SAMPLE:-30}
FORCE_GC=${FORCE_GC:-1}
[ -f simulations/target/fusillade.jar ] || { echo "build first: mvn -B -q install -DskipTests" >&2; exit 2; }

WORK=$(mktemp -d /tmp/fusillade-long-run.XXXXXX)
cleanup() {
  if [ -n "${CLI:-}" ] && kill -0 "$CLI" 2>/dev/null; then kill "$CLI" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
cat >"$WORK/long-run.yml" <<YAML
config_name: long-run
seed: 42
tables_schema:
  - name: accounts
    row_count: 100000
    columns:
      - {name: id, type: integer, range: [1, 100000], unique: true}
      - {name: owner, type: string, alphabet: [en], length: [8, 16]}
      - {name: balance, type: decimal, precision: 12, scale: 2, range: [0, 100000]}
    primary_keys: [id]
queries:
  - name: account by id
    sql: select id, owner, balance from accounts where id = \$1::integer
    params:
      - {type: integer, distribution: zipf, distribution_param: 1.1, range: [1, 100000]}
    count: 100000
YAML

OUT="$WORK/out"
./fusillade run "$WORK/long-run.yml" --mode rate --rate "$RATE" --duration "$DURATION" \
  --output "$OUT" >"$WORK/console.txt" 2>&1 &
CLI=$!

# The Gatling JVM is the CLI's child running io.fusillade.gatling.GatlingMain (Gatling's launcher);
# the record is its run directory.
GATLING=""
for _ in $(seq 300); do
  GATLING=$(pgrep -P "$CLI" -f io.fusillade.gatling.GatlingMain | head -1 || true)
  RUN_DIR=$(ls -d "$OUT"/SqlRateRun-* 2>/dev/null | head -1 || true)
  [ -n "$GATLING" ] && [ -n "$RUN_DIR" ] && break
  kill -0 "$CLI" 2>/dev/null || break
  sleep 1
done
if [ -z "$GATLING" ] || [ -z "${RUN_DIR:-}" ]; then
  cat "$WORK/console.txt" >&2
  echo "long-run: the run did not start" >&2
  exit 1
fi
echo "run $RUN_DIR, Gatling JVM $GATLING, $RATE/s for $DURATION, a sample every ${SAMPLE}s"

heap_kb() { # the Gatling JVM's heap in use (KB): after a full GC unless FORCE_GC=0
  if [ "$FORCE_GC" = 1 ]; then jcmd "$GATLING" GC.run >/dev/null 2>&1 || return 1; fi
  # S0U S1U EU OU: the used parts of the survivor, eden and old spaces
  jstat -gc "$GATLING" 2>/dev/null | awk 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i}
    NR == 2 {printf "%.0f\n", $c["S0U"] + $c["S1U"] + $c["EU"] + $c["OU"]}'
}
size_of() { stat -c %s "$RUN_DIR/$1" 2>/dev/null || echo 0; }

START=$(date +%s)
printf '%8s %12s %14s %14s %12s\n' elapsed record-bytes counters-bytes hlog-bytes heap-KB
while kill -0 "$GATLING" 2>/dev/null; do
  sleep "$SAMPLE"
  # Only while the load runs: Gatling's report at the end is another heap.
  grep -q '"status" : "running"' "$RUN_DIR/run.json" 2>/dev/null || break
  heap=$(heap_kb) || break
  now=$(($(date +%s) - START))
  line="$now $(du -sb "$RUN_DIR" | cut -f1) $(size_of counters.jsonl) $(size_of latency.hlog) $heap"
  echo "$line" >>"$WORK/samples"
  printf '%8s %12s %14s %14s %12s\n' $line
done
wait "$CLI" && code=0 || code=$?
tail -25 "$WORK/console.txt"
echo "fusillade run exit code $code"

[ -s "$WORK/samples" ] || { echo "long-run: no sample taken (a run shorter than ${SAMPLE}s?)" >&2; exit 1; }
seconds=$(grep -oP '^  "durationSeconds" : \K[0-9.]+' "$RUN_DIR/run.json" || echo 0)
echo
echo "record after $seconds s of run (report/ excluded: written once, at the end):"
total=0
for f in "$RUN_DIR"/*; do
  [ -f "$f" ] || continue
  b=$(stat -c %s "$f")
  total=$((total + b))
  awk -v n="$(basename "$f")" -v b="$b" -v s="$seconds" \
    'BEGIN {r = s > 0 ? b / s : 0; printf "  %-16s %12d bytes  %9.1f bytes/s of run\n", n, b, r}'
done
awk -v b="$total" -v s="$seconds" 'BEGIN {r = s > 0 ? b / s : 0; printf "  %-16s %12d bytes  %9.1f bytes/s of run\n", "total", b, r}'
# Growth per second between samples: equal from the first to the last when it is bounded.
awk 'NR > 1 {dt = $1 - t; printf "%s %.1f %.1f\n", $1, ($3 - c) / dt, ($4 - h) / dt} {t = $1; c = $3; h = $4}' \
  "$WORK/samples" >"$WORK/growth"
if [ -s "$WORK/growth" ]; then
  awk '{v[NR] = $0} END {
      split(v[1], a); split(v[int((NR + 1) / 2)], m); split(v[NR], z)
      printf "growth per second   first (%ss)  middle (%ss)  last (%ss)\n", a[1], m[1], z[1]
      printf "  counters.jsonl    %10.1f  %12.1f  %10.1f bytes/s\n", a[2], m[2], z[2]
      printf "  latency.hlog      %10.1f  %12.1f  %10.1f bytes/s\n", a[3], m[3], z[3]
    }' "$WORK/growth"
fi
awk -v gc="$FORCE_GC" '{t[NR] = $1; h[NR] = $5}
  END {
    mid = int((NR + 1) / 2)
    printf "heap %s      first %d KB (%ss), middle %d KB (%ss), last %d KB (%ss)\n", \
      (gc == 1 ? "after full GC" : "in use (no GC)"), h[1], t[1], h[mid], t[mid], h[NR], t[NR]
    for (i = 1; i <= NR; i++) if (t[i] >= 60) { n++; sx += t[i]; sy += h[i]; sxx += t[i] * t[i]; sxy += t[i] * h[i] }
    if (n >= 2 && n * sxx - sx * sx > 0) {
      slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
      printf "heap slope           %.1f KB per minute over %d samples after the first minute\n", slope * 60, n
    } else {
      print "heap slope           (fewer than 2 samples after the first minute)"
    }
  }' "$WORK/samples"
exit "$code"

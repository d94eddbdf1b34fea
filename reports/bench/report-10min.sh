#!/usr/bin/env bash
# Times `fusillade report` on a synthetic 10-minute run record with 20 request names
# (100 requests/s each, system and lag gauges, a counter). Goal: under 10 s on 2 cores.
# Run on a quiet machine after `mvn -B -q install -DskipTests` from the repository root:
#   reports/bench/report-10min.sh            # the real benchmark: 600 s, 20 names
#   reports/bench/report-10min.sh 10 3 10    # smoke: seconds, names, requests/s per name
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_OF_RUN=${1:-600}
NAMES=${2:-20}
RATE=${3:-100}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mvn -B -o -q -pl reports dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" >/dev/null
CP="reports/target/test-classes:reports/target/classes:$(cat "$WORK/cp.txt")"
RUN=$(java -cp "$CP" io.fusillade.reports.runs.SyntheticRecord "$WORK/runs" "$SECONDS_OF_RUN" "$NAMES" "$RATE")
echo "record: $RUN ($(du -sh "$RUN" | cut -f1))"
JAR=simulations/target/fusillade.jar
for attempt in 1 2 3; do
  START=$(date +%s.%N)
  java -XX:ActiveProcessorCount=2 -jar "$JAR" report "$RUN" -o "$WORK/report" > "$WORK/out.txt" || true
  END=$(date +%s.%N)
  echo "attempt $attempt: fusillade report took $(echo "$END - $START" | bc) s"
done
grep -E "^Report:" "$WORK/out.txt"
ls -la "$WORK/report"

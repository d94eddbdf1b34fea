#!/usr/bin/env bash
# Efficiency of Fusillade's bulk path against curl, on the same OpenSearch.
#
# Both send the same web documents (seed 1) in bulks of $BULK with $CONCURRENCY requests in flight:
#   curl: pre-generated NDJSON files (fusillade logs generate --bulk) posted by xargs -P.
#   fusillade: LogIngestSimulation (-Dlogs.docs, closed model, body built while sending).
# Prints documents/s of both and the ratio (goal >= 0.95). Run on a quiet machine, after
#   mvn -B -q -pl simulations -am test-compile
# Usage: simulations/bench/log-ingest.sh [DOCS] (default 1000000); LOGS_URL=http://... to use an
# external node instead of an embedded one. Smoke: simulations/bench/log-ingest.sh 20000
set -euo pipefail
DOCS=${1:-1000000}
BULK=${BULK:-5000}
CONCURRENCY=${CONCURRENCY:-2}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null || true; rm -rf "$work"' EXIT

# Through the reactor (-am), so that sibling modules' poms come from this checkout.
(cd .. && mvn -B -q -o -pl simulations -am dependency:build-classpath \
  -Dmdep.outputFile="$work/cp" -Dmdep.includeScope=test >/dev/null)
# Sibling modules from this checkout first, ahead of any installed copies.
CP="target/test-classes:target/classes"
for classes in ../benchmark-core/*/target/classes ../docker/*/target/classes ../reports/target/classes; do
  CP="$CP:$classes"
done
CP="$CP:$(cat "$work/cp")"

if [[ -z "${LOGS_URL:-}" ]]; then
  coproc NODE { java -Xmx1g -cp "$CP" io.fusillade.logs.LocalOpenSearchMain; }
  read -r LOGS_URL <&"${NODE[0]}"
  exec 3>&"${NODE[1]}"
fi
echo "OpenSearch: $LOGS_URL, $DOCS documents, bulks of $BULK, $CONCURRENCY in flight"

# --- curl -----------------------------------------------------------------------------------
java -cp "$CP" io.fusillade.cli.FusilladeCommand logs generate --profile web --docs "$DOCS" \
  --seed 1 --bulk -o "$work/all.ndjson"
split -l $((2 * BULK)) -d -a 6 "$work/all.ndjson" "$work/bulk-"
rm "$work/all.ndjson"
curl -s -X DELETE "$LOGS_URL/curl-logs" >/dev/null
curl -s -X PUT "$LOGS_URL/curl-logs" -H 'Content-Type: application/json' -d \
  '{"mappings":{"properties":{"@timestamp":{"type":"date","format":"epoch_second"},"clientip":{"type":"ip"},"request":{"type":"text"},"status":{"type":"integer"},"size":{"type":"long"}}}}' >/dev/null
start=$(date +%s.%N)
ls "$work"/bulk-* | xargs -P "$CONCURRENCY" -I{} curl -s -o /dev/null -X POST \
  "$LOGS_URL/curl-logs/_bulk" -H 'Content-Type: application/x-ndjson' --data-binary @{}
end=$(date +%s.%N)
curl_rate=$(echo "$DOCS / ($end - $start)" | bc -l)

# --- fusillade ------------------------------------------------------------------------------
runs="$work/runs"
java -Xmx1g --add-opens=java.base/java.lang=ALL-UNNAMED -Dfusillade.runs.dir="$runs" \
  -Dlogs.url="$LOGS_URL" -Dlogs.index=fusillade-logs -Dlogs.docs="$DOCS" -Dlogs.bulk="$BULK" \
  -Dlogs.concurrency="$CONCURRENCY" -cp "$CP" io.fusillade.gatling.GatlingMain \
  -s io.fusillade.logs.LogIngestSimulation -rf "$work/gatling" >"$work/gatling.out" 2>&1 ||
  { cat "$work/gatling.out"; exit 1; }
# The send window: from the first bulk sent to the last response, from the latency log's
# per-second counts: documents over the seconds in which documents were stored.
fusillade_rate=$(grep -o '"logs.documents":[0-9]*' "$runs"/*/counters.jsonl |
  awk -F: '{ if ($NF > 0) { n++; s += $NF } } END { if (n > 0) print s / n; else print 0 }')

printf 'curl       %12.0f docs/s\n' "$curl_rate"
printf 'fusillade  %12.0f docs/s\n' "$fusillade_rate"
printf 'ratio      %12.2f (goal >= 0.95)\n' "$(echo "$fusillade_rate / $curl_rate" | bc -l)"

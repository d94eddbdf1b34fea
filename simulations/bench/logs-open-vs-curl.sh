#!/usr/bin/env bash
# The open model's cost for log ingestion: `fusillade run` posting _bulk requests at a fixed rate
# against a peer that posts the same pre-built bulks at that rate with curl (one curl per bulk, in
# the background, paced by bash itself: $EPOCHREALTIME and `read -t`, no process per tick), on one
# OpenSearch node (Fusillade's embedded OpenSearch 2.19, in a JVM of its own, started once), at each
# of RATES bulks/s (default 2 and 20: 2,000 and 20,000 documents/s with bulks of BULK=1000).
# Both send the same documents: `fusillade logs generate` writes them once, Fusillade replays them
# as NDJSON lines (logs.files) and builds each bulk while sending, the peer posts them as bulk
# bodies split ahead of time; each run writes a fresh index (1 shard, no replica, no mapping).
# What it measures is the injector's CPU per document at a constant arrival rate.
# Each tool runs twice per rate and round, SHORT and LONG seconds (default 10 and 40): the CPU of
# the difference divided by the documents of the difference is the marginal cost per document,
# which leaves out what does not grow with the run (a JVM's start and JIT warm-up, reading the
# files, the report). CPU is user+system of each tool's whole process tree (bash's `time`: for the
# peer every curl, for `fusillade run` its command-line JVM and the Gatling JVM it forks).
# Documents are those the index holds after the run (_refresh, _count), for both. ROUNDS rounds
# (default 2) alternate the tools, the peer first in odd rounds and last in even ones (ABBA).
# Printed per rate: the median marginal CPU s per 100,000 documents of each tool and their ratio,
# and the arrivals Fusillade's injector lost (scheduled, not sent), worst round.
# Usage: simulations/bench/logs-open-vs-curl.sh [ROUNDS]
#   (after: mvn -B -q -pl simulations -am package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
RATES=${RATES:-2 20}
SHORT=${SHORT:-10}
LONG=${LONG:-40}
BULK=${BULK:-1000}
NODE_HEAP=${NODE_HEAP:-1g}
PORT=${PORT:-19261}

WORK=$(mktemp -d /tmp/fusillade-bench-XXXXXX)
OUT=$WORK/out
RESULTS=$WORK/results
node_pid=""
cleanup() {
  exec 3>&- 2>/dev/null || true
  exec 9<&- 2>/dev/null || true
  if [[ -n "$node_pid" ]]; then
    kill "$node_pid" 2>/dev/null || true
    wait "$node_pid" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "Resolving the classpath..." >&2
mvn -B -q -o -pl simulations -am dependency:build-classpath \
  -Dmdep.outputFile="$WORK/cp.txt" -Dmdep.includeScope=test >&2
modules="simulations/target/classes"
for classes in benchmark-core/*/target/classes docker/*/target/classes reports/target/classes; do
  modules="$modules:$classes"
done
CP="$modules:$(tr ':' '\n' <"$WORK/cp.txt" | grep -v '/io/fusillade/' | paste -sd: -)"

echo "Starting one OpenSearch node in its own JVM..." >&2
mkfifo "$WORK/stdin"
mkdir -p "$WORK/node"
java -Xmx"$NODE_HEAP" -Xms"$NODE_HEAP" -XX:+UseG1GC -cp "$CP" io.fusillade.local.OpenSearchMain \
  0 "$PORT" $((PORT + 1)) bench "$WORK/node" <"$WORK/stdin" >"$WORK/node.out" 2>&1 &
node_pid=$!
exec 3>"$WORK/stdin" # the node runs while this stays open
for _ in $(seq 1 1200); do
  [[ -f "$WORK/node/ready" ]] && break
  kill -0 "$node_pid" 2>/dev/null || {
    tail -20 "$WORK/node.out" >&2
    exit 1
  }
  sleep 0.1
done
[[ -f "$WORK/node/ready" ]] || {
  echo "the node did not start" >&2
  exit 1
}
URL=http://127.0.0.1:$PORT
echo "OpenSearch at $URL (pid $node_pid)" >&2

max_rate=0
for rate in $RATES; do ((rate > max_rate)) && max_rate=$rate; done
DOCS=$((max_rate * LONG * BULK))
echo "Writing $DOCS documents, as lines and as bulks of $BULK..." >&2
java -jar simulations/target/fusillade.jar logs generate --docs "$DOCS" --seed 3 -f "$WORK/docs.ndjson"
java -jar simulations/target/fusillade.jar logs generate --docs "$DOCS" --seed 3 --bulk -f "$WORK/bulk.ndjson"
mkdir -p "$WORK/bulks"
split -l $((2 * BULK)) -a 5 -d "$WORK/bulk.ndjson" "$WORK/bulks/b"
rm "$WORK/bulk.ndjson"
mkfifo "$WORK/never"
exec 9<>"$WORK/never" # nothing is ever written: `read -t` on it is a sleep without a process

measure() { # COMMAND...: "cpu-seconds wall-seconds" of a finished command, its output in $OUT
  local TIMEFORMAT='%U %S %R'
  { time "$@" >"$OUT" 2>&1; } 2>&1 | awk '{print $1 + $2, $3}'
}

stored() { # INDEX: the documents it holds
  curl -s -o /dev/null -XPOST "$URL/$1/_refresh"
  curl -s "$URL/$1/_count" | sed -n 's/.*"count":\([0-9]*\).*/\1/p'
}

peer_send() { # INDEX RATE SECONDS: one curl per bulk at its due time, in the background
  local index=$1 rate=$2 n=$(($2 * $3)) i=0 start now due wait fraction files
  files=("$WORK"/bulks/b*)
  start=${EPOCHREALTIME/./}
  while ((i < n)); do
    due=$((start + i * 1000000 / rate))
    now=${EPOCHREALTIME/./}
    if ((due > now)); then
      wait=$((due - now))
      printf -v fraction '%06d' $((wait % 1000000))
      read -r -t "$((wait / 1000000)).$fraction" -u 9 || true
    fi
    curl -s -o /dev/null -H 'Content-Type: application/x-ndjson' \
      --data-binary @"${files[i]}" "$URL/$index/_bulk" &
    i=$((i + 1))
  done
  wait
}

peer_run() { # RATE SECONDS: prints "cpu wall documents 0"
  local m index
  # each run in a pipeline's subshell: a counter would not survive it, its pid is unique
  index=perf-peer-$BASHPID
  curl -s -o /dev/null -XPUT "$URL/$index" -H 'Content-Type: application/json' \
    -d '{"settings":{"number_of_shards":1,"number_of_replicas":0}}'
  m=$(measure peer_send "$index" "$1" "$2")
  echo "$m $(stored "$index") 0"
  curl -s -o /dev/null -XDELETE "$URL/$index"
}

fusillade_run() { # RATE SECONDS: prints "cpu wall documents injector-lost"
  local m index
  index=perf-fusillade-$BASHPID
  cat >"$WORK/logs.yml" <<EOF
config_name: logs-open
seed: 3
logs:
  urls: ['$URL']
  index: $index
  mapping: none
  shards: 1
  replicas: 0
  bulk_size: $BULK
  files: $WORK/docs.ndjson
  rate: $1
  duration: ${2}s
  time_to_searchable: false
checks: []
EOF
  rm -rf "$WORK/runs"
  m=$(measure java -jar simulations/target/fusillade.jar run "$WORK/logs.yml" --output "$WORK/runs")
  # run.json: the lanes' counts of the ingest (scheduled, sent)
  lost=$(python3 - "$WORK/runs" <<'PY'
import glob, json, sys
run = json.load(open(glob.glob(sys.argv[1] + "/**/run.json", recursive=True)[0]))
lanes = [v for k, v in run.get("health", {}).items() if k.startswith("arrivals ")]
print(sum(a["scheduled"] - a["sent"] for a in lanes) if lanes else "?")
PY
  )
  echo "$m $(stored "$index") $lost"
  curl -s -o /dev/null -XDELETE "$URL/$index"
}

record() { sed "s/\$/ $1 $2 $round/" | tee -a "$RESULTS"; } # TOOL LENGTH
echo "Fusillade runs on: $(java -version 2>&1 | head -1); peer: $(curl --version | head -1 | cut -d' ' -f1-2)"
echo "columns: cpu-s wall-s documents injector-lost tool length round; rates $RATES bulks/s of $BULK"
for rate in $RATES; do
  for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then
      peer_run "$rate" "$SHORT" | record "peer-$rate" short
      peer_run "$rate" "$LONG" | record "peer-$rate" long
    fi
    fusillade_run "$rate" "$SHORT" | record "fusillade-$rate" short
    fusillade_run "$rate" "$LONG" | record "fusillade-$rate" long
    if ! ((round % 2)); then
      peer_run "$rate" "$SHORT" | record "peer-$rate" short
      peer_run "$rate" "$LONG" | record "peer-$rate" long
    fi
  done
done

python3 - "$RESULTS" "$RATES" "$BULK" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print()
print("rate docs/s  peer CPU-s/100k docs  fusillade CPU-s/100k docs  ratio  lost (worst)")
for rate in sys.argv[2].split():
    marginal, lost = {}, 0
    for tool in ("peer", "fusillade"):
        values = []
        for r in sorted({row[6] for row in rows if row[4] == f"{tool}-{rate}"}):
            runs = {row[5]: row for row in rows if row[4] == f"{tool}-{rate}" and row[6] == r}
            s, l = runs["short"], runs["long"]
            docs = int(l[2]) - int(s[2])
            values.append((float(l[0]) - float(s[0])) / docs * 100_000 if docs > 0 else float("nan"))
            if tool == "fusillade":
                lost = max(lost, max(int(x[3]) if x[3].isdigit() else 0 for x in (s, l)))
        marginal[tool] = statistics.median(values)
    print(f"{int(rate) * int(sys.argv[3]):>11,}  {marginal['peer']:>20.3f}  {marginal['fusillade']:>25.3f}"
          f"  {marginal['fusillade'] / marginal['peer']:>5.2f}  {lost}")
PY

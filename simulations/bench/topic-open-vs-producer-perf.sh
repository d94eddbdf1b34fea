#!/usr/bin/env bash
# The open model's cost for topics: `fusillade run` writing one topic at a fixed rate against
# Kafka's own kafka-producer-perf-test (org.apache.kafka.tools.ProducerPerformance, kafka-tools
# 4.3.1) with --throughput RATE, on one broker (Fusillade's embedded Kafka 4.3.1, in a JVM of its
# own, started once), at each of RATES (default 2000 20000) messages/s. Both write 1 KiB records
# with acks=all, the same linger and batch size, no compression, idempotence on, to a topic of
# PARTITIONS partitions (default 1) each; Fusillade reads nothing back (consumers: 0), as the peer.
# What it measures is the injector's CPU per message at a constant arrival rate.
# Each tool runs twice per rate and round, SHORT and LONG seconds (default 10 and 40): the CPU of
# the difference divided by the messages of the difference is the marginal cost per message, which
# leaves out what does not grow with the run (a JVM's start and JIT warm-up, topic creation, the
# report). CPU is user+system of each tool's whole process tree (bash's `time`: for `fusillade run`,
# its command-line JVM and the Gatling JVM it forks). ROUNDS rounds (default 2) alternate the tools,
# the peer first in odd rounds and last in even ones (ABBA), because a shared machine's speed drifts.
# Printed per rate: the median marginal CPU s per 10,000 messages of each tool and their ratio;
# Fusillade's arrivals the injector lost (refused by a full lane, not sent) and its sends that
# failed by the injector's own limits, worst round.
# Usage: simulations/bench/topic-open-vs-producer-perf.sh [ROUNDS]
#   (after: mvn -B -q -Pbench -pl simulations -am package -DskipTests; the profile brings kafka-tools)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
RATES=${RATES:-2000 20000}
SHORT=${SHORT:-10}
LONG=${LONG:-40}
SIZE=${SIZE:-1024}
LINGER=${LINGER:-5}
BATCH=${BATCH:-16384}
PARTITIONS=${PARTITIONS:-1}
BROKER_HEAP=${BROKER_HEAP:-1g}

WORK=$(mktemp -d /tmp/fusillade-bench-XXXXXX)
OUT=$WORK/out
RESULTS=$WORK/results
broker_pid=""
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [[ -n "$broker_pid" ]]; then
    kill "$broker_pid" 2>/dev/null || true
    wait "$broker_pid" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "Resolving the classpath (with kafka-tools, profile bench)..." >&2
mvn -B -q -o -Pbench -pl simulations -am dependency:build-classpath \
  -Dmdep.outputFile="$WORK/cp.txt" -Dmdep.includeScope=test >&2
modules="simulations/target/test-classes:simulations/target/classes"
for classes in benchmark-core/*/target/classes docker/*/target/classes reports/target/classes; do
  modules="$modules:$classes"
done
CP="$modules:$(tr ':' '\n' <"$WORK/cp.txt" | grep -v '/io/fusillade/' | paste -sd: -)"

echo "Starting one broker in its own JVM..." >&2
mkfifo "$WORK/stdin"
java -Xmx"$BROKER_HEAP" -Xms"$BROKER_HEAP" -XX:+UseG1GC -cp "$CP" io.fusillade.local.KafkaMain \
  --standalone <"$WORK/stdin" >"$WORK/broker.out" 2>&1 &
broker_pid=$!
exec 3>"$WORK/stdin" # the broker runs while this stays open
for _ in $(seq 1 600); do
  grep -q '^bootstrap.servers=' "$WORK/broker.out" && break
  kill -0 "$broker_pid" 2>/dev/null || {
    cat "$WORK/broker.out" >&2
    exit 1
  }
  sleep 0.1
done
BOOTSTRAP=$(sed -n 's/^bootstrap.servers=//p' "$WORK/broker.out")
[[ -n "$BOOTSTRAP" ]] || {
  echo "the broker did not start" >&2
  exit 1
}
echo "Broker at $BOOTSTRAP (pid $broker_pid)" >&2
PROPS="acks=all linger.ms=$LINGER batch.size=$BATCH compression.type=none enable.idempotence=true"

measure() { # COMMAND...: "cpu-seconds wall-seconds" of a finished command, its output in $OUT
  local TIMEFORMAT='%U %S %R'
  { time "$@" >"$OUT" 2>&1; } 2>&1 | awk '{print $1 + $2, $3}'
}

peer_run() { # RATE SECONDS: prints "cpu wall messages 0 0"
  local m topic
  # each run in a pipeline's subshell: a counter would not survive it, its pid is unique
  topic=perf-peer-$BASHPID
  java -cp "$CP" org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --create \
    --topic "$topic" --partitions "$PARTITIONS" --replication-factor 1 >/dev/null 2>&1
  # shellcheck disable=SC2086
  m=$(measure java -Xmx1g -cp "$CP" org.apache.kafka.tools.ProducerPerformance --topic "$topic" \
    --num-records $(($1 * $2)) --record-size "$SIZE" --throughput "$1" \
    --producer-props bootstrap.servers="$BOOTSTRAP" $PROPS)
  # "400000 records sent, 9999.5 records/sec (9.77 MB/sec), ..." is its last line
  echo "$m $(tail -1 "$OUT" | sed -n 's/^\([0-9]*\) records sent.*/\1/p') 0 0"
}

fusillade_run() { # RATE SECONDS: prints "cpu wall messages injector-lost injector-KO"
  local m topic
  topic=perf-fusillade-$BASHPID
  cat >"$WORK/topic.yml" <<EOF
config_name: topic-open
seed: 7
kafka:
  bootstrap_servers: $BOOTSTRAP
topics:
  - name: $topic
    partitions: $PARTITIONS
    consumers: 0
    message_size: $SIZE
    producer: {linger.ms: $LINGER, batch.size: $BATCH}
    rate: $1
    duration: ${2}s
checks: []
EOF
  rm -rf "$WORK/runs"
  m=$(measure java -jar simulations/target/fusillade.jar run "$WORK/topic.yml" --output "$WORK/runs")
  # summary.json: the writes' count and failures by whose they are; run.json: the lanes' counts
  python3 - "$WORK/runs" "$topic" "$m" <<'PY'
import glob, json, sys
runs, topic, m = sys.argv[1:]
summary = json.load(open(glob.glob(runs + "/**/summary.json", recursive=True)[0]))
run = json.load(open(glob.glob(runs + "/**/run.json", recursive=True)[0]))
r = next(q for q in summary["requests"] if q["name"] == "write " + topic)
a = run["health"]["arrivals writers " + topic]
print(m, r["count"], a["scheduled"] - a["sent"], r["koByClass"]["injector"])
PY
}

record() { sed "s/\$/ $1 $2 $round/" | tee -a "$RESULTS"; } # TOOL LENGTH
echo "Fusillade runs on: $(java -version 2>&1 | head -1); peer: kafka-tools ProducerPerformance"
echo "columns: cpu-s wall-s messages injector-lost injector-KO tool length round; rates $RATES"
for rate in $RATES; do
  for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then
      peer_run "$rate" "$SHORT" | record "peer-$rate" short
      peer_run "$rate" "$LONG" | record "peer-$rate" long
    fi
    fusillade_run "$rate" "$SHORT" | record "fusillade-$rate" short
    fusillade_run "$rate" "$LONG" | record "fusillade-$rate" long
    if ((round % 2 == 0)); then
      peer_run "$rate" "$SHORT" | record "peer-$rate" short
      peer_run "$rate" "$LONG" | record "peer-$rate" long
    fi
  done
done

echo
python3 - "$RESULTS" <<'PY'
import statistics, sys
runs = {}
for cpu, wall, n, lost, ko, tool, length, rnd in (l.split() for l in open(sys.argv[1])):
    runs.setdefault((tool, rnd), {})[length] = (float(cpu), int(n), int(lost), int(ko))
def marginal(tool):
    out = []
    for (t, _), r in runs.items():
        if t == tool and "short" in r and "long" in r:
            (c1, n1, _, _), (c2, n2, _, _) = r["short"], r["long"]
            out.append((c2 - c1) * 10000 / (n2 - n1))
    return statistics.median(out)
rates = sorted({t.split("-")[1] for t, _ in runs}, key=int)
print("median over rounds of the marginal CPU s per 10,000 messages (JVM start excluded)")
for rate in rates:
    p, f = marginal("peer-" + rate), marginal("fusillade-" + rate)
    mine = [x for (t, _), r in runs.items() if t == "fusillade-" + rate for x in r.values()]
    print(f"  {rate}/s: kafka-producer-perf-test {p:.3f}, Fusillade {f:.3f}: {f / p:.2f}x the peer")
    print(f"    Fusillade: arrivals lost by the injector {max(x[2] for x in mine)}, "
          f"injector KO {max(x[3] for x in mine)} (worst run)")
PY

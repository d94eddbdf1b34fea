#!/usr/bin/env bash
# Fusillade's maximum produce rate beside Kafka's own ProducerPerformance (kafka-producer-perf-test),
# against one embedded Kafka 4.3.1 broker running in its own JVM. Same record size, acks=all,
# linger and batch size, no compression, idempotence on. Prints both rates and their ratio.
#
#   simulations/bench/topic-produce.sh            # the real thing: run it on a quiet machine
#   simulations/bench/topic-produce.sh --smoke    # a few seconds, to check that it works
#
# Settings (environment): SIZE=1024 LINGER=5 BATCH=16384 PARTITIONS=1 RECORDS=3000000 (Kafka's tool)
# DURATION=60s INFLIGHT=2000 (Fusillade) BROKER_HEAP=1g. Run from the repository's root.
set -euo pipefail
cd "$(dirname "$0")/../.."

SIZE=${SIZE:-1024}
LINGER=${LINGER:-5}
BATCH=${BATCH:-16384}
PARTITIONS=${PARTITIONS:-1}
RECORDS=${RECORDS:-3000000}
DURATION=${DURATION:-60s}
INFLIGHT=${INFLIGHT:-2000}
BROKER_HEAP=${BROKER_HEAP:-1g}
if [[ "${1:-}" == "--smoke" ]]; then
  RECORDS=20000
  DURATION=3s
  INFLIGHT=200
fi

work=$(mktemp -d /tmp/fusillade-bench-XXXXXX)
broker_pid=""
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [[ -n "$broker_pid" ]]; then
    kill "$broker_pid" 2>/dev/null || true
    wait "$broker_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "Building and resolving the classpath (with kafka-tools, profile bench)..." >&2
mvn -B -q -o -Pbench -pl simulations -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$work/cp.txt" -Dmdep.includeScope=test >&2
modules="simulations/target/test-classes:simulations/target/classes"
for classes in benchmark-core/*/target/classes docker/*/target/classes reports/target/classes; do
  modules="$modules:$classes"
done
# Sibling modules come from their target/classes, not from the local repository.
# (the output file is written per module; the last one, simulations, wins)
CP="$modules:$(tr ':' '\n' < "$work/cp.txt" | grep -v '/io/fusillade/' | paste -sd: -)"

echo "Starting one broker in its own JVM..." >&2
mkfifo "$work/stdin"
java -Xmx"$BROKER_HEAP" -Xms"$BROKER_HEAP" -XX:+UseG1GC -cp "$CP" io.fusillade.local.KafkaMain --standalone \
  < "$work/stdin" > "$work/broker.out" 2>&1 &
broker_pid=$!
exec 3>"$work/stdin" # the broker runs while this stays open
for _ in $(seq 1 600); do
  grep -q '^bootstrap.servers=' "$work/broker.out" && break
  kill -0 "$broker_pid" 2>/dev/null || { cat "$work/broker.out" >&2; exit 1; }
  sleep 0.1
done
BOOTSTRAP=$(sed -n 's/^bootstrap.servers=//p' "$work/broker.out")
[[ -n "$BOOTSTRAP" ]] || { echo "the broker did not start" >&2; cat "$work/broker.out" >&2; exit 1; }
echo "Broker at $BOOTSTRAP (pid $broker_pid)" >&2

java -cp "$CP" org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --create \
  --topic perf-kafka --partitions "$PARTITIONS" --replication-factor 1 >&2

echo "Kafka ProducerPerformance: $RECORDS records of $SIZE bytes..." >&2
java -Xmx1g -cp "$CP" org.apache.kafka.tools.ProducerPerformance --topic perf-kafka \
  --num-records "$RECORDS" --record-size "$SIZE" --throughput -1 \
  --producer-props bootstrap.servers="$BOOTSTRAP" acks=all linger.ms="$LINGER" batch.size="$BATCH" \
  compression.type=none enable.idempotence=true > "$work/pp.out"
kafka_rate=$(tail -1 "$work/pp.out" | sed -n 's/^[0-9]* records sent, \([0-9.]*\) records\/sec.*/\1/p')
tail -1 "$work/pp.out" >&2

echo "Fusillade: $INFLIGHT users sending for $DURATION..." >&2
java -Xmx1g -XX:+UseParallelGC --add-opens=java.base/java.lang=ALL-UNNAMED \
  -Dfusillade.runs.dir="$work/runs" -Dfusillade.urls="$BOOTSTRAP" -Dtopic=perf-fusillade \
  -Dpartitions="$PARTITIONS" -DmessageSize="$SIZE" -DlingerMs="$LINGER" -DbatchSize="$BATCH" \
  -Dinflight="$INFLIGHT" -Dduration="$DURATION" \
  -cp "$CP" io.fusillade.gatling.GatlingMain -s io.fusillade.topic.TopicMaxProduceSimulation \
  -rf "$work/gatling" -nr > "$work/fusillade.out" 2>&1 || { tail -40 "$work/fusillade.out" >&2; exit 1; }
fusillade_rate=$(sed -n 's/^fusillade.records.per.second=\([0-9.]*\).*/\1/p' "$work/fusillade.out")
grep '^fusillade.records.per.second=' "$work/fusillade.out" >&2

printf 'kafka ProducerPerformance records/s: %s\n' "$kafka_rate"
printf 'fusillade records/s:                 %s\n' "$fusillade_rate"
awk -v f="$fusillade_rate" -v k="$kafka_rate" 'BEGIN { printf "ratio fusillade/kafka:               %.3f (goal >= 0.9)\n", f / k }'

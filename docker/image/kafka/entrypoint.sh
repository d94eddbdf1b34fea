#!/bin/bash
# The entrypoint of fusillade/kafka (docker/image/build-local.sh): a Kafka node in KRaft mode from the
# Maven artifacts of Kafka, configured through the environment as the apache/kafka image is, so that
# ContainerKafka and docker/compose/kafka*.yml use either image:
#
# - every variable KAFKA_NAME_OF_SETTING (but KAFKA_HEAP_OPTS and KAFKA_OPTS) is the setting
#   name.of.setting of server.properties ("__" stands for "_", "___" for "-");
# - CLUSTER_ID: the cluster id every node of a cluster formats its storage with (a random one when
#   it is missing: a single node);
# - KAFKA_HEAP_OPTS (default -Xms512m -Xmx512m) and KAFKA_OPTS: options of the JVM.
#
# The storage (log.dirs, default /var/lib/kafka/data) is formatted on the first start only.
set -euo pipefail

classpath='/opt/kafka/libs/*'
config=/opt/kafka/config/server.properties
java_options=(${KAFKA_HEAP_OPTS:--Xms512m -Xmx512m} ${KAFKA_OPTS:-}
  -Dlogback.configurationFile=/opt/kafka/config/logback.xml)

if [ "$#" -gt 0 ]; then
  exec "$@"
fi

{
  echo "log.dirs=/var/lib/kafka/data"
  while IFS='=' read -r name value; do
    case "$name" in
      KAFKA_HEAP_OPTS | KAFKA_OPTS | KAFKA_VERSION) continue ;;
      KAFKA_*) ;;
      *) continue ;;
    esac
    key=${name#KAFKA_}
    key=${key,,}
    key=${key//___/-}
    key=${key//__/@}
    key=${key//_/.}
    key=${key//@/_}
    printf '%s=%s\n' "$key" "$value"
  done < <(env)
} >"$config"

# "--cluster-id=ID" in one word: an id may start with "-" (URL-safe base64), which the tool would
# otherwise read as an option.
cluster_id=${CLUSTER_ID:-$(java -cp "$classpath" kafka.tools.StorageTool random-uuid)}
java "${java_options[@]}" -cp "$classpath" kafka.tools.StorageTool format \
  --cluster-id="$cluster_id" --config "$config" --ignore-formatted >/dev/null

exec java "${java_options[@]}" -cp "$classpath" kafka.Kafka "$config"

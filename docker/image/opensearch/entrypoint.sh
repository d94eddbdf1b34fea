#!/bin/bash
# The entrypoint of fusillade/opensearch (docker/image/build-local.sh): OpenSearchNode with the JVM
# options of OPENSEARCH_JAVA_OPTS (default -Xms512m -Xmx512m), as in the opensearchproject image.
# Bash, not sh: dash drops the variables whose names hold a dot, which are the node's settings.
set -eu
if [ "$#" -gt 0 ]; then
  exec "$@"
fi
# shellcheck disable=SC2086 # a list of JVM options
exec java ${OPENSEARCH_JAVA_OPTS:--Xms512m -Xmx512m} -XX:+UseG1GC -Djava.awt.headless=true \
  -cp '/opt/opensearch/classes:/opt/opensearch/libs/*' OpenSearchNode

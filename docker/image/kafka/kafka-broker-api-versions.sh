#!/bin/sh
# As in Kafka's distribution (the compose files' health checks run it): the API versions of the brokers.
exec java -Xmx128m -XX:TieredStopAtLevel=1 -Dlogback.configurationFile=/opt/kafka/config/logback.xml \
  -cp '/opt/kafka/libs/*' org.apache.kafka.tools.BrokerApiVersionsCommand "$@"

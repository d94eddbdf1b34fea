package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The servers in containers do what their embedded counterparts do, and the topologies only
 * containers offer here work: a streaming replica, three brokers with acks from all. Skipped
 * without a Docker engine (Testcontainers' own {@code disabledWithoutDocker}).
 */
@Tag("slow")
@Testcontainers(disabledWithoutDocker = true)
class ContainerServersTest {

  @Test
  void aRowWrittenOnThePrimaryIsReadOnItsReplica() throws Exception {
    // max_connections above the default: a standby below the primary's value would not start
    try (ContainerPostgres db =
        ContainerPostgres.builder().replicas(1).setting("max_connections", "200").start()) {
      assertThat(db.password()).isEmpty();
      try (Connection primary = DriverManager.getConnection(db.jdbcUrl(), db.user(), "");
          Statement statement = primary.createStatement()) {
        statement.execute("create table marks (id int primary key)");
        statement.execute("insert into marks values (7)");
      }
      String replicaUrl = db.replicaJdbcUrls().get(0);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      Integer found = null;
      while (found == null && System.nanoTime() < deadline) {
        try (Connection replica = DriverManager.getConnection(replicaUrl, db.user(), "");
            ResultSet rows =
                replica
                    .createStatement()
                    .executeQuery(
                        "select id from marks where pg_is_in_recovery() union all select -1"
                            + " where not pg_is_in_recovery()")) {
          if (rows.next()) {
            found = rows.getInt(1);
          }
        } catch (java.sql.SQLException notYet) {
          Thread.sleep(200); // the table's creation has not reached the replica yet
        }
      }
      assertThat(found).isEqualTo(7);
    }
  }

  @Test
  void threeBrokersAcknowledgeAWriteFromAllReplicas() throws Exception {
    try (ContainerKafka kafka = ContainerKafka.builder().brokers(3).start()) {
      assertThat(kafka.brokers()).isEqualTo(3);
      assertThat(kafka.bootstrapServers().split(",")).hasSize(3);
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
        admin
            .createTopics(List.of(new NewTopic("durable", 3, (short) 3)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      Properties settings = new Properties();
      settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      settings.put(ProducerConfig.ACKS_CONFIG, "all");
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer())) {
        RecordMetadata written =
            producer.send(new ProducerRecord<>("durable", "k", "v")).get(30, TimeUnit.SECONDS);
        assertThat(written.offset()).isZero();
      }
    }
  }

  @Test
  void openSearchAnswersOnItsBaseUrl() throws Exception {
    try (ContainerSearch search = ContainerSearch.openSearch().start()) {
      HttpResponse<String> root =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(search.baseUrl() + "/"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(root.statusCode()).isEqualTo(200);
      assertThat(root.body()).contains("\"distribution\" : \"opensearch\"");
    }
  }
}

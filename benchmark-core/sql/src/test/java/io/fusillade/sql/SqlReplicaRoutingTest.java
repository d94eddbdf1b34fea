package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.record.RunEvents;
import io.fusillade.record.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Reads and writes over a real primary and its real streaming replica: reads are balanced over
 * both, everything else goes to the primary, so no write ever meets the replica's refusal.
 */
@Tag("slow")
class SqlReplicaRoutingTest {

  @Test
  void readsAreBalancedOverPrimaryAndReplicaAndWritesStayOnThePrimary() throws Exception {
    try (LocalPostgresCluster db = LocalPostgresCluster.start(1)) {
      try (java.sql.Connection c = db.primary().connect();
          java.sql.Statement s = c.createStatement()) {
        s.execute("create table kv (k int primary key, v int)");
        s.execute("insert into kv select i, 0 from generate_series(1, 100) i");
      }
      db.awaitReplicated(Duration.ofSeconds(30));
      List<SqlClientOptions> nodes = new ArrayList<>();
      for (String url : List.of(db.jdbcUrl(), db.replicaJdbcUrls().get(0))) {
        nodes.add(new SqlClientOptions(url, db.user(), "", 4, 4096, Duration.ofSeconds(5)));
      }
      List<SqlWork> works = new ArrayList<>();
      for (int i = 1; i <= 100; i++) {
        works.add(Statements.query("select v from kv where k = ?", new Object[] {i}));
        works.add(Statements.query("update kv set v = v + 1 where k = ?", new Object[] {i}));
        works.add(Statements.query("select v from kv where k = ? for update", new Object[] {i}));
        works.add(
            Statements.transaction(
                List.of(new Statements.Bound("select v from kv where k = ?", new Object[] {i}))));
      }
      List<SqlOutcome> outcomes = new ArrayList<>();
      List<SqlWork> order = new ArrayList<>();
      try (SqlCluster cluster =
          SqlCluster.open(nodes, 1, SqlClient::open, null, null, null, RunEvents.NONE)) {
        assertThat(cluster.replicas()).isEqualTo(1);
        CountDownLatch done = new CountDownLatch(works.size());
        for (SqlWork work : works) {
          cluster.execute(
              0,
              work,
              List.of(),
              outcome -> {
                synchronized (outcomes) {
                  outcomes.add(outcome);
                  order.add(work);
                }
                done.countDown();
              });
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
      }
      int[] readsOn = new int[2];
      for (int i = 0; i < outcomes.size(); i++) {
        SqlOutcome outcome = outcomes.get(i);
        assertThat(outcome.status()).as(outcome.reason()).isEqualTo(Status.OK);
        if (ReadStatements.isRead(order.get(i))) {
          readsOn[outcome.node()]++;
        } else {
          assertThat(outcome.node()).as("a write or a lock on the primary").isZero();
        }
      }
      assertThat(readsOn[0] + readsOn[1]).isEqualTo(100);
      assertThat(readsOn[1]).as("the replica's share of the reads").isBetween(40, 60);
      try (java.sql.Connection c = db.primary().connect();
          java.sql.Statement s = c.createStatement();
          java.sql.ResultSet r = s.executeQuery("select sum(v) from kv")) {
        r.next();
        assertThat(r.getInt(1)).isEqualTo(100);
      }
    }
  }
}

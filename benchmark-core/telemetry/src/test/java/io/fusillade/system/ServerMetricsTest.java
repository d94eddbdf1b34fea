package io.fusillade.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.system.PrometheusText.Scrape;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How exporters' answers become a server's gauges. */
class ServerMetricsTest {
  private static final ServerTarget DB = ServerTarget.of("db", "http://db1:9100/metrics");

  /** node_exporter's answer with the given CPU seconds of core 0 and 1 (same on both). */
  private static Scrape node(
      double user, double system, double steal, double idle, long disk, long rx, long nanos) {
    String text =
        """
        # HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.
        # TYPE node_cpu_seconds_total counter
        node_cpu_seconds_total{cpu="0",mode="user"} %1$s
        node_cpu_seconds_total{cpu="0",mode="nice"} 0
        node_cpu_seconds_total{cpu="0",mode="system"} %2$s
        node_cpu_seconds_total{cpu="0",mode="steal"} %3$s
        node_cpu_seconds_total{cpu="0",mode="idle"} %4$s
        node_cpu_seconds_total{cpu="1",mode="user"} %1$s
        node_cpu_seconds_total{cpu="1",mode="nice"} 0
        node_cpu_seconds_total{cpu="1",mode="system"} %2$s
        node_cpu_seconds_total{cpu="1",mode="steal"} %3$s
        node_cpu_seconds_total{cpu="1",mode="idle"} %4$s
        node_load1 0.5
        node_memory_MemTotal_bytes 8e+09
        node_memory_MemAvailable_bytes 6e+09
        node_disk_read_bytes_total{device="sda"} %5$d
        node_disk_read_bytes_total{device="sda1"} %5$d
        node_disk_read_bytes_total{device="dm-0"} %5$d
        node_disk_written_bytes_total{device="sda"} 0
        node_network_receive_bytes_total{device="eth0"} %6$d
        node_network_receive_bytes_total{device="lo"} 7
        node_network_transmit_bytes_total{device="eth0"} 0
        node_filesystem_size_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 1000
        node_filesystem_free_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 300
        node_filesystem_avail_bytes{device="/dev/sda1",fstype="ext4",mountpoint="/"} 200
        node_filesystem_size_bytes{device="/dev/sdb1",fstype="ext4",mountpoint="/data"} 5000
        node_filesystem_free_bytes{device="/dev/sdb1",fstype="ext4",mountpoint="/data"} 1000
        node_filesystem_avail_bytes{device="/dev/sdb1",fstype="ext4",mountpoint="/data"} 1000
        """
            .formatted(user, system, steal, idle, disk, rx);
    return PrometheusText.parse(text, nanos);
  }

  @Test
  void cpuSharesAreTakenFromTheSecondsThatPassedOnAllCores() {
    Scrape a = node(100, 50, 10, 1000, 0, 0, 0);
    // one second later, per core: 0.5 s user, 0.2 system, 0.1 steal, 0.2 idle
    Scrape b = node(100.5, 50.2, 10.1, 1000.2, 0, 0, 1_000_000_000L);
    Map<String, Double> v = ServerMetrics.values(DB, a, b);
    assertThat(v.get("cpu.user")).isCloseTo(50, within(1e-6));
    assertThat(v.get("cpu.system")).isCloseTo(20, within(1e-6));
    assertThat(v.get("cpu.steal")).isCloseTo(10, within(1e-6));
    assertThat(v.get("cpu.idle")).isCloseTo(20, within(1e-6));
    assertThat(v.get("cpu.iowait")).isEqualTo(0.0);
  }

  @Test
  void countersBecomeRatesOverTheTimeBetweenScrapesWholeDisksOnlyLoopbackApart() {
    Scrape a = node(1, 1, 0, 1, 1_000, 10_000, 0);
    Scrape b = node(2, 1, 0, 1, 3_000, 40_000, 2_000_000_000L);
    Map<String, Double> v = ServerMetrics.values(DB, a, b);
    // sda only: its partition and device-mapper volume are the same bytes
    assertThat(v.get("disk.read")).isEqualTo(1_000.0);
    assertThat(v.get("net.rx")).isEqualTo(15_000.0);
    assertThat(v.get("net.lo.rx")).isEqualTo(0.0);
    assertThat(v.get("memory.used")).isEqualTo(2e9);
    assertThat(v.get("memory.available")).isEqualTo(6e9);
    assertThat(v.get("load1")).isEqualTo(0.5);
  }

  @Test
  void theFirstScrapeGivesLevelsButNoRates() {
    Map<String, Double> v = ServerMetrics.values(DB, null, node(1, 1, 0, 1, 5, 5, 0));
    assertThat(v).containsKeys("memory.used", "filesystem.used").doesNotContainKeys("cpu.user");
    assertThat(v).doesNotContainKey("disk.read");
  }

  @Test
  void aCounterThatWentDownGivesNoValueThatSecond() {
    Scrape a = node(100, 50, 10, 1000, 9_000, 9_000, 0);
    Scrape restarted = node(1, 1, 0, 1, 10, 10, 1_000_000_000L);
    Map<String, Double> v = ServerMetrics.values(DB, a, restarted);
    assertThat(v).doesNotContainKeys("cpu.user", "disk.read", "net.rx");
  }

  @Test
  void theFilesystemIsTheMountPointAskedForUsedAsDfCountsIt() {
    Map<String, Double> root = ServerMetrics.values(DB, null, node(1, 1, 0, 1, 5, 5, 0));
    assertThat(root.get("filesystem.used")).isEqualTo(700.0);
    assertThat(root.get("filesystem.available")).isEqualTo(200.0);
    assertThat(root.get("filesystem.use")).isCloseTo(100 * 700 / 900.0, within(1e-9));
    Map<String, Double> data =
        ServerMetrics.values(DB.filesystem("/data"), null, node(1, 1, 0, 1, 5, 5, 0));
    assertThat(data.get("filesystem.used")).isEqualTo(4000.0);
    assertThat(data.get("filesystem.use")).isEqualTo(80.0);
  }

  @Test
  void cadvisorGivesCpuAndWorkingSetPerNamedContainer() {
    String text =
        """
        # TYPE container_cpu_usage_seconds_total counter
        container_cpu_usage_seconds_total{cpu="total",id="/docker/a",name="kafka-1"} %s
        container_cpu_usage_seconds_total{cpu="total",id="/docker/b",name="opensearch"} 10
        container_cpu_usage_seconds_total{cpu="total",id="/",name=""} 999
        container_memory_working_set_bytes{id="/docker/a",name="kafka-1"} 1.5e+09
        """;
    Scrape a = PrometheusText.parse(text.formatted("20"), 0);
    Scrape b = PrometheusText.parse(text.formatted("21.5"), 1_000_000_000L);
    assertThat(ServerMetrics.kinds(b)).containsExactly(ServerMetrics.CADVISOR);
    Map<String, Double> v = ServerMetrics.values(DB, a, b);
    assertThat(v.get("container.kafka-1.cpu")).isCloseTo(150, within(1e-9));
    assertThat(v.get("container.opensearch.cpu")).isEqualTo(0.0);
    assertThat(v.get("container.kafka-1.memory")).isEqualTo(1.5e9);
    assertThat(v.keySet()).noneMatch(k -> k.startsWith("container..")).doesNotContain("cpu.user");
  }

  @Test
  void namedMetricsAreRecordedTheirSeriesAddedUpACounterAsItsRate() {
    ServerTarget pg =
        ServerTarget.of("pg", "http://pg:9187/metrics")
            .metrics("pg_stat_database_xact_commit", "pg_up", "never_served");
    String text =
        """
        # TYPE pg_stat_database_xact_commit counter
        pg_stat_database_xact_commit{datname="a"} %s
        pg_stat_database_xact_commit{datname="b"} 100
        # TYPE pg_up gauge
        pg_up 1
        """;
    Scrape a = PrometheusText.parse(text.formatted("1000"), 0);
    Scrape b = PrometheusText.parse(text.formatted("1500"), 2_000_000_000L);
    Map<String, Double> v = ServerMetrics.values(pg, a, b);
    assertThat(v.get("metric.pg_stat_database_xact_commit")).isEqualTo(250.0);
    assertThat(v.get("metric.pg_up")).isEqualTo(1.0);
    assertThat(v).doesNotContainKey("metric.never_served");
  }

  @Test
  void theTextFormatsEscapesSpecialValuesAndOddLinesAreRead() {
    Scrape s =
        PrometheusText.parse(
            """
            # HELP odd a "help" line
            m{path="C:\\\\x",q="say \\"hi\\""} +Inf 1700000000000
            bad{unclosed="x} 1
            n 3.5e2
            nan NaN
            """,
            0);
    assertThat(s.samples()).hasSize(3);
    assertThat(s.samples().get(0).labels())
        .containsEntry("path", "C:\\x")
        .containsEntry("q", "say \"hi\"");
    assertThat(s.samples().get(0).value()).isInfinite();
    assertThat(s.sum("n", l -> true)).isEqualTo(350.0);
    assertThat(s.sum("absent", l -> true)).isNaN();
  }

  @Test
  void targetsAreReadFromTheirLinesAndKeepPasswordsOutOfWhatIsShown() {
    ServerTarget t =
        ServerTarget.parse(
            "kafka http://u:secret@k1:7071/metrics filesystem=/var/lib/kafka metrics=a,b_total");
    assertThat(t.shownUrl()).isEqualTo("http://k1:7071/metrics").doesNotContain("secret");
    assertThat(t.filesystem()).isEqualTo("/var/lib/kafka");
    assertThat(t.metrics()).containsExactly("a", "b_total");
    assertThat(ServerTarget.parse(t.toLine())).isEqualTo(t);
    assertThat(ServerTarget.parse("db=http://db1:9100/metrics").url().getHost()).isEqualTo("db1");
    assertThat(ServerTarget.parseLines("a=http://x/metrics\n\nb http://y/metrics")).hasSize(2);
    assertThatThrownBy(() -> ServerTarget.parse("db=ftp://u:secret@x/metrics"))
        .hasMessageContaining("not an http(s) URL")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> ServerTarget.parse("db.1=http://x/metrics"))
        .hasMessageContaining("letters, digits");
    assertThatThrownBy(() -> ServerTarget.parse("db http://x/metrics colour=red"))
        .hasMessageContaining("unknown setting \"colour=red\"");
    assertThatThrownBy(() -> ServerTarget.of("db", "http://x/").metrics("bad-name"))
        .hasMessageContaining("not a Prometheus metric name");
    assertThat(List.of(DB.toLine())).containsExactly("db http://db1:9100/metrics");
  }
}

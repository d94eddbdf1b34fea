package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.runs.SyntheticRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checks on the servers' gauges ({@code server cpu.steal < 5%}) and the injector's machine's. */
class ServerCheckTest {
  @TempDir Path base;

  private Map<String, CheckResult> results(Path run, String... checks) {
    return Report.create(List.of(run), List.of(checks)).results().stream()
        .collect(Collectors.toMap(CheckResult::check, r -> r, (a, b) -> a));
  }

  @Test
  void theMeanOrTheMaximumOfEveryServersGaugeIsCompared() throws Exception {
    Path run =
        SyntheticRecord.run()
            .seconds(20)
            // db: steal 2% on average with one 12% second; kafka: 8% throughout
            .gauge("server.db.cpu.steal", s -> s == 10 ? 12 : 2 - 10.0 / 19)
            .gauge("server.kafka.cpu.steal", s -> 8)
            .gauge("server.db.filesystem.used", s -> 3e9 + s * 1e8)
            .gauge("server.db.container.pg.cpu.steal", s -> 99)
            .gauge("system.cpu.steal", s -> 1)
            .write(base, "servers");
    Map<String, CheckResult> r =
        results(
            run,
            "server cpu.steal < 5% for db",
            "server cpu.steal < 5%",
            "server max cpu.steal < 10% for db",
            "server cpu.steal < 10%",
            "server max filesystem.used < 5GB",
            "server max filesystem.used < 4.5GB",
            "system cpu.steal < 5%",
            "server memory.used < 1GB");
    assertThat(r.get("server cpu.steal < 5% for db").passed()).isTrue();
    assertThat(r.get("server cpu.steal < 5% for db").measured())
        .isEqualTo("mean cpu.steal: db 2.00 %");
    assertThat(r.get("server cpu.steal < 5%").passed()).isFalse();
    assertThat(r.get("server cpu.steal < 5%").measured()).contains("kafka 8.00 % (fails)");
    assertThat(r.get("server max cpu.steal < 10% for db").passed()).isFalse();
    assertThat(r.get("server cpu.steal < 10%").passed())
        .as("a container's gauge is not its server's")
        .isTrue();
    assertThat(r.get("server max filesystem.used < 5GB").passed()).isTrue();
    assertThat(r.get("server max filesystem.used < 4.5GB").passed()).isFalse();
    assertThat(r.get("server max filesystem.used < 4.5GB").measured()).contains("db 4.90 GB");
    assertThat(r.get("system cpu.steal < 5%").passed()).isTrue();
    assertThat(r.get("server memory.used < 1GB").passed()).isFalse();
    assertThat(r.get("server memory.used < 1GB").message())
        .contains("no server gauge memory.used", "--monitor");
  }

  @Test
  void mistakesAreNamedWithTheirPosition() {
    assertThatThrownBy(() -> CheckParser.parse("server cpu.steal < 5 parsecs"))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("unknown unit \"parsecs\"")
        .hasMessageContaining("position 22");
    assertThatThrownBy(() -> CheckParser.parse("server < 5%"))
        .hasMessageContaining("expected a gauge such as cpu.steal");
    assertThat(CheckParser.parse("server disk.write < 100MB/s for db").text())
        .isEqualTo("server disk.write < 100MB/s for db");
  }
}

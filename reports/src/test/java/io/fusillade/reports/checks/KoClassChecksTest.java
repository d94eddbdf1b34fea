package io.fusillade.reports.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.SyntheticRecord;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code errors} reads server and network KOs only; {@code injector not saturated} the rest. */
class KoClassChecksTest {
  @TempDir Path base;

  private RunData run(String id, double ko, String... reasons) throws Exception {
    return RunData.load(
        SyntheticRecord.run().seconds(10).rate(1000).ko(ko).koReasons(reasons).write(base, id));
  }

  @Test
  void errorsLeaveInjectorClassKosOut() throws Exception {
    // 5% KO, all of them the injector's: the system made no error
    RunData run = run("injector-ko", 0.05, "injector queue full");
    CheckResult errors = CheckParser.parse("errors < 1%").evaluate(run);
    assertThat(errors.passed()).isTrue();
    assertThat(errors.measured())
        .startsWith("errors = 0% (0 of ")
        .contains("injector-class KO not counted");

    CheckResult injector = CheckParser.parse("injector not saturated").evaluate(run);
    assertThat(injector.passed()).isFalse();
    long injectorKo = run.requests().values().iterator().next().koCount();
    assertThat(injector.measured()).endsWith(", " + injectorKo + " injector-class KO");
  }

  @Test
  void errorsCountServerAndNetworkKos() throws Exception {
    // half the seconds refused connections, the other half a server error
    RunData run =
        run(
            "server-network-ko",
            0.05,
            "connection refused (http://a:9200)",
            "HTTP 429 es_rejected_execution_exception");
    CheckResult errors = CheckParser.parse("errors < 1%").evaluate(run);
    assertThat(errors.passed()).isFalse();
    assertThat(errors.measured()).doesNotContain("injector");
    long ko = run.requests().values().iterator().next().koCount();
    assertThat(errors.measured()).contains("(" + ko + " of 10000)");

    CheckResult injector = CheckParser.parse("injector not saturated").evaluate(run);
    assertThat(injector.passed()).isTrue();
    assertThat(injector.measured()).doesNotContain("KO");
  }

  @Test
  void anOldRecordsUnknownReasonsAreTheServers() throws Exception {
    RunData run = run("old", 0.05, "odd thing from an old record");
    assertThat(CheckParser.parse("errors < 1%").evaluate(run).passed()).isFalse();
    assertThat(CheckParser.parse("injector not saturated").evaluate(run).passed()).isTrue();
    assertThat(run.requests().values().iterator().next().errors()).hasSize(1);
  }

  @Test
  void aRunWhoseEveryRequestTheInjectorFailedHasNoErrorRate() throws Exception {
    RunData run = run("all-injector", 1.0, "injector queue full");
    CheckResult errors = CheckParser.parse("errors < 1%").evaluate(run);
    assertThat(errors.passed()).isFalse();
    assertThat(errors.measured())
        .isEqualTo("no requests completed (10,000 injector-class KO: never sent)");
  }
}

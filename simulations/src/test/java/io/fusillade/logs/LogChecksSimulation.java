package io.fusillade.logs;

import static io.fusillade.gatling.logs.LogsDsl.logs;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.logs.LogsProtocolBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * For {@link LogsGatlingTest}: (1) bulks where every {@value #BAD_EVERY}th document of the first
 * {@value #BAD_BULKS} bulks has a string status where the mapping says integer, then good bulks;
 * (2) a light load with the time-to-searchable probe on another index.
 */
public class LogChecksSimulation extends Simulation {
  static final int BULK = 100;
  static final int BAD_EVERY = 10;
  static final int BAD_BULKS = 3;
  static final int GOOD_BULKS = 3;

  /** Web documents, except that every tenth has {@code "status":"oops"}. */
  static final class Corrupted implements LogSource {
    private final WebLogs web = new WebLogs(1);

    @Override
    public String name() {
      return "corrupted-web";
    }

    @Override
    public void write(long index, JsonBuffer out) {
      if (index < (long) BAD_BULKS * BULK && index % BAD_EVERY == 0) {
        out.ascii("{\"@timestamp\":").number(web.timestamp(index));
        out.ascii(",\"status\":").string("oops").ascii("}");
      } else {
        web.write(index, out);
      }
    }
  }

  {
    String url = SimulationProperties.string("logs.url", "");
    Duration ttsDuration =
        SimulationProperties.duration("logs.tts.duration", Duration.ofSeconds(12));
    LogsProtocolBuilder bad =
        logs.urls(url)
            .source(new Corrupted())
            .recreateIndex(IndexSpec.preset("bad-docs", "web-logs"));
    LogsProtocolBuilder probed =
        logs.urls(url)
            .seed(2)
            .recreateIndex(IndexSpec.preset("tts", "web-logs"))
            .timeToSearchable();
    setUp(
        scenario("bad then good")
            .repeat(BAD_BULKS)
            .on(exec(logs("bad bulk").bulk(BULK)))
            .repeat(GOOD_BULKS)
            .on(exec(logs("good bulk").bulk(BULK)))
            .injectOpen(atOnceUsers(1))
            .protocols(bad),
        scenario("light load")
            .exec(logs("tts load").bulk(200))
            .injectOpen(constantUsersPerSec(2).during(ttsDuration))
            .protocols(probed));
  }
}

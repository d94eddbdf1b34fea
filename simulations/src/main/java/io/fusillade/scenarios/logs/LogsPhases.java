package io.fusillade.scenarios.logs;

import static io.fusillade.gatling.logs.LogsDsl.logs;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.ArrivalSchedule.Segment;
import io.fusillade.gatling.FusilladeArrivals;
import io.fusillade.logs.LogsClient;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.SearchScenario;
import io.fusillade.scenarios.InjectedChains;
import io.fusillade.scenarios.StageInjection;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The building blocks of the log simulations, as Gatling populations: the write path (an exact
 * number of documents, or bulks at arrival rates, sent by the lanes of {@link FusilladeArrivals}),
 * a refresh, and the read-path scenarios one after another. {@link LogsRun} and the reference
 * simulations are made of these.
 */
public final class LogsPhases {
  private static final Logger LOG = LoggerFactory.getLogger(LogsPhases.class);
  private static final String REFRESH = "fusillade.logs.refresh";

  private LogsPhases() {}

  /**
   * Exactly {@code docs} documents in bulks of {@code bulkSize}, sent by {@code concurrency} users
   * starting together, each sending its share of the bulks back to back (a closed model: as fast as
   * the store takes them). Every document is sent once: users reserve document ranges from the
   * protocol's shared position.
   *
   * @param scenario the scenario's name
   * @param request the bulk requests' name in reports
   * @param bulkSize documents per bulk
   * @param docs documents in all, a multiple of {@code bulkSize}
   * @param concurrency users; at most one per bulk is started
   * @return the population
   */
  public static PopulationBuilder exactDocuments(
      String scenario, String request, int bulkSize, long docs, int concurrency) {
    return exactDocuments(scenario, request, bulkSize, docs, concurrency, InjectedChains.NONE);
  }

  /**
   * As {@link #exactDocuments(String, String, int, long, int)}, with a workload's injected bulks
   * before some of the bulks (every document is still sent).
   */
  static PopulationBuilder exactDocuments(
      String scenario,
      String request,
      int bulkSize,
      long docs,
      int concurrency,
      InjectedChains injected) {
    if (docs % bulkSize != 0) {
      throw new IllegalArgumentException(
          "docs " + docs + " is not a multiple of the bulk size " + bulkSize);
    }
    long bulks = docs / bulkSize;
    int users = (int) Math.max(1, Math.min(concurrency, bulks));
    long share = bulks / users;
    long extra = bulks % users;
    if (share + 1 > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many bulks per user: " + share);
    }
    ScenarioBuilder senders =
        scenario(scenario)
            .repeat(
                session -> {
                  long user = (session.userId() - 1) % users;
                  return (int) (share + (user < extra ? 1 : 0));
                })
            .on(injected.besides(exec(logs(request).bulk(bulkSize))));
    return senders.injectOpen(atOnceUsers(users));
  }

  /**
   * One bulk per arrival, at each of {@code rates} (bulks/s) for {@code step} in turn: an open
   * model, so a slow store shows as latency and KOs, never as a lower rate.
   *
   * @param scenario the scenario's name
   * @param request the bulk requests' name in reports
   * @param bulkSize documents per bulk
   * @param rates arrivals per second of each step
   * @param step how long each step lasts
   * @return the population
   */
  public static PopulationBuilder arrivals(
      String scenario, String request, int bulkSize, List<Double> rates, Duration step) {
    return arrivals(scenario, request, bulkSize, steps(rates, step), InjectedChains.NONE);
  }

  /** The arrivals of {@code rates} (per second) for {@code step} each, in turn. */
  static List<Segment> steps(List<Double> rates, Duration step) {
    return StageInjection.steps(rates, step);
  }

  /**
   * One bulk per arrival, arriving as {@code segments} say (such as {@link StageInjection}'s ramps
   * and holds), sent by the lanes of {@link FusilladeArrivals}: an open model, each bulk's latency
   * counted from its due time.
   *
   * @param scenario the scenario's name
   * @param request the bulk requests' name in reports
   * @param bulkSize documents per bulk
   * @param segments the arrival rates, in order
   * @return the population
   */
  public static PopulationBuilder arrivals(
      String scenario, String request, int bulkSize, List<Segment> segments) {
    return arrivals(scenario, request, bulkSize, segments, InjectedChains.NONE);
  }

  /**
   * As {@link #arrivals(String, String, int, List)}, where the workload's injected bulks take their
   * share of the arrivals.
   */
  static PopulationBuilder arrivals(
      String scenario,
      String request,
      int bulkSize,
      List<Segment> segments,
      InjectedChains injected) {
    return FusilladeArrivals.of(segments)
        .population(scenario, injected.instead(exec(logs(request).bulk(bulkSize))));
  }

  /**
   * Makes what was written searchable ({@code POST /<index>/_refresh}) before the searches, without
   * blocking Gatling's threads: one user starts the refresh and polls until it is done. A failed
   * refresh is logged; the searches still run.
   *
   * @param scenario the scenario's name
   * @param client the client to refresh with (closed by the caller)
   * @param index the index
   * @return the population
   */
  public static PopulationBuilder refresh(String scenario, LogsClient client, String index) {
    ScenarioBuilder refresh =
        scenario(scenario)
            .exec(
                session ->
                    session.set(
                        REFRESH,
                        CompletableFuture.runAsync(() -> client.refresh(index))
                            .exceptionally(
                                e -> {
                                  LOG.warn("Could not refresh {}: {}", index, e.getMessage());
                                  return null;
                                })))
            .asLongAs(session -> !session.<CompletableFuture<?>>get(REFRESH).isDone())
            .on(pause(Duration.ofMillis(50)));
    return refresh.injectOpen(atOnceUsers(1));
  }

  /**
   * The scenarios one after another, each with its own users (a closed model: N users looping for
   * the scenario's duration, or each sending its number of searches), each a request name.
   *
   * @param scenarios the read-path scenarios, in order
   * @param store the protocol the searches use
   * @return the first population, with the others chained after it, or null for no scenario
   */
  public static PopulationBuilder searches(List<SearchScenario> scenarios, ProtocolBuilder store) {
    PopulationBuilder chain = null;
    for (SearchScenario s : scenarios) {
      ScenarioBuilder users =
          s.duration() != null
              ? scenario(s.name()).during(s.duration()).on(exec(logs(s.name()).search(s)))
              : scenario(s.name()).repeat(s.iterations()).on(exec(logs(s.name()).search(s)));
      PopulationBuilder population = users.injectOpen(atOnceUsers(s.users())).protocols(store);
      chain = chain == null ? population : chain.andThen(population);
    }
    return chain;
  }

  /** The scenario of the reads that count their matches once, after every other read. */
  public static final String VERIFY = "counts";

  /**
   * The reads one after another, each with its own users (a closed model), each a request name;
   * then one user sends each read that counts its matches once ({@link ReadPlan#verify()}, scenario
   * {@value #VERIFY}).
   *
   * @param plans the read-path scenarios, in order
   * @param store the protocol the reads use
   * @return the first population, with the others chained after it, or null for none
   */
  static PopulationBuilder reads(List<ReadPlan> plans, ProtocolBuilder store) {
    PopulationBuilder chain = null;
    List<io.gatling.javaapi.core.ChainBuilder> verify = new ArrayList<>();
    for (ReadPlan p : plans) {
      ScenarioBuilder users =
          p.duration() != null
              ? scenario(p.name()).during(p.duration()).on(p.read())
              : scenario(p.name()).repeat(p.iterations()).on(p.read());
      PopulationBuilder population = users.injectOpen(atOnceUsers(p.users())).protocols(store);
      chain = chain == null ? population : chain.andThen(population);
      if (p.verify() != null) {
        verify.add(p.verify());
      }
    }
    if (!verify.isEmpty()) {
      PopulationBuilder counts =
          scenario(VERIFY).exec(verify).injectOpen(atOnceUsers(1)).protocols(store);
      chain = chain == null ? counts : chain.andThen(counts);
    }
    return chain;
  }

  /**
   * Opens a client for work between phases; it closes at the end of the run.
   *
   * @param options the store
   * @return the client
   */
  static LogsClient client(LogsClientOptions options) {
    LogsClient client = LogsClient.open(options);
    io.fusillade.gatling.FusilladeRun.closeAtEnd(client);
    return client;
  }
}

package io.fusillade.scenarios.logs;

import static io.fusillade.gatling.logs.LogsDsl.bucketCounts;
import static io.fusillade.gatling.logs.LogsDsl.bucketValues;
import static io.fusillade.gatling.logs.LogsDsl.hits;
import static io.fusillade.gatling.logs.LogsDsl.logs;
import static io.fusillade.gatling.logs.LogsDsl.total;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.logs.LogsSearchBuilder;
import io.fusillade.gatling.logs.LogsSeqQlBuilder;
import io.fusillade.logs.LogSearches;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.SearchResult;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.SeqDbAggregation;
import io.fusillade.logs.WebLogTally;
import io.fusillade.logs.WebLogs;
import io.fusillade.workload.LogRead;
import io.fusillade.workload.LogSearch;
import io.fusillade.workload.LogsNames;
import io.fusillade.workload.LogsSection;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The searches of a workload's {@code logs} section as the run sends them ({@link ReadPlan}): a
 * built-in scenario in its store's terms, or a read of the file's own (its query DSL body, or its
 * seq-db form) with its parameters drawn and its expectations as checks: {@code hits} and {@code
 * buckets} on every answer, {@code count} once after all the scenarios, against the generator's
 * count of the documents the ingest planned ({@link WebLogTally}: one pass over them for every
 * expectation of the file).
 */
final class LogReads {
  /** The query string of a query DSL read that counts its matches: every one, exactly. */
  static final String COUNTING = "request_cache=false&track_total_hits=true";

  private LogReads() {}

  /**
   * @param section a validated section, on its target
   * @param documents the documents the ingest plans to store
   * @param seed the run's seed
   * @return the plans, in the file's order
   * @throws io.fusillade.FusilladeException when a search has no form for the target
   */
  static List<ReadPlan> plans(LogsSection section, long documents, long seed) {
    LogStore store = LogsWorkloadMapping.store(section);
    WebLogs web = new WebLogs(seed);
    Map<LogSearch, List<WebLogTally.Question>> questions = new HashMap<>();
    List<WebLogTally.Question> all = new ArrayList<>();
    for (LogSearch s : section.searches()) {
      String missing = LogsNames.missingForm(s, section.target());
      if (missing != null) {
        throw new io.fusillade.FusilladeException(missing);
      }
      if (s.custom()) {
        List<WebLogTally.Question> mine = questions(s.read().expect());
        questions.put(s, mine);
        all.addAll(mine);
      }
    }
    WebLogTally.run(web, documents, all);
    List<ReadPlan> plans = new ArrayList<>();
    for (LogSearch s : section.searches()) {
      if (!s.custom()) {
        SearchScenario scenario = LogsWorkloadMapping.scenario(s, web, documents, seed);
        plans.add(
            new ReadPlan(
                scenario.name(),
                scenario.users(),
                scenario.duration(),
                scenario.iterations(),
                exec(logs(scenario.name()).search(scenario)),
                null));
      } else {
        plans.add(own(s, store, seed, questions.get(s)));
      }
    }
    return plans;
  }

  /** The generator's questions of an expectation: its count, then its buckets. */
  private static List<WebLogTally.Question> questions(LogRead.Expect expect) {
    List<WebLogTally.Question> list = new ArrayList<>();
    expect.countWhere().forEach((field, values) -> list.add(WebLogTally.count(field, values)));
    if (expect.buckets() != null) {
      LogRead.Buckets b = expect.buckets();
      list.add(WebLogTally.buckets(b.groupBy(), function(b.function()), b.field()));
    }
    return list;
  }

  private static ReadPlan own(
      LogSearch s, LogStore store, long seed, List<WebLogTally.Question> answers) {
    LogRead read = s.read();
    LogRead.Expect expect = read.expect();
    Long total = expect.count();
    Map<String, Double> buckets = null;
    boolean counts = false;
    for (WebLogTally.Question q : answers) {
      if (q instanceof WebLogTally.Count c) {
        total = c.result();
      } else if (q instanceof WebLogTally.Buckets b) {
        buckets = b.result();
        counts = expect.buckets().function().equals("count");
      }
    }
    ReadParams params = new ReadParams(s.name(), read.params(), seed);
    ActionBuilder timed = request(s.name(), read, store, false, total, buckets, counts);
    ChainBuilder chain = params.isEmpty() ? exec(timed) : exec(params::draw).exec(timed);
    ChainBuilder verify = null;
    if (total != null) {
      ActionBuilder counting = request(s.name() + " total", read, store, true, total, null, false);
      verify = params.isEmpty() ? exec(counting) : exec(params::draw).exec(counting);
    }
    int users = s.concurrency().orElse(1);
    return new ReadPlan(
        s.name(),
        users,
        s.duration().orElse(null),
        s.iterations().orElse(s.duration().isPresent() ? 0 : 1),
        chain,
        verify);
  }

  /**
   * The read's request on {@code store}, with its checks: on every answer the hits and buckets
   * expected; with {@code counting}, its total asked for and checked against {@code total}.
   */
  private static ActionBuilder request(
      String name,
      LogRead read,
      LogStore store,
      boolean counting,
      Long total,
      Map<String, Double> buckets,
      boolean bucketCounts) {
    LogRead.Expect expect = read.expect();
    if (store == LogStore.SEQ_DB) {
      LogsSeqQlBuilder b = seqDb(logs(name), read.seqDb());
      if (counting) {
        b = b.withTotal().check(total().is(total));
      } else {
        b = expect.hits() != null ? b.check(hits().is(expect.hits())) : b;
        b = expect.minHits() != null ? b.check(hits().gte(expect.minHits())) : b;
        b = buckets != null ? b.check(bucketCheck(buckets, bucketCounts)) : b;
      }
      return b;
    }
    String queryString = read.queryString() != null ? read.queryString() : LogSearches.QUERY_STRING;
    LogsSearchBuilder b =
        logs(name)
            .search(Expression.text(read.es()))
            .queryString(counting ? counting(queryString) : queryString);
    if (counting) {
      b = b.check(total().is(total));
    } else {
      b = expect.hits() != null ? b.check(hits().is(expect.hits())) : b;
      b = expect.minHits() != null ? b.check(hits().gte(expect.minHits())) : b;
      b = buckets != null ? b.check(bucketCheck(buckets, bucketCounts)) : b;
    }
    return b;
  }

  /** Exactly these buckets of the answer's only aggregation, whatever each store names it. */
  private static Check<SearchResult, Map<String, Double>> bucketCheck(
      Map<String, Double> expected, boolean counts) {
    return (counts ? bucketCounts("") : bucketValues("")).is(expected);
  }

  /** A query string with {@code track_total_hits=true}, whatever it said of it. */
  static String counting(String queryString) {
    StringBuilder out = new StringBuilder();
    for (String part : queryString.split("&")) {
      if (!part.isBlank() && !part.startsWith("track_total_hits=")) {
        out.append(out.length() > 0 ? "&" : "").append(part);
      }
    }
    return out.append(out.length() > 0 ? "&" : "").append("track_total_hits=true").toString();
  }

  /** The seq-db form as the DSL writes it. */
  static LogsSeqQlBuilder seqDb(io.fusillade.gatling.logs.LogsRequest request, LogRead.SeqDb form) {
    LogsSeqQlBuilder b = request.seqql(form.query());
    if (form.size() != null) {
      b = b.size(form.size());
    }
    if (form.offset() != null) {
      b = b.offset(form.offset());
    }
    if (form.from() != null) {
      b = b.from(form.from());
    }
    if (form.to() != null) {
      b = b.to(form.to());
    }
    if (form.total()) {
      b = b.withTotal();
    }
    if (form.oldestFirst()) {
      b = b.oldestFirst();
    }
    for (LogRead.Aggregation a : form.aggregations()) {
      SeqDbAggregation agg =
          new SeqDbAggregation(
              function(a.function()), a.field(), a.groupBy(), a.quantiles(), a.name());
      b = b.aggregate(agg);
    }
    if (form.histogram() != null) {
      b = b.histogram(form.histogram());
    }
    return b;
  }

  private static SeqDbAggregation.Function function(String label) {
    return SeqDbAggregation.Function.parse(label.toLowerCase(Locale.ROOT))
        .orElseThrow(() -> new IllegalStateException("no seq-db function " + label));
  }
}

package io.fusillade.scenarios.logs;

import io.fusillade.gen.ValueGenerator;
import io.fusillade.workload.LogRead;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * The seeded parameters of a read of the workload's own, drawn before each request into the
 * session, where its Gatling EL finds them ({@code #{offset}}). One stream per parameter, from the
 * run's seed, the read's name and the parameter's: the same seed gives the same sequence of
 * requests on every store. Thread-safe: users draw under a lock (a search costs far more).
 */
final class ReadParams {
  private final List<LogRead.Param> params;
  private final List<ValueGenerator> generators = new ArrayList<>(); // null for a derived one

  ReadParams(String read, List<LogRead.Param> params, long seed) {
    this.params = List.copyOf(params);
    for (LogRead.Param p : params) {
      generators.add(
          p.spec() == null
              ? null
              : ValueGenerator.create(p.spec(), seed, "logs.search." + read, 0, 1));
    }
  }

  boolean isEmpty() {
    return params.isEmpty();
  }

  /** The session with the next value of every parameter. */
  synchronized Session draw(Session session) {
    java.util.Map<String, Object> values = new java.util.HashMap<>();
    Session out = session;
    for (int i = 0; i < params.size(); i++) {
      LogRead.Param p = params.get(i);
      Object value;
      if (p.spec() != null) {
        value = generators.get(i).next();
      } else {
        Object base = values.get(p.from());
        if (!(base instanceof Number n)) {
          throw new IllegalArgumentException(
              "parameter "
                  + p.name()
                  + " derives from "
                  + p.from()
                  + ", which is not a number: "
                  + base);
        }
        value = n.longValue() * p.times() + p.plus();
      }
      values.put(p.name(), value);
      out = out.set(p.name(), value);
    }
    return out;
  }
}

package io.fusillade.gatling;

import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The time a virtual user takes over several requests, recorded as a request of its own: {@code
 * begin("query set")} notes when the user entered it, {@code end("query set")} records the time
 * since then under that name, in Gatling's stats and in the run record, OK unless a request in
 * between failed (the session is then marked failed). It shows in every table, and {@code compare},
 * {@code intervals} and {@code trend} read it like any request ({@code p50 [query set]}).
 *
 * <pre>{@code
 * exec(FusilladeSpan.begin("query set")).exec(queries).exec(FusilladeSpan.end("query set"))
 * }</pre>
 */
public final class FusilladeSpan {
  private FusilladeSpan() {}

  private static String attribute(String name) {
    return "fusillade.span." + name;
  }

  /** Notes that the user enters the span {@code name}. */
  public static ActionBuilder begin(String name) {
    return () ->
        new io.gatling.core.action.builder.ActionBuilder() {
          @Override
          public Action build(ScenarioContext ctx, Action next) {
            return new SpanAction(
                "begin " + name,
                session -> next.execute(session.set(attribute(name), System.nanoTime())));
          }
        };
  }

  /** Records the span {@code name}, from its {@link #begin} to now. */
  public static ActionBuilder end(String name) {
    return () ->
        new io.gatling.core.action.builder.ActionBuilder() {
          private final Map<String, ResponseReporter> reporters = new ConcurrentHashMap<>();

          @Override
          public Action build(ScenarioContext ctx, Action next) {
            ResponseReporter reporter =
                reporters.computeIfAbsent(
                    name,
                    n ->
                        new ResponseReporter(
                            ctx.coreComponents(),
                            FusilladeRun.recorder(ctx.coreComponents()).request(n)));
            return new SpanAction(
                "end " + name,
                session -> {
                  long now = System.nanoTime();
                  scala.Option<Object> began = session.attributes().get(attribute(name));
                  if (began.isDefined()) {
                    boolean failed = session.isFailed();
                    reporter.report(
                        session,
                        reporter.start((Long) began.get()),
                        now,
                        failed ? Status.KO : Status.OK,
                        "a request of the " + name + " failed");
                  }
                  next.execute(session.remove(attribute(name)));
                });
          }
        };
  }

  /** A synchronous step of a span. */
  private static final class SpanAction extends NamedAction {
    private final java.util.function.Consumer<Session> body;

    SpanAction(String name, java.util.function.Consumer<Session> body) {
      super(name);
      this.body = body;
    }

    @Override
    public void execute(Session session) {
      body.accept(session);
    }
  }
}

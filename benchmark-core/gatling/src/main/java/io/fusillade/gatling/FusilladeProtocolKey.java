package io.fusillade.gatling;

import io.fusillade.record.RunRecorder;
import io.gatling.core.CoreComponents;
import io.gatling.core.action.Action;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import io.gatling.core.structure.ScenarioContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import scala.Function1;

/**
 * Gatling's key of a Fusillade protocol: one set of components per protocol value and run, opened
 * with the run's recorder when the first scenario needs it (before injection) and closed when the
 * run ends. It also builds the protocol's actions with those components.
 *
 * @param <P> the protocol (a value: equal protocols share their components)
 * @param <C> its components
 */
public final class FusilladeProtocolKey<
        P extends Protocol, C extends SessionlessComponents & AutoCloseable>
    implements ProtocolKey<P, C> {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(FusilladeProtocolKey.class);

  /** Opens a protocol's components for a run. */
  @FunctionalInterface
  public interface Opener<P, C> {
    C open(P protocol, CoreComponents core, RunRecorder recorder);
  }

  private final Class<P> protocolClass;
  private final String missing;
  private final Opener<P, C> opener;

  /**
   * @param protocolClass the protocol's class
   * @param missing the message of a run whose scenarios use the protocol without configuring it
   * @param opener opens the components of one protocol value
   */
  public FusilladeProtocolKey(Class<P> protocolClass, String missing, Opener<P, C> opener) {
    this.protocolClass = protocolClass;
    this.missing = missing;
    this.opener = opener;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Class<Protocol> protocolClass() {
    return (Class) protocolClass;
  }

  @Override
  public P defaultProtocolValue(GatlingConfiguration configuration) {
    throw new IllegalStateException(missing);
  }

  @Override
  public Function1<P, C> newComponents(CoreComponents core) {
    // Called once per run; the function it returns, once per scenario: share by protocol.
    Map<P, C> components = new ConcurrentHashMap<>();
    return protocol ->
        components.computeIfAbsent(
            protocol,
            p -> {
              C opened = open(p, core);
              // the hooks declared now, by the simulation's constructor: the declarations are
              // gone by the time the run closes its resources
              List<Runnable> hooks = FusilladeRun.endHooks(opened, opened.recorder());
              FusilladeRun.closeAtEnd(() -> closeThenHooks(opened, hooks));
              return opened;
            });
  }

  /** Closes the components, then runs the run's end hooks on them ({@link FusilladeRun#onEnd}). */
  private static void closeThenHooks(SessionlessComponents components, List<Runnable> hooks)
      throws Exception {
    ((AutoCloseable) components).close();
    for (Runnable hook : hooks) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        LOG.warn("An end hook of {} failed: {}", components, e.toString());
      }
    }
  }

  /**
   * Opens the components; when they cannot open (an unreachable server), Gatling crashes the run
   * with the error, after closing it: note the error first so that the run record says {@code
   * failed} and why.
   */
  private C open(P protocol, CoreComponents core) {
    RunRecorder recorder = FusilladeRun.recorder(core);
    try {
      return opener.open(protocol, core, recorder);
    } catch (RuntimeException | Error e) {
      FusilladeRun.failed(e);
      throw e;
    }
  }

  /**
   * A Gatling action builder of an action of this protocol: {@code create} gets the scenario's
   * components and the next action.
   */
  public io.gatling.core.action.builder.ActionBuilder actionBuilder(
      BiFunction<C, Action, Action> create) {
    FusilladeProtocolKey<P, C> key = this;
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        return create.apply(ctx.protocolComponentsRegistry().components(key), next);
      }
    };
  }
}

package io.fusillade.containers;

import io.fusillade.local.KafkaServer;
import io.fusillade.local.PostgresServer;
import io.fusillade.local.SearchServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts the servers of a class's {@link FusilladeServers}, hands them to its tests as parameters
 * and system properties, and stops them after the class, whatever its tests did. Registered by the
 * annotation; not meant to be used on its own.
 */
public final class FusilladeServersExtension
    implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(FusilladeServersExtension.class);

  /** What a class started, and the system properties it replaced (to put back). */
  private static final class Started {
    final List<AutoCloseable> servers = new ArrayList<>();
    final Map<Class<?>, Object> byType = new HashMap<>();
    final Map<String, String> previousProperties = new HashMap<>();
    final Class<?> owner;

    Started(Class<?> owner) {
      this.owner = owner;
    }

    <T extends AutoCloseable> T add(Class<T> type, T server) {
      servers.add(server);
      byType.put(type, server);
      return server;
    }

    void property(String name, String value) {
      previousProperties.putIfAbsent(name, System.getProperty(name));
      System.setProperty(name, value);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    FusilladeServers wanted =
        AnnotationSupport.findAnnotation(testClass, FusilladeServers.class).orElse(null);
    if (wanted == null) {
      // A @Nested class inherits the extension but not the annotation: it shares its enclosing
      // class's servers (the store is looked up through the enclosing contexts).
      return;
    }
    Servers.Kind kind = Servers.kind();
    Assumptions.assumeTrue(kind == Servers.Kind.EMBEDDED || Docker.available(), Docker.UNAVAILABLE);
    Started started = new Started(testClass);
    context.getStore(NAMESPACE).put(Started.class, started);
    if (wanted.postgres() || wanted.postgresReplicas() > 0) {
      PostgresServer db =
          started.add(PostgresServer.class, Servers.postgres(kind, wanted.postgresReplicas()));
      started.property(FusilladeServers.POSTGRES_URL, db.jdbcUrl());
      started.property(FusilladeServers.POSTGRES_USER, db.user());
      // and under the names the existing simulations read, so they need no change
      started.property(FusilladeServers.SIMULATION_SQL_URL, db.jdbcUrl());
      started.property(FusilladeServers.SIMULATION_SQL_USER, db.user());
      if (!db.replicaJdbcUrls().isEmpty()) {
        started.property(
            FusilladeServers.POSTGRES_REPLICA_URLS, String.join(",", db.replicaJdbcUrls()));
      }
    }
    if (wanted.kafkaBrokers() > 0) {
      KafkaServer kafka =
          started.add(KafkaServer.class, Servers.kafka(kind, wanted.kafkaBrokers()));
      started.property(FusilladeServers.KAFKA_BOOTSTRAP, kafka.bootstrapServers());
    }
    if (wanted.openSearch()) {
      SearchServer search = started.add(SearchServer.class, Servers.openSearch(kind));
      started.property(FusilladeServers.SEARCH_URL, search.baseUrl());
      started.property(FusilladeServers.SIMULATION_LOGS_URL, search.baseUrl());
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    Started started = context.getStore(NAMESPACE).get(Started.class, Started.class);
    if (started == null || started.owner != context.getRequiredTestClass()) {
      return; // nothing started, or the enclosing class's servers, closed after that class
    }
    context.getStore(NAMESPACE).remove(Started.class);
    started.previousProperties.forEach(
        (name, value) -> {
          if (value == null) {
            System.clearProperty(name);
          } else {
            System.setProperty(name, value);
          }
        });
    Exception first = null;
    // the last started first: clients of one may still be closing against another
    for (int i = started.servers.size() - 1; i >= 0; i--) {
      try {
        started.servers.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == PostgresServer.class || type == KafkaServer.class || type == SearchServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    Started started = context.getStore(NAMESPACE).get(Started.class, Started.class);
    Object server = started == null ? null : started.byType.get(type);
    if (server == null) {
      throw new ParameterResolutionException(
          "no "
              + type.getSimpleName()
              + " was started: declare it in @FusilladeServers on "
              + context.getRequiredTestClass().getName());
    }
    return server;
  }
}

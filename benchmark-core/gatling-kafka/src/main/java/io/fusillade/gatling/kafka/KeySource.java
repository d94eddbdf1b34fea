package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gen.ValueGenerator;
import io.fusillade.gen.ValueSpec;
import io.gatling.core.session.Session;
import java.nio.charset.StandardCharsets;

/** Where a message's key comes from: none, an {@link Expression}, or a seeded generator. */
interface KeySource {
  KeySource NONE = session -> null;

  /**
   * @return the key's bytes (UTF-8 of its text), or null for no key
   * @throws IllegalArgumentException when it cannot be resolved (a missing session attribute)
   */
  byte[] key(Session session);

  /** What {@link #key} does needs the run's seed and the topic: bound when the action is built. */
  default KeySource bind(long seed, String topic) {
    return this;
  }

  static byte[] bytes(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof byte[] b) {
      return b;
    }
    return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
  }

  /** Keys from an expression: a constant is turned into bytes once. */
  static KeySource of(Expression<?> expression) {
    return expression.map(KeySource::bytes)::resolve;
  }

  /** Keys drawn from a generator spec, seeded by the run's seed and the topic. */
  static KeySource generated(ValueSpec spec) {
    return new KeySource() {
      @Override
      public byte[] key(Session session) {
        throw new IllegalStateException("unbound key generator");
      }

      @Override
      public KeySource bind(long seed, String topic) {
        ValueGenerator generator = ValueGenerator.create(spec, seed, topic, 0, 1);
        // One stream per action, in the order sends happen: same seed, same keys.
        return session -> {
          synchronized (generator) {
            return bytes(generator.next());
          }
        };
      }
    };
  }
}

package io.fusillade.gatling.topic;

import io.fusillade.gen.ValueGenerator;
import io.fusillade.gen.ValueSpec;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import scala.Function1;

/** Where a message's key comes from: none, a constant, the session, or a seeded generator. */
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

  static KeySource of(String text) {
    if (text != null && text.contains("#{")) {
      Function1<Session, Validation<Object>> expression = Expressions.toAnyExpression(text);
      return session -> {
        Validation<Object> result = expression.apply(session);
        if ((Object) result instanceof Failure failure) {
          throw new IllegalArgumentException(failure.message());
        }
        return bytes(result.toOption().get());
      };
    }
    byte[] constant = bytes(text);
    return session -> constant;
  }

  static KeySource of(Function<io.gatling.javaapi.core.Session, Object> function) {
    return session -> bytes(function.apply(new io.gatling.javaapi.core.Session(session)));
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

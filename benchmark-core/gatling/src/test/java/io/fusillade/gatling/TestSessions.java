package io.fusillade.gatling;

import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;

/** Gatling sessions for unit tests: no scenario running, no event loop. */
public final class TestSessions {
  private TestSessions() {}

  /** An empty session of user 1. */
  public static Session empty() {
    return Session$.MODULE$.apply("test", 1L, null);
  }

  /** A session of user 1 holding {@code key = value}. */
  public static Session with(String key, Object value) {
    return empty().set(key, value);
  }
}

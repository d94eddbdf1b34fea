package io.fusillade.gatling;

import com.typesafe.scalalogging.Logger;
import io.gatling.core.action.Action;
import org.slf4j.LoggerFactory;

/**
 * A Java Gatling action with a fixed name: supplies the logger that Gatling's Scala {@code Action}
 * trait expects (javac cannot inherit a Scala trait's field initialiser).
 */
abstract class NamedAction implements Action {
  private Logger logger = Logger.apply(LoggerFactory.getLogger(getClass()));
  private final String name;

  NamedAction(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  @SuppressWarnings("checkstyle:MethodName")
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {
    this.logger = logger;
  }
}

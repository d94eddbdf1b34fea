package io.fusillade;

/**
 * A problem the user can fix: a bad workload file, a wrong argument, an unreachable endpoint.
 *
 * <p>The message is meant to be printed as it is, without a stack trace: it names the file, line
 * and field, or the endpoint (with any password masked), and says what is wrong. Errors that are
 * Fusillade's own bugs are never wrapped in this type.
 */
public class FusilladeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public FusilladeException(String message) {
    super(message);
  }

  public FusilladeException(String message, Throwable cause) {
    super(message, cause);
  }
}

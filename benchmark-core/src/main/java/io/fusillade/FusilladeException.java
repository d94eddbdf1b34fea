package io.fusillade;

/**
 * An error the user can cause and fix: a bad workload file, a bad URL, an unreachable server. Its
 * message names the file, line and field or the endpoint (never a secret); the command line prints
 * it without a stack trace and exits with status 2.
 */
public class FusilladeException extends RuntimeException {

  /**
   * @param message what is wrong and where, for the user
   */
  public FusilladeException(String message) {
    super(message);
  }

  /**
   * @param message what is wrong and where, for the user
   * @param cause the underlying error, kept for debugging
   */
  public FusilladeException(String message, Throwable cause) {
    super(message, cause);
  }
}

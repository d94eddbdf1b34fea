package io.fusillade.logs;

import java.util.List;

/** The names of gRPC's status codes, for the reasons of seq-db's gateway errors. */
final class GrpcCodes {
  private static final List<String> NAMES =
      List.of(
          "OK",
          "Canceled",
          "Unknown",
          "InvalidArgument",
          "DeadlineExceeded",
          "NotFound",
          "AlreadyExists",
          "PermissionDenied",
          "ResourceExhausted",
          "FailedPrecondition",
          "Aborted",
          "OutOfRange",
          "Unimplemented",
          "Internal",
          "Unavailable",
          "DataLoss",
          "Unauthenticated");

  private GrpcCodes() {}

  /** The code's name ({@code InvalidArgument} for 3), or {@code code N} for one unknown. */
  static String name(int code) {
    return code >= 0 && code < NAMES.size() ? NAMES.get(code) : "code " + code;
  }
}

package io.fusillade.logs;

import io.fusillade.local.LocalOpenSearch;

/** Starts an embedded OpenSearch, prints its URL, and stops it when standard input closes. */
public final class LocalOpenSearchMain {
  private LocalOpenSearchMain() {}

  public static void main(String[] args) throws Exception {
    try (LocalOpenSearch node = LocalOpenSearch.start()) {
      System.out.println(node.baseUrl());
      System.out.flush();
      while (System.in.read() >= 0) {
        // wait for the caller to close our standard input
      }
    }
  }
}

package io.fusillade.record;

/** The outcome of one request, as Gatling names it. */
public enum Status {
  OK,
  KO
}

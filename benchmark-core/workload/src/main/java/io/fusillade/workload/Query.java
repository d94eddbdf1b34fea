package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query of a workload: SQL text as written (dialect casts such as {@code ::string} included), one
 * generated value per placeholder, and how many times the queue holds it. A query may be a
 * transaction of several statements ({@code transaction:} in the file), which share its parameters:
 * each statement takes the values its {@code $n} placeholders name.
 *
 * @param name the query name (its stream scope); {@code query1}, {@code query2}, ... by default
 * @param sql the statement
 * @param params one spec per placeholder, named {@code p1}, {@code p2}, ... unless named in the
 *     file
 * @param count how many times the query is in the queue
 * @param vendorOptions engine-specific keys (none are read today)
 * @param location where its {@code sql} is in the file, for messages about the statement (such as
 *     {@code workload check --url}'s); null for a query not read from a file
 * @param limits its own {@code timeout} and {@code max_tries}
 * @param transaction every statement of a transaction, in order ({@code sql} is the first); empty
 *     for a single statement
 * @param tags the query's tags ({@code lite}, {@code full}...), by which {@code --queries} selects
 */
public record Query(
    String name,
    String sql,
    List<ValueSpec> params,
    int count,
    Map<String, Object> vendorOptions,
    Location location,
    QueryLimits limits,
    List<String> transaction,
    List<String> tags) {

  /** Copies the collections. */
  public Query {
    params = List.copyOf(params);
    vendorOptions = Collections.unmodifiableMap(new LinkedHashMap<>(vendorOptions));
    limits = limits == null ? QueryLimits.NONE : limits;
    transaction = transaction == null ? List.of() : List.copyOf(transaction);
    tags = tags == null ? List.of() : List.copyOf(tags);
  }

  /** A single statement without tags, with the run's timeout and tries. */
  public Query(
      String name,
      String sql,
      List<ValueSpec> params,
      int count,
      Map<String, Object> vendorOptions,
      Location location) {
    this(name, sql, params, count, vendorOptions, location, QueryLimits.NONE, List.of(), List.of());
  }

  /** A query not read from a file: no location. */
  public Query(
      String name,
      String sql,
      List<ValueSpec> params,
      int count,
      Map<String, Object> vendorOptions) {
    this(name, sql, params, count, vendorOptions, null);
  }

  /**
   * The same query sending {@code statements} instead of its own ({@link #statements()}, one for
   * one): its casts adapted to the server, say.
   */
  public Query withStatements(List<String> statements) {
    if (statements.size() != statements().size()) {
      throw new IllegalArgumentException(
          "query "
              + name
              + " has "
              + statements().size()
              + " statements, not "
              + statements.size());
    }
    return new Query(
        name,
        statements.get(0),
        params,
        count,
        vendorOptions,
        location,
        limits,
        transaction.isEmpty() ? transaction : statements,
        tags);
  }

  /**
   * @return the statements it runs: its transaction's, or its one {@code sql}
   */
  public List<String> statements() {
    return transaction.isEmpty() ? List.of(sql) : transaction;
  }

  /**
   * @return whether it runs several statements as one transaction
   */
  public boolean isTransaction() {
    return transaction.size() > 1;
  }
}

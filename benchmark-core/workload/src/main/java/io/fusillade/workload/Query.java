package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query of a workload: SQL text as written (dialect casts such as {@code ::string} included), one
 * generated value per placeholder, and how many times the queue holds it.
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
 */
public record Query(
    String name,
    String sql,
    List<ValueSpec> params,
    int count,
    Map<String, Object> vendorOptions,
    Location location,
    QueryLimits limits) {

  /** Copies the collections. */
  public Query {
    params = List.copyOf(params);
    vendorOptions = Collections.unmodifiableMap(new LinkedHashMap<>(vendorOptions));
  }

  /** A query with the run's timeout and tries. */
  public Query(
      String name,
      String sql,
      List<ValueSpec> params,
      int count,
      Map<String, Object> vendorOptions,
      Location location) {
    this(name, sql, params, count, vendorOptions, location, QueryLimits.NONE);
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
}

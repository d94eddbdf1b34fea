package io.fusillade.gen;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates the rows of one table (or the parameter lists of one query) for one virtual user: one
 * {@link ValueGenerator} per column, each with its own stream.
 *
 * <p>The hot path is {@link #next(Object[])}, which fills a caller-owned array and allocates
 * nothing but the values. Not thread-safe; give each thread its own generator through {@link
 * #forUser(int, int)}.
 */
public final class RowGenerator {

  private final String scope;
  private final List<ValueSpec> specs;
  private final long runSeed;
  private final List<String> names;
  private final ValueGenerator[] columns;

  private RowGenerator(String scope, List<ValueSpec> specs, long runSeed, int user, int users) {
    this.scope = scope;
    this.specs = List.copyOf(specs);
    this.runSeed = runSeed;
    List<String> columnNames = new ArrayList<>(specs.size());
    this.columns = new ValueGenerator[specs.size()];
    for (int i = 0; i < columns.length; i++) {
      ValueSpec spec = specs.get(i);
      columnNames.add(spec.name());
      columns[i] = ValueGenerator.create(spec, runSeed, scope, user, users);
    }
    this.names = Collections.unmodifiableList(columnNames);
  }

  /**
   * @param scope the table (or query) name, part of every column's stream
   * @param columns the columns, in output order
   * @param runSeed the run's seed
   * @return the generator of the whole sequence (user 0 of 1)
   */
  public static RowGenerator of(String scope, List<ValueSpec> columns, long runSeed) {
    return new RowGenerator(scope, columns, runSeed, 0, 1);
  }

  /**
   * The generator of one user's share: its own random streams, and every {@code users}-th sequence
   * number starting at {@code user}, so unique values never collide between users.
   *
   * @param user the user's index, in [0, users)
   * @param users the number of users
   * @return a new generator over the same columns
   */
  public RowGenerator forUser(int user, int users) {
    return new RowGenerator(scope, specs, runSeed, user, users);
  }

  /**
   * @return the table or query name
   */
  public String scope() {
    return scope;
  }

  /**
   * @return the column names, in output order
   */
  public List<String> columnNames() {
    return names;
  }

  /**
   * @return the number of columns
   */
  public int width() {
    return columns.length;
  }

  /**
   * Fills {@code row} with the next row.
   *
   * @param row an array of at least {@link #width()} elements, reused across calls
   */
  public void next(Object[] row) {
    for (int i = 0; i < columns.length; i++) {
      row[i] = columns[i].next();
    }
  }

  /**
   * @return the next row in a new array
   */
  public Object[] next() {
    Object[] row = new Object[columns.length];
    next(row);
    return row;
  }

  /**
   * @return the next row as column name to value, in column order (null values included)
   */
  public Map<String, Object> nextMap() {
    Map<String, Object> row = new LinkedHashMap<>(columns.length * 2);
    for (int i = 0; i < columns.length; i++) {
      row.put(names.get(i), columns[i].next());
    }
    return row;
  }
}

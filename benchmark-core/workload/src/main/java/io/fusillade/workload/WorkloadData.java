package io.fusillade.workload;

import io.fusillade.FusilladeException;
import io.fusillade.gen.QueryQueue;
import io.fusillade.gen.RowGenerator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The data of a workload for one seed: table rows, query parameters and the query queue. Every
 * generator it hands out is repeatable: the same workload and seed give the same values, in any
 * JVM.
 *
 * <pre>{@code
 * WorkloadData data = new WorkloadData(workload, 42);
 * RowGenerator rows = data.rows("cars_q");          // the whole table, in order
 * RowGenerator mine = data.rows("cars_q", 3, 16);   // user 3 of 16
 * int[] queue = data.queue().forUser(3, 16);        // which queries user 3 sends
 * RowGenerator params = data.params(queue[0], 3, 16);
 * }</pre>
 *
 * @param workload the workload
 * @param seed the run seed
 */
public record WorkloadData(Workload workload, long seed) {

  /**
   * @param workload the workload, with the seed from its file (or {@link Workload#DEFAULT_SEED})
   * @return its data
   */
  public static WorkloadData of(Workload workload) {
    return new WorkloadData(workload, workload.seed().orElse(Workload.DEFAULT_SEED));
  }

  /**
   * @param table a table name
   * @return the generator of all its rows, in order
   * @throws FusilladeException if there is no such table
   */
  public RowGenerator rows(String table) {
    Table t =
        workload
            .table(table)
            .orElseThrow(
                () ->
                    new FusilladeException(
                        workload.file()
                            + ": no table '"
                            + table
                            + "'"
                            + Suggestions.closest(table, tableNames())
                                .map(c -> "; did you mean '" + c + "'?")
                                .orElse("")
                            + " (tables: "
                            + String.join(", ", tableNames())
                            + ")"));
    return RowGenerator.of(t.name(), t.columns(), seed);
  }

  /**
   * @param table a table name
   * @param user the user's index, in [0, users)
   * @param users the number of users filling the table together
   * @return the generator of this user's share of the rows
   */
  public RowGenerator rows(String table, int user, int users) {
    return rows(table).forUser(user, users);
  }

  /**
   * @param query the query's index in the workload
   * @param user the user's index, in [0, users)
   * @param users the number of users
   * @return the generator of this user's parameter lists for the query, named p1, p2, ...
   */
  public RowGenerator params(int query, int user, int users) {
    Query q = workload.queries().get(query);
    return RowGenerator.of(q.name(), q.params(), seed).forUser(user, users);
  }

  /**
   * @return the shuffled queue of query indexes, from the queries' counts
   */
  public QueryQueue queue() {
    return QueryQueue.shuffled(workload.queries().stream().mapToInt(Query::count).toArray(), seed);
  }

  private List<String> tableNames() {
    return workload.tables().stream().map(Table::name).collect(Collectors.toList());
  }
}

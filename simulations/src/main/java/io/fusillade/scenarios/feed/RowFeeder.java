package io.fusillade.scenarios.feed;

import io.fusillade.gen.RowGenerator;
import io.fusillade.workload.WorkloadData;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A generator as a Gatling feeder: each record is the next row, column name to value, so the
 * session attributes are the column names ({@code #{id}}, {@code #{brand}}).
 *
 * <pre>{@code
 * WorkloadData data = WorkloadData.of(WorkloadLoader.load(Path.of("cars.yml")).orThrow());
 * scenario("lookups").feed(RowFeeder.of(data, "cars_q")).exec(...);
 * }</pre>
 *
 * <p>Gatling shares one feeder among all virtual users; {@link #next()} is synchronized, as the
 * underlying generator is not thread-safe. The values and their order depend only on the seed;
 * which user receives which row depends on Gatling's scheduling.
 */
public final class RowFeeder implements Iterator<Map<String, Object>> {

  private final RowGenerator rows;
  private final long limit;
  private long served;

  private RowFeeder(RowGenerator rows, long limit) {
    this.rows = rows;
    this.limit = limit;
  }

  /**
   * @param rows the generator
   * @return an endless feeder
   */
  public static RowFeeder of(RowGenerator rows) {
    return new RowFeeder(rows, Long.MAX_VALUE);
  }

  /**
   * @param rows the generator
   * @param limit how many records to give before {@link #hasNext()} turns false (Gatling then stops
   *     the users that ask for more)
   * @return a bounded feeder
   */
  public static RowFeeder of(RowGenerator rows, long limit) {
    return new RowFeeder(rows, limit);
  }

  /**
   * @param data a workload's data
   * @param table one of its tables
   * @return an endless feeder of that table's rows
   */
  public static RowFeeder of(WorkloadData data, String table) {
    return of(data.rows(table));
  }

  @Override
  public synchronized boolean hasNext() {
    return served < limit;
  }

  @Override
  public synchronized Map<String, Object> next() {
    if (served >= limit) {
      throw new NoSuchElementException("the feeder gave all its " + limit + " records");
    }
    served++;
    return rows.nextMap();
  }
}

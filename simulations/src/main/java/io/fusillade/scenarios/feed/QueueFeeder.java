package io.fusillade.scenarios.feed;

import io.fusillade.gen.QueryQueue;
import io.fusillade.gen.RowGenerator;
import io.fusillade.workload.Query;
import io.fusillade.workload.WorkloadData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A workload's query queue as a Gatling feeder (Picostress's {@code queue} mode): the queries in
 * their seeded, shuffled order, each record carrying {@code query} (the name), {@code sql} (the
 * text as written), {@code params} (the values, in placeholder order) and each value under its
 * parameter name ({@code p1}, {@code p2}, ... unless named in the file). The feeder ends with the
 * queue.
 */
public final class QueueFeeder implements Iterator<Map<String, Object>> {

  private final List<Query> queries;
  private final RowGenerator[] params;
  private final QueryQueue queue;
  private int position;

  private QueueFeeder(WorkloadData data) {
    this.queries = data.workload().queries();
    this.params = new RowGenerator[queries.size()];
    for (int i = 0; i < params.length; i++) {
      params[i] = data.params(i, 0, 1);
    }
    this.queue = data.queue();
  }

  /**
   * @param data a workload's data
   * @return a feeder of its whole queue
   */
  public static QueueFeeder of(WorkloadData data) {
    return new QueueFeeder(data);
  }

  @Override
  public synchronized boolean hasNext() {
    return position < queue.size();
  }

  @Override
  public synchronized Map<String, Object> next() {
    if (position >= queue.size()) {
      throw new NoSuchElementException("the query queue is exhausted");
    }
    int index = queue.get(position++);
    Query query = queries.get(index);
    Object[] values = params[index].next();
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("query", query.name());
    record.put("sql", query.sql());
    record.put("params", new ArrayList<>(Arrays.asList(values)));
    List<String> names = params[index].columnNames();
    for (int i = 0; i < values.length; i++) {
      record.put(names.get(i), values[i]);
    }
    return record;
  }
}

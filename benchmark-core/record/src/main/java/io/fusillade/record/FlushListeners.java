package io.fusillade.record;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one run, called as one: a listener that throws is logged (once) and skipped, so
 * that watching the run never stops its record.
 */
final class FlushListeners implements FlushListener {
  private static final Logger LOG = LoggerFactory.getLogger(FlushListeners.class);

  private final List<FlushListener> listeners = new CopyOnWriteArrayList<>();
  private final List<FlushListener> warned = new CopyOnWriteArrayList<>();

  void add(FlushListener listener) {
    listeners.add(listener);
  }

  boolean isEmpty() {
    return listeners.isEmpty();
  }

  private void each(Consumer<FlushListener> call) {
    for (FlushListener listener : listeners) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        if (!warned.contains(listener)) {
          warned.add(listener);
          LOG.warn("A run listener ({}) failed: {}", listener.getClass().getName(), e.toString());
        }
      }
    }
  }

  @Override
  public void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {
    each(l -> l.request(name, sent, ok, ko, errors));
  }

  @Override
  public void requestsEnd() {
    each(FlushListener::requestsEnd);
  }

  @Override
  public void metric(String name, Histogram interval) {
    each(l -> l.metric(name, interval));
  }

  @Override
  public void counter(String name, long delta) {
    each(l -> l.counter(name, delta));
  }

  @Override
  public void gauge(String name, double value) {
    each(l -> l.gauge(name, value));
  }

  @Override
  public void intervalEnd(long epochMs, double elapsedSeconds) {
    each(l -> l.intervalEnd(epochMs, elapsedSeconds));
  }

  @Override
  public void closed(RunStatus status) {
    each(l -> l.closed(status));
  }
}

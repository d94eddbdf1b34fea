package io.fusillade.system;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The Prometheus text exposition format (version 0.0.4), as exporters serve it on {@code /metrics}:
 * what {@link ServerScraper} reads from {@code node_exporter}, cAdvisor, {@code postgres_exporter},
 * Kafka's JMX exporter or {@code fusillade agent}. Only samples and {@code # TYPE} lines matter
 * here; timestamps and {@code # HELP} are skipped. A line that cannot be read is skipped too: one
 * odd metric must not cost the others.
 */
public final class PrometheusText {
  private PrometheusText() {}

  /**
   * One sample.
   *
   * @param name the metric name
   * @param labels its labels
   * @param value its value
   */
  public record Sample(String name, Map<String, String> labels, double value) {}

  /**
   * The samples of one scrape, and when it was taken.
   *
   * @param samples in the order served
   * @param types {@code # TYPE} by metric name (counter, gauge, summary, histogram, untyped)
   * @param nanos when the answer arrived, on the {@link System#nanoTime()} scale
   */
  public record Scrape(List<Sample> samples, Map<String, String> types, long nanos) {

    /** Copies the lists. */
    public Scrape {
      samples = List.copyOf(samples);
      types = Map.copyOf(types);
    }

    /**
     * Whether any sample has this name.
     *
     * @param name a metric name
     * @return true when served
     */
    public boolean has(String name) {
      return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /**
     * The sum of the samples of a metric whose labels pass the filter, or NaN when there is none.
     *
     * @param name a metric name
     * @param labels which series to add
     * @return the sum
     */
    public double sum(String name, Predicate<Map<String, String>> labels) {
      double sum = 0;
      boolean any = false;
      for (Sample s : samples) {
        if (s.name().equals(name) && labels.test(s.labels())) {
          sum += s.value();
          any = true;
        }
      }
      return any ? sum : Double.NaN;
    }

    /**
     * The sums of a metric's samples grouped by the value of one label (series without it left
     * out).
     *
     * @param name a metric name
     * @param label the label to group by
     * @return the sum per label value, in the order served
     */
    public Map<String, Double> sumBy(String name, String label) {
      Map<String, Double> sums = new LinkedHashMap<>();
      for (Sample s : samples) {
        String key = s.labels().get(label);
        if (s.name().equals(name) && key != null && !key.isEmpty()) {
          sums.merge(key, s.value(), Double::sum);
        }
      }
      return sums;
    }

    /**
     * Whether a metric is a counter: typed so, or named {@code *_total} as the naming rules say.
     *
     * @param name a metric name
     * @return true for a counter
     */
    public boolean counter(String name) {
      String type = types.get(name);
      return type != null ? type.equals("counter") : name.endsWith("_total");
    }
  }

  /**
   * Reads a scrape.
   *
   * @param text what the exporter answered
   * @param nanos when it arrived
   * @return its samples
   */
  public static Scrape parse(String text, long nanos) {
    List<Sample> samples = new ArrayList<>();
    Map<String, String> types = new HashMap<>();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("#")) {
        String[] f = line.split("\\s+");
        if (f.length >= 4 && f[1].equals("TYPE")) {
          types.put(f[2], f[3]);
        }
        continue;
      }
      Sample sample = sample(line);
      if (sample != null) {
        samples.add(sample);
      }
    }
    return new Scrape(samples, types, nanos);
  }

  /** One sample line, or null when it cannot be read. */
  static Sample sample(String line) {
    int i = 0;
    int n = line.length();
    while (i < n && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    String name = line.substring(0, i);
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < n && line.charAt(i) == '{') {
      i++;
      while (true) {
        while (i < n && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
          i++;
        }
        if (i >= n) {
          return null;
        }
        if (line.charAt(i) == '}') {
          i++;
          break;
        }
        int eq = line.indexOf('=', i);
        if (eq < 0 || eq + 1 >= n || line.charAt(eq + 1) != '"') {
          return null;
        }
        String key = line.substring(i, eq).strip();
        StringBuilder value = new StringBuilder();
        int j = eq + 2;
        for (; j < n && line.charAt(j) != '"'; j++) {
          char c = line.charAt(j);
          if (c == '\\' && j + 1 < n) {
            char e = line.charAt(++j);
            value.append(e == 'n' ? '\n' : e);
          } else {
            value.append(c);
          }
        }
        if (j >= n) {
          return null;
        }
        labels.put(key, value.toString());
        i = j + 1;
      }
    }
    String[] rest = line.substring(i).strip().split("\\s+");
    if (name.isEmpty() || rest.length == 0 || rest[0].isEmpty()) {
      return null;
    }
    double value;
    try {
      value =
          switch (rest[0]) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(rest[0]);
          };
    } catch (NumberFormatException e) {
      return null;
    }
    return new Sample(name, labels, value);
  }
}

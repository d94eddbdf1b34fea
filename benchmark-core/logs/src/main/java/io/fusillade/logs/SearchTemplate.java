package io.fusillade.logs;

import io.fusillade.gen.Rng;
import io.fusillade.gen.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.function.ToLongFunction;

/**
 * A query DSL body with {@code {{name}}} placeholders, each filled from its own seeded stream: the
 * same seed gives the same sequence of bodies.
 *
 * <pre>{@code
 * SearchTemplate range = SearchTemplate.of(
 *         "{\"query\":{\"range\":{\"t\":{\"gte\":{{start}},\"lt\":{{end}}}}},\"from\":{{from}}}")
 *     .param("start", rng -> rng.nextLong(0, 1_000_000))
 *     .derived("end", "start", start -> start + 50)
 *     .param("from", rng -> 100 * rng.nextLong(0, 49));
 * String body = range.next();
 * }</pre>
 *
 * <p>Immutable configuration; {@link #next()} is thread-safe (it draws under a lock: a search costs
 * far more than the lock).
 */
public final class SearchTemplate {
  private record Param(String name, ToLongFunction<Rng> source, int base, LongUnaryOperator f) {}

  private final String body;
  private final List<Param> params;
  private final long seed;
  private final List<String> parts; // literal, name, literal, name, ..., literal
  private final int[] slots; // for each name in parts, its parameter index or -1
  private final Rng[] streams;

  private SearchTemplate(String body, List<Param> params, long seed) {
    this.body = body;
    this.params = List.copyOf(params);
    this.seed = seed;
    this.parts = new ArrayList<>();
    int at = 0;
    while (true) {
      int open = body.indexOf("{{", at);
      if (open < 0) {
        break;
      }
      int close = body.indexOf("}}", open);
      if (close < 0) {
        throw new IllegalArgumentException("unclosed {{ in search body at offset " + open);
      }
      parts.add(body.substring(at, open));
      parts.add(body.substring(open + 2, close).strip());
      at = close + 2;
    }
    parts.add(body.substring(at));
    this.slots = new int[parts.size() / 2];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = indexOf(parts.get(2 * i + 1));
    }
    this.streams = new Rng[this.params.size()];
    for (int i = 0; i < streams.length; i++) {
      streams[i] = new Rng(Seeds.stream(seed, "search", this.params.get(i).name()));
    }
  }

  private int indexOf(String name) {
    for (int i = 0; i < params.size(); i++) {
      if (params.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** A template without parameters yet, seed 1. */
  public static SearchTemplate of(String body) {
    return new SearchTemplate(body, List.of(), 1);
  }

  /** Adds a parameter: a whole number drawn from its own stream. */
  public SearchTemplate param(String name, ToLongFunction<Rng> values) {
    List<Param> copy = new ArrayList<>(params);
    copy.add(new Param(name, values, -1, null));
    return new SearchTemplate(body, copy, seed);
  }

  /** Adds a parameter computed from an earlier one's value in the same body. */
  public SearchTemplate derived(String name, String from, LongUnaryOperator f) {
    int base = indexOf(from);
    if (base < 0) {
      throw new IllegalArgumentException("no parameter '" + from + "' to derive '" + name + "'");
    }
    List<Param> copy = new ArrayList<>(params);
    copy.add(new Param(name, null, base, f));
    return new SearchTemplate(body, copy, seed);
  }

  /** The same template with another seed. */
  public SearchTemplate seed(long value) {
    return new SearchTemplate(body, params, value);
  }

  /** The body as written, with its placeholders. */
  public String body() {
    return body;
  }

  /** The placeholders that have no parameter (they are left in the body as written). */
  public List<String> unboundPlaceholders() {
    List<String> unbound = new ArrayList<>();
    for (int i = 0; i < slots.length; i++) {
      String name = parts.get(2 * i + 1);
      if (slots[i] < 0 && !unbound.contains(name)) {
        unbound.add(name);
      }
    }
    return unbound;
  }

  /** The next body. */
  public synchronized String next() {
    if (slots.length == 0) {
      return body;
    }
    long[] values = new long[params.size()];
    for (int i = 0; i < values.length; i++) {
      Param p = params.get(i);
      values[i] =
          p.source() != null
              ? p.source().applyAsLong(streams[i])
              : p.f().applyAsLong(values[p.base()]);
    }
    StringBuilder b = new StringBuilder(body.length() + 32);
    for (int i = 0; i < slots.length; i++) {
      b.append(parts.get(2 * i));
      if (slots[i] < 0) {
        b.append("{{").append(parts.get(2 * i + 1)).append("}}");
      } else {
        b.append(values[slots[i]]);
      }
    }
    return b.append(parts.get(parts.size() - 1)).toString();
  }
}

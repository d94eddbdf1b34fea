package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.fusillade.gen.RowGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.List;

/**
 * Writes generated rows as text, for {@code fusillade workload sample} and for files to bulk-load.
 * Output depends only on the generator's seed: byte-identical across runs and JVMs. Datetimes,
 * dates and UUIDs are written in ISO / canonical text form; line ends are {@code \n}.
 */
public final class RowSampler {

  private static final JsonFactory JSON = new JsonFactory();

  private RowSampler() {}

  /**
   * @param rows the generator to draw from
   * @param count how many rows to write
   * @param format the text format
   * @param out where to write; flushed, not closed
   */
  public static void write(RowGenerator rows, long count, RowFormat format, Writer out) {
    try {
      switch (format) {
        case CSV -> writeCsv(rows, count, out);
        case JSONL -> writeJsonLines(rows, count, out);
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeCsv(RowGenerator rows, long count, Writer out) throws IOException {
    List<String> names = rows.columnNames();
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(csvField(names.get(i)));
    }
    out.write('\n');
    Object[] row = new Object[rows.width()];
    for (long r = 0; r < count; r++) {
      rows.next(row);
      for (int i = 0; i < row.length; i++) {
        if (i > 0) {
          out.write(',');
        }
        if (row[i] != null) {
          out.write(csvField(text(row[i])));
        }
      }
      out.write('\n');
    }
  }

  private static void writeJsonLines(RowGenerator rows, long count, Writer out) throws IOException {
    List<String> names = rows.columnNames();
    Object[] row = new Object[rows.width()];
    for (long r = 0; r < count; r++) {
      rows.next(row);
      // A generator per line: Jackson would otherwise separate root values with a space.
      try (JsonGenerator json = JSON.createGenerator(out)) {
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        json.writeStartObject();
        for (int i = 0; i < row.length; i++) {
          json.writeFieldName(names.get(i));
          writeJson(json, row[i]);
        }
        json.writeEndObject();
      }
      out.write('\n');
    }
  }

  private static void writeJson(JsonGenerator json, Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Boolean b) {
      json.writeBoolean(b);
    } else if (value instanceof Integer i) {
      json.writeNumber(i);
    } else if (value instanceof Long l) {
      json.writeNumber(l);
    } else if (value instanceof Double d) {
      json.writeNumber(d);
    } else if (value instanceof BigDecimal d) {
      json.writeNumber(d.toPlainString());
    } else {
      json.writeString(text(value));
    }
  }

  /**
   * @param value a generated value
   * @return its text form: ISO-8601 for datetimes and dates, plain notation for decimals
   */
  static String text(Object value) {
    return value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value);
  }

  private static String csvField(String s) {
    boolean quote = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ',' || c == '"' || c == '\n' || c == '\r') {
        quote = true;
        break;
      }
    }
    return quote ? '"' + s.replace("\"", "\"\"") + '"' : s;
  }
}

package io.fusillade.record;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends {@link RunEvent}s to {@value RunFiles#EVENTS}, one JSON object per line, each written
 * through at once: events are rare and the moment of a node's failure is what a killed run must not
 * lose. The file is created with the first event, so a run without events has none.
 */
final class EventWriter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private Writer out; // guarded by this; opened on the first event
  private boolean closed; // guarded by this

  EventWriter(Path directory) {
    this.file = directory.resolve(RunFiles.EVENTS);
  }

  synchronized void write(RunEvent event) throws IOException {
    if (closed) {
      return;
    }
    if (out == null) {
      out =
          Files.newBufferedWriter(
              file,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND,
              StandardOpenOption.WRITE);
    }
    ObjectNode line = JSON.createObjectNode();
    line.put("epochMs", event.epochMs());
    line.put("kind", event.kind());
    line.put("target", event.target());
    if (!event.detail().isEmpty()) {
      line.put("detail", event.detail());
    }
    out.write(JSON.writeValueAsString(line));
    out.write('\n');
    out.flush();
  }

  synchronized void close() {
    closed = true;
    if (out != null) {
      try {
        out.close();
      } catch (IOException ignored) {
        // every line was flushed when written
      }
    }
  }
}

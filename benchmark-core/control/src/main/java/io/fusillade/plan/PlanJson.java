package io.fusillade.plan;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fusillade.FusilladeException;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;

/**
 * The JSON of the files the command line and the forked JVM exchange ({@link RunPlanFile}, {@link
 * RunResultFile}): records by their components only (no getter is a property), durations and
 * instants in ISO-8601, unknown properties refused (a file of another build is refused, not half
 * read), files written whole or not at all.
 */
final class PlanJson {
  private PlanJson() {}

  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .disable(MapperFeature.AUTO_DETECT_GETTERS)
          .disable(MapperFeature.AUTO_DETECT_IS_GETTERS)
          .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .serializationInclusion(JsonInclude.Include.NON_NULL)
          .addModule(times())
          .build();

  private static SimpleModule times() {
    SimpleModule module = new SimpleModule("fusillade-times");
    module.addSerializer(Duration.class, new Text<>());
    module.addSerializer(Instant.class, new Text<>());
    module.addSerializer(Path.class, new Text<>());
    module.addDeserializer(
        Duration.class,
        new JsonDeserializer<>() {
          @Override
          public Duration deserialize(JsonParser p, DeserializationContext c) throws IOException {
            return Duration.parse(p.getValueAsString());
          }
        });
    module.addDeserializer(
        Instant.class,
        new JsonDeserializer<>() {
          @Override
          public Instant deserialize(JsonParser p, DeserializationContext c) throws IOException {
            return Instant.parse(p.getValueAsString());
          }
        });
    module.addDeserializer(
        Path.class,
        new JsonDeserializer<>() {
          @Override
          public Path deserialize(JsonParser p, DeserializationContext c) throws IOException {
            return Path.of(p.getValueAsString());
          }
        });
    return module;
  }

  /** A value as its {@code toString()}: ISO-8601 for times, the path as given for paths. */
  private static final class Text<T> extends JsonSerializer<T> {
    @Override
    public void serialize(T value, JsonGenerator out, SerializerProvider p) throws IOException {
      out.writeString(value.toString());
    }
  }

  /**
   * Writes {@code value} as JSON into {@code file} through a temporary file beside it, moved into
   * place at once: a reader sees the old file or the new one, never half of one.
   *
   * @param ownerOnly whether the file is readable by its owner only (it may hold passwords)
   */
  static void write(Object value, Path file, boolean ownerOnly) {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.deleteIfExists(temporary);
      if (ownerOnly) {
        Files.createFile(
            temporary,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      Files.write(
          temporary,
          MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value),
          StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE);
      try {
        Files.move(
            temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException ignored) {
        // the write failed already: that is the news
      }
      throw new FusilladeException("cannot write " + file + ": " + e);
    }
  }

  /**
   * Reads a JSON file as {@code type}.
   *
   * @throws FusilladeException naming the file when it cannot be read or is not of the type
   */
  static <T> T read(Path file, Class<T> type) {
    try {
      return MAPPER.readValue(file.toFile(), type);
    } catch (IOException e) {
      throw new FusilladeException("cannot read " + file + ": " + e.getMessage());
    }
  }
}

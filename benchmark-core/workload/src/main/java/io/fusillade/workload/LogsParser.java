package io.fusillade.workload;

import io.fusillade.workload.LogsNames.Profile;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads the {@code logs} section: the store's URLs and credentials, the profile and its mapping
 * preset, the index settings, what to ingest ({@link LogIngestParser}) and the searches. Profiles,
 * presets and searches are checked against {@link LogsNames}.
 *
 * <p>Why one class of about 500 lines: one field reader per key of the {@code logs} section, each
 * short, all reporting problems at their file:line into the same list; the section's value types
 * (LogsSection, LogSearch, LogRead) are classes of their own.
 */
final class LogsParser extends FieldReader {

  private static final Set<String> LOGS_KEYS =
      keys(
          "target",
          "codec",
          "refresh_interval",
          "urls",
          "user",
          "password",
          "api_key",
          "profile",
          "index",
          "mapping",
          "shards",
          "replicas",
          "bulk_size",
          "gzip",
          "concurrency",
          "docs",
          "rate",
          "duration",
          "steps",
          "stages",
          "step_duration",
          "time_to_searchable",
          "searches",
          "files");
  private static final Set<String> SEARCH_KEYS =
      union(keys("name", "concurrency", "duration", "iterations"), LogReadParser.READ_KEYS);

  /** The field types a mapping of the file's own may give (Elasticsearch's). */
  static final List<String> FIELD_TYPES =
      List.of(
          "text", "keyword", "integer", "long", "short", "byte", "double", "float", "date", "ip",
          "boolean");

  private final LogIngestParser ingest;
  private final LogReadParser reads;

  LogsParser(FieldReader shared) {
    super(shared);
    this.ingest = new LogIngestParser(shared);
    this.reads = new LogReadParser(shared);
  }

  /** The {@code logs} section of the top-level mapping, if given and valid. */
  Optional<LogsSection> logs(MapNode top) {
    return Optional.ofNullable(field(top, "logs")).map(n -> logs(n, "logs"));
  }

  private LogsSection logs(YamlNode node, String path) {
    MapNode m = asMap(node, path);
    if (m == null) {
      return null;
    }
    int before = problems.size();
    checkKeys(m, path, LOGS_KEYS);
    List<String> urls = urls(m, path);
    String user = secret(m, path, "user");
    String password = logsSecret(m, path, "password", "a password");
    String apiKey = logsSecret(m, path, "api_key", "an API key");
    checkCredentials(m, path);

    Profile profile =
        enumField(
            m,
            path,
            "profile",
            false,
            LogsNames::profile,
            LogsNames.PROFILES.stream().map(Profile::label).toList());
    Profile effectiveProfile = profile == null ? LogsNames.WEB : profile;
    // After a bad profile, checks that depend on it would only repeat the problem.
    boolean profileKnown = profile != null || field(m, "profile") == null;
    String target = enumField(m, path, "target", false, LogsNames::target, LogsNames.TARGETS);
    Map<String, Map<String, String>> fields = new LinkedHashMap<>();
    Boolean dynamic = null;
    String mapping;
    if (field(m, "mapping") instanceof MapNode own) {
      dynamic = ownMapping(own, join(path, "mapping"), fields);
      mapping = LogsSection.CUSTOM_MAPPING;
    } else {
      mapping = mapping(m, path, profileKnown ? effectiveProfile : null);
    }
    String codec = string(m, path, "codec", false);
    String refresh = string(m, path, "refresh_interval", false);
    if (refresh != null && !refresh.strip().matches("-1|\\d+(ms|s|m|h|d)?")) {
      problem(
          field(m, "refresh_interval"),
          join(path, "refresh_interval"),
          "expected an interval such as 1s, 30s or -1 (no refresh), got '" + refresh + "'");
    }
    String index = string(m, path, "index", false);
    if (index != null) {
      String why = indexNameProblem(index);
      if (why != null) {
        problem(field(m, "index"), join(path, "index"), why);
      }
    }
    Long shards = bounded(m, path, "shards", 1, 1024);
    Long replicas = bounded(m, path, "replicas", 0, 100);
    Long bulkSize = bounded(m, path, "bulk_size", 1, 1_000_000);
    Boolean gzip = bool(m, path, "gzip");
    Long concurrency = bounded(m, path, "concurrency", 1, 10_000);
    Boolean tts = bool(m, path, "time_to_searchable");
    String files = string(m, path, "files", false);
    LogIngest plan =
        ingest.ingest(m, path, bulkSize == null ? LogsSection.DEFAULT_BULK_SIZE : bulkSize);
    List<LogSearch> searches = searches(m, path);
    // Listed built-in searches, valid or not: the profile is wrong for any of them.
    boolean builtInListed =
        field(m, "searches") instanceof ListNode l
            && l.items().stream()
                .anyMatch(
                    item ->
                        !(item instanceof MapNode mn
                            && LogReadParser.READ_KEYS.stream()
                                .anyMatch(k -> field(mn, k) != null)));
    if (builtInListed && profileKnown && effectiveProfile != LogsNames.WEB) {
      problem(
          field(m, "searches"),
          join(path, "searches"),
          "the built-in searches query the web profile's fields; profile is "
              + effectiveProfile.label());
    }
    checkReads(m, path, searches, target, profileKnown ? effectiveProfile : null, files);

    if (problems.size() > before || plan == null) {
      return null;
    }
    return new LogsSection(
        target == null ? LogsNames.TARGETS.get(0) : target,
        fields,
        dynamic,
        codec,
        refresh,
        urls,
        user,
        password,
        apiKey,
        effectiveProfile.label(),
        index != null ? index : effectiveProfile.mappingPreset(),
        mapping == null ? effectiveProfile.mappingPreset() : mapping,
        shards != null ? shards.intValue() : effectiveProfile.defaultShards(),
        replicas == null ? 0 : replicas.intValue(),
        bulkSize == null ? LogsSection.DEFAULT_BULK_SIZE : bulkSize.intValue(),
        gzip != null && gzip,
        concurrency == null ? LogsSection.DEFAULT_CONCURRENCY : concurrency.intValue(),
        plan,
        tts != null && tts,
        searches,
        files);
  }

  /** {@code urls}: one URL or a list, each an http(s) base URL without credentials. */
  private List<String> urls(MapNode m, String path) {
    List<String> urls = new ArrayList<>();
    YamlNode urlsNode = field(m, "urls");
    List<YamlNode> urlNodes =
        urlsNode instanceof Scalar s && !s.isNull() ? List.of(urlsNode) : list(m, path, "urls");
    for (int i = 0; i < urlNodes.size(); i++) {
      String itemPath = join(path, "urls") + (urlsNode instanceof ListNode ? "[" + i + "]" : "");
      YamlNode at = urlNodes.get(i);
      String raw = scalarString(at, itemPath);
      if (raw == null) {
        continue;
      }
      Optional<String> url =
          Interpolation.apply(raw, environment, problems, at.location(), itemPath);
      if (url.isPresent()) {
        String why = httpUrlProblem(url.get());
        if (why != null) {
          problem(at, itemPath, why);
        } else {
          urls.add(url.get());
        }
      }
    }
    return urls;
  }

  /** User and password, or an API key, or neither. */
  private void checkCredentials(MapNode m, String path) {
    if (field(m, "api_key") != null && field(m, "user") != null) {
      problem(
          field(m, "api_key"),
          join(path, "api_key"),
          "give user and password or api_key, not both");
    } else if (field(m, "password") != null && field(m, "user") == null) {
      problem(field(m, "password"), join(path, "password"), "a password needs a user");
    } else if (field(m, "user") != null && field(m, "password") == null) {
      problem(
          field(m, "user"),
          join(path, "user"),
          "basic authentication needs a password too: password: ${env:NAME}");
    }
  }

  /**
   * {@code mapping}: a known preset, and when the profile is known, that profile's own or none.
   *
   * @param profile the section's profile, or null when it is unknown (already a problem)
   * @return the preset, or null when not given or not known
   */
  private String mapping(MapNode m, String path, Profile profile) {
    String mapping =
        enumField(m, path, "mapping", false, LogsNames::mappingPreset, LogsNames.MAPPING_PRESETS);
    if (mapping != null
        && profile != null
        && !mapping.equals("none")
        && !mapping.equals(profile.mappingPreset())) {
      Profile owner =
          LogsNames.PROFILES.stream()
              .filter(p -> p.mappingPreset().equals(mapping))
              .findFirst()
              .orElseThrow();
      problem(
          field(m, "mapping"),
          join(path, "mapping"),
          "mapping "
              + mapping
              + " is for profile "
              + owner.label()
              + ", not "
              + profile.label()
              + " (use "
              + profile.mappingPreset()
              + " or none)");
    }
    return mapping;
  }

  /** The valid searches of {@code searches}, each named once. */
  private List<LogSearch> searches(MapNode m, String path) {
    List<LogSearch> searches = new ArrayList<>();
    Map<String, Location> searchNames = new LinkedHashMap<>();
    List<YamlNode> searchNodes = list(m, path, "searches");
    for (int i = 0; i < searchNodes.size(); i++) {
      String itemPath = join(path, "searches[" + i + "]");
      LogSearch search = search(searchNodes.get(i), itemPath);
      if (search != null) {
        firstUse(searchNames, search.name(), searchNodes.get(i), itemPath, "search");
        searches.add(search);
      }
    }
    return searches;
  }

  /** A search: its name, or a mapping with name and overrides. */
  private LogSearch search(YamlNode node, String path) {
    YamlNode nameNode;
    MapNode m = null;
    String namePath;
    if (node instanceof MapNode map) {
      m = map;
      checkKeys(m, path, SEARCH_KEYS);
      nameNode = field(m, "name");
      namePath = join(path, "name");
      if (nameNode == null) {
        missing(m, path, "name");
        return null;
      }
    } else {
      nameNode = node;
      namePath = path;
    }
    String text = scalarString(nameNode, namePath);
    if (text == null) {
      return null;
    }
    if (node instanceof MapNode own
        && LogReadParser.READ_KEYS.stream().anyMatch(k -> field(own, k) != null)) {
      return ownRead(own, path, text.strip());
    }
    String key = LogsNames.searchKey(text);
    if (!LogsNames.SEARCHES.contains(key)) {
      problem(
          nameNode,
          namePath,
          "unknown search '"
              + text
              + "'"
              + didYouMean(key, LogsNames.SEARCHES)
              + " (one of "
              + String.join(", ", LogsNames.SEARCHES)
              + ")");
      return null;
    }
    if (m == null) {
      return new LogSearch(key, OptionalInt.empty(), Optional.empty(), OptionalInt.empty());
    }
    int before = problems.size();
    Long users = bounded(m, path, "concurrency", 1, 10_000);
    Duration duration = ingest.duration(m, path, "duration");
    Long iterations = bounded(m, path, "iterations", 1, Integer.MAX_VALUE);
    if (field(m, "duration") != null && field(m, "iterations") != null) {
      problem(
          field(m, "iterations"),
          join(path, "iterations"),
          "give duration or iterations, not both");
    }
    if (problems.size() > before) {
      return null;
    }
    return new LogSearch(
        key,
        users == null ? OptionalInt.empty() : OptionalInt.of(users.intValue()),
        Optional.ofNullable(duration),
        iterations == null ? OptionalInt.empty() : OptionalInt.of(iterations.intValue()));
  }

  /** A search the file writes itself: its name is free, and it says how long it runs. */
  private LogSearch ownRead(MapNode m, String path, String name) {
    int before = problems.size();
    Long users = bounded(m, path, "concurrency", 1, 10_000);
    Duration duration = ingest.duration(m, path, "duration");
    Long iterations = bounded(m, path, "iterations", 1, Integer.MAX_VALUE);
    if (field(m, "duration") != null && field(m, "iterations") != null) {
      problem(
          field(m, "iterations"),
          join(path, "iterations"),
          "give duration or iterations, not both");
    } else if (field(m, "duration") == null && field(m, "iterations") == null) {
      problem(m, path, "a search of your own needs duration (e.g. 10s) or iterations");
    }
    LogRead read = reads.read(m, path);
    if (problems.size() > before || read == null) {
      return null;
    }
    return new LogSearch(
        name,
        users == null ? OptionalInt.empty() : OptionalInt.of(users.intValue()),
        Optional.ofNullable(duration),
        iterations == null ? OptionalInt.empty() : OptionalInt.of(iterations.intValue()),
        read);
  }

  /**
   * The reads of the file's own against the section: a form for its target, and the generator's
   * counts only over the web profile's generated documents.
   */
  private void checkReads(
      MapNode m,
      String path,
      List<LogSearch> searches,
      String target,
      Profile profile,
      String files) {
    List<YamlNode> nodes = list(m, path, "searches");
    for (int i = 0; i < searches.size() && i < nodes.size(); i++) {
      LogSearch search = searches.get(i);
      if (!search.custom()) {
        continue;
      }
      String itemPath = join(path, "searches[" + i + "]");
      YamlNode at = nodes.get(i);
      // Against the file's own target only: a section without one may run on either store
      // (fusillade run --target), whose form the command checks before the run.
      String formProblem = target == null ? null : LogsNames.missingForm(search, target);
      if (formProblem != null) {
        problem(at, itemPath, formProblem);
      }
      if (search.read().expect().usesGenerator()) {
        if (profile != null && profile != LogsNames.WEB) {
          problem(
              at,
              join(itemPath, "expect"),
              "the generator's counts are of the web profile; profile is " + profile.label());
        } else if (files != null) {
          problem(
              at,
              join(itemPath, "expect"),
              "the generator's counts are of generated documents, and files replays others");
        }
      }
    }
  }

  /**
   * A mapping the file writes itself: {@code fields} (name: type, or name: {type, format}) and
   * {@code dynamic}.
   *
   * @return {@code dynamic}, or null when not given
   */
  private Boolean ownMapping(MapNode own, String path, Map<String, Map<String, String>> fields) {
    checkKeys(own, path, keys("fields", "dynamic"));
    YamlNode fieldsNode = field(own, "fields");
    if (fieldsNode == null) {
      missing(own, path, "fields");
    } else if (asMap(fieldsNode, join(path, "fields")) != null) {
      MapNode f = (MapNode) fieldsNode;
      for (YamlNode.Entry e : f.entries()) {
        String fieldPath = join(join(path, "fields"), e.key());
        Map<String, String> definition = new LinkedHashMap<>();
        String type;
        if (e.value() instanceof MapNode typed) {
          checkKeys(typed, fieldPath, keys("type", "format"));
          type = string(typed, fieldPath, "type", true);
          String format = string(typed, fieldPath, "format", false);
          if (format != null) {
            definition.put("format", format);
          }
        } else {
          type = scalarString(e.value(), fieldPath);
        }
        if (type == null) {
          continue;
        }
        if (!FIELD_TYPES.contains(type)) {
          problem(
              e.value(),
              fieldPath,
              "unknown field type '"
                  + type
                  + "'"
                  + didYouMean(type, FIELD_TYPES)
                  + " (one of "
                  + String.join(", ", FIELD_TYPES)
                  + ")");
          continue;
        }
        definition.put("type", type);
        fields.put(e.key(), definition);
      }
      if (f.entries().isEmpty()) {
        problem(fieldsNode, join(path, "fields"), "give at least one field");
      }
    }
    return bool(own, path, "dynamic");
  }

  /** A secret of the logs section: from the environment only. */
  private String logsSecret(MapNode m, String path, String key, String what) {
    YamlNode node = field(m, key);
    if (node instanceof Scalar s && !s.isNull() && !Interpolation.usesEnvironment(s.text())) {
      problem(node, join(path, key), what + " must not be written in the file; use ${env:NAME}");
      return null;
    }
    return secret(m, path, key);
  }

  /** Why a base URL cannot be used (never showing credentials), or null. */
  private static String httpUrlProblem(String url) {
    URI uri;
    try {
      uri = URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      return "not a URL: " + LogsNames.maskUrl(url);
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
      return "expected an http:// or https:// base URL, got " + LogsNames.maskUrl(url);
    }
    if (uri.getHost() == null) {
      return "no host in " + LogsNames.maskUrl(url);
    }
    if (uri.getUserInfo() != null) {
      return "put credentials in user and password (from ${env:NAME}), not in the URL: "
          + LogsNames.maskUrl(url);
    }
    return null;
  }

  /** Elasticsearch's rules for index names, or null when the name is valid. */
  private static String indexNameProblem(String name) {
    if (name.isEmpty()
        || !name.equals(name.toLowerCase(Locale.ROOT))
        || name.matches(".*[\\\\/*?\"<>| ,#:].*")
        || name.startsWith("-")
        || name.startsWith("_")
        || name.startsWith("+")
        || name.equals(".")
        || name.equals("..")
        || name.getBytes(StandardCharsets.UTF_8).length > 255) {
      return "index '"
          + name
          + "' is not a valid index name: lowercase, at most 255 bytes, none of \\ / * ? \" < > |"
          + " , # : or spaces, not starting with -, _ or +";
    }
    return null;
  }
}

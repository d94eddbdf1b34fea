package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.sun.net.httpserver.HttpServer;
import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.system.SystemSampler;
import java.awt.image.BufferedImage;
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the report of a short real run in headless Chromium: the page renders without console
 * errors, its SVG charts hold lines, and the screenshot is not blank; and the report served with
 * Jenkins' default Content-Security-Policy keeps its styles. Skipped when no browser is installed,
 * except on CI (environment variable CI=true), where the browser is required.
 */
@Tag("slow")
class BrowserReportTest {
  @TempDir Path dir;

  static Optional<Path> browser() {
    List<String> names = List.of("chromium", "chromium-browser", "google-chrome");
    Path usual = Path.of("/usr/bin/chromium");
    if (Files.isExecutable(usual)) {
      return Optional.of(usual);
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String name : names) {
      for (String d : path.split(File.pathSeparator)) {
        Path candidate = Path.of(d, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  @Test
  void theReportOfARealRunRendersInHeadlessChromium() throws Exception {
    Optional<Path> chromium = browser();
    if (chromium.isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no chromium, chromium-browser or google-chrome: install Debian's chromium");
      }
      Assumptions.abort(
          "no chromium, chromium-browser or google-chrome on PATH: browser test skipped");
    }
    RunRecorder run =
        RunRecorder.open(
            RunOptions.of("io.example.BrowserRun")
                .withBaseDirectory(dir.resolve("runs"))
                .withFlushInterval(Duration.ofMillis(500)));
    SystemSampler.install(run, SystemSampler.Options.defaults());
    RequestChannel lookups = run.request("lookup");
    RequestChannel broken = run.request("broken");
    long end = System.nanoTime() + 3_000_000_000L;
    java.util.Random random = new java.util.Random(1);
    while (System.nanoTime() < end) {
      long t = System.nanoTime();
      lookups.sent();
      lookups.ok(t - 1_000_000 - random.nextInt(2_000_000), t);
      if (random.nextInt(10) == 0) {
        broken.sent();
        broken.ko(t - 500_000, t, "SQLState 42P01: relation does not exist");
      }
      Thread.sleep(2);
    }
    run.close();
    Report report = Report.create(List.of(run.directory()), List.of("p99 < 1s"));
    Path out = dir.resolve("report");
    report.write(out);
    Path html = out.resolve("index.html");
    Path png = dir.resolve("shot.png");
    Path profile = Files.createDirectories(dir.resolve("profile"));
    List<String> common =
        List.of(
            chromium.get().toString(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--user-data-dir=" + profile);
    String shotLog =
        runBrowser(
            Stream.concat(
                    common.stream(),
                    Stream.of(
                        "--screenshot=" + png, "--window-size=1280,2000", html.toUri().toString()))
                .toList());
    String dom =
        runBrowser(
            Stream.concat(common.stream(), Stream.of("--dump-dom", html.toUri().toString()))
                .toList());
    assertThat(shotLog).doesNotContain("Uncaught").doesNotContain("ERROR:CONSOLE");
    assertThat(dom).contains("<svg").contains("<polyline").contains("lookup");
    long svgs = dom.split("<svg", -1).length - 1;
    assertThat(svgs).isGreaterThanOrEqualTo(6);

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).as("screenshot written").isNotNull();
    assertThat(image.getWidth()).isEqualTo(1280);
    long notWhite = 0;
    long colored = 0;
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        int rgb = image.getRGB(x, y) & 0xffffff;
        int r = rgb >> 16;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        if (rgb != 0xffffff) {
          notWhite++;
        }
        if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
          colored++; // chart lines and banners are colored; text is grey
        }
      }
    }
    assertThat(notWhite).as("pixels drawn").isGreaterThan(5_000);
    assertThat(colored).as("colored pixels (chart lines)").isGreaterThan(200);
  }

  /** Jenkins' default Content-Security-Policy for published files (DirectoryBrowserSupport). */
  static final String JENKINS_CSP =
      "sandbox; default-src 'none'; img-src 'self'; style-src 'self';";

  /**
   * Serves the report the way Jenkins' HTML Publisher does, with its default CSP header, and
   * screenshots it: the linked stylesheet applies (header cells get their grey background, FAILED
   * its red), while a copy of the page with the same rules inline loses them — the header is really
   * applied, and the old inline {@code <style>} would not have survived.
   */
  @Test
  void theReportKeepsItsStylesUnderJenkinsContentSecurityPolicy() throws Exception {
    Optional<Path> chromium = browser();
    if (chromium.isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no chromium, chromium-browser or google-chrome: install Debian's chromium");
      }
      Assumptions.abort("no chromium on PATH: browser test skipped");
    }
    Path record =
        io.fusillade.reports.runs.SyntheticRecord.run()
            .seconds(30)
            .names(List.of("account by id", "orders of an account"))
            .median(s -> s == 12 ? 40_000 : 1_500)
            .ko(0.01)
            .lastInterval(0.4)
            .gauge("system.cpu.user", s -> 30 + s % 5)
            .gauge("system.cpu.steal", s -> 1)
            .gauge("system.memory.used", s -> 22.0 * (1L << 30))
            .parameter("rates", List.of(100, 200, 300))
            .parameter("stepSeconds", 10)
            .health(
                "injectorLag",
                java.util.Map.of(
                    "ticks",
                    3000,
                    "p50Ms",
                    0.1,
                    "p99Ms",
                    0.8,
                    "maxMs",
                    12.0,
                    "thresholdMs",
                    20.0,
                    "saturated",
                    false))
            .write(dir, "csp-run");
    Path out = dir.resolve("report");
    Report.create(List.of(record), List.of("p99 < 1ms", "errors < 5%")).write(out);
    String page = Files.readString(out.resolve("index.html"));
    String css = Files.readString(out.resolve(io.fusillade.reports.html.Html.STYLESHEET_FILE));
    Files.writeString(
        out.resolve("inline.html"),
        page.replace(
            "<link rel=\"stylesheet\" href=\"report.css\">", "<style>" + css + "</style>"));

    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          Path file = out.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
          byte[] body =
              file.startsWith(out) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
          exchange.getResponseHeaders().add("Content-Security-Policy", JENKINS_CSP);
          exchange
              .getResponseHeaders()
              .add(
                  "Content-Type",
                  file.toString().endsWith(".css") ? "text/css" : "text/html; charset=utf-8");
          exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
          if (body != null) {
            exchange.getResponseBody().write(body);
          }
          exchange.close();
        });
    server.start();
    try {
      String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
      Path linked = dir.resolve("csp.png");
      Path inline = dir.resolve("csp-inline.png");
      String linkedLog = screenshot(chromium.get(), base + "index.html", linked);
      String inlineLog = screenshot(chromium.get(), base + "inline.html", inline);
      keep(linked, "csp.png");
      keep(inline, "csp-inline.png");

      // Headless Chromium does not log CSP refusals at this level: the pixels tell instead.
      assertThat(linkedLog + inlineLog).doesNotContain("Uncaught");
      BufferedImage styled = ImageIO.read(linked.toFile());
      BufferedImage bare = ImageIO.read(inline.toFile());
      // th { background: #f3f4f6 } and .fail { color: #cf222e }, counted exactly: antialiased
      // chart lines come near both colours
      assertThat(pixels(styled, 0xf3f4f6, 0)).as("grey header cells").isGreaterThan(2_000);
      assertThat(pixels(styled, 0xcf222e, 0)).as("red FAILED").isGreaterThan(20);
      assertThat(pixels(bare, 0xf3f4f6, 0)).as("inline style dropped").isLessThan(20);
      assertThat(pixels(bare, 0xcf222e, 0)).as("inline style dropped").isLessThan(20);
    } finally {
      server.stop(0);
    }
  }

  /** Copies a screenshot to target/browser for people to look at. */
  private static void keep(Path png, String name) throws Exception {
    Path target = Path.of("target", "browser");
    Files.createDirectories(target);
    Files.copy(png, target.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  private String screenshot(Path chromium, String url, Path png) throws Exception {
    Path profile = Files.createTempDirectory(dir, "profile");
    return runBrowser(
        List.of(
            chromium.toString(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-proxy-server",
            "--enable-logging=stderr",
            "--v=0",
            "--user-data-dir=" + profile,
            "--screenshot=" + png,
            "--window-size=1280,2400",
            url));
  }

  /** Pixels within {@code tolerance} of {@code rgb} on each channel. */
  private static long pixels(BufferedImage image, int rgb, int tolerance) {
    long n = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int p = image.getRGB(x, y);
        if (Math.abs(((p >> 16) & 0xff) - ((rgb >> 16) & 0xff)) <= tolerance
            && Math.abs(((p >> 8) & 0xff) - ((rgb >> 8) & 0xff)) <= tolerance
            && Math.abs((p & 0xff) - (rgb & 0xff)) <= tolerance) {
          n++;
        }
      }
    }
    return n;
  }

  private String runBrowser(List<String> command) throws Exception {
    Path log = Files.createTempFile(dir, "chromium", ".log");
    Path stdout = Files.createTempFile(dir, "chromium", ".out");
    Process p =
        new ProcessBuilder(command)
            .redirectError(log.toFile())
            .redirectOutput(stdout.toFile())
            .start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("chromium did not finish in 90 s: " + Files.readString(log));
    }
    String err = Files.readString(log);
    assertThat(p.exitValue()).as(err).isZero();
    return Files.readString(stdout) + err;
  }
}

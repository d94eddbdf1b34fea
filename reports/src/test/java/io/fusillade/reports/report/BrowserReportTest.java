package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.system.SystemSampler;
import java.awt.image.BufferedImage;
import java.io.File;
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
 * errors, its SVG charts hold lines, and the screenshot is not blank. Skipped when no browser is
 * installed, except on CI (environment variable CI=true), where the browser is required.
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

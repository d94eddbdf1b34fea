package io.fusillade.starve;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much CPU a server is left with: its processes are held to {@code cpus} CPUs, and {@code
 * burners} busy loops (noisy neighbours) run on that same CPU, competing with it. Written {@code
 * cpu=1,burners=2} on a command line ({@code --starve}) or {@code cpu 1 burners 2} in a fault
 * ({@code at 30s starve postgres cpu 1 burners 2 for 60s}).
 *
 * <p>What it models of a hypervisor's over-subscription, and what not, is in {@link CpuStarvation}.
 *
 * @param cpus the CPUs the server may use: a CPU quota (cgroups, fractions allowed) or that many
 *     cores (taskset, rounded up)
 * @param burners the busy loops sharing the server's CPUs
 * @param mechanism {@code auto} (a cgroup quota where the machine allows one, else taskset), {@code
 *     cgroup} or {@code taskset}: see {@link CpuStarvation#detect}
 */
public record CpuStarve(double cpus, int burners, String mechanism) {
  private static final Pattern PART =
      Pattern.compile(
          "(cpu|cpus|burners|mechanism)\\s*[= ]\\s*([0-9]+(?:\\.[0-9]+)?|auto|cgroup|taskset)",
          Pattern.CASE_INSENSITIVE);

  /** What a starvation looks like, for error messages. */
  public static final String EXAMPLES =
      "'cpu=1,burners=1', 'cpu=0.5', 'cpu 1 burners 2', 'cpu=1,burners=1,mechanism=taskset'";

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException when the CPUs are not positive or the burners negative
   */
  public CpuStarve {
    if (!(cpus > 0) || cpus > 1024) {
      throw new IllegalArgumentException("cpu must be a number of CPUs above 0, e.g. 1 or 0.5");
    }
    if (burners < 0 || burners > 64) {
      throw new IllegalArgumentException("burners must be 0 to 64");
    }
    mechanism = mechanism == null ? "auto" : mechanism.toLowerCase(Locale.ROOT);
    if (!List.of("auto", "cgroup", "taskset").contains(mechanism)) {
      throw new IllegalArgumentException(
          "mechanism must be auto, cgroup or taskset, got " + mechanism);
    }
  }

  /** A starvation by whatever mechanism the machine allows. */
  public CpuStarve(double cpus, int burners) {
    this(cpus, burners, "auto");
  }

  /**
   * Reads {@code cpu=1,burners=2} or {@code cpu 1 burners 2}; cpu is required, burners default 0.
   *
   * @throws IllegalArgumentException saying what is wrong and showing the form
   */
  public static CpuStarve parse(String text) {
    String rest = text == null ? "" : text.strip();
    Double cpus = null;
    int burners = 0;
    String mechanism = "auto";
    Matcher m = PART.matcher(rest);
    int at = 0;
    while (m.find()) {
      String between = rest.substring(at, m.start()).replace(",", " ").strip();
      if (!between.isEmpty()) {
        throw new IllegalArgumentException(
            "unexpected '" + between + "' in '" + rest + "'; examples: " + EXAMPLES);
      }
      String key = m.group(1).toLowerCase(Locale.ROOT);
      boolean number = Character.isDigit(m.group(2).charAt(0));
      if (key.equals("mechanism") == number) {
        throw new IllegalArgumentException(
            key + " cannot be '" + m.group(2) + "' in '" + rest + "'; examples: " + EXAMPLES);
      }
      if (key.equals("mechanism")) {
        mechanism = m.group(2);
      } else if (key.startsWith("cpu")) {
        cpus = Double.parseDouble(m.group(2));
      } else {
        if (m.group(2).contains(".")) {
          throw new IllegalArgumentException("burners is a whole number, got " + m.group(2));
        }
        burners = Integer.parseInt(m.group(2));
      }
      at = m.end();
    }
    String tail = rest.substring(at).replace(",", " ").strip();
    if (!tail.isEmpty() || cpus == null) {
      throw new IllegalArgumentException(
          (cpus == null ? "the CPUs left to the server are missing" : "unexpected '" + tail + "'")
              + " in '"
              + rest
              + "'; examples: "
              + EXAMPLES);
    }
    return new CpuStarve(cpus, burners, mechanism);
  }

  /** {@code cpu 1 burners 2}: as faults write it, and the fault's label. */
  public String describe() {
    String c = cpus == Math.rint(cpus) ? String.valueOf((long) cpus) : String.valueOf(cpus);
    return "cpu "
        + c
        + (burners == 0 ? "" : " burners " + burners)
        + (mechanism.equals("auto") ? "" : " mechanism " + mechanism);
  }
}

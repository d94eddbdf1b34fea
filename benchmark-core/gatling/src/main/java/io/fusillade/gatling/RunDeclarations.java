package io.fusillade.gatling;

import io.fusillade.abort.AbortRule;
import io.fusillade.fault.Fault;
import io.fusillade.fault.FaultTarget;
import io.fusillade.system.ServerTarget;
import io.fusillade.system.WatchedProcess;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * What a simulation declares for its run before the run opens (from its constructor, through {@link
 * FusilladeRun}'s static methods): parameters, checks, abort rules, faults and their targets, what
 * to watch, what to close at the end. {@link GatlingRun} takes them when it opens.
 *
 * <p>Not thread-safe: {@link RunSlot} guards it.
 */
final class RunDeclarations {
  String simulation;
  final Map<String, Object> parameters = new LinkedHashMap<>();
  final List<WatchedProcess> watched = new ArrayList<>();
  final List<ServerTarget> monitored = new ArrayList<>();
  // directory.<label>.bytes (a DirectorySize), directory.<label>.use (a disk of a chosen size)
  final Map<String, DoubleSupplier> directories = new LinkedHashMap<>();
  final List<String> checks = new ArrayList<>();
  final List<AbortRule> abortRules = new ArrayList<>();
  final List<Fault> faults = new ArrayList<>();
  final Map<String, FaultTarget> faultTargets = new LinkedHashMap<>();
  final Deque<AutoCloseable> closeAtEnd = new ArrayDeque<>();
  final List<FusilladeRun.EndHook<?>> endHooks = new ArrayList<>();
  FusilladeRun.StepPlan steps; // the injection steps, or null
  ClockOffset referenceClock; // this injector's offset to the clock the test's injectors share
  java.nio.file.Path embeddedLog; // the started server's log, for a logs: embedded source; or null
  String crash; // why the run failed before it opened (a protocol that could not start), or null
}

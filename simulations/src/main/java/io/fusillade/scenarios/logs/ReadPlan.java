package io.fusillade.scenarios.logs;

import io.gatling.javaapi.core.ChainBuilder;
import java.time.Duration;

/**
 * One read-path scenario as a run sends it: its users, how long or how many times each sends the
 * read, the chain of one read (its parameters drawn, then the request), and the chain that checks
 * its count once after every scenario has run, if it has one.
 *
 * @param name the scenario's (and its requests') name
 * @param users concurrent users, each sending one read after another (a closed model)
 * @param duration how long each user loops, or null when {@code iterations} counts
 * @param iterations reads per user when {@code duration} is null
 * @param read one read
 * @param verify the read once more, untimed by the comparison, with its total asked for and checked
 *     against the expected count (request {@code <name> total}), or null
 */
record ReadPlan(
    String name,
    int users,
    Duration duration,
    int iterations,
    ChainBuilder read,
    ChainBuilder verify) {}

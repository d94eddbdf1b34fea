package io.fusillade.sql;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Which requests a streaming replica may answer: the reads that a cluster with replicas balances
 * over every node, while everything else goes to the primaries.
 *
 * <p>A read is a single query ({@link Statements.Query}, not a transaction, a batch or a call)
 * whose text starts with {@code SELECT}, {@code VALUES}, {@code TABLE} or {@code SHOW} and holds
 * none of what makes a query write or lock: {@code FOR UPDATE}/{@code FOR NO KEY UPDATE}/{@code FOR
 * SHARE}/{@code FOR KEY SHARE}, {@code SELECT ... INTO}, {@code nextval(}/{@code setval(}, the
 * advisory locks, a transaction id ({@code txid_current}, {@code pg_current_xact_id}), {@code
 * pg_notify}, or a second statement after a {@code ;}. {@code WITH} queries go to the primary (one
 * of their parts may write), and so does a query that starts with the hint comment {@value
 * #PRIMARY_HINT} — for a function that writes, which no reading of the text can see. The rule errs
 * towards the primary: a read sent there costs balance, a write sent to a replica fails with
 * SQLState 25006.
 */
public final class ReadStatements {
  private ReadStatements() {}

  /** The comment that keeps a query on the primary: {@code /* primary *&#47; select f()}. */
  public static final String PRIMARY_HINT = "/* primary */";

  private static final Pattern READ_START =
      Pattern.compile("^(select|values|table|show)\\b", Pattern.CASE_INSENSITIVE);

  private static final Pattern WRITES_OR_LOCKS =
      Pattern.compile(
          "\\bfor\\s+(update|no\\s+key\\s+update|share|key\\s+share)\\b"
              + "|\\binto\\b|\\bnextval\\s*\\(|\\bsetval\\s*\\(|\\bpg_(try_)?advisory"
              + "|\\btxid_current\\b|\\bpg_current_xact_id\\b|\\bpg_notify\\b"
              // several statements in one text: any of them may write
              + "|;\\s*\\S",
          Pattern.CASE_INSENSITIVE);

  // Workloads send a few distinct texts many times: each is read once.
  private static final Map<String, Boolean> KNOWN = new ConcurrentHashMap<>();

  /** Whether {@code work} may run on a replica. */
  public static boolean isRead(SqlWork work) {
    return work instanceof Statements.Query query && isRead(query.sql());
  }

  /** Whether the SQL text {@code sql} may run on a replica (see the class comment). */
  public static boolean isRead(String sql) {
    Boolean known = KNOWN.get(sql);
    if (known != null) {
      return known;
    }
    boolean read = classify(sql);
    if (KNOWN.size() < 10_000) {
      KNOWN.put(sql, read);
    }
    return read;
  }

  private static boolean classify(String sql) {
    String text = sql.strip();
    if (text.toLowerCase(Locale.ROOT).startsWith(PRIMARY_HINT)) {
      return false;
    }
    return READ_START.matcher(text).find() && !WRITES_OR_LOCKS.matcher(text).find();
  }
}

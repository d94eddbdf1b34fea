package io.fusillade.gatling.sql;

import java.util.List;

/**
 * A request decided at run time (see {@link SqlDsl#sqlCall}): its name in reports, its statement
 * ({@code ?} or {@code $n} placeholders) and the values, in placeholder order.
 */
public record SqlCall(String name, String sql, List<Object> params) {}

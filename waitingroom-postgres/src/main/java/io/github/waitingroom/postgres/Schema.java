package io.github.waitingroom.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The transport's table: its role is to create it when absent, or to check that the one the
 * application made has what the exchange needs, and to say in one message what is missing. The
 * DDL is the resource {@code schema.sql} next to this class, written for the default name {@link
 * PostgresTransport#DEFAULT_TABLE}; the documentation shows the same text.
 */
final class Schema {
  /** The DDL as the resource holds it, for the default table name. */
  static final String DEFAULT_DDL = load("schema.sql");

  /** The columns the exchange reads and writes, with their types as {@code format_type} names them. */
  private static final Map<String, String> COLUMNS = new LinkedHashMap<>();

  static {
    COLUMNS.put("room", "text");
    COLUMNS.put("scope", "text");
    COLUMNS.put("publisher", "text");
    COLUMNS.put("payload", "bytea");
    COLUMNS.put("expires_at", "timestamp with time zone");
  }

  private static final Pattern DEFAULT_NAME = Pattern.compile("\\b" + PostgresTransport.DEFAULT_TABLE + "\\b");

  private final TableName table;
  private final String ddl;

  Schema(TableName table) {
    this.table = table;
    this.ddl = named(DEFAULT_DDL, table);
  }

  /** {@return {@code sql} with the default table name replaced by {@code table}} */
  static String named(String sql, TableName table) {
    return DEFAULT_NAME.matcher(sql).replaceAll(Matcher.quoteReplacement(table.sql()));
  }

  /** {@return the DDL for this table} */
  String ddl() {
    return ddl;
  }

  /**
   * Creates the table if it is absent, under a transaction-scoped advisory lock so that nodes
   * starting together do not race, then checks it (a table of that name made for something else
   * fails here).
   *
   * @throws IOException naming what the table lacks
   */
  void create(Connection c) throws SQLException, IOException {
    boolean auto = c.getAutoCommit();
    if (auto) {
      c.setAutoCommit(false);
    }
    try {
      try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(CAST(? AS bigint))")) {
        lock.setLong(1, lockKey());
        lock.execute();
      }
      try (Statement create = c.createStatement()) {
        create.execute(ddl);
      }
      c.commit();
    } catch (SQLException e) {
      PostgresTransport.rollback(c, e);
      throw e;
    } finally {
      if (auto) {
        c.setAutoCommit(true);
      }
    }
    List<String> problems = problems(c);
    if (!c.getAutoCommit()) {
      c.commit();
    }
    if (!problems.isEmpty()) {
      throw new IOException(
          "PostgresTransport: the table " + table + " exists but cannot hold the transport's values: "
              + String.join("; ", problems) + ". Drop it, or name another with PostgresTransport.Builder.table; the"
              + " transport's table is: " + ddl);
    }
  }

  /**
   * Checks the table the application manages.
   *
   * @throws IOException naming everything that is missing, and the DDL that would make it
   */
  void check(Connection c) throws SQLException, IOException {
    List<String> problems = problems(c);
    if (!c.getAutoCommit()) {
      c.commit();
    }
    if (!problems.isEmpty()) {
      throw new IOException(
          "PostgresTransport: " + String.join("; ", problems) + ". The application manages the schema"
              + " (PostgresTransport.Builder.schemaManagedByApplication), so the transport does not create"
              + " it: create it, as in docs/postgres.md, with: " + ddl);
    }
  }

  /** {@return what the table lacks, in words; empty when it has all the exchange needs} */
  private List<String> problems(Connection c) throws SQLException {
    List<String> problems = new ArrayList<>();
    Map<String, String> found = new LinkedHashMap<>();
    boolean exists;
    try (PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      s.setString(1, table.sql());
      try (ResultSet r = s.executeQuery()) {
        exists = r.next() && r.getBoolean(1);
      }
    }
    if (!exists) {
      problems.add("the table " + table + " is missing" + (table.schema() == null ? " (looked up on the connection's search_path)" : ""));
      return problems;
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a"
                + " WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped")) {
      s.setString(1, table.sql());
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          found.put(r.getString(1), r.getString(2));
        }
      }
    }
    for (Map.Entry<String, String> column : COLUMNS.entrySet()) {
      String type = found.get(column.getKey());
      if (type == null) {
        problems.add("the table " + table + " has no column " + column.getKey() + " (" + column.getValue() + ")");
      } else if (!type.equals(column.getValue())) {
        problems.add("the column " + table + "." + column.getKey() + " is " + type + ", not " + column.getValue());
      }
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = to_regclass(?) AND i.indisunique"
                + " AND i.indpred IS NULL AND i.indexprs IS NULL"
                + " AND (SELECT array_agg(CAST(a.attname AS text) ORDER BY a.attname) FROM pg_attribute a"
                + " WHERE a.attrelid = i.indrelid AND a.attnum = ANY (CAST(i.indkey AS int2[])))"
                + " = ARRAY['publisher', 'room', 'scope'])")) {
      s.setString(1, table.sql());
      try (ResultSet r = s.executeQuery()) {
        if (!(r.next() && r.getBoolean(1))) {
          problems.add("the table " + table + " has no primary key or unique index on exactly (room, scope, publisher)");
        }
      }
    }
    return problems;
  }

  /** The advisory lock that nodes creating this table take, derived from its name. */
  private long lockKey() {
    long h = 1125899906842597L;
    for (char ch : ("waitingroom-postgres:" + table.sql()).toCharArray()) {
      h = 31 * h + ch;
    }
    return h;
  }

  /** The text of a resource next to this class. */
  static String load(String name) {
    try (InputStream in = Schema.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.github.waitingroom.postgres;

import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.coordinator.Transport.Publication;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The exchange as one SQL statement: its role is to turn one {@link Transport#exchange} into one
 * round trip and the rows it answers back into values. The statement is the resource {@code
 * exchange.sql} next to this class (see {@link PostgresTransport}, "What it writes"); this class
 * fills in the table's name, the size limits and one {@code VALUES} row per publication, binds the
 * parameters and decodes the answer. It also holds the sweep, the resource {@code sweep.sql}. It
 * holds no connection.
 */
final class ExchangeStatement {
  /**
   * The longest value the statement hands back ({@link ReportSeal#MAX_SEALED_BYTES}): no node
   * writes a longer one, so a longer value found in a scope is deleted, unread, instead of being
   * sent to every node at every sync.
   */
  static final int MAX_VALUE_BYTES = ReportSeal.MAX_SEALED_BYTES;

  /** The longest publisher name the statement hands back, in UTF-8 bytes; longer ones are deleted likewise. */
  static final int MAX_NAME_BYTES = 256;

  /** The statements for this many publications or fewer are made once and kept. */
  private static final int CACHED = 8;

  private static final String PUBLICATION_ROW = "(CAST(? AS text), CAST(? AS text), CAST(? AS bytea))";

  private static final Comparator<List<String>> ROW_ORDER =
      Comparator.<List<String>, String>comparing(k -> k.get(0)).thenComparing(k -> k.get(1));

  private final String template;
  private final String sweep;
  /** The statements for 1 to {@link #CACHED} publications, at index n - 1. */
  private final List<String> cached = new ArrayList<>(CACHED);

  ExchangeStatement(TableName table) {
    this.template = limits(Schema.named(Schema.load("exchange.sql"), table));
    this.sweep = limits(Schema.named(Schema.load("sweep.sql"), table));
    for (int n = 1; n <= CACHED; n++) {
      cached.add(write(n));
    }
  }

  private static String limits(String sql) {
    return sql.replace("{{maxValueBytes}}", Integer.toString(MAX_VALUE_BYTES))
        .replace("{{maxNameBytes}}", Integer.toString(MAX_NAME_BYTES));
  }

  /** {@return the statement for {@code publications} publications} */
  String sql(int publications) {
    return publications >= 1 && publications <= CACHED ? cached.get(publications - 1) : write(publications);
  }

  private String write(int publications) {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < publications; i++) {
      rows.append(i == 0 ? "" : ",\n    ").append(PUBLICATION_ROW);
    }
    return template.replace("{{publications}}", rows);
  }

  /** {@return the sweep: deletes up to 1,000 expired (or oversized) values of any room} */
  String sweep() {
    return sweep;
  }

  /**
   * Publishes and reads back in one statement: the answer holds every scope published to (each
   * with its live values by publisher, the caller's own included) and, under {@link
   * Transport#CLOCK_SCOPE}, the server's clock.
   *
   * @param timeoutSeconds the statement's query timeout
   * @throws SQLException when the database fails or cannot be reached
   */
  Map<String, Map<String, byte[]>> exchange(
      Connection c, String roomId, List<Publication> publications, long retentionMillis, int timeoutSeconds)
      throws SQLException {
    // At most one value per (scope, publisher): ON CONFLICT may not touch a row twice. In one
    // order on every node, so that nodes writing the same row (a data center's sum) lock their
    // rows in the same order and never wait for each other in a cycle.
    Map<List<String>, Publication> unique = new TreeMap<>(ROW_ORDER);
    for (Publication p : publications) {
      Objects.requireNonNull(p, "publication");
      unique.put(List.of(p.scope(), p.publisher()), p);
    }
    Map<String, Map<String, byte[]>> answer = new HashMap<>();
    try (PreparedStatement s = c.prepareStatement(sql(unique.size()))) {
      s.setQueryTimeout(timeoutSeconds);
      int i = 1;
      s.setString(i++, roomId);
      s.setLong(i++, retentionMillis);
      for (Publication p : unique.values()) {
        s.setString(i++, p.scope());
        s.setString(i++, p.publisher());
        s.setBytes(i++, p.payload());
        Map<String, byte[]> scope = answer.computeIfAbsent(p.scope(), k -> new HashMap<>());
        // The caller's own values, as it will read them back: within the limits, copied.
        if (p.payload().length <= MAX_VALUE_BYTES
            && p.publisher().getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_BYTES) {
          scope.put(p.publisher(), p.payload().clone());
        }
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          String scope = r.getString(1);
          if (scope == null) {
            long now = r.getLong(4);
            if (!r.wasNull()) {
              answer.put(Transport.CLOCK_SCOPE, Map.of("now", ByteBuffer.allocate(8).putLong(now).array()));
            }
            continue;
          }
          Map<String, byte[]> values = answer.get(scope);
          String publisher = r.getString(2);
          byte[] payload = r.getBytes(3);
          if (values != null && publisher != null && payload != null) {
            values.put(publisher, payload);
          }
        }
      }
    }
    return answer;
  }
}

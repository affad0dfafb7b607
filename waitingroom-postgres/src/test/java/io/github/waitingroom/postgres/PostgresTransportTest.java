package io.github.waitingroom.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.coordinator.Transport.Publication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the PostgreSQL transport writes and deletes, how it makes or checks its table, and how it
 * rejects bad settings; on the real PostgreSQL, in a schema of this class's own.
 */
class PostgresTransportTest {
  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static DataSource dataSource;
  private static String schema = "";

  @BeforeAll
  static void connect() throws Exception {
    dataSource = LocalPostgres.require();
    schema = LocalPostgres.createSchema(dataSource, "transport");
  }

  @AfterAll
  static void cleanUp() throws Exception {
    if (!schema.isEmpty()) {
      LocalPostgres.dropSchema(dataSource, schema);
    }
  }

  private static List<Publication> pub(String scope, String publisher, String payload) {
    return List.of(new Publication(scope, publisher, payload.getBytes(StandardCharsets.UTF_8)));
  }

  private static boolean exists(String table) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      s.setString(1, table);
      try (ResultSet r = s.executeQuery()) {
        return r.next() && r.getBoolean(1);
      }
    }
  }

  private static long count(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql);
        ResultSet r = s.executeQuery()) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  @SuppressWarnings("NullAway") // the null a caller without null checks could pass
  void badSettingsFailFastNamingTheSetting() {
    assertThatThrownBy(() -> PostgresTransport.builder(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("dataSource");
    for (String bad : List.of("Values", "a.b.c", "1values", "", "a.", "wait-room", "x".repeat(64))) {
      assertThatThrownBy(() -> PostgresTransport.builder(dataSource).table(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("table must be")
          .hasMessageContaining("'" + bad + "'");
    }
    assertThatThrownBy(() -> PostgresTransport.builder(dataSource).queryTimeout(Duration.ofMillis(500)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queryTimeout")
        .hasMessageContaining("PT0.5S");
    assertThatThrownBy(() -> PostgresTransport.builder(dataSource).queryTimeout(Duration.ofMinutes(2)))
        .hasMessageContaining("queryTimeout");
    assertThat(PostgresTransport.builder(dataSource).table("coordination.values").build().toString())
        .isEqualTo("PostgresTransport[table=coordination.values]");
  }

  @Test
  void aMissingTableWhoseSchemaTheApplicationManagesFailsNamingWhatIsMissingAndHowToMakeIt() throws Exception {
    String table = schema + ".managed_values";
    PostgresTransport t = PostgresTransport.builder(dataSource).table(table).schemaManagedByApplication(true).build();
    assertThatThrownBy(t::prepare)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the table " + table + " is missing")
        .hasMessageContaining("schemaManagedByApplication")
        .hasMessageContaining("docs/postgres.md")
        .hasMessageContaining("CREATE TABLE IF NOT EXISTS \"" + schema + "\".\"managed_values\"");
    assertThatThrownBy(() -> t.exchange("shop", pub("global", "eu", "r"), MINUTE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the table " + table + " is missing");
    assertThat(exists(table)).as("the transport created the table the application manages").isFalse();

    // The application runs the documented SQL (for its own table name): the next exchange works.
    LocalPostgres.run(dataSource, PostgresTransport.schemaSql().replace("waitingroom_values", table));
    assertThat(t.exchange("shop", pub("global", "eu", "r"), MINUTE).get("global")).containsOnlyKeys("eu");
  }

  @Test
  void aTableWithoutAColumnOrTheKeyIsRefusedNamingBoth() throws Exception {
    String table = schema + ".half_values";
    LocalPostgres.run(dataSource,
        "CREATE TABLE " + table + " (room text, scope text, publisher varchar(64), payload bytea)");
    for (boolean managed : List.of(true, false)) {
      PostgresTransport t = PostgresTransport.builder(dataSource).table(table).schemaManagedByApplication(managed).build();
      assertThatThrownBy(() -> t.exchange("shop", pub("global", "eu", "r"), MINUTE))
          .as("managed by the application: %s", managed)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("the table " + table + " has no column expires_at (timestamp with time zone)")
          .hasMessageContaining("the column " + table + ".publisher is character varying(64), not text")
          .hasMessageContaining("no primary key or unique index on exactly (room, scope, publisher)");
    }
  }

  @Test
  void theTableIsCreatedWhenAbsentAndAgainAfterItWasDropped() throws Exception {
    String table = schema + ".created_values";
    PostgresTransport t = PostgresTransport.builder(dataSource).table(table).build();
    assertThat(exists(table)).isFalse();
    assertThat(t.exchange("shop", pub("global", "eu", "r"), MINUTE).get("global")).containsOnlyKeys("eu");
    assertThat(exists(table)).isTrue();
    assertThat(count("SELECT count(*) FROM " + table)).isOne();

    LocalPostgres.run(dataSource, "DROP TABLE " + table);
    // The exchange that finds the table gone fails; the next makes it anew.
    try {
      t.exchange("shop", pub("global", "eu", "r"), MINUTE);
    } catch (IOException expected) {
      assertThat(expected).hasMessageContaining("42P01");
    }
    assertThat(t.exchange("shop", pub("global", "us", "r"), MINUTE).get("global")).containsKey("us");
    assertThat(exists(table)).isTrue();
  }

  /** As the Redis transport: a value longer than any node writes, or under an overlong name, is deleted unread. */
  @Test
  void valuesLongerThanAnyNodeWritesAreDeletedUnread() throws Exception {
    String table = schema + ".huge_values";
    PostgresTransport t = PostgresTransport.builder(dataSource).table(table).queryTimeout(Duration.ofSeconds(10)).build();
    t.prepare();
    String insert = "INSERT INTO " + table + " VALUES ('shop', 'global', %s, %s, now() + interval '10 minutes')";
    LocalPostgres.run(dataSource, insert.formatted("'huge'", "convert_to(repeat('x', " + (8 << 20) + "), 'UTF8')"));
    LocalPostgres.run(dataSource, insert.formatted(
        "'largest'", "convert_to(repeat('x', " + ExchangeStatement.MAX_VALUE_BYTES + "), 'UTF8')"));
    LocalPostgres.run(dataSource, insert.formatted(
        "'" + "n".repeat(ExchangeStatement.MAX_NAME_BYTES + 1) + "'", "'\\x72'"));
    Map<String, Map<String, byte[]>> answer = t.exchange("shop", pub("global", "eu-west", "r"), MINUTE);
    assertThat(answer.get("global")).containsOnlyKeys("eu-west", "largest");
    assertThat(answer.get("global")).extractingByKey("largest").satisfies(
        v -> assertThat(v).hasSize(ExchangeStatement.MAX_VALUE_BYTES));
    assertThat(count("SELECT count(*) FROM " + table)).isEqualTo(2);
  }

  @Test
  void expiredValuesOfRoomsNobodyNamesAnyMoreAreSweptWithoutACronJob() throws Exception {
    String table = schema + ".swept_values";
    PostgresTransport t = PostgresTransport.builder(dataSource).table(table).build();
    t.exchange("abandoned", List.of(
        new Publication("global", "eu", new byte[] {1}),
        new Publication("dc:eu", "n1", new byte[] {1})), Duration.ofSeconds(1));
    t.exchange("shop", pub("global", "eu", "r"), MINUTE);
    LocalPostgres.run(dataSource, "UPDATE " + table + " SET expires_at = expires_at - interval '2 seconds' WHERE room = 'abandoned'");
    t.exchange("shop", pub("global", "eu", "r"), MINUTE);
    assertThat(count("SELECT count(*) FROM " + table + " WHERE room = 'abandoned'"))
        .as("another room's values are not the exchange's business")
        .isEqualTo(2);
    t.sweepAtNextExchange();
    t.exchange("shop", pub("global", "eu", "r"), MINUTE);
    assertThat(count("SELECT count(*) FROM " + table + " WHERE room = 'abandoned'")).isZero();
    assertThat(count("SELECT count(*) FROM " + table)).isOne();
  }

  /**
   * Nodes of one data center that all write several rows in common (its sum, and a document every
   * node keeps in the global scope), and whose rows expire at once (a retention of 1 or 2 ms:
   * every exchange finds the others' rows expired and deletes what it can), never deadlock: each
   * writes its rows in one order before it deletes, and deletes only rows nobody holds.
   * Two deadlocked statements wait a second, until PostgreSQL aborts one or the query timeout
   * cancels it, failing the exchange: with the publications written in the order given, this test
   * failed so.
   */
  @Test
  void nodesThatWriteRowsInCommonAndDeleteEachOthersNeverDeadlock() throws Exception {
    String table = schema + ".busy_values";
    int nodes = 8;
    int rounds = 200;
    try (TestPool pool = new TestPool(dataSource)) {
      PostgresTransport first = PostgresTransport.builder(pool).table(table).build();
      first.prepare();
      ExecutorService threads = Executors.newFixedThreadPool(nodes);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
          int node = n;
          PostgresTransport t = PostgresTransport.builder(pool).table(table).build();
          done.add(threads.submit(() -> {
            for (int r = 0; r < rounds; r++) {
              // Half the nodes publish in one order, half in the other: the transport orders them.
              List<Publication> out = new ArrayList<>(List.of(
                  new Publication("dc:eu", "n" + node, new byte[] {(byte) r}),
                  new Publication("global", "document:settings", new byte[] {(byte) r}),
                  new Publication("global", "eu", new byte[] {(byte) r})));
              if (node % 2 == 1) {
                Collections.reverse(out);
              }
              t.exchange("busy", out, Duration.ofMillis(1 + r % 2));
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get(2, TimeUnit.MINUTES); // an IOException (a deadlock aborted) fails here
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  /**
   * The exchange commits without waiting for the disk (synchronous_commit off for its own
   * transaction), and the pooled connection goes back to the application as it was.
   */
  @Test
  void theExchangeLeavesThePooledConnectionAsItFoundIt() throws Exception {
    String table = schema + ".pooled_values";
    try (TestPool pool = new TestPool(dataSource)) {
      PostgresTransport t = PostgresTransport.builder(pool).table(table).build();
      t.exchange("shop", pub("global", "eu", "r"), MINUTE);
      t.exchange("shop", pub("global", "eu", "r"), MINUTE);
      try (Connection c = pool.getConnection();
          PreparedStatement s = c.prepareStatement("SHOW synchronous_commit");
          ResultSet r = s.executeQuery()) {
        r.next();
        assertThat(r.getString(1)).isEqualTo("on");
        assertThat(c.getAutoCommit()).isTrue();
      }
    }
  }

  @Test
  void onConnectionsWithoutAutoCommitEachExchangeCommits() throws Exception {
    String table = schema + ".tx_values";
    DataSource manual = new TestPool(dataSource) {
      @Override
      public Connection getConnection() throws SQLException {
        Connection c = super.getConnection();
        c.setAutoCommit(false);
        return c;
      }
    };
    PostgresTransport a = PostgresTransport.builder(manual).table(table).build();
    PostgresTransport b = PostgresTransport.builder(dataSource).table(table).build();
    a.exchange("shop", pub("dc:eu", "a", "1"), MINUTE);
    a.sweepAtNextExchange();
    a.exchange("shop", pub("dc:eu", "a", "2"), MINUTE);
    Map<String, Map<String, byte[]>> answer = b.exchange("shop", pub("dc:eu", "b", "1"), MINUTE);
    assertThat(answer.get("dc:eu")).extractingByKey("a").isEqualTo("2".getBytes(StandardCharsets.UTF_8));
  }
}

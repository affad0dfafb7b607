package io.github.waitingroom.postgres;

import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Transport} over PostgreSQL with plain JDBC, on the {@link DataSource} (the connection
 * pool) the application already has: one SQL statement per sync, expiry by the database's clock,
 * no ORM and no driver classes (any PostgreSQL JDBC driver will do). Thread-safe; share one per
 * JVM between rooms.
 *
 * <pre>{@code
 * PostgresTransport postgres = PostgresTransport.create(dataSource);
 * WaitingRoom room = WaitingRoom.builder(config, keys)
 *     .transport(postgres).dataCenter("eu-west").nodeId(hostName).build();
 * }</pre>
 *
 * <h2>Connections</h2>
 *
 * Each exchange borrows one connection from the data source and gives it back at once; a node
 * makes four exchanges per epoch per room (one a quarter second with the default epoch of 1 s),
 * each a single statement of a few milliseconds. A connection that is not in auto-commit mode is
 * committed after the exchange (rolled back after a failure). The statement carries a {@linkplain
 * Builder#queryTimeout query timeout} (default 1 s; JDBC counts it in whole seconds); waiting for a
 * free connection is bounded by the pool's own setting (HikariCP's {@code connectionTimeout}, 30 s
 * by default), and a database that stops answering mid-statement by the driver's socket timeout
 * (pgJDBC's {@code socketTimeout}): set both short on a pool the room shares.
 *
 * <h2>What it writes</h2>
 *
 * One table, {@code waitingroom_values} by default ({@link Builder#table}), one row per room,
 * scope and publisher: the payload and its expiry time by the database's clock ({@code
 * clock_timestamp()}). The schema is the resource {@code schema.sql} next to this class, shown by
 * {@link #schemaSql()} and in {@code docs/postgres.md}. At its first exchange the transport creates
 * the table if it is absent ({@code CREATE TABLE IF NOT EXISTS}, under an advisory lock) and checks
 * it; when the application manages its schema itself ({@link Builder#schemaManagedByApplication})
 * the transport only checks it, and fails every exchange until it is there, with a message that
 * names what is missing. {@link #prepare()} does the same at once, for a start-up that should fail
 * early.
 *
 * <p>Each exchange is one statement ({@code exchange.sql}): it reads the clock once, upserts the
 * node's values ({@code INSERT ... ON CONFLICT DO UPDATE}), deletes the values of the scopes it
 * names whose expiry has passed, and answers with the live values of those scopes and the clock.
 * It commits without waiting for the write-ahead log to reach the disk ({@code
 * synchronous_commit} off, set for that transaction only): every node writes its values again at
 * every sync, so a crash of the database loses nothing that is not written again within a quarter
 * epoch, and an exchange holds the rows it shares with other nodes (its data center's sum) for
 * about a millisecond instead of a disk flush. Values of rooms and scopes that nobody names any
 * more are deleted by a sweep that each transport runs once a minute after an exchange (at most
 * 1,000 rows a time), so no cron job is needed.
 *
 * <p>Both deletions skip rows another node holds ({@code FOR UPDATE SKIP LOCKED}) and happen after
 * the statement's own writes, and every node writes its rows in one order (by scope, then
 * publisher), so two nodes never wait for each other in a cycle: the nodes of a data center, which
 * all write its sum, take turns on that row. A value longer than {@link
 * io.github.waitingroom.coordinator.ReportSeal#MAX_SEALED_BYTES}, or under a name longer than 256
 * bytes, is not a node's (anyone else who can write to the table may have put it there): it is
 * deleted without being read, as the Redis transport does.
 *
 * <p>This class holds the {@link Transport} contract and the settings; the statement with its
 * wire format is {@code ExchangeStatement}, and the table's creation and checks are {@code Schema}.
 */
public final class PostgresTransport implements Transport {
  /** The default table name. */
  public static final String DEFAULT_TABLE = "waitingroom_values";

  /** The default query timeout. */
  public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(1);

  /** How often each transport sweeps the whole table for expired values. */
  static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);

  private static final Logger log = LoggerFactory.getLogger(PostgresTransport.class);

  private final DataSource dataSource;
  private final TableName table;
  private final boolean schemaManagedByApplication;
  private final int queryTimeoutSeconds;
  private final Schema schema;
  private final ExchangeStatement statement;
  /** Whether the table was created or checked; until then every exchange tries first. */
  private volatile boolean prepared;
  /** When the next sweep is due (System.nanoTime); the first one falls at random in the first interval. */
  private volatile long nextSweep;

  private PostgresTransport(Builder b) {
    this.dataSource = b.dataSource;
    this.table = b.table;
    this.schemaManagedByApplication = b.schemaManagedByApplication;
    this.queryTimeoutSeconds = (int) Math.max(1, (b.queryTimeout.toMillis() + 999) / 1000);
    this.schema = new Schema(table);
    this.statement = new ExchangeStatement(table);
    this.nextSweep = System.nanoTime() + ThreadLocalRandom.current().nextLong(SWEEP_INTERVAL.toNanos());
  }

  /** A transport on {@code dataSource} with the default table and timeout; it connects at its first exchange. */
  public static PostgresTransport create(DataSource dataSource) {
    return builder(dataSource).build();
  }

  /** Starts a transport on the application's {@code dataSource}, which must outlive it. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /**
   * The SQL that creates the default table ({@value #DEFAULT_TABLE}), for an application that
   * manages its schema itself (Flyway, Liquibase): the text the transport runs, and the one in
   * {@code docs/postgres.md}. For another table name, replace {@value #DEFAULT_TABLE} in it.
   *
   * @return the {@code CREATE TABLE IF NOT EXISTS} statement
   */
  public static String schemaSql() {
    return Schema.DEFAULT_DDL;
  }

  /**
   * Creates the table if it is absent, or checks it when the application manages the schema, now
   * instead of at the first exchange. Exchanges do this themselves until it succeeded once; call
   * it at start-up for an application that should not start without its table.
   *
   * @throws IOException if the database cannot be reached, or naming what the table lacks
   */
  public void prepare() throws IOException {
    try (Connection c = dataSource.getConnection()) {
      prepare(c);
    } catch (SQLException e) {
      throw failure("could not " + (schemaManagedByApplication ? "check" : "create") + " the table " + table, e);
    }
  }

  private void prepare(Connection c) throws SQLException, IOException {
    if (schemaManagedByApplication) {
      schema.check(c);
    } else {
      schema.create(c);
    }
    prepared = true;
  }

  @Override
  public Map<String, Map<String, byte[]>> exchange(
      String roomId, List<Publication> publications, Duration retention) throws IOException {
    Objects.requireNonNull(roomId, "roomId");
    Objects.requireNonNull(publications, "publications");
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be positive but was " + retention);
    }
    if (publications.isEmpty()) {
      return new HashMap<>();
    }
    long retentionMillis = Math.max(1, retention.toMillis());
    try (Connection c = dataSource.getConnection()) {
      if (!prepared) {
        prepare(c);
      }
      boolean auto = c.getAutoCommit();
      Map<String, Map<String, byte[]>> answer;
      try {
        answer = statement.exchange(c, roomId, publications, retentionMillis, queryTimeoutSeconds);
        if (!auto) {
          c.commit();
        }
      } catch (SQLException e) {
        if (!auto) {
          rollback(c, e);
        }
        throw e;
      }
      sweepIfDue(c, auto);
      return answer;
    } catch (SQLException e) {
      String state = e.getSQLState();
      if (state != null && (state.equals("42P01") || state.equals("42703") || state.equals("42P10"))) {
        // The table went away or changed (undefined table, column, or conflict key): make or check it anew.
        prepared = false;
      }
      throw failure("exchange of room '" + roomId + "' failed", e);
    }
  }

  /** Deletes expired values of every room, once a {@link #SWEEP_INTERVAL} per transport; a failure only logs. */
  private void sweepIfDue(Connection c, boolean auto) {
    long now = System.nanoTime();
    if (now - nextSweep < 0) {
      return;
    }
    nextSweep = now + SWEEP_INTERVAL.toNanos();
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(queryTimeoutSeconds);
      int deleted = s.executeUpdate(statement.sweep());
      if (!auto) {
        c.commit();
      }
      log.debug("{}: swept {} expired values", this, deleted);
    } catch (SQLException e) {
      if (!auto) {
        rollback(c, e);
      }
      log.warn("{}: sweeping expired values failed (tried again in {} s): {}",
          this, TimeUnit.NANOSECONDS.toSeconds(SWEEP_INTERVAL.toNanos()), e.toString());
    }
  }

  /** Rolls back after {@code failure}, keeping a failure of the rollback itself with it. */
  static void rollback(Connection c, SQLException failure) {
    try {
      c.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /** For tests: the next exchange sweeps. */
  void sweepAtNextExchange() {
    nextSweep = System.nanoTime();
  }

  private IOException failure(String what, SQLException e) {
    return new IOException(this + ": " + what + ": " + e.getMessage()
        + (e.getSQLState() != null ? " (SQL state " + e.getSQLState() + ")" : ""), e);
  }

  @Override
  public String toString() {
    return "PostgresTransport[table=" + table + (schemaManagedByApplication ? ", schema managed by the application" : "") + "]";
  }

  /** Builds a {@link PostgresTransport}; every setting but the data source has a default. */
  public static final class Builder {
    private final DataSource dataSource;
    private TableName table = TableName.DEFAULT;
    private boolean schemaManagedByApplication;
    private Duration queryTimeout = DEFAULT_QUERY_TIMEOUT;

    private Builder(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * The table that holds the values, {@code name} or {@code schema.name}, so that several
     * applications (or test runs) can share one database. Default: {@value
     * PostgresTransport#DEFAULT_TABLE}, on the connection's {@code search_path}. Lower case
     * letters, digits and underscores only, not starting with a digit, at most 63 each: the name
     * goes into the SQL unquoted. The schema ({@code coordination} in {@code
     * coordination.values}) must exist; the transport creates only the table.
     *
     * @throws IllegalArgumentException naming what is wrong with it
     */
    public Builder table(String name) {
      this.table = TableName.parse(name);
      return this;
    }

    /**
     * Whether the application creates the table itself (with {@link PostgresTransport#schemaSql()},
     * in its Flyway or Liquibase migrations), so that the transport needs no right to create
     * tables: it then only checks the table, and an exchange fails with a message that names what
     * is missing. Default: {@code false}, the transport creates the table if it is absent.
     */
    public Builder schemaManagedByApplication(boolean managed) {
      this.schemaManagedByApplication = managed;
      return this;
    }

    /**
     * The most one exchange's statement may run (1 s..1 min; JDBC counts whole seconds, so a
     * fraction is rounded up). Default: 1 second.
     *
     * @throws IllegalArgumentException if out of range
     */
    public Builder queryTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "queryTimeout");
      if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException("queryTimeout must be between 1 second and 1 minute but was " + timeout);
      }
      this.queryTimeout = timeout;
      return this;
    }

    /** The transport; it connects at its first exchange (or at {@link PostgresTransport#prepare()}). */
    public PostgresTransport build() {
      return new PostgresTransport(this);
    }
  }
}

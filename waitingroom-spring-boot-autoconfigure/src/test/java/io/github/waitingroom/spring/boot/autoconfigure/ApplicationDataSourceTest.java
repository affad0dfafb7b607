package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.postgres.PostgresTransport;
import io.github.waitingroom.testsupport.Services;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Issue 43: the room's store in the application's own PostgreSQL, from its {@link DataSource}
 * alone (waitingroom-postgres on the classpath), on the real PostgreSQL at 127.0.0.1:5432
 * (database {@code test}). Every run keeps to a schema of its own, dropped afterwards.
 */
class ApplicationDataSourceTest {
  private final String schema = "wr_boot_" + UUID.randomUUID().toString().substring(0, 8);
  private final PGSimpleDataSource dataSource = new PGSimpleDataSource();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(WaitingRoomAutoConfiguration.class))
          .withBean(DataSource.class, () -> dataSource)
          .withPropertyValues(
              "waitingroom.room-id=app-postgres",
              "waitingroom.total-active-users=10",
              "waitingroom.new-users-per-minute=5",
              "waitingroom.session-duration=10m",
              "waitingroom.keyset.generate-ephemeral=true",
              "waitingroom.store.application-redis=false",
              "waitingroom.store.postgres-table=" + schema + ".waitingroom_values");

  @BeforeEach
  void createSchema() throws SQLException {
    dataSource.setUrl(System.getProperty("waitingroom.postgresUrl", "jdbc:postgresql://127.0.0.1:5432/test"));
    dataSource.setUser(System.getProperty("waitingroom.postgresUser", "postgres"));
    dataSource.setConnectTimeout(5);
    boolean reachable;
    try (Connection c = dataSource.getConnection()) {
      reachable = c.isValid(5);
    } catch (SQLException e) {
      reachable = false;
    }
    Services.assume(reachable, "PostgreSQL at 127.0.0.1:5432 is unreachable");
    execute("CREATE SCHEMA " + schema);
  }

  @AfterEach
  void dropSchema() throws SQLException {
    execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private long rowsOfRoom(String room) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM " + schema + ".waitingroom_values WHERE room = '" + room + "'")) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void theApplicationsDataSourceBecomesTheStore() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(Transport.class)).isInstanceOf(PostgresTransport.class);
          // The room's first sync ran when it was built: it created the table and wrote its report there.
          WaitingRoom room = context.getBean(WaitingRoom.class);
          room.sync();
          assertThat(room.transportFailing()).isFalse();
          assertThat(rowsOfRoom("app-postgres")).isPositive();
        });
  }

  @Test
  void aTableTheApplicationManagesIsCheckedNotCreated() {
    runner.withPropertyValues("waitingroom.store.postgres-schema-managed=true").run(
        context -> {
          assertThat(context).hasNotFailed();
          WaitingRoom room = context.getBean(WaitingRoom.class);
          room.sync();
          assertThat(room.transportFailing()).as("no table: every sync fails until it is there").isTrue();
        });
  }

  @Test
  void turnedOffTheRoomKeepsItsCountsInMemory() {
    runner.withPropertyValues("waitingroom.store.application-data-source=false").run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(PostgresTransport.class);
        });
  }
}

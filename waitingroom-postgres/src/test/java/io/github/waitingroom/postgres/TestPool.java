package io.github.waitingroom.postgres;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A connection pool for the tests, as small as one can be: it keeps the connections given back
 * and hands them out again, so that a test with many nodes does not open a connection (a new
 * PostgreSQL backend process) at every exchange, as an application's pool would not. No limit,
 * no validation beyond dropping a connection that was closed or broken.
 */
class TestPool implements DataSource, AutoCloseable {
  private final DataSource physical;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

  TestPool(DataSource physical) {
    this.physical = physical;
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection c = idle.pollFirst();
    if (c == null || c.isClosed()) {
      c = physical.getConnection();
    }
    Connection real = c;
    AtomicBoolean returned = new AtomicBoolean();
    return (Connection) Proxy.newProxyInstance(
        Connection.class.getClassLoader(),
        new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "close" -> {
              if (returned.compareAndSet(false, true)) {
                if (!real.isClosed() && real.getAutoCommit()) {
                  idle.addFirst(real);
                } else {
                  real.close();
                }
              }
              return null;
            }
            case "isClosed" -> {
              return returned.get() || real.isClosed();
            }
            default -> {
              if (returned.get()) {
                throw new SQLException("connection given back to the pool");
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }
          }
        });
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("one user per pool");
  }

  /** Closes the idle connections. */
  @Override
  public void close() {
    for (Connection c; (c = idle.pollFirst()) != null; ) {
      try {
        c.close();
      } catch (SQLException e) {
        // going anyway
      }
    }
  }

  @Override
  public PrintWriter getLogWriter() {
    return new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }
}

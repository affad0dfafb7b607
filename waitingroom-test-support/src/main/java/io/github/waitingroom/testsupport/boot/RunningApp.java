package io.github.waitingroom.testsupport.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomStatus;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** One running Spring Boot application of a scenario, as its Boot version's subclass started it. */
public interface RunningApp extends AutoCloseable {
  /** The port of its embedded server on 127.0.0.1. */
  int port();

  /** The status of its main room ({@code WaitingRoom.status()} of the application's bean). */
  RoomStatus status();

  /** Stops the application. */
  @Override
  void close();

  /**
   * An application that a Boot version's subclass has just started, once it runs on the embedded
   * server the test expects: otherwise it is stopped and the test fails. What differs between the
   * Boot versions (how to start it, where its server is) stays with the subclass.
   *
   * @param server its embedded web server
   * @param expected the class that server must be (Tomcat's, Netty's)
   * @param port the server's port
   * @param status the status of its main room, asked anew on each call
   * @param close stops it
   */
  static RunningApp of(Object server, Class<?> expected, IntSupplier port, Supplier<RoomStatus> status, Runnable close) {
    try {
      assertThat(server).isInstanceOf(expected);
    } catch (AssertionError e) {
      close.run();
      throw e;
    }
    return new RunningApp() {
      @Override
      public int port() {
        return port.getAsInt();
      }

      @Override
      public RoomStatus status() {
        return status.get();
      }

      @Override
      public void close() {
        close.run();
      }
    };
  }
}

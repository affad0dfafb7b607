package io.github.waitingroom.testsupport.boot;

import io.github.waitingroom.RoomStatus;

/** One running Spring Boot application of a scenario, as its Boot version's subclass started it. */
public interface RunningApp extends AutoCloseable {
  /** The port of its embedded server on 127.0.0.1. */
  int port();

  /** The status of its main room ({@code WaitingRoom.status()} of the application's bean). */
  RoomStatus status();

  /** Stops the application. */
  @Override
  void close();
}

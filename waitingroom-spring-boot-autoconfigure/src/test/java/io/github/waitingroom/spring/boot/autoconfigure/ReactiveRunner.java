package io.github.waitingroom.spring.boot.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

/**
 * The reactive application context that the property tests of the reactive filter start: the
 * room's, the servlet filter's and the reactive filter's auto-configuration, so that each test
 * sees which of the two filters a reactive application gets.
 */
final class ReactiveRunner {
  /** A room {@code unit} of one active user and one new user a minute, sessions of ten minutes, an ephemeral keyset. */
  static final String[] ONE_SLOT = {
    "waitingroom.room-id=unit",
    "waitingroom.total-active-users=1",
    "waitingroom.new-users-per-minute=1",
    "waitingroom.session-duration=10m",
    "waitingroom.keyset.generate-ephemeral=true"
  };

  private ReactiveRunner() {}

  /** A runner with the three auto-configurations and no property yet. */
  static ReactiveWebApplicationContextRunner withTheFilters() {
    return new ReactiveWebApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                WaitingRoomAutoConfiguration.class,
                WaitingRoomServletAutoConfiguration.class,
                WaitingRoomReactiveAutoConfiguration.class));
  }
}

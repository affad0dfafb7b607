package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.OperatorApi;
import io.github.waitingroom.http.SettingException;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The operator API of every room from {@code waitingroom.dashboard.*}, for the servlet and the
 * reactive stack alike; a bad value fails the start with a {@link SettingException} that names the
 * property (never the token's value).
 */
final class Dashboards {
  static final String PREFIX = "waitingroom.dashboard.";

  private Dashboards() {}

  static OperatorApi api(WaitingRoomProperties.Dashboard d, @Nullable WaitingRoom main, @Nullable WaitingRooms named) {
    List<WaitingRoom> rooms = new ArrayList<>();
    if (main != null) {
      rooms.add(main);
    }
    if (named != null) {
      rooms.addAll(named.asMap().values());
    }
    OperatorApi.Builder b = OperatorApi.builder(rooms).settingsChanges(d.isSettingsChanges());
    String token = d.getBearerToken();
    String role = d.getRequireRole();
    try {
      if (token != null && !token.isBlank()) {
        b.bearerToken(token);
      }
      if (role != null && !role.isBlank()) {
        b.requireRole(role);
      }
      return b.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      // The builder's messages never repeat the token; neither does this one.
      String property = PREFIX + (token != null && !token.isBlank() ? "bearer-token" : "require-role");
      throw new SettingException(property, SettingException.Source.PROPERTY, property, null, String.valueOf(e.getMessage()), e);
    }
  }

  /** The dashboard's path, checked: it starts with {@code /} and does not end with one. */
  static String path(WaitingRoomProperties.Dashboard d) {
    String path = d.getPath();
    if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/")) {
      throw new SettingException(PREFIX + "path", SettingException.Source.PROPERTY, PREFIX + "path", path,
          "the dashboard's path must start with '/' and not end with one", null);
    }
    return path;
  }

  /** Matches when {@code waitingroom.dashboard.bearer-token} or {@code require-role} is set. */
  static final class On extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
      Binder binder = Binder.get(context.getEnvironment());
      boolean on = binder.bind(PREFIX + "bearer-token", String.class).isBound()
          || binder.bind(PREFIX + "require-role", String.class).isBound();
      return on
          ? ConditionOutcome.match("waitingroom.dashboard.bearer-token or require-role is set")
          : ConditionOutcome.noMatch("neither waitingroom.dashboard.bearer-token nor require-role is set");
    }
  }
}

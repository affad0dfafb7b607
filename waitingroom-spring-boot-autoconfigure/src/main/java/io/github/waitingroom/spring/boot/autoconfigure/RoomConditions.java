package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Which rooms the properties ask for. {@code waitingroom.rooms.<name>.*} makes further rooms;
 * the main room ({@code waitingroom.*}) is made when there are no further rooms (so its limits are
 * required, as they always were), or when one of its limits or its room id is set next to them.
 */
final class RoomConditions {
  private static final List<String> MAIN_ROOM_KEYS =
      List.of("room-id", "total-active-users", "new-users-per-minute", "session-duration");

  private RoomConditions() {}

  static boolean hasNamedRooms(Environment environment) {
    // As plain strings ("drop.path-prefix" -> "/drop"): only whether any is set matters here; the
    // values are bound, and checked, once, into WaitingRoomProperties.
    return !Binder.get(environment)
        .bind("waitingroom.rooms", Bindable.mapOf(String.class, String.class))
        .orElse(Map.of())
        .isEmpty();
  }

  static boolean hasMainRoom(Environment environment) {
    Binder binder = Binder.get(environment);
    return !hasNamedRooms(environment)
        || MAIN_ROOM_KEYS.stream().anyMatch(k -> binder.bind("waitingroom." + k, String.class).isBound());
  }

  /** The main room is asked for. */
  static final class MainRoom extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
      return hasMainRoom(context.getEnvironment())
          ? ConditionOutcome.match("the main room is configured (waitingroom.*)")
          : ConditionOutcome.noMatch("only waitingroom.rooms are configured");
    }
  }

  /** Further rooms are asked for. */
  static final class NamedRooms extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
      return hasNamedRooms(context.getEnvironment())
          ? ConditionOutcome.match("waitingroom.rooms is set")
          : ConditionOutcome.noMatch("waitingroom.rooms is not set");
    }
  }

  /** There is a room to guard: a {@link WaitingRoom} bean, a {@link WaitingRooms} bean, or both. */
  static final class AnyRoom extends AnyNestedCondition {
    AnyRoom() {
      super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnBean(WaitingRoom.class)
    static final class MainRoomBean {}

    @ConditionalOnBean(WaitingRooms.class)
    static final class NamedRoomsBean {}
  }
}

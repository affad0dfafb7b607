package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.AdaptiveLimitSettings;
import io.github.waitingroom.http.Setting;
import io.github.waitingroom.http.SettingException;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/**
 * The room's {@code adaptive-limit.*} properties, for the main room and a further room: setting
 * {@code min}, {@code max} and {@code latency} turns the adaptive limit on; setting some of them
 * stops the application with an error that names what is missing; a bad value one that names the
 * property. And their IDE metadata against their declarations ({@link AdaptiveLimitSettings}).
 */
class AdaptiveLimitPropertiesTest {
  private static final String[] VALID = {
    "waitingroom.room-id=unit",
    "waitingroom.total-active-users=100",
    "waitingroom.new-users-per-minute=50",
    "waitingroom.session-duration=10m",
    "waitingroom.keyset.generate-ephemeral=true"
  };

  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(WaitingRoomAutoConfiguration.class, WaitingRoomServletAutoConfiguration.class))
          .withPropertyValues(VALID);

  @Test
  void offUnlessSet() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(WaitingRoom.class).config().adaptiveLimit()).isNull();
    });
  }

  @Test
  void minMaxAndLatencyTurnItOnWithTheDefaultStepAndFailureShare() {
    runner
        .withPropertyValues(
            "waitingroom.adaptive-limit.min=20",
            "waitingroom.adaptive-limit.max=400",
            "waitingroom.adaptive-limit.latency=500ms")
        .run(context -> {
          assertThat(context).hasNotFailed();
          WaitingRoom room = context.getBean(WaitingRoom.class);
          assertThat(room.config().adaptiveLimit()).isEqualTo(AdaptiveLimit.between(20, 400, Duration.ofMillis(500)));
          assertThat(Objects.requireNonNull(room.config().adaptiveLimit()).scaleNewUsersPerMinute())
              .as("new users a minute not scaled by default").isFalse();
          assertThat(room.settings().adaptiveLimit()).as("in force from the start").isNotNull();
        });
  }

  @Test
  void aFurtherRoomTakesItsOwn() {
    runner
        .withPropertyValues(
            "waitingroom.adaptive-limit.min=20",
            "waitingroom.adaptive-limit.max=400",
            "waitingroom.adaptive-limit.latency=1s",
            "waitingroom.adaptive-limit.step=0.2",
            "waitingroom.adaptive-limit.failure-share=0.05",
            "waitingroom.rooms.drop.path-prefix=/drop",
            "waitingroom.rooms.drop.total-active-users=10",
            "waitingroom.rooms.drop.new-users-per-minute=5",
            "waitingroom.rooms.drop.session-duration=1m",
            "waitingroom.rooms.drop.adaptive-limit.min=5",
            "waitingroom.rooms.drop.adaptive-limit.max=50",
            "waitingroom.rooms.drop.adaptive-limit.latency=PT2S",
            "waitingroom.rooms.plain.path-prefix=/plain",
            "waitingroom.rooms.plain.total-active-users=10",
            "waitingroom.rooms.plain.new-users-per-minute=5",
            "waitingroom.rooms.plain.session-duration=1m")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(WaitingRoom.class).config().adaptiveLimit())
              .isEqualTo(new AdaptiveLimit(20, 400, Duration.ofSeconds(1), 0.2, 0.05));
          WaitingRooms rooms = context.getBean(WaitingRooms.class);
          assertThat(Objects.requireNonNull(rooms.get("drop")).config().adaptiveLimit())
              .isEqualTo(AdaptiveLimit.between(5, 50, Duration.ofSeconds(2)));
          assertThat(Objects.requireNonNull(rooms.get("plain")).config().adaptiveLimit()).isNull();
        });
  }

  @Test
  void scaleNewUsersPerMinuteTurnsScalingOnForTheMainRoomAndAFurtherRoom() {
    runner
        .withPropertyValues(
            "waitingroom.adaptive-limit.min=20",
            "waitingroom.adaptive-limit.max=400",
            "waitingroom.adaptive-limit.latency=500ms",
            "waitingroom.adaptive-limit.scale-new-users-per-minute=true",
            "waitingroom.rooms.drop.path-prefix=/drop",
            "waitingroom.rooms.drop.total-active-users=10",
            "waitingroom.rooms.drop.new-users-per-minute=5",
            "waitingroom.rooms.drop.session-duration=1m",
            "waitingroom.rooms.drop.adaptive-limit.min=5",
            "waitingroom.rooms.drop.adaptive-limit.max=50",
            "waitingroom.rooms.drop.adaptive-limit.latency=1s",
            "waitingroom.rooms.drop.adaptive-limit.scale-new-users-per-minute=false",
            "waitingroom.rooms.sale.path-prefix=/sale",
            "waitingroom.rooms.sale.total-active-users=10",
            "waitingroom.rooms.sale.new-users-per-minute=5",
            "waitingroom.rooms.sale.session-duration=1m",
            "waitingroom.rooms.sale.adaptive-limit.min=5",
            "waitingroom.rooms.sale.adaptive-limit.max=50",
            "waitingroom.rooms.sale.adaptive-limit.latency=1s",
            "waitingroom.rooms.sale.adaptive-limit.scale-new-users-per-minute=true")
        .run(context -> {
          assertThat(context).hasNotFailed();
          AdaptiveLimit main = context.getBean(WaitingRoom.class).config().adaptiveLimit();
          assertThat(main).isEqualTo(AdaptiveLimit.between(20, 400, Duration.ofMillis(500)).withScaleNewUsersPerMinute(true));
          WaitingRooms rooms = context.getBean(WaitingRooms.class);
          assertThat(Objects.requireNonNull(rooms.get("drop")).config().adaptiveLimit())
              .as("a further room does not inherit the main room's")
              .isEqualTo(AdaptiveLimit.between(5, 50, Duration.ofSeconds(1)));
          assertThat(Objects.requireNonNull(rooms.get("sale")).config().adaptiveLimit())
              .isEqualTo(AdaptiveLimit.between(5, 50, Duration.ofSeconds(1)).withScaleNewUsersPerMinute(true));
        });
  }

  @Test
  void scaleNewUsersPerMinuteAloneStopsTheApplicationNamingWhatIsMissing() {
    failsNaming("waitingroom.adaptive-limit.min", m -> assertThat(m).isEqualTo("property waitingroom.adaptive-limit.min:"
        + " waitingroom.adaptive-limit.min, waitingroom.adaptive-limit.max and waitingroom.adaptive-limit.latency are"
        + " missing: waitingroom.adaptive-limit.min, waitingroom.adaptive-limit.max and waitingroom.adaptive-limit.latency"
        + " turn the adaptive limit on together, and waitingroom.adaptive-limit.scale-new-users-per-minute is given"),
        "waitingroom.adaptive-limit.scale-new-users-per-minute=true");
    failsNaming("waitingroom.rooms.drop.adaptive-limit.min", m -> assertThat(m).contains(
            "waitingroom.rooms.drop.adaptive-limit.min and waitingroom.rooms.drop.adaptive-limit.latency are missing",
            "and waitingroom.rooms.drop.adaptive-limit.max and"
                + " waitingroom.rooms.drop.adaptive-limit.scale-new-users-per-minute are given"),
        DROP_ROOM, "waitingroom.rooms.drop.adaptive-limit.max=50",
        "waitingroom.rooms.drop.adaptive-limit.scale-new-users-per-minute=false");
  }

  @Test
  void someOfMinMaxAndLatencyStopTheApplicationNamingWhatIsMissing() {
    failsNaming("waitingroom.adaptive-limit.max", m -> assertThat(m).isEqualTo("property waitingroom.adaptive-limit.max:"
        + " waitingroom.adaptive-limit.max is missing: waitingroom.adaptive-limit.min, waitingroom.adaptive-limit.max and"
        + " waitingroom.adaptive-limit.latency turn the adaptive limit on together, and"
        + " waitingroom.adaptive-limit.min and waitingroom.adaptive-limit.latency are given"),
        "waitingroom.adaptive-limit.min=20", "waitingroom.adaptive-limit.latency=1s");
    failsNaming("waitingroom.rooms.drop.adaptive-limit.min", m -> assertThat(m).contains(
            "waitingroom.rooms.drop.adaptive-limit.min, waitingroom.rooms.drop.adaptive-limit.max and"
                + " waitingroom.rooms.drop.adaptive-limit.latency are missing",
            "and waitingroom.rooms.drop.adaptive-limit.step is given"),
        DROP_ROOM, "waitingroom.rooms.drop.adaptive-limit.step=0.2");
  }

  /** A further room's required properties, as one string per property (split at the commas below). */
  private static final String DROP_ROOM = "waitingroom.rooms.drop.path-prefix=/drop,waitingroom.rooms.drop.total-active-users=10,"
      + "waitingroom.rooms.drop.new-users-per-minute=5,waitingroom.rooms.drop.session-duration=1m";

  /**
   * The application with {@code properties} (an entry may hold several, comma-separated) fails
   * to start with a property error on {@code key} whose message passes {@code message}.
   */
  private void failsNaming(String key, Consumer<String> message, String... properties) {
    String[] each = Arrays.stream(properties).flatMap(p -> Arrays.stream(p.split(","))).toArray(String[]::new);
    runner.withPropertyValues(each).run(context -> {
      assertThat(context).hasFailed();
      SettingException e = settingFailure(context.getStartupFailure());
      assertThat(e.source()).isEqualTo(SettingException.Source.PROPERTY);
      assertThat(e.key()).isEqualTo(key);
      message.accept(e.getMessage());
    });
  }



  @Test
  void aBadValueStopsTheApplicationNamingTheProperty() {
    runner
        .withPropertyValues(
            "waitingroom.adaptive-limit.min=20",
            "waitingroom.adaptive-limit.max=400",
            "waitingroom.adaptive-limit.latency=1s",
            "waitingroom.adaptive-limit.failure-share=2")
        .run(context -> {
          assertThat(context).hasFailed();
          SettingException e = settingFailure(context.getStartupFailure());
          assertThat(e.key()).isEqualTo("waitingroom.adaptive-limit.failure-share");
          assertThat(e.value()).isEqualTo("2.0");
          assertThat(e.getMessage()).startsWith("property waitingroom.adaptive-limit.failure-share:"
              + " adaptiveLimit.failureShare must be between 0 and 1 but was 2.0");
        });
    runner
        .withPropertyValues(
            "waitingroom.adaptive-limit.min=20",
            "waitingroom.adaptive-limit.max=400",
            "waitingroom.adaptive-limit.latency=0s")
        .run(context -> {
          assertThat(context).hasFailed();
          SettingException e = settingFailure(context.getStartupFailure());
          assertThat(e.key()).isEqualTo("waitingroom.adaptive-limit.latency");
          assertThat(e.value()).isEqualTo("PT0S");
        });
  }

  @Test
  void theMetadataIsTheDeclarations() throws Exception {
    Map<String, JsonNode> properties = new LinkedHashMap<>();
    for (URL url : Collections.list(
        getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
      try (InputStream in = url.openStream()) {
        for (JsonNode p : new ObjectMapper().readTree(in).path("properties")) {
          properties.put(p.path("name").asText(), p);
        }
      }
    }
    for (Setting<?> s : AdaptiveLimitSettings.all()) {
      String name = "waitingroom." + s.property();
      JsonNode p = properties.getOrDefault(name, MissingNode.getInstance());
      assertThat(p.isMissingNode()).as("metadata of " + name + " is missing").isFalse();
      assertThat(p.path("description").asText()).as(name).isEqualTo(s.description());
      assertThat(p.path("type").asText()).as(name).isEqualTo(s.type().getName());
      if (s.defaultValue() == null) {
        assertThat(p.has("defaultValue")).as(name + " has no default").isFalse();
      } else if (s.defaultValue() instanceof Boolean b) {
        assertThat(p.path("defaultValue").isBoolean()).as(name + " has a boolean default").isTrue();
        assertThat(p.path("defaultValue").asBoolean()).as(name).isEqualTo(b);
      } else {
        assertThat(p.path("defaultValue").asDouble()).as(name).isEqualTo(s.defaultValue());
      }
    }
  }

  private static SettingException settingFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SettingException e) {
        return e;
      }
    }
    throw new AssertionError("no SettingException in " + failure, failure);
  }
}

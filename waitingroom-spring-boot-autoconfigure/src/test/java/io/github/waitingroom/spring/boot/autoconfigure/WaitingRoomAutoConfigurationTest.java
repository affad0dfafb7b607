package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.redis.RedisTransport;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.github.waitingroom.spring.boot.actuate.WaitingRoomEndpoint;
import io.github.waitingroom.spring.boot.actuate.WaitingRoomHealthIndicator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import io.github.waitingroom.http.SettingException;
import org.springframework.boot.context.properties.source.MutuallyExclusiveConfigurationPropertiesException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import io.github.waitingroom.testsupport.LocalRedis;
import io.github.waitingroom.testsupport.FreePorts;

/** The auto-configuration's beans, conditions and startup errors, without a server. */
@ExtendWith(OutputCaptureExtension.class)
class WaitingRoomAutoConfigurationTest {
  private static final String[] VALID = {
    "waitingroom.room-id=unit",
    "waitingroom.total-active-users=10",
    "waitingroom.new-users-per-minute=5",
    "waitingroom.session-duration=10m",
    "waitingroom.keyset.generate-ephemeral=true"
  };

  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  WaitingRoomAutoConfiguration.class,
                  WaitingRoomServletAutoConfiguration.class,
                  WaitingRoomEndpointAutoConfiguration.class,
                  EndpointAutoConfiguration.class))
          // Boot creates an endpoint's bean only when the endpoint is exposed.
          .withPropertyValues("management.endpoints.web.exposure.include=waitingroom");

  @Test
  void propertiesMakeTheRoomAndItsFilter() {
    runner
        .withPropertyValues(VALID)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              RoomConfig config = context.getBean(WaitingRoom.class).config();
              assertThat(config.roomId()).isEqualTo("unit");
              assertThat(config.totalActiveUsers()).isEqualTo(10);
              assertThat(config.newUsersPerMinute()).isEqualTo(5);
              assertThat(config.sessionDuration()).isEqualTo(Duration.ofMinutes(10));
              FilterRegistrationBean<?> registration =
                  context.getBean(WaitingRoomServletAutoConfiguration.REGISTRATION_BEAN, FilterRegistrationBean.class);
              assertThat(registration.getOrder()).isEqualTo(-99);
              assertThat(registration.getUrlPatterns()).containsExactly("/*");
              assertThat(context).hasSingleBean(WaitingRoomEndpoint.class);
              // Opt-in only: see WaitingRoomHealthIndicator.
              assertThat(context).doesNotHaveBean(WaitingRoomHealthIndicator.class);
            });
  }

  @Test
  void enabledFalseSwitchesTheRoomOffAndNeedsNoOtherSetting() {
    runner
        .withPropertyValues("waitingroom.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(WaitingRoom.class);
              assertThat(context).doesNotHaveBean(WaitingRoomServletAutoConfiguration.REGISTRATION_BEAN);
              assertThat(context).doesNotHaveBean(WaitingRoomEndpoint.class);
            });
  }

  @Test
  void backsOffWhenTheApplicationDefinesItsOwnRoom() {
    runner
        .withUserConfiguration(OwnRoom.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(WaitingRoom.class);
              assertThat(context.getBean(WaitingRoom.class).config().roomId()).isEqualTo("own");
              // The filter and the endpoint serve the application's room.
              assertThat(context).hasBean(WaitingRoomServletAutoConfiguration.REGISTRATION_BEAN);
              assertThat(context).hasSingleBean(WaitingRoomEndpoint.class);
            });
  }

  @Test
  void backsOffWhenTheApplicationDefinesItsOwnRoomConfig() {
    runner
        .withUserConfiguration(OwnConfig.class)
        .withPropertyValues("waitingroom.keyset.generate-ephemeral=true")
        .run(context -> assertThat(context.getBean(WaitingRoom.class).config().roomId()).isEqualTo("own-config"));
  }

  @Test
  void furtherRoomsComeFromWaitingroomRoomsAndTheMainRoomOnlyWhenItIsConfigured() {
    runner
        .withPropertyValues(
            "waitingroom.keyset.generate-ephemeral=true",
            "waitingroom.rooms.drop.path-prefix=/drop",
            "waitingroom.rooms.drop.total-active-users=10",
            "waitingroom.rooms.drop.new-users-per-minute=5",
            "waitingroom.rooms.drop.session-duration=1m",
            "waitingroom.rooms.shop.room-id=shop-eu",
            "waitingroom.rooms.shop.path-prefix=/shop",
            "waitingroom.rooms.shop.total-active-users=500",
            "waitingroom.rooms.shop.new-users-per-minute=100",
            "waitingroom.rooms.shop.session-duration=10m",
            "waitingroom.rooms.shop.page-template=classpath:static/about.html")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(WaitingRoom.class);
              WaitingRooms rooms = context.getBean(WaitingRooms.class);
              assertThat(rooms.asMap()).containsOnlyKeys("drop", "shop");
              WaitingRoom drop = java.util.Objects.requireNonNull(rooms.get("drop"));
              WaitingRoom shop = java.util.Objects.requireNonNull(rooms.get("shop"));
              assertThat(drop.config().roomId()).isEqualTo("drop");
              assertThat(drop.config().totalActiveUsers()).isEqualTo(10);
              assertThat(shop.config().roomId()).isEqualTo("shop-eu");
              assertThat(shop.config().sessionDuration()).isEqualTo(Duration.ofMinutes(10));
              assertThat(context).hasBean(WaitingRoomServletAutoConfiguration.REGISTRATION_BEAN);
              WaitingRoomEndpoint endpoint = context.getBean(WaitingRoomEndpoint.class);
              assertThat(endpoint.status()).isNull();
              WaitingRoomEndpoint.RoomStatus dropStatus = endpoint.room("drop");
              assertThat(dropStatus).isNotNull();
              assertThat(java.util.Objects.requireNonNull(dropStatus).roomId()).isEqualTo("drop");
            });
    // The single-room properties next to them make the main room as before.
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "waitingroom.rooms.drop.path-prefix=/drop",
            "waitingroom.rooms.drop.total-active-users=1",
            "waitingroom.rooms.drop.new-users-per-minute=1",
            "waitingroom.rooms.drop.session-duration=1m")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(WaitingRoom.class).config().roomId()).isEqualTo("unit");
              assertThat(context.getBean(WaitingRooms.class).asMap()).containsOnlyKeys("drop");
            });
  }

  @Test
  void aBadSettingOfAFurtherRoomFailsStartupNamingItsProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "waitingroom.rooms.drop.total-active-users=1",
            "waitingroom.rooms.drop.session-duration=1m")
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.rooms.drop.new-users-per-minute"));
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "waitingroom.rooms.drop.path-prefix=drop",
            "waitingroom.rooms.drop.total-active-users=1",
            "waitingroom.rooms.drop.new-users-per-minute=1",
            "waitingroom.rooms.drop.session-duration=1m")
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.rooms.drop.path-prefix"));
  }

  @Test
  void aMissingLimitFailsStartupNamingTheProperty() {
    runner
        .withPropertyValues("waitingroom.total-active-users=10", "waitingroom.session-duration=10m", "waitingroom.keyset.generate-ephemeral=true")
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.new-users-per-minute"));
  }

  @Test
  void aNegativeLimitFailsStartupNamingThePropertyAndValue() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.total-active-users=-5")
        .run(
            context -> {
              assertThat(invalidProperty(context)).isEqualTo("waitingroom.total-active-users");
              assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("-5");
            });
  }

  @Test
  void aBadRoomIdFailsStartupNamingTheProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.room-id=no spaces please")
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.room-id"));
  }

  @Test
  void aValueOfTheWrongTypeFailsStartupNamingTheProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.session-duration=a while")
        .run(
            context -> {
              assertThat(context).hasFailed();
              Throwable t = context.getStartupFailure();
              while (t != null && !(t instanceof BindException)) {
                t = t.getCause();
              }
              if (!(t instanceof BindException bind)) {
                throw new AssertionError("no BindException in " + context.getStartupFailure());
              }
              assertThat(bind.getName().toString()).isEqualTo("waitingroom.session-duration");
            });
  }

  @Test
  void aBadIgnorePathFailsStartupNamingTheProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.ignore-paths=/ok,no-slash")
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.ignore-paths"));
  }

  @Test
  void aBadCookieCombinationFailsStartupNamingTheProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.cookie.same-site=none", "waitingroom.cookie.secure=never")
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.cookie.same-site"));
  }

  private static final String[] LIMITS = {
    "waitingroom.total-active-users=10", "waitingroom.new-users-per-minute=5", "waitingroom.session-duration=10m"
  };

  @Test
  void noKeysetOnTheInMemoryStoreRunsOnAGeneratedKeysetAndSaysSo(CapturedOutput output) {
    // Spring Security's generated password: safe for one JVM, so the application starts, and the
    // log says at WARN what happened and what to set in production.
    runner
        .withPropertyValues(LIMITS)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              WaitingRoom room = context.getBean(WaitingRoom.class);
              // The generated keyset works: a ticket the room sealed opens again.
              String ticket = room.decide(null).ticket();
              assertThat(ticket).isNotNull();
              assertThat(room.decide(ticket).letsThrough()).isTrue();
            });
    assertThat(output.getOut() + output.getErr())
        .containsPattern("WARN .*waiting room 'default': no keyset source is configured, so this JVM seals tickets with a GENERATED keyset")
        .contains("in production set waitingroom.keyset.env");
  }

  @Test
  void anUnsetKeysetVariableOnTheInMemoryStoreRunsOnAGeneratedKeysetNamingTheVariable(CapturedOutput output) {
    // As on a CI machine without the secret: the application's own tests keep running.
    runner
        .withPropertyValues(LIMITS)
        .withPropertyValues("waitingroom.keyset.env=WR_TEST_KEYSET_THAT_IS_NOT_SET")
        .run(context -> assertThat(context).hasNotFailed());
    assertThat(output.getOut() + output.getErr())
        .containsPattern("WARN .*the environment variable WR_TEST_KEYSET_THAT_IS_NOT_SET \\(waitingroom.keyset.env\\) is not set, so this JVM seals tickets with a GENERATED keyset");
  }

  @Test
  void noKeysetWithASharedStoreFailsStartupNamingTheProperty() throws Exception {
    runner
        .withPropertyValues(LIMITS)
        .withPropertyValues("waitingroom.store.redis-uri=redis://127.0.0.1:" + FreePorts.closed())
        .run(
            context -> {
              assertThat(invalidProperty(context)).isEqualTo("waitingroom.keyset");
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining("shared with other nodes")
                  .hasMessageContaining("waitingroom.keyset.env");
            });
  }

  @Test
  void anUnsetKeysetVariableWithASharedStoreFailsStartupNamingTheProperty() throws Exception {
    runner
        .withPropertyValues(LIMITS)
        .withPropertyValues(
            "waitingroom.keyset.env=WR_TEST_KEYSET_THAT_IS_NOT_SET",
            "waitingroom.store.redis-uri=redis://127.0.0.1:" + FreePorts.closed())
        .run(
            context -> {
              assertThat(invalidProperty(context)).isEqualTo("waitingroom.keyset.env");
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining("the environment variable WR_TEST_KEYSET_THAT_IS_NOT_SET (waitingroom.keyset.env) is not set");
            });
  }

  @Test
  void theApplicationsOwnTransportCountsAsASharedStoreAndNeedsAKeyset() {
    // A Transport bean of the application's own is, as far as the starter can tell, shared.
    io.github.waitingroom.coordinator.InMemoryTransport memory = new io.github.waitingroom.coordinator.InMemoryTransport();
    runner
        .withPropertyValues(LIMITS)
        .withBean(io.github.waitingroom.coordinator.Transport.class, () -> memory::exchange)
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.keyset"));
  }

  @Test
  void aMissingKeysetFileOrResourceCountsAsNoKeyset(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("no-such-keyset.json");
    runner
        .withPropertyValues(LIMITS)
        .withPropertyValues("waitingroom.keyset.file=" + missing)
        .run(context -> assertThat(context).hasNotFailed());
    runner
        .withPropertyValues(LIMITS)
        .withPropertyValues(
            "waitingroom.keyset.resource=classpath:no-such-keyset.json",
            "waitingroom.store.redis-uri=redis://127.0.0.1:" + FreePorts.closed())
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.keyset.resource"));
  }

  @Test
  void generateEphemeralFalseNeverGenerates() {
    runner
        .withPropertyValues(LIMITS)
        .withPropertyValues("waitingroom.keyset.generate-ephemeral=false")
        .run(
            context -> {
              assertThat(invalidProperty(context)).isEqualTo("waitingroom.keyset");
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining("waitingroom.keyset.generate-ephemeral is false");
            });
  }

  @Test
  void twoKeysetSourcesFailStartupNamingBoth(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    Files.writeString(file, TicketKeys.toJson(TicketKeys.generate()));
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.keyset.file=" + file, "waitingroom.keyset.resource=file:" + file)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(MutuallyExclusiveConfigurationPropertiesException.class);
              MutuallyExclusiveConfigurationPropertiesException e =
                  (MutuallyExclusiveConfigurationPropertiesException) rootCause(context.getStartupFailure());
              assertThat(e.getConfiguredNames())
                  .containsExactlyInAnyOrder("waitingroom.keyset.file", "waitingroom.keyset.resource");
            });
  }

  @Test
  void keysetFromAFileAResourceOrAnEnvironmentVariableSealsTicketsTheOthersOpen(@TempDir Path dir)
      throws Exception {
    String json = TicketKeys.toJson(TicketKeys.generate());
    Path file = dir.resolve("keyset.json");
    Files.writeString(file, json);
    String[] room = {
      "waitingroom.room-id=unit", "waitingroom.total-active-users=10", "waitingroom.new-users-per-minute=5", "waitingroom.session-duration=10m"
    };
    java.util.concurrent.atomic.AtomicReference<@org.jspecify.annotations.Nullable String> ticket = new java.util.concurrent.atomic.AtomicReference<>();
    runner
        .withPropertyValues(room)
        .withPropertyValues("waitingroom.keyset.file=" + file)
        .run(context -> ticket.set(context.getBean(WaitingRoom.class).decide(null).ticket()));
    String sealed = ticket.get();
    assertThat(sealed).isNotNull();
    // The same keyset from a Spring resource and from an environment variable opens that ticket:
    // an active ticket passes without being re-issued as a new arrival.
    runner
        .withPropertyValues(room)
        .withPropertyValues("waitingroom.keyset.resource=file:" + file)
        .run(context -> assertThat(context.getBean(WaitingRoom.class).decide(sealed).letsThrough()).isTrue());
    runner
        .withPropertyValues(room)
        .withPropertyValues("waitingroom.keyset.env=WR_TEST_KEYSET", "WR_TEST_KEYSET=" + json)
        .run(context -> assertThat(context.getBean(WaitingRoom.class).decide(sealed).letsThrough()).isTrue());
  }

  @Test
  void aFileThatIsNotAKeysetFailsStartupNamingTheProperty(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    Files.writeString(file, "{\"not\": \"a keyset\"}");
    runner
        .withPropertyValues("waitingroom.total-active-users=10", "waitingroom.new-users-per-minute=5", "waitingroom.session-duration=10m")
        .withPropertyValues("waitingroom.keyset.file=" + file)
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.keyset.file"));
  }

  @Test
  void aRedisUriMakesTheRoomShareARealRedis() {
    LocalRedis.require();
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "waitingroom.store.redis-uri=redis://127.0.0.1:6379",
            "waitingroom.store.key-prefix=wr-test:boot:" + System.nanoTime() + ":")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(RedisTransport.class);
              // The room's first sync ran in build(): it reached Redis.
              assertThat(context.getBean(WaitingRoom.class).transportFailing()).isFalse();
            });
  }

  @Test
  void aRedisUriThatIsNotOneFailsStartupNamingTheProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.store.redis-uri=http://user:secret@example.com")
        .run(
            context -> {
              assertThat(invalidProperty(context)).isEqualTo("waitingroom.store.redis-uri");
              assertThat(context.getStartupFailure()).rootCause().message().doesNotContain("secret");
            });
  }

  @Test
  void aRedisUriWithoutTheRedisModuleFailsInsteadOfSilentlyStayingInMemory() {
    runner
        .withClassLoader(new FilteredClassLoader(RedisTransport.class))
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.store.redis-uri=redis://127.0.0.1:6379")
        .run(context -> assertThat(invalidProperty(context)).isEqualTo("waitingroom.store.redis-uri"));
  }

  @Test
  void withoutActuatorTheRoomStillStartsWithoutEndpoint() {
    new WebApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                WaitingRoomAutoConfiguration.class,
                WaitingRoomServletAutoConfiguration.class,
                WaitingRoomEndpointAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader(Endpoint.class))
        .withPropertyValues(VALID)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(WaitingRoom.class);
              assertThat(context).doesNotHaveBean(WaitingRoomEndpoint.class);
            });
  }

  @Test
  void theHealthIndicatorIsOptInAndReportsTheStore() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("management.health.waitingroom.enabled=true")
        .run(
            context -> {
              WaitingRoomHealthIndicator health = context.getBean(WaitingRoomHealthIndicator.class);
              assertThat(health.health().getStatus()).isEqualTo(Status.UP);
              assertThat(health.health().getDetails()).containsEntry("room", "unit").containsEntry("storeFailing", false);
            });
  }

  @Test
  void theHealthIndicatorIsDownWhileTheStoreCannotBeReached() throws Exception {
    int closedPort = FreePorts.closed();
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "management.health.waitingroom.enabled=true",
            "waitingroom.store.redis-uri=redis://127.0.0.1:" + closedPort,
            "waitingroom.store.command-timeout=200ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(health(context).getStatus()).isEqualTo(Status.DOWN);
            });
  }

  @Test
  void theHealthIndicatorReportsEveryRoomOnTheRealStore() {
    LocalRedis.require();
    String prefix = "wr-test:health:" + java.util.UUID.randomUUID().toString().substring(0, 8) + ":";
    try {
      runner
          .withPropertyValues(VALID)
          .withPropertyValues(
              "management.health.waitingroom.enabled=true",
              "waitingroom.store.redis-uri=redis://127.0.0.1:6379",
              "waitingroom.store.key-prefix=" + prefix,
              "waitingroom.rooms.drop.path-prefix=/drop",
              "waitingroom.rooms.drop.total-active-users=1",
              "waitingroom.rooms.drop.new-users-per-minute=1",
              "waitingroom.rooms.drop.session-duration=5m",
              "waitingroom.rooms.api.room-id=shop-api",
              "waitingroom.rooms.api.path-prefix=/api",
              "waitingroom.rooms.api.total-active-users=3",
              "waitingroom.rooms.api.new-users-per-minute=3",
              "waitingroom.rooms.api.session-duration=5m")
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                org.springframework.boot.actuate.health.Health health =
                    health(context);
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails())
                    .containsEntry("room", "unit")
                    .containsEntry("storeFailing", false)
                    .containsEntry(
                        "rooms",
                        java.util.Map.of(
                            "drop", java.util.Map.of("room", "drop", "storeFailing", false, "plansStalled", false),
                            "api", java.util.Map.of("room", "shop-api", "storeFailing", false, "plansStalled", false)));
              });
    } finally {
      LocalRedis.deleteKeys(prefix);
    }
  }

  @Test
  void theHealthIndicatorCoversFurtherRoomsWithoutAMainRoom() throws Exception {
    int closedPort = FreePorts.closed();
    runner
        .withPropertyValues(
            "management.health.waitingroom.enabled=true",
            "waitingroom.keyset.generate-ephemeral=true",
            "waitingroom.store.redis-uri=redis://127.0.0.1:" + closedPort,
            "waitingroom.store.command-timeout=200ms",
            "waitingroom.rooms.drop.path-prefix=/drop",
            "waitingroom.rooms.drop.total-active-users=1",
            "waitingroom.rooms.drop.new-users-per-minute=1",
            "waitingroom.rooms.drop.session-duration=5m",
            "waitingroom.rooms.shop.path-prefix=/shop",
            "waitingroom.rooms.shop.total-active-users=1",
            "waitingroom.rooms.shop.new-users-per-minute=1",
            "waitingroom.rooms.shop.session-duration=5m")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(WaitingRoom.class);
              org.springframework.boot.actuate.health.Health health =
                  health(context);
              assertThat(health.getStatus()).isEqualTo(Status.DOWN);
              assertThat(health.getDetails())
                  .doesNotContainKey("room");
              @SuppressWarnings("unchecked")
              java.util.Map<String, java.util.Map<String, Object>> rooms =
                  (java.util.Map<String, java.util.Map<String, Object>>) java.util.Objects.requireNonNull(health.getDetails().get("rooms"));
              assertThat(rooms).containsOnlyKeys("drop", "shop");
              for (String name : java.util.List.of("drop", "shop")) {
                // plansStalled too, after 16 epochs: how long start-up took decides
                assertThat(rooms.get(name)).containsEntry("room", name).containsEntry("storeFailing", true);
              }
            });
  }

  @Test
  void theHealthIndicatorIsDownWhenOneRoomOfSeveralLosesItsStore() throws Exception {
    LocalRedis.require();
    int closedPort = FreePorts.closed();
    String prefix = "wr-test:health:" + java.util.UUID.randomUUID().toString().substring(0, 8) + ":";
    // The application's own further rooms, each on a store of its own: the shop's is the real Redis,
    // the drop's is a Redis that is not there.
    RedisTransport reachable = RedisTransport.builder("redis://127.0.0.1:6379").keyPrefix(prefix).build();
    RedisTransport unreachable =
        RedisTransport.builder("redis://127.0.0.1:" + closedPort).commandTimeout(Duration.ofMillis(200)).build();
    try {
      runner
          .withPropertyValues(VALID)
          .withPropertyValues(
              "management.health.waitingroom.enabled=true",
              "waitingroom.store.redis-uri=redis://127.0.0.1:6379",
              "waitingroom.store.key-prefix=" + prefix,
              // The filter guards the application's own rooms too, each on its own prefix.
              "waitingroom.rooms.shop.path-prefix=/shop",
              "waitingroom.rooms.drop.path-prefix=/drop")
          .withBean(
              WaitingRooms.class,
              () ->
                  new WaitingRooms(
                      java.util.Map.of(
                          "shop", roomOn("shop", reachable),
                          "drop", roomOn("drop", unreachable))))
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                org.springframework.boot.actuate.health.Health health =
                    health(context);
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(health.getDetails())
                    .containsEntry("room", "unit")
                    .containsEntry("storeFailing", false)
                    .extractingByKey("rooms", org.assertj.core.api.InstanceOfAssertFactories.MAP)
                    .containsEntry("shop", java.util.Map.of("room", "shop", "storeFailing", false, "plansStalled", false))
                    // whether drop has planned (alone, at start) depends on how long start-up took
                    .extractingByKey("drop", org.assertj.core.api.InstanceOfAssertFactories.MAP)
                    .containsEntry("room", "drop").containsEntry("storeFailing", true);
              });
    } finally {
      reachable.close();
      unreachable.close();
      LocalRedis.deleteKeys(prefix);
    }
  }

  private static WaitingRoom roomOn(String id, RedisTransport transport) {
    return WaitingRoom.builder(
            RoomConfig.builder(id).totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build(),
            TicketKeys.generate())
        .transport(transport)
        .build();
  }

  private static org.springframework.boot.actuate.health.Health health(
      org.springframework.context.ApplicationContext context) {
    return context.getBean(WaitingRoomHealthIndicator.class).health();
  }

  private static String invalidProperty(org.springframework.boot.test.context.assertj.AssertableWebApplicationContext context) {
    assertThat(context).hasFailed();
    Throwable root = rootCause(context.getStartupFailure());
    assertThat(root).isInstanceOf(SettingException.class);
    assertThat(((SettingException) root).source()).isEqualTo(SettingException.Source.PROPERTY);
    return ((SettingException) root).key();
  }

  private static Throwable rootCause(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c;
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnRoom {
    @Bean
    WaitingRoom myRoom() {
      return WaitingRoom.builder(
              RoomConfig.builder("own").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build(),
              TicketKeys.generate())
          .build();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnConfig {
    @Bean
    RoomConfig myConfig() {
      return RoomConfig.builder("own-config").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build();
    }
  }
}

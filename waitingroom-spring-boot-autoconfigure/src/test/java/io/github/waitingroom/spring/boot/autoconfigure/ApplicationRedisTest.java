package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.redis.RedisTransport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * The room's store in the application's own Redis, on the real Redis at 127.0.0.1:6379: a
 * Lettuce client bean, or Spring Data Redis's connection factory, instead of {@code
 * waitingroom.store.redis-uri}. Every context uses a key prefix of its own.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApplicationRedisTest {
  private final String prefix = "wr-test:app-redis:" + UUID.randomUUID().toString().substring(0, 8) + ":";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class, WaitingRoomAutoConfiguration.class))
          .withPropertyValues(
              "waitingroom.room-id=app-redis",
              "waitingroom.total-active-users=10",
              "waitingroom.new-users-per-minute=5",
              "waitingroom.session-duration=10m",
              "waitingroom.keyset.generate-ephemeral=true",
              "waitingroom.store.key-prefix=" + prefix,
              "spring.data.redis.host=127.0.0.1",
              "spring.data.redis.port=6379");

  @BeforeEach
  void requireRedis() {
    LocalRedis.require();
  }

  @Test
  void springDataRedisConnectionFactoryBecomesTheStore() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(LettuceConnectionFactory.class);
          assertThat(context.getBean(Transport.class))
              .isInstanceOf(RedisTransport.class)
              .hasToString("RedisTransport[the application's RedisClient, prefix=" + prefix + "]");
          // The room's first sync ran when it was built: it reached Redis, and wrote its report there.
          WaitingRoom room = context.getBean(WaitingRoom.class);
          assertThat(room.transportFailing()).isFalse();
          StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
          assertThat(redis.keys(prefix + "*")).contains(prefix + "{app-redis}:v:global");
          room.close();
          redis.delete(List.copyOf(redis.keys(prefix + "*")));
        });
  }

  @Test
  void theRoomStopsSyncingBeforeSpringDataRedisStopsItsClient(CapturedOutput output) {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          WaitingRoom room = context.getBean(WaitingRoom.class);
          LettuceConnectionFactory factory = context.getBean(LettuceConnectionFactory.class);
          assertThat(context.getBean(WaitingRoomAutoConfiguration.SyncStopsBeforeRedis.class).getPhase())
              .isGreaterThan(factory.getPhase());
          // Let the background sync run (its first plans), then close the context while it does.
          long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
          while (room.status().planEpoch() == Long.MIN_VALUE) {
            assertThat(System.nanoTime()).as("the room's first plan").isLessThan(deadline);
            Thread.sleep(50);
          }
          StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
          redis.delete(List.copyOf(redis.keys(prefix + "*")));
        });
    // Neither a sync that met the closed client nor the transport closing a closed connection.
    assertThat(output.getAll().lines().filter(l -> l.contains("WARN") && !l.contains("GENERATED keyset")))
        .as("warnings while the context closed")
        .isEmpty();
  }

  @Test
  void aLettuceClientBeanBecomesTheStoreAndOutlivesTheRoom() {
    RedisClient application = RedisClient.create("redis://127.0.0.1:6379");
    try {
      runner
          // The application owns its client: the context must not shut it down here.
          .withBean("applicationRedisClient", RedisClient.class, () -> application, d -> d.setDestroyMethodName(""))
          .run(
              context -> {
                assertThat(context).hasNotFailed();
                // The client bean wins over Spring Data Redis's factory.
                assertThat(context.getBean(Transport.class))
                    .hasToString("RedisTransport[the application's RedisClient, prefix=" + prefix + "]");
                assertThat(context.getBean(WaitingRoom.class).transportFailing()).isFalse();
              });
      // The room and its transport are gone; the application's client still works.
      try (StatefulRedisConnection<String, String> c = application.connect()) {
        List<String> keys = c.sync().keys(prefix + "*");
        assertThat(keys).contains(prefix + "{app-redis}:v:global");
        c.sync().del(keys.toArray(String[]::new));
      }
    } finally {
      application.shutdown();
    }
  }

  @Test
  void aRedisUriStillWins() {
    runner
        .withPropertyValues("waitingroom.store.redis-uri=redis://127.0.0.1:6379")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(Transport.class)).hasToString("RedisTransport[redis://127.0.0.1:6379, prefix=" + prefix + "]");
              context.getBean(WaitingRoom.class).close();
              StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
              redis.delete(List.copyOf(redis.keys(prefix + "*")));
            });
  }

  @Test
  void applicationRedisFalseKeepsTheRoomInMemory() {
    runner
        .withPropertyValues("waitingroom.store.application-redis=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(WaitingRoom.class).doesNotHaveBean(Transport.class);
            });
  }

  @Test
  void withoutTheRedisModuleTheRoomStaysInMemory() {
    runner
        .withClassLoader(new FilteredClassLoader(RedisTransport.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(LettuceConnectionFactory.class);
              assertThat(context).hasSingleBean(WaitingRoom.class).doesNotHaveBean(Transport.class);
            });
  }

  @Test
  void anApplicationWithoutRedisKeepsTheRoomInMemory() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(WaitingRoomAutoConfiguration.class))
        .withPropertyValues(
            "waitingroom.total-active-users=10",
            "waitingroom.new-users-per-minute=5",
            "waitingroom.session-duration=10m",
            "waitingroom.keyset.generate-ephemeral=true")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(WaitingRoom.class).doesNotHaveBean(Transport.class);
            });
  }
}

package io.github.waitingroom.spring.boot.autoconfigure;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.http.AdaptiveLimitSettings;
import io.github.waitingroom.http.SettingException;
import io.github.waitingroom.redis.RedisTransport;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Auto-configuration of the {@link WaitingRoom} from {@code waitingroom.*} properties: its
 * {@link RoomConfig}, its ticket keyset and its store: a {@link RedisTransport} to {@code
 * waitingroom.store.redis-uri} when it is set; else, with waitingroom-redis on the classpath, a
 * {@link RedisTransport} over the application's own Redis (a Lettuce client bean, or Spring Data
 * Redis's {@code LettuceConnectionFactory}; see {@link ApplicationRedisConfiguration}); else, with
 * waitingroom-postgres on the classpath, a {@code PostgresTransport} over the application's own
 * {@code DataSource} (see {@link ApplicationDataSourceConfiguration}); else the room's own
 * in-memory store. Further rooms from {@code waitingroom.rooms.<name>.*} come as one
 * {@link WaitingRooms} bean; they share the keyset, the store and the node settings. Each bean
 * backs off when the application defines its own. {@code waitingroom.enabled=false} turns all of
 * it off.
 *
 * <p>The servlet filter comes from {@link WaitingRoomServletAutoConfiguration}, Actuator support
 * from {@link WaitingRoomEndpointAutoConfiguration}. The keyset is read by {@code KeysetLoader},
 * and every property reaches its builder through {@code PropertyChecks}, which names it in errors.
 */
// After Spring Data Redis's connection factory and Spring Boot's DataSource (Boot 3, and Boot 4 under
// its names), to reuse them.
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.RedisAutoConfiguration",
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"
    })
@ConditionalOnClass(WaitingRoom.class)
@ConditionalOnProperty(prefix = "waitingroom", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(WaitingRoomProperties.class)
public class WaitingRoomAutoConfiguration {
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomAutoConfiguration.class);
  /** The property prefix of the main room. */
  static final String MAIN_ROOM = "waitingroom.";

  /** Creates the auto-configuration; Spring calls it. */
  public WaitingRoomAutoConfiguration() {}

  /**
   * The room's limits from {@code waitingroom.room-id}, {@code total-active-users}, {@code
   * new-users-per-minute}, {@code session-duration} and the optional widths. Not made when the
   * application defines its own {@link WaitingRoom}, which then needs no room properties.
   */
  @Bean
  @ConditionalOnMissingBean({RoomConfig.class, WaitingRoom.class})
  @Conditional(RoomConditions.MainRoom.class)
  public RoomConfig waitingRoomConfig(WaitingRoomProperties p) {
    return roomConfig(MAIN_ROOM, p, "default");
  }

  /**
   * The room, with the application's {@link Transport} bean as its store when there is one (see
   * {@link RedisStoreConfiguration}), else its own in-memory store. Closed with the context.
   */
  @Bean
  @ConditionalOnMissingBean
  @Conditional(RoomConditions.MainRoom.class)
  public WaitingRoom waitingRoom(
      WaitingRoomProperties p, RoomConfig config, ObjectProvider<Transport> transports, Environment environment) {
    return room(p, config, transports.getIfUnique(), environment);
  }

  /**
   * The further rooms of {@code waitingroom.rooms.<name>.*}, each with the main room's keyset,
   * store and node settings, and its own limits. Closed with the context.
   */
  @Bean
  @ConditionalOnMissingBean
  @Conditional(RoomConditions.NamedRooms.class)
  public WaitingRooms waitingRooms(
      WaitingRoomProperties p, ObjectProvider<Transport> transports, Environment environment) {
    Map<String, WaitingRoom> rooms = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, RoomProperties> e : p.getRooms().entrySet()) {
        RoomConfig config = roomConfig(namedRoom(e.getKey()), e.getValue(), e.getKey());
        rooms.put(e.getKey(), room(p, config, transports.getIfUnique(), environment));
      }
    } catch (RuntimeException e) {
      rooms.values().forEach(WaitingRoom::close); // a bad room must leave no sync thread behind
      throw e;
    }
    return new WaitingRooms(rooms);
  }

  /** The property prefix of a further room: {@code waitingroom.rooms.<name>.}. */
  static String namedRoom(String name) {
    return "waitingroom.rooms." + name + ".";
  }

  /**
   * A room's limits from {@code room-id}, {@code total-active-users}, {@code new-users-per-minute},
   * {@code session-duration}, the optional widths and the optional {@code adaptive-limit.*} under
   * {@code prefix}.
   */
  private static RoomConfig roomConfig(String prefix, RoomProperties r, String defaultId) {
    String id = r.getRoomId();
    String roomId = id != null ? id : defaultId;
    RoomConfig.Builder b = PropertyChecks.check(prefix + "room-id", roomId, RoomConfig::builder);
    PropertyChecks.set(prefix + "total-active-users", PropertyChecks.required(prefix + "total-active-users", r.getTotalActiveUsers()), b::totalActiveUsers);
    PropertyChecks.set(prefix + "new-users-per-minute", PropertyChecks.required(prefix + "new-users-per-minute", r.getNewUsersPerMinute()), b::newUsersPerMinute);
    PropertyChecks.set(prefix + "session-duration", PropertyChecks.required(prefix + "session-duration", r.getSessionDuration()), b::sessionDuration);
    PropertyChecks.setIfGiven(prefix + "bucket-width", r.getBucketWidth(), b::bucketWidth);
    PropertyChecks.setIfGiven(prefix + "slice-width", r.getSliceWidth(), b::sliceWidth);
    PropertyChecks.setIfGiven(prefix + "refresh-interval", r.getRefreshInterval(), b::refreshInterval);
    PropertyChecks.setIfGiven(prefix + "waiting-timeout", r.getWaitingTimeout(), b::waitingTimeout);
    RoomProperties.AdaptiveLimitProperties a = r.getAdaptiveLimit();
    AdaptiveLimit adaptive = AdaptiveLimitSettings.of(a.getMin(), a.getMax(), a.getLatency(), a.getStep(),
        a.getFailureShare(), a.getScaleNewUsersPerMinute(), SettingException.Source.PROPERTY, s -> prefix + s.property());
    if (adaptive != null) {
      b.adaptiveLimit(adaptive);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      // A combination of settings (for example a slice width that does not divide the session).
      throw PropertyChecks.invalid(
          prefix.substring(0, prefix.length() - 1), roomId, String.valueOf(e.getMessage()));
    }
  }

  /** A room with the application's keyset, store and node settings. */
  private static WaitingRoom room(
      WaitingRoomProperties p, RoomConfig config, @Nullable Transport transport, Environment environment) {
    KeysetHandle keys = KeysetLoader.load(p.getKeyset(), config.roomId(), transport != null && !(transport instanceof InMemoryTransport), environment);
    WaitingRoom.Builder b = WaitingRoom.builder(config, keys);
    String redisUri = p.getStore().getRedisUri();
    if (transport == null && redisUri != null && !redisUri.isBlank()) {
      throw PropertyChecks.invalid(
          "waitingroom.store.redis-uri",
          "(hidden)",
          "the Redis store needs io.github.waitingroom:waitingroom-redis on the classpath");
    }
    if (transport != null) {
      b.transport(transport);
    }
    PropertyChecks.setIfGiven("waitingroom.node-id", p.getNodeId(), b::nodeId);
    PropertyChecks.setIfGiven("waitingroom.data-center", p.getDataCenter(), b::dataCenter);
    PropertyChecks.setIfGiven("waitingroom.sync-interval", p.getSyncInterval(), b::syncInterval);
    PropertyChecks.setIfGiven("waitingroom.max-requests-per-ticket", p.getMaxRequestsPerTicket(), b::maxRequestsPerTicket);
    PropertyChecks.setIfGiven("waitingroom.store-budget", p.getStoreBudget(), b::storeBudget);
    b.failurePolicy(p.getFailurePolicy());
    WaitingRoom room = b.build();
    AdaptiveLimit adaptive = config.adaptiveLimit();
    log.info(
        "waiting room '{}': {} active users{}, {} new users per minute, store {}, {}",
        config.roomId(),
        config.totalActiveUsers(),
        adaptive == null ? "" : " (adaptive: " + adaptive.min() + " to " + adaptive.max() + ", 90 % within "
            + adaptive.latency() + ")",
        config.newUsersPerMinute(),
        transport == null ? "in memory (this JVM only)" : transport,
        p.getFailurePolicy());
    return room;
  }

  /**
   * The Redis store, when {@code waitingroom.store.redis-uri} is set and waitingroom-redis is on
   * the classpath. Backs off when the application defines its own {@link Transport}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(RedisTransport.class)
  @ConditionalOnProperty(prefix = "waitingroom.store", name = "redis-uri")
  static class RedisStoreConfiguration {
    // Here, not in the outer class: its methods must not name waitingroom-redis types, or
    // introspecting it fails on a classpath without them.
    static RedisTransport redisTransport(WaitingRoomProperties.Store s, RedisTransport.Builder b) {
      PropertyChecks.setIfGiven("waitingroom.store.key-prefix", s.getKeyPrefix(), b::keyPrefix);
      PropertyChecks.setIfGiven("waitingroom.store.command-timeout", s.getCommandTimeout(), b::commandTimeout);
      return b.build();
    }

    @Bean
    @ConditionalOnMissingBean(Transport.class)
    RedisTransport waitingRoomRedisTransport(WaitingRoomProperties p) {
      WaitingRoomProperties.Store s = p.getStore();
      String uri = PropertyChecks.required("waitingroom.store.redis-uri", s.getRedisUri());
      RedisTransport.Builder b;
      try {
        b = RedisTransport.builder(uri);
      } catch (IllegalArgumentException e) {
        // The URI may hold a password: the transport's own message redacts it, the value is not shown.
        throw PropertyChecks.invalid("waitingroom.store.redis-uri", "(hidden)", String.valueOf(e.getMessage()));
      }
      try {
        return redisTransport(s, b);
      } catch (IllegalArgumentException e) {
        throw PropertyChecks.invalid("waitingroom.store.redis-uri", "(hidden)", String.valueOf(e.getMessage()));
      }
    }
  }

  /**
   * The application's own Redis as the store, when {@code waitingroom.store.redis-uri} is not set,
   * waitingroom-redis is on the classpath and {@code waitingroom.store.application-redis} is not
   * {@code false}: the room's transport opens its own connection through the application's Lettuce
   * client, so it shares the application's address, credentials, TLS settings and threads, and
   * needs no second copy of them. The client is, in order: the application's single {@link
   * AbstractRedisClient} bean ({@link RedisClient} or {@link RedisClusterClient}), else the client
   * of Spring Data Redis's single {@code LettuceConnectionFactory} ({@code spring.data.redis.*}).
   * {@code waitingroom.store.key-prefix} and {@code command-timeout} apply. Backs off when the
   * application defines its own {@link Transport}.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({RedisTransport.class, AbstractRedisClient.class})
  @ConditionalOnProperty(prefix = "waitingroom.store", name = "application-redis", havingValue = "true", matchIfMissing = true)
  @Conditional(NoRedisUri.class)
  static class ApplicationRedisConfiguration {
    @Bean
    @ConditionalOnMissingBean(Transport.class)
    @ConditionalOnSingleCandidate(AbstractRedisClient.class)
    RedisTransport waitingRoomApplicationRedisTransport(AbstractRedisClient client, WaitingRoomProperties p) {
      try {
        return RedisStoreConfiguration.redisTransport(p.getStore(), RedisTransport.builder(client));
      } catch (IllegalArgumentException e) {
        throw PropertyChecks.invalid(
            "waitingroom.store.application-redis", true, e.getMessage() + "; set waitingroom.store.redis-uri instead");
      }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory")
    @ConditionalOnMissingBean({Transport.class, AbstractRedisClient.class})
    @ConditionalOnSingleCandidate(LettuceConnectionFactory.class)
    static class SpringDataRedisConfiguration {
      @Bean
      RedisTransport waitingRoomSpringDataRedisTransport(LettuceConnectionFactory factory, WaitingRoomProperties p) {
        return RedisStoreConfiguration.redisTransport(p.getStore(), RedisTransport.builder(factory.getRequiredNativeClient()));
      }

      @Bean
      SyncStopsBeforeRedis waitingRoomSyncStopsBeforeRedis(ObjectProvider<WaitingRoom> rooms, LettuceConnectionFactory factory) {
        return new SyncStopsBeforeRedis(rooms, factory.getPhase() + 1);
      }
    }
  }

  /**
   * The application's PostgreSQL as the store, when waitingroom-postgres is on the classpath, the
   * application has a single {@link DataSource}, no Redis store applies ({@code
   * waitingroom.store.redis-uri} not set, no application Redis taken) and {@code
   * waitingroom.store.application-data-source} is not {@code false}: a {@link
   * io.github.waitingroom.postgres.PostgresTransport} on the application's connection pool, in
   * {@code waitingroom.store.postgres-table}, created at the first sync unless {@code
   * postgres-schema-managed} says the application creates it. Backs off when the application
   * defines its own {@link Transport}. The room is closed before the pool: it depends on it.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.github.waitingroom.postgres.PostgresTransport")
  @ConditionalOnProperty(prefix = "waitingroom.store", name = "application-data-source", havingValue = "true", matchIfMissing = true)
  @Conditional(NoRedisUri.class)
  static class ApplicationDataSourceConfiguration {
    @Bean
    @ConditionalOnMissingBean(Transport.class)
    @ConditionalOnSingleCandidate(DataSource.class)
    io.github.waitingroom.postgres.PostgresTransport waitingRoomPostgresTransport(DataSource dataSource, WaitingRoomProperties p) {
      WaitingRoomProperties.Store s = p.getStore();
      io.github.waitingroom.postgres.PostgresTransport.Builder b =
          io.github.waitingroom.postgres.PostgresTransport.builder(dataSource).schemaManagedByApplication(s.isPostgresSchemaManaged());
      PropertyChecks.setIfGiven("waitingroom.store.postgres-table", s.getPostgresTable(), b::table);
      return b.build();
    }
  }

  /**
   * Stops the rooms' background sync one lifecycle phase before Spring Data Redis stops (and
   * shuts down) the client their transport borrows, so that no last sync meets a closed client.
   * The web server has stopped by then; decisions would keep working from the last plan anyway.
   */
  static final class SyncStopsBeforeRedis implements SmartLifecycle {
    private final ObjectProvider<WaitingRoom> rooms;
    private final int phase;
    private volatile boolean running;

    SyncStopsBeforeRedis(ObjectProvider<WaitingRoom> rooms, int phase) {
      this.rooms = rooms;
      this.phase = phase;
    }

    @Override
    public void start() {
      running = true;
    }

    @Override
    public void stop() {
      running = false;
      rooms.orderedStream().forEach(WaitingRoom::close);
    }

    @Override
    public boolean isRunning() {
      return running;
    }

    @Override
    public int getPhase() {
      return phase;
    }
  }

  /** Matches when {@code waitingroom.store.redis-uri} is not set, so the URI always wins. */
  static final class NoRedisUri extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
      return context.getEnvironment().containsProperty("waitingroom.store.redis-uri")
          ? ConditionOutcome.noMatch("waitingroom.store.redis-uri is set")
          : ConditionOutcome.match("waitingroom.store.redis-uri is not set");
    }
  }
}

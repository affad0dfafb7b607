package io.github.waitingroom.spring.boot.autoconfigure;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.http.Keysets;
import io.github.waitingroom.http.SettingException;
import io.github.waitingroom.redis.RedisTransport;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
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
import org.springframework.boot.context.properties.source.MutuallyExclusiveConfigurationPropertiesException;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Auto-configuration of the {@link WaitingRoom} from {@code waitingroom.*} properties: its
 * {@link RoomConfig}, its ticket keyset and its store: a {@link RedisTransport} to {@code
 * waitingroom.store.redis-uri} when it is set; else, with waitingroom-redis on the classpath, a
 * {@link RedisTransport} over the application's own Redis (a Lettuce client bean, or Spring Data
 * Redis's {@code LettuceConnectionFactory}; see {@link ApplicationRedisConfiguration}); else the
 * room's own in-memory store. Further rooms from {@code waitingroom.rooms.<name>.*} come as one
 * {@link WaitingRooms} bean; they share the keyset, the store and the node settings. Each bean
 * backs off when the application defines its own. {@code waitingroom.enabled=false} turns all of
 * it off.
 *
 * <p>The servlet filter comes from {@link WaitingRoomServletAutoConfiguration}, Actuator support
 * from {@link WaitingRoomEndpointAutoConfiguration}.
 */
// After Spring Data Redis's connection factory (Boot 3, and Boot 4 under its two names), to reuse it.
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.RedisAutoConfiguration"
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
   * {@code session-duration} and the optional widths under {@code prefix}.
   */
  private static RoomConfig roomConfig(String prefix, RoomProperties r, String defaultId) {
    String id = r.getRoomId();
    String roomId = id != null ? id : defaultId;
    RoomConfig.Builder b = Properties.check(prefix + "room-id", roomId, RoomConfig::builder);
    Properties.set(prefix + "total-active-users", Properties.required(prefix + "total-active-users", r.getTotalActiveUsers()), b::totalActiveUsers);
    Properties.set(prefix + "new-users-per-minute", Properties.required(prefix + "new-users-per-minute", r.getNewUsersPerMinute()), b::newUsersPerMinute);
    Properties.set(prefix + "session-duration", Properties.required(prefix + "session-duration", r.getSessionDuration()), b::sessionDuration);
    Properties.setIfGiven(prefix + "bucket-width", r.getBucketWidth(), b::bucketWidth);
    Properties.setIfGiven(prefix + "slice-width", r.getSliceWidth(), b::sliceWidth);
    Properties.setIfGiven(prefix + "refresh-interval", r.getRefreshInterval(), b::refreshInterval);
    Properties.setIfGiven(prefix + "waiting-timeout", r.getWaitingTimeout(), b::waitingTimeout);
    try {
      return b.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      // A combination of settings (for example a slice width that does not divide the session).
      throw Properties.invalid(
          prefix.substring(0, prefix.length() - 1), roomId, String.valueOf(e.getMessage()));
    }
  }

  /** A room with the application's keyset, store and node settings. */
  private static WaitingRoom room(
      WaitingRoomProperties p, RoomConfig config, @Nullable Transport transport, Environment environment) {
    KeysetHandle keys = keys(p.getKeyset(), config.roomId(), transport != null && !(transport instanceof InMemoryTransport), environment);
    WaitingRoom.Builder b = WaitingRoom.builder(config, keys);
    String redisUri = p.getStore().getRedisUri();
    if (transport == null && redisUri != null && !redisUri.isBlank()) {
      throw Properties.invalid(
          "waitingroom.store.redis-uri",
          "(hidden)",
          "the Redis store needs io.github.waitingroom:waitingroom-redis on the classpath");
    }
    if (transport != null) {
      b.transport(transport);
    }
    Properties.setIfGiven("waitingroom.node-id", p.getNodeId(), b::nodeId);
    Properties.setIfGiven("waitingroom.data-center", p.getDataCenter(), b::dataCenter);
    Properties.setIfGiven("waitingroom.sync-interval", p.getSyncInterval(), b::syncInterval);
    Properties.setIfGiven("waitingroom.max-requests-per-ticket", p.getMaxRequestsPerTicket(), b::maxRequestsPerTicket);
    Properties.setIfGiven("waitingroom.store-budget", p.getStoreBudget(), b::storeBudget);
    b.failurePolicy(p.getFailurePolicy());
    WaitingRoom room = b.build();
    log.info(
        "waiting room '{}': {} active users, {} new users per minute, store {}, {}",
        config.roomId(),
        config.totalActiveUsers(),
        config.newUsersPerMinute(),
        transport == null ? "in memory (this JVM only)" : transport,
        p.getFailurePolicy());
    return room;
  }

  /**
   * The room's ticket keyset from {@code waitingroom.keyset.*}. A source that is configured but
   * absent (an unset variable, a missing file or resource, as on a CI machine without the secret)
   * counts as no keyset; a source that is present but unreadable or not a keyset always stops
   * startup. Without a keyset, the rule of Spring Security's generated password: where it is safe
   * (this JVM alone, the in-memory store) the room runs on a generated keyset and says so at WARN;
   * with a store that other nodes share, startup stops naming the property to set, since every
   * node needs the same keyset. {@code generate-ephemeral} set to true or false overrides that.
   */
  static KeysetHandle keys(
      WaitingRoomProperties.Keyset k, String roomId, boolean sharedStore, Environment environment) {
    MutuallyExclusiveConfigurationPropertiesException.throwIfMultipleNonNullValuesIn(
        entries -> {
          entries.put("waitingroom.keyset.env", k.getEnv());
          entries.put("waitingroom.keyset.file", k.getFile());
          entries.put("waitingroom.keyset.resource", k.getResource());
        });
    String property = "waitingroom.keyset";
    @Nullable Object value = null;
    String absent = "no keyset source is configured";
    String env = k.getEnv();
    Path file = k.getFile();
    Resource resource = k.getResource();
    if (env != null) {
      // The environment as Spring sees it: the process environment, or what a test puts there.
      String json = environment.getProperty(env);
      if (json == null || json.isBlank()) {
        json = System.getenv(env);
      }
      if (json != null && !json.isBlank()) {
        return parse("waitingroom.keyset.env", env, json);
      }
      property = "waitingroom.keyset.env";
      value = env;
      absent = "the environment variable " + env + " (waitingroom.keyset.env) is not set";
    } else if (file != null) {
      if (Files.exists(file)) {
        try {
          return parse("waitingroom.keyset.file", file, Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw Properties.invalid("waitingroom.keyset.file", file, "cannot be read: " + e);
        }
      }
      property = "waitingroom.keyset.file";
      value = file;
      absent = "the file " + file + " (waitingroom.keyset.file) does not exist";
    } else if (resource != null) {
      if (resource.exists()) {
        try {
          return parse(
              "waitingroom.keyset.resource",
              resource.getDescription(),
              resource.getContentAsString(StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw Properties.invalid(
              "waitingroom.keyset.resource", resource.getDescription(), "cannot be read: " + e);
        }
      }
      property = "waitingroom.keyset.resource";
      value = resource.getDescription();
      absent = "the resource " + resource.getDescription() + " (waitingroom.keyset.resource) does not exist";
    }
    Boolean generate = k.getGenerateEphemeral();
    if (Boolean.TRUE.equals(generate) || (generate == null && !sharedStore)) {
      log.warn(
          "waiting room '{}': {}, so this JVM seals tickets with a GENERATED keyset. That is safe only for"
              + " one node with the in-memory store: tickets do not survive a restart and open on no other"
              + " node. This generated keyset is for development and tests only; in production set"
              + " waitingroom.keyset.env (or .file, .resource) to a keyset made with GenerateKeyset.",
          roomId,
          absent);
      return TicketKeys.generate();
    }
    String why =
        generate == null
            ? "the room's store is shared with other nodes, and every node needs the same ticket keyset, so none is"
                + " generated"
            : "waitingroom.keyset.generate-ephemeral is false";
    throw Properties.invalid(
        property,
        value,
        absent
            + ", and "
            + why
            + ": set waitingroom.keyset.env (an environment variable holding the keyset JSON),"
            + " waitingroom.keyset.file or waitingroom.keyset.resource. Make a keyset with java"
            + " io.github.waitingroom.servlet.GenerateKeyset.");
  }

  private static KeysetHandle parse(String property, Object value, String json) {
    // The one keyset policy (Keysets): the parser's message, which may quote key material, is never shown.
    String holder = property.endsWith(".env") ? "the environment variable " : property.endsWith(".file") ? "the file " : "the resource ";
    return Keysets.parse(json, SettingException.Source.PROPERTY, property, holder + value);
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
      Properties.setIfGiven("waitingroom.store.key-prefix", s.getKeyPrefix(), b::keyPrefix);
      Properties.setIfGiven("waitingroom.store.command-timeout", s.getCommandTimeout(), b::commandTimeout);
      return b.build();
    }

    @Bean
    @ConditionalOnMissingBean(Transport.class)
    RedisTransport waitingRoomRedisTransport(WaitingRoomProperties p) {
      WaitingRoomProperties.Store s = p.getStore();
      String uri = Properties.required("waitingroom.store.redis-uri", s.getRedisUri());
      RedisTransport.Builder b;
      try {
        b = RedisTransport.builder(uri);
      } catch (IllegalArgumentException e) {
        // The URI may hold a password: the transport's own message redacts it, the value is not shown.
        throw Properties.invalid("waitingroom.store.redis-uri", "(hidden)", String.valueOf(e.getMessage()));
      }
      try {
        return redisTransport(s, b);
      } catch (IllegalArgumentException e) {
        throw Properties.invalid("waitingroom.store.redis-uri", "(hidden)", String.valueOf(e.getMessage()));
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
        throw Properties.invalid(
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

  /**
   * Helpers that turn a builder's {@link IllegalArgumentException} into a {@link SettingException}
   * naming the property, the one error of every stack (Spring Boot's failure analysis reports it
   * through {@link SettingFailureAnalyzer}).
   */
  static final class Properties {
    private Properties() {}

    static SettingException invalid(String name, @Nullable Object value, String reason) {
      return new SettingException(
          name, SettingException.Source.PROPERTY, name, value == null ? null : String.valueOf(display(value)), reason, null);
    }

    static <T> T required(String name, @Nullable T value) {
      if (value == null || (value instanceof String s && s.isBlank())) {
        throw invalid(name, null, name + " is required while waitingroom.enabled is true");
      }
      return value;
    }

    static <T> void set(String name, T value, Consumer<T> setter) {
      check(name, value, v -> {
        setter.accept(v);
        return v;
      });
    }

    static <T> void setIfGiven(String name, @Nullable T value, Consumer<T> setter) {
      if (value != null) {
        set(name, value, setter);
      }
    }

    static <T, R> R check(String name, T value, java.util.function.Function<T, R> factory) {
      try {
        return factory.apply(value);
      } catch (SettingException e) {
        throw e.from(SettingException.Source.PROPERTY, name);
      } catch (IllegalArgumentException e) {
        throw new SettingException(
            name, SettingException.Source.PROPERTY, name, String.valueOf(display(value)), String.valueOf(e.getMessage()), e);
      }
    }

    private static Object display(Object value) {
      return value instanceof Duration d ? d.toString() : value;
    }
  }
}

package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Transport} over Redis with Lettuce: one script call per sync, expiry by the server's
 * clock, keys hash-tagged by room so that it runs on Redis Cluster. Thread-safe; share one per
 * JVM between rooms.
 *
 * <pre>{@code
 * RedisTransport redis = RedisTransport.create("redis://redis.internal:6379");
 * WaitingRoom room = WaitingRoom.builder(config, keys)
 *     .transport(redis).dataCenter("eu-west").nodeId(hostName).build();
 * }</pre>
 *
 * <h2>Connection</h2>
 *
 * Lettuce's URI forms: {@code redis://[password@]host[:port][/database]}, {@code rediss://} (TLS),
 * {@code redis-socket:///path}, and {@code redis-sentinel://host1:26379,host2:26379/?sentinelMasterId=mymaster}.
 * For Redis Cluster write the seed nodes as {@code redis-cluster://host1:7000,host2:7001} (or
 * {@code rediss-cluster://} for TLS); this transport hands them to Lettuce's cluster client.
 *
 * <p>An application that already talks to Redis through Lettuce can hand over its client
 * instead of a URI ({@link #builder(AbstractRedisClient)}): the transport then opens its own
 * connection through that client, so it shares its address, credentials, TLS settings and
 * threads, and leaves the client as it found it when closed.
 *
 * <p>A call never blocks longer than the {@linkplain Builder#commandTimeout command timeout}
 * (default 1 second), plus the connect timeout when it has to connect. After any failure the
 * connection is dropped and the next call connects afresh, so a node is back in touch at its
 * first sync after Redis is reachable again, without depending on a background reconnect.
 *
 * <h2>What it writes</h2>
 *
 * For each scope of a room, two keys in the room's hash slot: {@code <prefix>{<room>}:v:<scope>},
 * a hash of publisher to payload, and {@code <prefix>{<room>}:e:<scope>}, a sorted set of
 * publisher by expiry time (milliseconds of the Redis server's clock). Redis 7.0 has no expiry per
 * hash field, so the script drops the fields whose expiry has passed each time it reads a scope,
 * and sets both keys to expire a second after their last live value, so that an abandoned room
 * leaves nothing behind. A value longer than {@link ReportSeal#MAX_SEALED_BYTES}, or under a
 * name longer than 256 bytes, is not a node's (anyone else who can write to Redis may have put it
 * there): the script deletes it without reading it ({@code HSTRLEN}), so a huge value costs each
 * sync nothing.
 *
 * <p>This class holds the {@link Transport} contract and the settings; the connection handling
 * (standalone and cluster, the client made or borrowed) is {@code RedisConnection}, and the script
 * with its keys and wire format is {@code ExchangeScript}, whose Lua text is the resource {@code
 * exchange.lua} next to this class.
 */
public final class RedisTransport implements Transport, AutoCloseable {
  /** The default key prefix. */
  public static final String DEFAULT_KEY_PREFIX = "waitingroom:";

  /** The default command timeout. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(1);

  private final String keyPrefix;
  private final RedisConnection connection;

  private RedisTransport(Builder b) {
    this.keyPrefix = b.keyPrefix;
    AbstractRedisClient borrowed = b.client;
    this.connection = borrowed != null
        ? RedisConnection.borrowing(borrowed, b.commandTimeout, keyPrefix)
        : RedisConnection.to(Objects.requireNonNull(b.uri, "uri"), b.commandTimeout, b.connectTimeout, keyPrefix);
  }

  /**
   * A transport to the Redis at {@code uri}, with the default key prefix and timeouts. It connects
   * at its first exchange.
   *
   * @throws IllegalArgumentException if the URI cannot be parsed
   */
  public static RedisTransport create(String uri) {
    return builder(uri).build();
  }

  /** Starts a transport to the Redis at {@code uri}; see the class comment for the URI forms. */
  public static Builder builder(String uri) {
    return new Builder(uri);
  }

  /**
   * Starts a transport over a Lettuce client the application already has: a {@link RedisClient}
   * (standalone, or Sentinel through its URI) or a {@link RedisClusterClient}, such as the one
   * behind Spring Data Redis's {@code LettuceConnectionFactory}. The transport opens one
   * connection of its own through it at its first exchange, with the {@linkplain
   * Builder#commandTimeout command timeout} set on that connection, and never changes or shuts
   * down the client: {@link #close()} closes only that connection. The client must outlive the
   * transport. {@link Builder#connectTimeout} does not apply: the client keeps its own.
   *
   * @throws IllegalArgumentException if the client is neither a {@code RedisClient} nor a {@code
   *     RedisClusterClient}
   */
  public static Builder builder(AbstractRedisClient client) {
    return new Builder(client);
  }

  @Override
  public Map<String, Map<String, byte[]>> exchange(
      String roomId, List<Publication> publications, Duration retention) throws IOException {
    Objects.requireNonNull(roomId, "roomId");
    Objects.requireNonNull(publications, "publications");
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be positive but was " + retention);
    }
    if (publications.isEmpty()) {
      return new HashMap<>();
    }
    long retentionMillis = Math.max(1, retention.toMillis());
    return connection.call(redis -> ExchangeScript.exchange(redis, keyPrefix, roomId, publications, retentionMillis));
  }

  /**
   * Closes the connection and releases the client it made (a client the application handed over
   * stays open); later exchanges throw {@link IOException}.
   */
  @Override
  public void close() {
    connection.close();
  }

  @Override
  public String toString() {
    return connection.description();
  }

  /** Builds a {@link RedisTransport}; every setting but the URI (or client) has a default. */
  public static final class Builder {
    private static final List<String> SCHEMES =
        List.of(
            "redis", "rediss", "redis+ssl", "redis+tls", "redis-socket", "redis+socket",
            "redis-sentinel", "rediss-sentinel", "redis-cluster", "rediss-cluster");

    private final @Nullable String uri;
    private final @Nullable AbstractRedisClient client;
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private @Nullable Duration connectTimeout;

    private Builder(String uri) {
      Objects.requireNonNull(uri, "uri");
      String scheme = uri.contains("://") ? uri.substring(0, uri.indexOf("://")).toLowerCase(Locale.ROOT) : "";
      if (!SCHEMES.contains(scheme)) {
        throw new IllegalArgumentException(
            "uri must be a Redis URI (" + String.join("://, ", SCHEMES) + "://) but was '" + RedisConnection.redact(uri) + "'");
      }
      this.uri = uri;
      this.client = null;
    }

    private Builder(AbstractRedisClient client) {
      Objects.requireNonNull(client, "client");
      if (!(client instanceof RedisClient) && !(client instanceof RedisClusterClient)) {
        throw new IllegalArgumentException(
            "client must be a RedisClient or a RedisClusterClient but was a " + client.getClass().getName());
      }
      this.uri = null;
      this.client = client;
    }

    /**
     * What every key starts with, so that several applications (or test runs) can share one
     * Redis. Default: {@code waitingroom:}. It may not contain braces, which would
     * break the room's hash tag.
     */
    public Builder keyPrefix(String prefix) {
      Objects.requireNonNull(prefix, "keyPrefix");
      if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
        throw new IllegalArgumentException("keyPrefix must not contain '{' or '}' but was '" + prefix + "'");
      }
      this.keyPrefix = prefix;
      return this;
    }

    /** The most one exchange may wait for Redis (10 ms..1 min). Default: 1 second. */
    public Builder commandTimeout(Duration timeout) {
      this.commandTimeout = checkTimeout("commandTimeout", timeout);
      return this;
    }

    /**
     * The most a connection attempt may take (10 ms..1 min). Default: the command timeout. Not
     * for a transport over the application's client, which keeps its own.
     *
     * @throws IllegalStateException on a builder over the application's client
     */
    public Builder connectTimeout(Duration timeout) {
      if (client != null) {
        throw new IllegalStateException(
            "connectTimeout applies only to a transport made from a URI; the application's client keeps its own socket options");
      }
      this.connectTimeout = checkTimeout("connectTimeout", timeout);
      return this;
    }

    private static Duration checkTimeout(String setting, Duration timeout) {
      Objects.requireNonNull(timeout, setting);
      if (timeout.compareTo(Duration.ofMillis(10)) < 0 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException(setting + " must be between 10 ms and 1 minute but was " + timeout);
      }
      return timeout;
    }

    /** The transport; it connects at its first exchange. */
    public RedisTransport build() {
      return new RedisTransport(this);
    }
  }
}

package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
 */
public final class RedisTransport implements Transport, AutoCloseable {
  /** The default key prefix. */
  public static final String DEFAULT_KEY_PREFIX = "waitingroom:";

  /** The default command timeout. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(1);

  /**
   * The longest value the script hands back ({@link ReportSeal#MAX_SEALED_BYTES}): no node writes a
   * longer one, so the script deletes any longer value it finds, unread, instead of sending it to
   * every node at every sync.
   */
  static final int MAX_VALUE_BYTES = ReportSeal.MAX_SEALED_BYTES;

  /** The longest publisher name the script hands back; longer ones are deleted likewise. */
  static final int MAX_NAME_BYTES = 256;

  static final String SCRIPT =
      String.join(
          "\n",
          "-- KEYS: per scope, its values hash then its expiry sorted set",
          "-- ARGV: retention ms, then per publication: scope number (1-based), publisher, payload",
          "local t = redis.call('TIME')",
          "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)",
          "local expires = now + tonumber(ARGV[1])",
          "for i = 2, #ARGV, 3 do",
          "  local s = tonumber(ARGV[i])",
          "  redis.call('HSET', KEYS[2 * s - 1], ARGV[i + 1], ARGV[i + 2])",
          "  redis.call('ZADD', KEYS[2 * s], expires, ARGV[i + 1])",
          "end",
          "local out = {}",
          "for s = 1, #KEYS / 2 do",
          "  local values, expiry = KEYS[2 * s - 1], KEYS[2 * s]",
          "  local dead = redis.call('ZRANGEBYSCORE', expiry, '-inf', now)",
          "  for j = 1, #dead, 500 do",
          "    redis.call('HDEL', values, unpack(dead, j, math.min(j + 499, #dead)))",
          "  end",
          "  if #dead > 0 then redis.call('ZREMRANGEBYSCORE', expiry, '-inf', now) end",
          "  local live = redis.call('ZRANGE', expiry, 0, -1, 'WITHSCORES')",
          "  local answer = {}",
          "  local last = 0",
          "  for j = 1, #live, 2 do",
          "    if #live[j] > " + MAX_NAME_BYTES + " or redis.call('HSTRLEN', values, live[j]) > " + MAX_VALUE_BYTES + " then",
          "      redis.call('HDEL', values, live[j])",
          "      redis.call('ZREM', expiry, live[j])",
          "    else",
          "      local v = redis.call('HGET', values, live[j])",
          "      if v then",
          "        answer[#answer + 1] = live[j]",
          "        answer[#answer + 1] = v",
          "      end",
          "    end",
          "    local e = tonumber(live[j + 1])",
          "    if e > last then last = e end",
          "  end",
          "  if last > 0 then",
          "    redis.call('PEXPIREAT', values, last + 1000)",
          "    redis.call('PEXPIREAT', expiry, last + 1000)",
          "  end",
          "  out[s] = answer",
          "end",
          "out[#KEYS / 2 + 1] = tostring(now)",
          "return out");

  private static final byte[][] NO_BYTES = new byte[0][];
  private static final Object SHARED_LOCK = new Object();
  private static @Nullable ClientResources shared;
  private static int sharedUsers;

  private final AbstractRedisClient client;
  /** Whether this transport made its client (and shuts it down), or borrowed the application's. */
  private final boolean ownsClient;
  private final boolean cluster;
  private final Duration commandTimeout;
  private final String keyPrefix;
  private final String description;
  private final String digest;
  private @Nullable StatefulConnection<byte[], byte[]> connection;
  private @Nullable RedisScriptingCommands<byte[], byte[]> commands;
  private boolean closed;

  private RedisTransport(Builder b) {
    this.keyPrefix = b.keyPrefix;
    this.digest = sha1Hex(SCRIPT);
    this.commandTimeout = b.commandTimeout;
    AbstractRedisClient borrowed = b.client;
    if (borrowed != null) {
      // The application's client keeps its own options; the timeout goes on this transport's connection.
      this.client = borrowed;
      this.ownsClient = false;
      this.cluster = borrowed instanceof RedisClusterClient;
      this.description =
          "RedisTransport[the application's " + borrowed.getClass().getSimpleName() + ", prefix=" + keyPrefix + "]";
      return;
    }
    this.ownsClient = true;
    String uri = Objects.requireNonNull(b.uri, "uri");
    SocketOptions socket = SocketOptions.builder().connectTimeout(b.connectTimeout != null ? b.connectTimeout : b.commandTimeout).build();
    TimeoutOptions timeouts = TimeoutOptions.enabled(b.commandTimeout);
    ClientResources resources = acquireResources();
    String lower = uri.toLowerCase(java.util.Locale.ROOT);
    try {
      if (lower.startsWith("redis-cluster://") || lower.startsWith("rediss-cluster://")) {
        this.cluster = true;
        String plain = (lower.startsWith("rediss") ? "rediss://" : "redis://") + uri.substring(uri.indexOf("://") + 3);
        RedisClusterClient c = RedisClusterClient.create(resources, plain);
        c.setOptions(
            ClusterClientOptions.builder()
                .socketOptions(socket)
                .timeoutOptions(timeouts)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        c.setDefaultTimeout(b.commandTimeout);
        this.client = c;
      } else {
        this.cluster = false;
        RedisURI parsed = RedisURI.create(uri);
        parsed.setTimeout(b.commandTimeout);
        RedisClient c = RedisClient.create(resources, parsed);
        c.setOptions(
            ClientOptions.builder()
                .socketOptions(socket)
                .timeoutOptions(timeouts)
                .autoReconnect(false)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        this.client = c;
      }
    } catch (RuntimeException e) {
      releaseResources();
      // Not chained: the client's exception may quote the URI with its password.
      throw new IllegalArgumentException(
          "redis uri '" + redact(uri) + "' is not usable: " + whatWentWrong(e, uri));
    }
    this.description = "RedisTransport[" + redact(uri) + ", prefix=" + keyPrefix + "]";
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

  /** The key of a scope's values hash. */
  static String valuesKey(String keyPrefix, String roomId, String scope) {
    return keyPrefix + "{" + roomId + "}:v:" + scope;
  }

  /** The key of a scope's expiry sorted set. */
  static String expiryKey(String keyPrefix, String roomId, String scope) {
    return keyPrefix + "{" + roomId + "}:e:" + scope;
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
    Map<String, Integer> scopes = new LinkedHashMap<>();
    for (Publication p : publications) {
      scopes.putIfAbsent(p.scope(), scopes.size() + 1);
    }
    List<byte[]> keys = new ArrayList<>(2 * scopes.size());
    for (String scope : scopes.keySet()) {
      keys.add(utf8(valuesKey(keyPrefix, roomId, scope)));
      keys.add(utf8(expiryKey(keyPrefix, roomId, scope)));
    }
    List<byte[]> args = new ArrayList<>(1 + 3 * publications.size());
    args.add(utf8(Long.toString(Math.max(1, retention.toMillis()))));
    for (Publication p : publications) {
      args.add(utf8(Integer.toString(scopes.getOrDefault(p.scope(), 0))));
      args.add(utf8(p.publisher()));
      args.add(p.payload());
    }
    List<?> result = run(keys.toArray(NO_BYTES), args.toArray(NO_BYTES));
    Map<String, Map<String, byte[]>> answer = new HashMap<>();
    int i = 0;
    for (String scope : scopes.keySet()) {
      Map<String, byte[]> values = new HashMap<>();
      Object part = i < result.size() ? result.get(i) : null;
      if (part instanceof List<?> pairs) {
        for (int j = 0; j + 1 < pairs.size(); j += 2) {
          if (pairs.get(j) instanceof byte[] who && pairs.get(j + 1) instanceof byte[] payload) {
            values.put(new String(who, StandardCharsets.UTF_8), payload);
          }
        }
      }
      answer.put(scope, values);
      i++;
    }
    // The server's clock, which every answer must carry: every node keeps time by the store's.
    if (i < result.size() && result.get(i) instanceof byte[] now) {
      try {
        long millis = Long.parseLong(new String(now, StandardCharsets.UTF_8));
        answer.put(CLOCK_SCOPE, Map.of("now", java.nio.ByteBuffer.allocate(8).putLong(millis).array()));
      } catch (NumberFormatException e) {
        // not a clock: left out, and the node treats the answer as a failed exchange
      }
    }
    return answer;
  }

  private List<?> run(byte[][] keys, byte[][] args) throws IOException {
    RedisScriptingCommands<byte[], byte[]> c = commands();
    try {
      List<?> result;
      try {
        result = c.evalsha(digest, ScriptOutputType.MULTI, keys, args);
      } catch (RedisNoScriptException e) {
        // First call on this server, or its scripts were flushed: send the script itself.
        result = c.eval(SCRIPT, ScriptOutputType.MULTI, keys, args);
      }
      return result == null ? List.of() : result;
    } catch (RedisException | IllegalStateException e) {
      drop();
      throw new IOException(description + ": " + e.getMessage(), e);
    }
  }

  private synchronized RedisScriptingCommands<byte[], byte[]> commands() throws IOException {
    if (closed) {
      throw new IOException(description + " is closed");
    }
    RedisScriptingCommands<byte[], byte[]> c = commands;
    if (c != null) {
      return c;
    }
    try {
      if (cluster) {
        StatefulRedisClusterConnection<byte[], byte[]> conn =
            ((RedisClusterClient) client).connect(ByteArrayCodec.INSTANCE);
        connection = conn;
        c = conn.sync();
      } else {
        StatefulRedisConnection<byte[], byte[]> conn = ((RedisClient) client).connect(ByteArrayCodec.INSTANCE);
        connection = conn;
        c = conn.sync();
      }
      if (!ownsClient) {
        // A borrowed client's default timeout may be long (Lettuce: 60 s); this connection's calls never wait longer than ours.
        StatefulConnection<byte[], byte[]> conn = Objects.requireNonNull(connection);
        conn.setTimeout(commandTimeout);
      }
    } catch (RedisException e) {
      throw new IOException(description + ": cannot connect: " + e.getMessage(), e);
    }
    commands = c;
    return c;
  }

  /** Forgets the connection after a failure; the next exchange connects afresh. */
  private synchronized void drop() {
    StatefulConnection<byte[], byte[]> conn = connection;
    connection = null;
    commands = null;
    if (conn != null) {
      conn.closeAsync();
    }
  }

  /**
   * Closes the connection and releases the client it made (a client the application handed over
   * stays open); later exchanges throw {@link IOException}.
   */
  @Override
  public void close() {
    StatefulConnection<byte[], byte[]> conn;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      conn = connection;
      connection = null;
      commands = null;
    }
    if (!ownsClient) {
      // The application may have shut its client down first, which closed this connection too.
      if (conn != null && conn.isOpen()) {
        conn.close();
      }
      return;
    }
    // Shutting the client down closes its connections.
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    releaseResources();
  }

  @Override
  public String toString() {
    return description;
  }

  private static ClientResources acquireResources() {
    synchronized (SHARED_LOCK) {
      ClientResources r = shared;
      if (r == null) {
        // Small pools: the transport makes one call per room per sync interval.
        r = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2).build();
        shared = r;
      }
      sharedUsers++;
      return r;
    }
  }

  private static void releaseResources() {
    synchronized (SHARED_LOCK) {
      if (--sharedUsers == 0 && shared != null) {
        shared.shutdown();
        shared = null;
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String sha1Hex(String script) {
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-1").digest(utf8(script));
      StringBuilder sb = new StringBuilder(40);
      for (byte x : d) {
        sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
      }
      return sb.toString();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JVM", e);
    }
  }

  /**
   * Hides the credentials of a URI for logs and messages: everything between the scheme's {@code
   * ://} (or the start, without one) and the <em>last</em> {@code @}, so a password that itself
   * holds {@code @}, {@code :} or {@code /} is hidden whole.
   */
  static String redact(String uri) {
    int at = uri.lastIndexOf('@');
    if (at < 0) {
      return uri;
    }
    int scheme = uri.indexOf("://");
    int from = scheme >= 0 && scheme < at ? scheme + 3 : 0;
    return uri.substring(0, from) + "***" + uri.substring(at);
  }

  /**
   * What a client library said about {@code uri}: its message when the URI holds no credentials,
   * otherwise only the exception's type, since parsers quote the pieces they choke on, password
   * pieces included.
   */
  private static String whatWentWrong(RuntimeException e, String uri) {
    String type = e.getClass().getSimpleName();
    if (uri.indexOf('@') >= 0) {
      return type + " (details not shown: they may quote the password; percent-encode @, : and / in it)";
    }
    return type + ": " + e.getMessage();
  }

  /** Builds a {@link RedisTransport}; every setting but the URI (or client) has a default. */
  public static final class Builder {
    private static final java.util.List<String> SCHEMES =
        java.util.List.of(
            "redis", "rediss", "redis+ssl", "redis+tls", "redis-socket", "redis+socket",
            "redis-sentinel", "rediss-sentinel", "redis-cluster", "rediss-cluster");

    private final @Nullable String uri;
    private final @Nullable AbstractRedisClient client;
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private @Nullable Duration connectTimeout;

    private Builder(String uri) {
      Objects.requireNonNull(uri, "uri");
      String scheme = uri.contains("://") ? uri.substring(0, uri.indexOf("://")).toLowerCase(java.util.Locale.ROOT) : "";
      if (!SCHEMES.contains(scheme)) {
        throw new IllegalArgumentException(
            "uri must be a Redis URI (" + String.join("://, ", SCHEMES) + "://) but was '" + redact(uri) + "'");
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

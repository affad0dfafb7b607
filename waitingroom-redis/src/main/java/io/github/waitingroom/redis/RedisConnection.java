package io.github.waitingroom.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
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
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The transport's one connection to Redis and the Lettuce client behind it: its role is
 * connection handling, standalone and cluster alike. From a URI it makes the client (a {@link
 * RedisClusterClient} for {@code redis-cluster://} and {@code rediss-cluster://}, else a {@link
 * RedisClient}, which also speaks Sentinel and sockets) on small client resources that every
 * transport of the JVM shares; or it borrows the application's client and leaves it as it found
 * it. It connects at the first call, forgets the connection after any failure so that the next
 * call connects afresh (no background reconnect), and closes what it opened.
 */
final class RedisConnection {
  private static final Object SHARED_LOCK = new Object();
  private static @Nullable ClientResources shared;
  private static int sharedUsers;

  private final AbstractRedisClient client;
  /** Whether this connection made its client (and shuts it down), or borrowed the application's. */
  private final boolean ownsClient;
  private final Duration commandTimeout;
  private final String description;
  private @Nullable StatefulConnection<byte[], byte[]> connection;
  private @Nullable RedisScriptingCommands<byte[], byte[]> commands;
  private boolean closed;

  private RedisConnection(AbstractRedisClient client, boolean ownsClient, Duration commandTimeout, String description) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.commandTimeout = commandTimeout;
    this.description = description;
  }

  /**
   * A connection through the application's client, which keeps its own options; the command
   * timeout goes on this connection.
   *
   * @param keyPrefix the transport's key prefix, for its description
   */
  static RedisConnection borrowing(AbstractRedisClient client, Duration commandTimeout, String keyPrefix) {
    return new RedisConnection(client, false, commandTimeout,
        "RedisTransport[the application's " + client.getClass().getSimpleName() + ", prefix=" + keyPrefix + "]");
  }

  /**
   * A connection through a client of its own, made from a URI.
   *
   * @param connectTimeout the connect timeout, or {@code null} for the command timeout
   * @param keyPrefix the transport's key prefix, for its description
   * @throws IllegalArgumentException when the client library refuses the URI, naming it without its credentials
   */
  static RedisConnection to(String uri, Duration commandTimeout, @Nullable Duration connectTimeout, String keyPrefix) {
    SocketOptions socket =
        SocketOptions.builder().connectTimeout(connectTimeout != null ? connectTimeout : commandTimeout).build();
    TimeoutOptions timeouts = TimeoutOptions.enabled(commandTimeout);
    ClientResources resources = acquireResources();
    String lower = uri.toLowerCase(Locale.ROOT);
    AbstractRedisClient client;
    try {
      if (lower.startsWith("redis-cluster://") || lower.startsWith("rediss-cluster://")) {
        String plain = (lower.startsWith("rediss") ? "rediss://" : "redis://") + uri.substring(uri.indexOf("://") + 3);
        RedisClusterClient c = RedisClusterClient.create(resources, plain);
        c.setOptions(
            ClusterClientOptions.builder()
                .socketOptions(socket)
                .timeoutOptions(timeouts)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        c.setDefaultTimeout(commandTimeout);
        client = c;
      } else {
        RedisURI parsed = RedisURI.create(uri);
        parsed.setTimeout(commandTimeout);
        RedisClient c = RedisClient.create(resources, parsed);
        c.setOptions(
            ClientOptions.builder()
                .socketOptions(socket)
                .timeoutOptions(timeouts)
                .autoReconnect(false)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        client = c;
      }
    } catch (RuntimeException e) {
      releaseResources();
      // Not chained: the client's exception may quote the URI with its password.
      throw new IllegalArgumentException(
          "redis uri '" + redact(uri) + "' is not usable: " + whatWentWrong(e, uri));
    }
    return new RedisConnection(client, true, commandTimeout, "RedisTransport[" + redact(uri) + ", prefix=" + keyPrefix + "]");
  }

  /**
   * Runs commands on the connection, connecting first when it has none. After a failure the
   * connection is dropped, and the next call connects afresh.
   *
   * @throws IOException when closed, when it cannot connect, or when the commands fail
   */
  <T> T call(Function<RedisScriptingCommands<byte[], byte[]>, T> work) throws IOException {
    RedisScriptingCommands<byte[], byte[]> c = commands();
    try {
      return work.apply(c);
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
      StatefulConnection<byte[], byte[]> conn;
      if (client instanceof RedisClusterClient cluster) {
        StatefulRedisClusterConnection<byte[], byte[]> cc = cluster.connect(ByteArrayCodec.INSTANCE);
        conn = cc;
        c = cc.sync();
      } else {
        StatefulRedisConnection<byte[], byte[]> sc = ((RedisClient) client).connect(ByteArrayCodec.INSTANCE);
        conn = sc;
        c = sc.sync();
      }
      connection = conn;
      if (!ownsClient) {
        // A borrowed client's default timeout may be long (Lettuce: 60 s); this connection's calls never wait longer than ours.
        conn.setTimeout(commandTimeout);
      }
    } catch (RedisException e) {
      throw new IOException(description + ": cannot connect: " + e.getMessage(), e);
    }
    commands = c;
    return c;
  }

  /** Forgets the connection after a failure; the next call connects afresh. */
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
   * stays open); later calls throw {@link IOException}.
   */
  void close() {
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

  /** {@return what the connection goes to, its credentials hidden} For logs and messages. */
  String description() {
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
}

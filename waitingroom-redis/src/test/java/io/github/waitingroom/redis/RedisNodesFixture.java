package io.github.waitingroom.redis;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.testsupport.LocalRedis;
import io.github.waitingroom.testsupport.Opened;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The set-up of the tests that run {@link RedisNodes} in virtual time over the shared Redis: before
 * each test it needs that Redis ({@link LocalRedis#require}) and takes a key prefix of its own;
 * after it, it closes the nodes it made. A test registers one with {@code @RegisterExtension}.
 */
final class RedisNodesFixture extends Opened implements BeforeEachCallback {
  private final String name;
  private String uri = "";
  private String prefix = "";

  /** {@code name} starts each test's key prefix. */
  RedisNodesFixture(String name) {
    this.name = name;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    uri = LocalRedis.require();
    prefix = LocalRedis.uniquePrefix(name);
  }

  /** The shared Redis. */
  String uri() {
    return uri;
  }

  /** This test's key prefix. */
  String prefix() {
    return prefix;
  }

  /** A room named {@code name} and eight characters of a random UUID, so that no two tests share one. */
  static RoomConfig.Builder room(String name) {
    return RoomConfig.builder(name + "-" + UUID.randomUUID().toString().substring(0, 8));
  }

  /** Nodes of a room of {@code config} in virtual time, with epochs of {@code epoch}, under this test's prefix; closed after it. */
  RedisNodes nodes(RoomConfig config, Duration epoch) {
    return opened(new RedisNodes(config, uri, prefix, epoch, RedisNodes.Time.VIRTUAL));
  }
}

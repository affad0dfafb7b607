package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.coordinator.Transport.Publication;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The exchange script and its wire format: its role is to turn one {@link Transport#exchange} into
 * one Lua call and the call's answer back into values. The script itself is the resource {@code
 * exchange.lua} (see {@link RedisTransport}, "What it writes"); this class names the keys, encodes
 * the publications as its {@code KEYS} and {@code ARGV}, runs it by digest (sending the text only
 * when the server does not have it) and decodes what it answers. It holds no connection.
 */
final class ExchangeScript {
  /**
   * The longest value the script hands back ({@link ReportSeal#MAX_SEALED_BYTES}): no node writes a
   * longer one, so the script deletes any longer value it finds, unread, instead of sending it to
   * every node at every sync.
   */
  static final int MAX_VALUE_BYTES = ReportSeal.MAX_SEALED_BYTES;

  /** The longest publisher name the script hands back; longer ones are deleted likewise. */
  static final int MAX_NAME_BYTES = 256;

  /** The script's text, its limits filled in. */
  static final String SCRIPT = load("exchange.lua")
      .replace("{{maxNameBytes}}", Integer.toString(MAX_NAME_BYTES))
      .replace("{{maxValueBytes}}", Integer.toString(MAX_VALUE_BYTES));

  private static final String DIGEST = sha1Hex(SCRIPT);
  private static final byte[][] NO_BYTES = new byte[0][];

  private ExchangeScript() {}

  /** The key of a scope's values hash. */
  static String valuesKey(String keyPrefix, String roomId, String scope) {
    return keyPrefix + "{" + roomId + "}:v:" + scope;
  }

  /** The key of a scope's expiry sorted set. */
  static String expiryKey(String keyPrefix, String roomId, String scope) {
    return keyPrefix + "{" + roomId + "}:e:" + scope;
  }

  /**
   * Publishes and reads back in one call: the answer holds every scope published to (each with
   * its live values by publisher) and, under {@link Transport#CLOCK_SCOPE}, the server's clock.
   *
   * @throws io.lettuce.core.RedisException when Redis fails or cannot be reached
   */
  static Map<String, Map<String, byte[]>> exchange(
      RedisScriptingCommands<byte[], byte[]> redis,
      String keyPrefix,
      String roomId,
      List<Publication> publications,
      long retentionMillis) {
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
    args.add(utf8(Long.toString(retentionMillis)));
    for (Publication p : publications) {
      args.add(utf8(Integer.toString(scopes.getOrDefault(p.scope(), 0))));
      args.add(utf8(p.publisher()));
      args.add(p.payload());
    }
    return decode(scopes.keySet(), run(redis, keys.toArray(NO_BYTES), args.toArray(NO_BYTES)));
  }

  private static List<?> run(RedisScriptingCommands<byte[], byte[]> redis, byte[][] keys, byte[][] args) {
    List<?> result;
    try {
      result = redis.evalsha(DIGEST, ScriptOutputType.MULTI, keys, args);
    } catch (RedisNoScriptException e) {
      // First call on this server, or its scripts were flushed: send the script itself.
      result = redis.eval(SCRIPT, ScriptOutputType.MULTI, keys, args);
    }
    return result == null ? List.of() : result;
  }

  /** The script's answer: per scope, in the order of the keys, publisher and value pairs; then the clock. */
  private static Map<String, Map<String, byte[]>> decode(Iterable<String> scopes, List<?> result) {
    Map<String, Map<String, byte[]>> answer = new HashMap<>();
    int i = 0;
    for (String scope : scopes) {
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
        answer.put(Transport.CLOCK_SCOPE, Map.of("now", ByteBuffer.allocate(8).putLong(millis).array()));
      } catch (NumberFormatException e) {
        // not a clock: left out, and the node treats the answer as a failed exchange
      }
    }
    return answer;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The resource's text, without the final line break (the script Redis caches is the text as sent). */
  private static String load(String name) {
    try (InputStream in = ExchangeScript.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha1Hex(String script) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(utf8(script)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JVM", e);
    }
  }
}

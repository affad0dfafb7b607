package io.github.waitingroom.benchmarks;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The baseline many teams build by hand (and that hosted rooms built on Redis use): every request
 * makes one Redis round trip that runs a Lua admission script against a central set of sessions.
 * A session id cookie identifies the user; the script drops expired sessions, renews a known
 * session, or admits a new one while the set holds fewer than the limit. The request thread waits
 * for Redis every time. Used only to compare against the waiting room's filter.
 */
final class RedisCounterFilter implements Filter {
  /** KEYS[1] sessions zset; ARGV now ms, session id, limit, session ms. 1 = let through, 0 = wait. */
  static final String SCRIPT =
      """
      redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
      local expires = tonumber(ARGV[1]) + tonumber(ARGV[4])
      if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
        redis.call('ZADD', KEYS[1], expires, ARGV[2])
        return 1
      end
      if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
        redis.call('ZADD', KEYS[1], expires, ARGV[2])
        return 1
      end
      return 0
      """;

  private static final String COOKIE = "sid";

  private final RedisCommands<String, String> redis;
  private final String sha;
  private final String key;
  private final String limit;
  private final String sessionMillis;

  RedisCounterFilter(RedisCommands<String, String> redis, String key, int limit, long sessionMillis) {
    this.redis = redis;
    this.sha = redis.scriptLoad(SCRIPT);
    this.key = key;
    this.limit = Integer.toString(limit);
    this.sessionMillis = Long.toString(sessionMillis);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    HttpServletResponse res = (HttpServletResponse) response;
    String sid = sessionOf(req);
    if (sid == null) {
      sid = UUID.randomUUID().toString();
      res.addHeader("Set-Cookie", COOKIE + "=" + sid + "; Path=/; HttpOnly; SameSite=Lax");
    }
    Long admitted =
        redis.evalsha(
            sha,
            ScriptOutputType.INTEGER,
            new String[] {key},
            Long.toString(System.currentTimeMillis()),
            sid,
            limit,
            sessionMillis);
    if (admitted != null && admitted == 1L) {
      chain.doFilter(request, response);
    } else {
      res.setStatus(503);
      res.setContentType("text/plain");
      res.getOutputStream().write("please wait\n".getBytes(StandardCharsets.UTF_8));
    }
  }

  private static @Nullable String sessionOf(HttpServletRequest req) {
    Cookie[] cookies = req.getCookies();
    if (cookies != null) {
      for (Cookie c : cookies) {
        if (COOKIE.equals(c.getName())) {
          return c.getValue();
        }
      }
    }
    return null;
  }
}

package io.github.waitingroom.http;

import io.github.waitingroom.http.HumanCheck.Verdict;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The verdicts {@link SiteVerify} asked for, per token, for as long as a token lives: a token found
 * here is not asked of the service again. Kept under the token's SHA-256, so that a flood of long
 * junk tokens costs 44 characters each. Bounded: two generations of at most {@code generationSize}
 * tokens each (give or take the threads adding at the same moment); lookups see both, new tokens
 * go to the current one, which turns over into the previous one (dropping that) when it is full or
 * older than the life of a verdict. Lock-free: the two generations are one immutable value,
 * swapped by compare-and-set.
 */
final class VerdictCache {
  /**
   * What is kept for one token: its verdict (pending until the service answers), whether its pass
   * was given out, and when it was asked (in the cache's nanoseconds).
   */
  record Asked(CompletableFuture<Verdict> verdict, AtomicBoolean passGiven, long born) {}

  private record Generation(ConcurrentHashMap<String, Asked> asked, AtomicInteger size, long born) {
    Generation(long born) {
      this(new ConcurrentHashMap<>(), new AtomicInteger(), born);
    }
  }

  private record Generations(Generation current, Generation previous) {}

  private final int generationSize;
  private final long lifeNanos;
  private final LongSupplier nanos;
  private final AtomicReference<Generations> state;

  /**
   * An empty cache.
   *
   * @param generationSize the most tokens a generation holds
   * @param lifeNanos how long a verdict is kept
   * @param nanos the clock, in nanoseconds ({@code System::nanoTime})
   */
  VerdictCache(int generationSize, long lifeNanos, LongSupplier nanos) {
    this.generationSize = generationSize;
    this.lifeNanos = lifeNanos;
    this.nanos = nanos;
    long now = nanos.getAsLong();
    this.state = new AtomicReference<>(new Generations(new Generation(now), new Generation(now)));
  }

  private Generations generations() {
    return Objects.requireNonNull(state.get());
  }

  /** The cache's key of a token: its SHA-256, base64. */
  static String key(String token) {
    return ProofOfWork.sha256Base64(token);
  }

  /** {@return a new entry, born now, for {@link #claim}} */
  Asked fresh() {
    return new Asked(new CompletableFuture<>(), new AtomicBoolean(), nanos.getAsLong());
  }

  /**
   * The entry of a token asked within the life of a verdict; else {@code fresh}, now kept, which
   * the caller alone got back and asks the service for.
   *
   * @param key the token's {@linkplain #key key}
   * @param fresh a new entry ({@link #fresh})
   * @return the entry kept for the token
   */
  Asked claim(String key, Asked fresh) {
    Generations g = generations();
    Asked a = g.current().asked().get(key);
    if (a == null) {
      a = g.previous().asked().get(key);
    }
    return a != null && fresh.born() - a.born() <= lifeNanos ? a : keep(key, fresh, fresh.born());
  }

  private Asked keep(String key, Asked fresh, long now) {
    Generations g = generations();
    Generation c = g.current();
    if (c.size().get() >= generationSize || now - c.born() > lifeNanos) {
      Generations turned = new Generations(new Generation(now), c);
      // Another thread that turned it over first has made a current generation just as good.
      c = state.compareAndSet(g, turned) ? turned.current() : generations().current();
    }
    while (true) {
      Asked there = c.asked().putIfAbsent(key, fresh);
      if (there == null) {
        c.size().incrementAndGet();
        return fresh;
      }
      if (now - there.born() <= lifeNanos) {
        return there;
      }
      if (c.asked().replace(key, there, fresh)) {
        return fresh;
      }
    }
  }

  /** Forgets a token whose service gave no verdict (no answer in time, an error), so that it may be asked again. */
  void forget(String key, Asked asked) {
    Generations g = generations();
    g.current().asked().remove(key, asked);
    g.previous().asked().remove(key, asked);
  }

  /** How many tokens are kept, for tests: at most about twice the generation size. */
  int size() {
    Generations g = generations();
    return g.current().asked().size() + g.previous().asked().size();
  }
}

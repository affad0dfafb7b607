package io.github.waitingroom.http;

import io.github.waitingroom.Seal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * Stateless proof-of-work challenges for newcomers, self-hosted: no third party, no tracking.
 *
 * <p>A <b>challenge</b> is a token sealed with the room's keys ({@link
 * io.github.waitingroom.WaitingRoom#seal}, purpose {@code pow}): a format byte, the second it was
 * issued, 64 random bits, the difficulty and the key of the client it was issued to (64 bits of a
 * hash of its address, see {@link #issue(long, long)}; 0 from {@link #issue(long)}). Every node of
 * the room opens what any node issued; no node keeps anything per challenge it issues. A <b>solution</b> is a nonce, 1 to {@value
 * #MAX_NONCE_LENGTH} characters out of {@code 0-9 a-z}, such that SHA-256 of the token's ASCII
 * characters followed by the nonce's has at least {@code difficulty} leading zero bits: about
 * 2<sup>difficulty</sup> hashes to find, one to check. {@link #verify} opens the token (one AEAD
 * decryption) and hashes once: microseconds (see {@code PowBenchmark} in {@code
 * benchmarks/README.md}).
 *
 * <p>A challenge is good for {@link #ttlSeconds()} after it was issued. Each node keeps the
 * challenges that were used to get a place (spent) until they expire, so that one challenge gets
 * at most one place per node: across N nodes without session affinity a solution can get up to N
 * places. The memory is bounded, and a full set never locks out honest newcomers: per {@code ttl}
 * window and node, the first {@value #MAX_SPENT} spent challenges are kept exactly (about 56 bytes
 * each), and any beyond in a Bloom filter of {@value #OVERFLOW_BITS} bits (2 MiB, allocated only
 * when needed), which refuses every replay and, wrongly, a small share of new challenges: about
 * 0.2 % after another million, 2 % after two million. (Before, a full set refused every newcomer
 * of that node until the window turned.) Two spends of one challenge racing on the filter in the
 * same instant may both count; the exact set has no such race.
 *
 * <p>Thread-safe.
 */
public final class ProofOfWork {
  /** The query parameter that carries a solved challenge to the gate: {@code <challenge>.<nonce>}. */
  public static final String PARAM = "waitingRoomProof";

  /** The value of the gate's status flag that asks for the challenge page's worker script, which solves the challenge. */
  public static final String WORKER = "pow-worker.js";

  /** How long a challenge is good for, from when it was issued. */
  public static final long DEFAULT_TTL_SECONDS = 600;

  /** The longest nonce accepted. */
  public static final int MAX_NONCE_LENGTH = 16;

  /** The most challenges one node remembers as spent per window of {@link #ttlSeconds()}. */
  public static final int MAX_SPENT = 1_000_000;

  /** The bits of the Bloom filter that takes a window's spent challenges beyond {@value #MAX_SPENT}. */
  public static final int OVERFLOW_BITS = 1 << 24;

  private static final int OVERFLOW_HASHES = 4;

  /** The highest difficulty: 2^32 hashes, hours on a phone. */
  public static final int MAX_DIFFICULTY = 32;

  /** 2: with the client's key (issue 42); a token of format 1 (without it) no longer opens. */
  private static final byte FORMAT = 2;
  private static final int PLAINTEXT = 1 + 8 + 8 + 1 + 8;

  private static final long MAX_SKEW_SECONDS = 30;
  private static final SecureRandom RANDOM = new SecureRandom();
  /** One SHA-256 per thread, for the proofs, for {@link ClientAddress} and for {@link #sha256Base64}. */
  static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException(e);
            }
          });

  /** SHA-256 of a text's UTF-8, in base64: a short key of fixed size for a token however long. */
  static String sha256Base64(String text) {
    return Base64.getEncoder().encodeToString(SHA256.get().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  private final Seal seal;
  private final int difficulty;
  private final long ttl;
  private final Object rotation = new Object();
  private final int maxSpent;
  private volatile Spent current;
  private volatile Spent previous;

  /**
   * The challenges of one window of issue times spent on this node: exactly up to {@value
   * #MAX_SPENT}, then in a Bloom filter made when first needed.
   */
  private static final class Spent {
    final long window;
    final int max;
    final Set<Long> ids = ConcurrentHashMap.newKeySet();
    final AtomicInteger size = new AtomicInteger();
    private volatile @Nullable AtomicLongArray overflow;

    Spent(long window, int max) {
      this.window = window;
      this.max = max;
    }

    /** Adds an id; whether it was not there before (the filter may wrongly say it was). */
    boolean add(long id) {
      if (ids.contains(id)) {
        return false;
      }
      AtomicLongArray o = overflow;
      if (o != null && present(o, id)) {
        return false;
      }
      if (size.get() < max) {
        if (ids.add(id)) {
          size.incrementAndGet();
          return true;
        }
        return false;
      }
      return addOverflow(id);
    }

    boolean contains(long id) {
      AtomicLongArray o = overflow;
      return ids.contains(id) || (o != null && present(o, id));
    }

    private boolean addOverflow(long id) {
      AtomicLongArray o = overflow;
      if (o == null) {
        synchronized (this) {
          o = overflow;
          if (o == null) {
            o = new AtomicLongArray(OVERFLOW_BITS / 64);
            overflow = o;
          }
        }
      }
      boolean fresh = false;
      long h = mix(id);
      for (int i = 0; i < OVERFLOW_HASHES; i++) {
        int bit = bit(h, i);
        long mask = 1L << (bit & 63);
        long before = o.getAndAccumulate(bit >>> 6, mask, (a, m) -> a | m);
        fresh |= (before & mask) == 0;
      }
      return fresh;
    }

    private static boolean present(AtomicLongArray o, long id) {
      long h = mix(id);
      for (int i = 0; i < OVERFLOW_HASHES; i++) {
        int bit = bit(h, i);
        if ((o.get(bit >>> 6) & (1L << (bit & 63))) == 0) {
          return false;
        }
      }
      return true;
    }

    /** The i-th bit of an id (double hashing over two halves of a 64-bit mix). */
    private static int bit(long h, int i) {
      int a = (int) h;
      int b = (int) (h >>> 32) | 1;
      return (a + i * b) & (OVERFLOW_BITS - 1);
    }

    private static long mix(long z) {
      z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
      z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
      return z ^ (z >>> 33);
    }
  }

  /**
   * Challenges of one room.
   *
   * @param seal the room's seal for challenges ({@code room.seal("pow")})
   * @param difficulty the leading zero bits a solution needs, 1 to {@value #MAX_DIFFICULTY}; 0 for
   *     challenges that only time the penalty (no solution is accepted)
   * @param ttlSeconds how long a challenge is good for, at least 10 s
   */
  public ProofOfWork(Seal seal, int difficulty, long ttlSeconds) {
    this(seal, difficulty, ttlSeconds, MAX_SPENT);
  }

  /** With another bound of the exact spent set than {@value #MAX_SPENT}: for tests. */
  ProofOfWork(Seal seal, int difficulty, long ttlSeconds, int maxSpent) {
    this.maxSpent = maxSpent;
    this.seal = Objects.requireNonNull(seal, "seal");
    if (difficulty < 0 || difficulty > MAX_DIFFICULTY) {
      throw new IllegalArgumentException(
          "proofOfWork difficulty must be 0 to " + MAX_DIFFICULTY + " bits but was " + difficulty);
    }
    if (ttlSeconds < 10) {
      throw new IllegalArgumentException("challenge ttl must be at least 10 s but was " + ttlSeconds);
    }
    this.difficulty = difficulty;
    this.ttl = ttlSeconds;
    this.current = new Spent(Long.MIN_VALUE, maxSpent);
    this.previous = new Spent(Long.MIN_VALUE, maxSpent);
  }

  /** An opened challenge: when it was issued, its random id, its difficulty and the key of its client. */
  record Challenge(String token, long issued, long id, int difficulty, long client) {
    /** Without a client (0): for tests. */
    Challenge(String token, long issued, long id, int difficulty) {
      this(token, issued, id, difficulty, 0);
    }
  }

  /**
   * The leading zero bits a solution needs.
   *
   * @return the difficulty
   */
  public int difficulty() {
    return difficulty;
  }

  /**
   * How long a challenge is good for after it was issued.
   *
   * @return seconds
   */
  public long ttlSeconds() {
    return ttl;
  }

  /**
   * Issues a challenge bound to no client (client key 0), as {@link #issue(long, long)}.
   *
   * @param now the epoch second it is issued at
   * @return the token, base64url (about 90 characters)
   */
  public String issue(long now) {
    return issue(now, 0);
  }

  /**
   * Issues a challenge for one client. The gate passes the key of the client's address and, when
   * the challenge comes back, gives it a place only if the key of that request's address is the
   * same: a challenge harvested through one address is worth nothing from another.
   *
   * @param now the epoch second it is issued at
   * @param client the client's key
   * @return the token, base64url (about 90 characters)
   */
  String issue(long now, long client) {
    ByteBuffer b = ByteBuffer.allocate(PLAINTEXT);
    b.put(FORMAT).putLong(now).putLong(RANDOM.nextLong()).put((byte) difficulty).putLong(client);
    return seal.seal(b.array());
  }

  /** Opens a token that this room issued and that has not expired at {@code now}, else {@code null}. */
  @Nullable Challenge open(@Nullable String token, long now) {
    byte[] p = seal.open(token);
    if (token == null || p == null || p.length != PLAINTEXT || p[0] != FORMAT) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(p);
    b.get();
    long issued = b.getLong();
    long id = b.getLong();
    int bits = b.get();
    long client = b.getLong();
    if (issued > now + MAX_SKEW_SECONDS || now - issued >= ttl || bits < 0 || bits > MAX_DIFFICULTY) {
      return null;
    }
    return new Challenge(token, issued, id, bits, client);
  }

  /**
   * Whether a nonce solves a challenge: this room issued it, it has not expired, and SHA-256 of
   * token and nonce has the challenge's leading zero bits. Does not spend it.
   *
   * @param token the challenge
   * @param nonce the solution
   * @param now the epoch second now
   * @return whether it is solved
   */
  public boolean verify(@Nullable String token, @Nullable String nonce, long now) {
    Challenge c = open(token, now);
    return c != null && solves(c.token(), nonce, c.difficulty());
  }

  /** Whether SHA-256(token || nonce) has {@code bits} leading zero bits (a well-formed nonce only). */
  static boolean solves(String token, @Nullable String nonce, int bits) {
    if (bits < 1 || nonce == null || nonce.isEmpty() || nonce.length() > MAX_NONCE_LENGTH) {
      return false;
    }
    for (int i = 0; i < nonce.length(); i++) {
      char ch = nonce.charAt(i);
      if (!(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z')) {
        return false;
      }
    }
    MessageDigest md = SHA256.get();
    md.update(token.getBytes(StandardCharsets.US_ASCII));
    md.update(nonce.getBytes(StandardCharsets.US_ASCII));
    return leadingZeroBits(md.digest()) >= bits;
  }

  static int leadingZeroBits(byte[] hash) {
    int n = 0;
    for (byte x : hash) {
      if (x == 0) {
        n += 8;
        continue;
      }
      return n + Integer.numberOfLeadingZeros(x & 0xff) - 24;
    }
    return n;
  }

  /**
   * Marks a challenge as used to get a place on this node.
   *
   * @return whether it had not been used here before (the Bloom filter of a window past {@value
   *     #MAX_SPENT} spends may wrongly say it had, rarely)
   */
  boolean spend(Challenge c, long now) {
    long window = Math.floorDiv(c.issued(), ttl);
    Spent cur = current;
    if (window > cur.window) {
      synchronized (rotation) {
        cur = current;
        if (window > cur.window) {
          previous = window == cur.window + 1 ? cur : new Spent(window - 1, maxSpent);
          cur = new Spent(window, maxSpent);
          current = cur;
        }
      }
    }
    Spent s = window == cur.window ? cur : window == cur.window - 1 ? previous : null;
    return s != null && s.window == window && s.add(c.id());
  }

  /** Whether a challenge has been used to get a place on this node. */
  boolean spent(Challenge c) {
    long window = Math.floorDiv(c.issued(), ttl);
    Spent cur = current;
    Spent s = window == cur.window ? cur : window == cur.window - 1 ? previous : null;
    return s != null && s.window == window && s.contains(c.id());
  }

  /**
   * Finds a solution by brute force, as the page's worker does: for tests and measurements.
   *
   * @param token the challenge
   * @param bits the difficulty
   * @return the first nonce, in base 36 from 0, that solves it
   */
  public static String solve(String token, int bits) {
    for (long n = 0; ; n++) {
      String nonce = Long.toString(n, 36);
      if (solves(token, nonce, bits)) {
        return nonce;
      }
    }
  }
}

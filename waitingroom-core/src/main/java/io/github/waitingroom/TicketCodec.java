package io.github.waitingroom;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyStatus;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.aead.AesGcmParameters;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Seals {@link TicketState}s into compact cookie values and opens them again. Thread-safe.
 *
 * <p>A sealed ticket is the base64url form (no padding) of a Tink AEAD ciphertext (AES-256-GCM
 * with the keysets of {@link TicketKeys}) over 30 bytes: a format version byte ({@value
 * Ticket#FORMAT_VERSION}), the state, the 64-bit place, accepted-at, last check-in and last
 * poll as unsigned 32-bit epoch seconds, the number of people ahead last shown (unsigned 32
 * bits), and the second by which a waiting holder is due to poll (unsigned 32 bits). The room id
 * is bound as associated data, so a ticket of one room never opens in another. With one key the
 * value is 84 characters long. Tickets of the third format (34 bytes, with a second since which
 * the holder was counted in a line before its due, which the admission rule no longer reads) and
 * of the second (26 bytes, without the due) still open, the second as counted in no line: a
 * waiting holder keeps its place through an upgrade. Tickets of the first format (version 1,
 * without a place) no longer open: their holders arrive anew.
 *
 * <p>The primary key of the keyset seals; every enabled key of the keyset opens. That is how keys
 * rotate (see {@link TicketKeys}, three phases). When every enabled key is an AES-GCM key with
 * Tink's prefix (the default), a ticket is sealed and opened with the JDK's AES-GCM cipher
 * directly, in Tink's format: the key's 5-byte prefix, a 12-byte nonce (each thread's nonces
 * start at a random 96-bit value and count up, so a seal takes no lock), the ciphertext and a
 * 16-byte tag. Tink opens what the codec seals and the other way round. That spares every request
 * Tink's lookup of the key by prefix and its copies; any other keyset seals and opens through
 * Tink.
 *
 * <p>{@link #open} never throws on bad input: a tampered, truncated, oversized, foreign-room,
 * wrong-key, future-dated or garbage value all come back as {@code null}, "no valid ticket".
 *
 * <p><b>How many tickets one key may seal.</b> AES-GCM with random 96-bit nonces is safe for
 * about 2<sup>32</sup> seals per key, counted over every node of the room. A node re-seals a
 * ticket at most once per slice per user and once per poll of a waiting user, so 2<sup>32</sup>
 * is about 8 days at 6,000 seals a second across the room. The codec counts its seals and logs a
 * warning each time this node alone passes another {@value #SEAL_WARNING_INTERVAL} seals with one
 * codec (a sixteenth of the bound; each sealing thread looks at the total every 1,024 seals):
 * rotate the keyset then ({@link TicketKeys}, three phases, no logouts), sooner with several
 * nodes. The alternative, XChaCha20-Poly1305 (192-bit nonces, no
 * practical bound), costs 809 ns a decrypt against AES-GCM's 383 ns (Tink, JDK 17; {@code
 * AeadChoiceBenchmark} in {@code benchmarks/README.md}): it would double the cost of every
 * admitted request, so AES-GCM stays the default; a keyset of XChaCha20-Poly1305 keys works all
 * the same, for rooms that would rather pay that than rotate.
 */
public final class TicketCodec {
  /** Values longer than this are rejected before any decoding. */
  public static final int MAX_SEALED_LENGTH = 256;

  /**
   * How far in the future a ticket's times may lie before it is rejected, to tolerate clock skew
   * between the nodes of a room.
   */
  public static final long MAX_CLOCK_SKEW_SECONDS = 30;

  private static final int PLAINTEXT_LENGTH = 30;
  private static final int VERSION_3_LENGTH = 34;
  private static final int VERSION_2_LENGTH = 26;
  private static final long MAX_U32 = 0xFFFF_FFFFL;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** Seals by one codec (one node, one keyset) between two warnings: 2^28, 1/16 of the bound. */
  public static final long SEAL_WARNING_INTERVAL = 1L << 28;

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(TicketCodec.class);

  private final Aead aead;
  /**
   * The enabled keys, when every one is an AES-GCM key with Tink's 5-byte prefix (the default):
   * {@link #open} then decrypts with the JDK's cipher itself, as Tink would (and {@link #seal}
   * encrypts under the primary one), without Tink's lookup
   * of the key by prefix (a copy of the prefix and a hash lookup on every request); {@code null}
   * for any other keyset, which Tink opens.
   */
  private final GcmKey @Nullable [] gcmKeys;
  /** The primary key among {@link #gcmKeys}, which seals; {@code null} when Tink seals. */
  private final @Nullable GcmKey gcmPrimary;
  private final byte[] associatedData;
  /** The output prefixes of the enabled keys, or {@code null} if one key is not an AEAD key. */
  private final java.util.@Nullable List<byte[]> prefixes;
  private final String roomId;
  private final long warnEvery;
  /** Where rejections are counted, or {@code null} for a codec of its own. */
  private final @Nullable RoomMetrics metrics;
  /**
   * The seals so far, striped: one shared counter would cost every seal a cache line passed
   * between the cores that seal (with two threads about 150 ns a seal, a third of its cost).
   */
  private final LongAdder seals = new LongAdder();
  /** How many seals a thread makes between two looks at the total: {@code min(1024, warnEvery)}. */
  private final int lookEvery;
  /** This thread's seals with this codec since it last looked at the total. */
  private final ThreadLocal<int[]> sinceLook = ThreadLocal.withInitial(() -> new int[1]);
  /** The total at which the next warning is due. */
  private final AtomicLong nextWarning;

  /**
   * A codec for one room.
   *
   * @param roomId the room the tickets belong to (bound as associated data)
   * @param keys an AEAD keyset, e.g. from {@link TicketKeys#generate()}
   * @throws IllegalArgumentException if the keyset holds no AEAD primary key
   */
  public TicketCodec(String roomId, KeysetHandle keys) {
    this(roomId, keys, SEAL_WARNING_INTERVAL, null);
  }

  /** A room's codec: it counts the tickets it rejects, and why, in {@code metrics}. */
  TicketCodec(String roomId, KeysetHandle keys, long warnEvery, @Nullable RoomMetrics metrics) {
    Objects.requireNonNull(roomId, "roomId");
    this.roomId = roomId;
    this.warnEvery = warnEvery;
    this.lookEvery = (int) Math.min(1024, warnEvery);
    this.nextWarning = new AtomicLong(warnEvery);
    this.metrics = metrics;
    this.aead = TicketKeys.aead(keys);
    this.gcmKeys = gcmKeys(keys);
    this.gcmPrimary = primary(gcmKeys, keys);
    this.prefixes = prefixes(keys);
    this.associatedData = ("waitingroom/" + roomId).getBytes(StandardCharsets.UTF_8);
  }

  private static java.util.@Nullable List<byte[]> prefixes(KeysetHandle keys) {
    try {
      return TicketKeys.prefixes(keys, true);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** An enabled AES-GCM key: the prefix of its ciphertexts and its key for the JDK's cipher. */
  private record GcmKey(byte[] prefix, SecretKeySpec key) {}

  private static final int GCM_IV = 12;
  private static final int GCM_TAG = 16;
  private static final ThreadLocal<Cipher> GCM =
      ThreadLocal.withInitial(() -> {
        try {
          return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
          throw new IllegalStateException("the JDK has no AES/GCM/NoPadding cipher", e);
        }
      });

  @com.google.crypto.tink.AccessesPartialKey
  private static GcmKey @Nullable [] gcmKeys(KeysetHandle keys) {
    java.util.List<GcmKey> out = new java.util.ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      KeysetHandle.Entry e = keys.getAt(i);
      if (e.getStatus() != KeyStatus.ENABLED) {
        continue;
      }
      if (!(e.getKey() instanceof AesGcmKey k)
          || k.getParameters().getVariant() != AesGcmParameters.Variant.TINK
          || k.getParameters().getIvSizeBytes() != GCM_IV
          || k.getParameters().getTagSizeBytes() != GCM_TAG) {
        return null;
      }
      out.add(new GcmKey(k.getOutputPrefix().toByteArray(),
          new SecretKeySpec(k.getKeyBytes().toByteArray(InsecureSecretKeyAccess.get()), "AES")));
    }
    return out.toArray(GcmKey[]::new);
  }

  /** The key among {@code gcm} that seals: the keyset's primary, found by its prefix. */
  private static @Nullable GcmKey primary(GcmKey @Nullable [] gcm, KeysetHandle keys) {
    if (gcm == null) {
      return null;
    }
    byte[] prefix = ((AesGcmKey) keys.getPrimary().getKey()).getOutputPrefix().toByteArray();
    for (GcmKey k : gcm) {
      if (Arrays.equals(k.prefix, prefix)) {
        return k;
      }
    }
    throw new IllegalArgumentException("the keyset's primary key is not enabled");
  }

  /**
   * The nonces of one thread's seals: a random 96-bit start (from Tink's random source), then one
   * more for each seal. One thread never repeats a nonce, and two threads' (or nodes') nonces meet
   * only if their random starts lie within as many seals of each other: less likely than two
   * random nonces colliding, so the bound of about 2<sup>32</sup> seals per key (above) stays a
   * conservative one. A seal so takes no lock and makes no system call (the JDK's default random
   * source reads {@code /dev/urandom} under a lock all threads share).
   */
  private static final class Nonces {
    private final int high;
    private long low;

    Nonces() {
      byte[] start = com.google.crypto.tink.subtle.Random.randBytes(GCM_IV);
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(start);
      high = b.getInt();
      low = b.getLong();
    }

    /** Writes the next nonce at {@code out[at..at+12)}. */
    void next(byte[] out, int at) {
      long n = low++;
      putU32(out, at, high & MAX_U32);
      putU32(out, at + 4, n >>> 32);
      putU32(out, at + 8, n & MAX_U32);
    }
  }

  private static final ThreadLocal<Nonces> NONCES = ThreadLocal.withInitial(Nonces::new);

  /** Encrypts a ticket's bytes: with the JDK's cipher under the primary key for an AES-GCM keyset, with Tink otherwise. */
  private byte[] encrypt(byte[] plain) throws GeneralSecurityException {
    GcmKey k = gcmPrimary;
    if (k == null) {
      return aead.encrypt(plain, associatedData);
    }
    int at = k.prefix.length;
    byte[] out = new byte[at + GCM_IV + plain.length + GCM_TAG];
    System.arraycopy(k.prefix, 0, out, 0, at);
    NONCES.get().next(out, at);
    Cipher cipher = GCM.get();
    cipher.init(Cipher.ENCRYPT_MODE, k.key, new GCMParameterSpec(8 * GCM_TAG, out, at, GCM_IV));
    cipher.updateAAD(associatedData);
    cipher.doFinal(plain, 0, plain.length, out, at + GCM_IV);
    return out;
  }

  /**
   * Counts a rejected value: foreign if it is long enough for a ticket and carries a Tink key
   * prefix that no enabled key has, forged otherwise.
   */
  private void reject(byte @Nullable [] sealed) {
    RoomMetrics m = metrics;
    if (m == null) {
      return;
    }
    boolean foreign = sealed != null && prefixes != null
        && TicketKeys.sealedWithOtherKey(prefixes, sealed, 5 + GCM_IV + GCM_TAG + VERSION_2_LENGTH);
    m.recordRejection(foreign ? RoomMetrics.Rejection.FOREIGN : RoomMetrics.Rejection.FORGED);
  }

  /** Decrypts a sealed value: with the JDK's cipher for an AES-GCM keyset, with Tink otherwise. */
  private byte[] decrypt(byte[] sealed) throws GeneralSecurityException {
    GcmKey[] gcm = gcmKeys;
    if (gcm == null) {
      return aead.decrypt(sealed, associatedData);
    }
    for (GcmKey k : gcm) {
      int at = k.prefix.length;
      if (sealed.length >= at + GCM_IV + GCM_TAG && Arrays.equals(sealed, 0, at, k.prefix, 0, at)) {
        Cipher cipher = GCM.get();
        cipher.init(Cipher.DECRYPT_MODE, k.key, new GCMParameterSpec(8 * GCM_TAG, sealed, at, GCM_IV));
        cipher.updateAAD(associatedData);
        return cipher.doFinal(sealed, at + GCM_IV, sealed.length - at - GCM_IV);
      }
    }
    throw new GeneralSecurityException("no enabled key of the keyset has this prefix");
  }

  /**
   * Seals a ticket.
   *
   * @throws IllegalArgumentException if a time does not fit an unsigned 32-bit epoch second
   */
  public String seal(Ticket ticket) {
    return seal(TicketState.of(ticket));
  }

  String seal(TicketState ticket) {
    byte[] plain = new byte[PLAINTEXT_LENGTH];
    plain[0] = (byte) Ticket.FORMAT_VERSION;
    plain[1] = (byte) ticket.state().ordinal();
    putU32(plain, 2, ticket.place() >>> 32);
    putU32(plain, 6, ticket.place() & MAX_U32);
    putU32(plain, 10, ticket.acceptedAt());
    putU32(plain, 14, ticket.lastCheckIn());
    putU32(plain, 18, ticket.lastPoll());
    putU32(plain, 22, ticket.aheadShown());
    putU32(plain, 26, ticket.due());
    String sealed;
    try {
      sealed = ENCODER.encodeToString(encrypt(plain));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot seal ticket", e);
    }
    seals.increment();
    int[] since = sinceLook.get();
    if (++since[0] == lookEvery) {
      since[0] = 0;
      warnIfDue();
    }
    return sealed;
  }

  /**
   * Logs the warning once for each multiple of {@code warnEvery} the seals so far have reached. A
   * thread that loses the race for one warning looks again: another thread's look may have come
   * before the seals reached the next multiple, and this one may be the last to look for a while.
   */
  private void warnIfDue() {
    for (long due = nextWarning.get(); seals.sum() >= due; due = nextWarning.get()) {
      if (nextWarning.compareAndSet(due, due + warnEvery)) {
        log.warn("room '{}': this node has sealed {} tickets with its keyset since it started; AES-GCM keys are safe"
            + " for about 2^32 seals across all nodes: rotate the keyset (TicketKeys: add, promote, retire)",
            roomId, due);
      }
    }
  }

  /** How many tickets this codec has sealed. */
  public long seals() {
    return seals.sum();
  }

  /**
   * Opens a sealed ticket.
   *
   * @param value the cookie value, or {@code null} when the request carries none
   * @param now the current epoch second; tickets dated after it (beyond {@link
   *     #MAX_CLOCK_SKEW_SECONDS}) are rejected
   * @return the ticket, or {@code null} if the value is missing or not a valid ticket of this room
   */
  public @Nullable Ticket open(@Nullable String value, long now) {
    return openState(value, now);
  }

  /** {@link #open}, with what the room wrote about the holder's polls. */
  @Nullable TicketState openState(@Nullable String value, long now) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    if (value.length() > MAX_SEALED_LENGTH || !canonical(value)) {
      reject(null);
      return null;
    }
    byte[] sealed = null;
    byte[] plain;
    try {
      sealed = DECODER.decode(value);
      plain = decrypt(sealed);
    } catch (GeneralSecurityException | RuntimeException e) {
      reject(sealed);
      return null;
    }
    boolean current = plain.length == PLAINTEXT_LENGTH && plain[0] == Ticket.FORMAT_VERSION;
    boolean third = plain.length == VERSION_3_LENGTH && plain[0] == 3;
    boolean second = plain.length == VERSION_2_LENGTH && plain[0] == 2;
    if (!(current || third || second) || plain[1] < 0 || plain[1] > 1) {
      reject(null);
      return null;
    }
    Ticket.State state = plain[1] == 0 ? Ticket.State.WAITING : Ticket.State.ACTIVE;
    long place = (getU32(plain, 2) << 32) | getU32(plain, 6);
    long arrival = Ticket.arrivalOf(place);
    long acceptedAt = getU32(plain, 10);
    long lastCheckIn = getU32(plain, 14);
    long lastPoll = getU32(plain, 18);
    long aheadShown = getU32(plain, 22);
    long due = current ? getU32(plain, 26) : third ? getU32(plain, 30) : 0;
    boolean consistent =
        arrival <= lastPoll
            && lastPoll <= lastCheckIn
            && lastCheckIn <= now + MAX_CLOCK_SKEW_SECONDS
            && (state == Ticket.State.WAITING
                ? acceptedAt == 0
                : acceptedAt >= lastPoll && acceptedAt <= lastCheckIn && due == 0);
    if (!consistent) {
      reject(null);
      return null;
    }
    return new TicketState(state, place, acceptedAt, lastCheckIn, lastPoll, aheadShown, due);
  }

  /**
   * Whether {@code value} is spelled as {@link #seal} spells it: base64url without padding, and
   * the bits of its last character that encode no byte all zero. The JDK's decoder also takes
   * padding and ignores those bits, which gave one ticket 32 spellings.
   */
  static boolean canonical(String value) {
    int rest = value.length() % 4;
    if (rest == 0) {
      return value.charAt(value.length() - 1) != '=';
    }
    char last = value.charAt(value.length() - 1);
    int bits = last >= 'A' && last <= 'Z' ? last - 'A'
        : last >= 'a' && last <= 'z' ? last - 'a' + 26
        : last >= '0' && last <= '9' ? last - '0' + 52
        : last == '-' ? 62 : last == '_' ? 63 : -1;
    return rest != 1 && bits >= 0 && (bits & (rest == 2 ? 0x0F : 0x03)) == 0;
  }

  private static void putU32(byte[] out, int at, long value) {
    if (value < 0 || value > MAX_U32) {
      throw new IllegalArgumentException("ticket time out of range: " + value);
    }
    out[at] = (byte) (value >>> 24);
    out[at + 1] = (byte) (value >>> 16);
    out[at + 2] = (byte) (value >>> 8);
    out[at + 3] = (byte) value;
  }

  private static long getU32(byte[] in, int at) {
    return ((in[at] & 0xFFL) << 24)
        | ((in[at + 1] & 0xFFL) << 16)
        | ((in[at + 2] & 0xFFL) << 8)
        | (in[at + 3] & 0xFFL);
  }
}

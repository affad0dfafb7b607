package io.github.waitingroom;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyStatus;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AeadKey;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Creates, loads and rotates the Tink keysets that seal {@link TicketState}s.
 *
 * <p>Every node of a room must be able to open every ticket in circulation. The primary key of a
 * keyset seals new tickets; every enabled key opens them. A key id is shown unsigned, as Tinkey
 * shows it.
 *
 * <h2>Rotating keys during a rolling deploy</h2>
 *
 * <p>Rotate in three phases, each rolled out to every node before the next one starts. Users are
 * neither logged out nor moved back at any moment, whichever mix of old and new nodes they reach:
 *
 * <ol>
 *   <li><b>Add</b>: {@link #addKey} adds a new key that is <em>not</em> primary. Nodes with this
 *       keyset still seal with the old key, so nodes that do not have it yet can open everything.
 *   <li><b>Promote</b>: {@link #promote} makes the new key primary. Nodes with this keyset seal
 *       with the new key, which every node already opens (phase 1); the old key still opens.
 *   <li><b>Retire</b>: once every node runs phase 2 <em>and</em> the store's retention has passed
 *       since (the longest of the session duration, the waiting timeout and two minutes, plus two
 *       slices: tickets are re-sealed as users come back, and a ticket that was not has expired by
 *       then, as have the values in the store that nodes sealed with the old key), {@link #retire}
 *       deletes the old key (or {@link #disable} keeps it in the keyset but refuses its tickets).
 *       Retired sooner, a node plans nothing new until those values expire.
 * </ol>
 *
 * <p>A leaked key: add a new key, promote it and {@link #disable} (or retire) the leaked one in one
 * keyset, and deploy it as fast as possible. Tickets sealed with the leaked key are refused on the
 * first request to a node that runs the new keyset (their holders become new arrivals), which is
 * the point.
 *
 * <p>There is no one-step rotation (add and promote together): during a rolling deploy, nodes still
 * on the old keyset could open neither the tickets nor the reports that updated nodes seal. Nodes
 * that meet a report sealed with a key they lack stop planning (an error in the log, {@link
 * RoomStatus#plansStalled()}) rather than split the room, and admit nobody new until the keysets
 * overlap again.
 *
 * <p>The JSON here is the cleartext keyset: keep it where you keep other secrets.
 */
public final class TicketKeys {
  static {
    try {
      AeadConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private TicketKeys() {}

  /**
   * The AEAD of a keyset: its primary key seals, every key opens. What tickets ({@link
   * TicketCodec}) and the values a node writes to the store ({@code ReportSeal}) are sealed with.
   *
   * @throws IllegalArgumentException if the keyset holds no AEAD primary key
   */
  public static Aead aead(KeysetHandle keys) {
    Objects.requireNonNull(keys, "keys");
    try {
      return keys.getPrimitive(RegistryConfiguration.get(), Aead.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the room's keyset must be an AEAD keyset (AES-256-GCM by default): " + e.getMessage(), e);
    }
  }

  /** A new keyset with one AES-256-GCM key. */
  public static KeysetHandle generate() {
    try {
      return KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate an AES-256-GCM key", e);
    }
  }

  /**
   * Loads a cleartext keyset written by {@link #toJson} or by Tinkey ({@code tinkey
   * create-keyset --key-template AES256_GCM}).
   *
   * @throws IllegalArgumentException if the text is not a Tink JSON keyset
   */
  public static KeysetHandle fromJson(String json) {
    Objects.requireNonNull(json, "json");
    try {
      return TinkJsonProtoKeysetFormat.parseKeyset(json, InsecureSecretKeyAccess.get());
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("not a Tink JSON keyset: " + e.getMessage(), e);
    }
  }

  /** Writes the keyset as cleartext JSON, the form {@link #fromJson} reads. */
  public static String toJson(KeysetHandle keys) {
    try {
      return TinkJsonProtoKeysetFormat.serializeKeyset(keys, InsecureSecretKeyAccess.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot serialize keyset: " + e.getMessage(), e);
    }
  }

  /**
   * Rotation phase 1: the keyset with a new enabled key of the primary's kind added at the end,
   * <em>not</em> primary, so the old primary goes on sealing. Find its id with {@link #newestKeyId}.
   */
  public static KeysetHandle addKey(KeysetHandle keys) {
    Objects.requireNonNull(keys, "keys");
    try {
      return KeysetHandle.newBuilder(keys)
          .addEntry(
              KeysetHandle.generateEntryFromParameters(keys.getPrimary().getKey().getParameters())
                  .withRandomId()
                  .setStatus(KeyStatus.ENABLED))
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot add a key to the keyset", e);
    }
  }

  /**
   * Rotation phase 2: the keyset with {@code keyId} as its primary key, which seals every new
   * ticket from then on; the former primary stays enabled and still opens tickets. Promoting the
   * primary changes nothing.
   *
   * @throws IllegalArgumentException if the keyset has no such key, or it is disabled
   */
  public static KeysetHandle promote(KeysetHandle keys, int keyId) {
    int at = indexOf(keys, keyId);
    if (keys.getAt(at).getStatus() != KeyStatus.ENABLED) {
      throw new IllegalArgumentException(
          "cannot promote key " + id(keyId) + ": it is " + status(keys.getAt(at).getStatus())
              + "; enable it first");
    }
    KeysetHandle.Builder b = KeysetHandle.newBuilder(keys);
    b.getAt(at).makePrimary();
    return build(b);
  }

  /**
   * Rotation phase 3, or a leaked key: the keyset with {@code keyId} disabled. Its tickets no longer
   * open (on every node that runs the new keyset, from its next request), but the key stays in the
   * keyset and {@link #enable} brings it back.
   *
   * @throws IllegalArgumentException if the keyset has no such key, or it is the primary
   */
  public static KeysetHandle disable(KeysetHandle keys, int keyId) {
    int at = checkNotPrimary(keys, keyId, "disable");
    KeysetHandle.Builder b = KeysetHandle.newBuilder(keys);
    b.getAt(at).setStatus(KeyStatus.DISABLED);
    return build(b);
  }

  /**
   * Undoes {@link #disable}: the keyset with {@code keyId} enabled again, so its tickets open again.
   *
   * @throws IllegalArgumentException if the keyset has no such key
   */
  public static KeysetHandle enable(KeysetHandle keys, int keyId) {
    int at = indexOf(keys, keyId);
    KeysetHandle.Builder b = KeysetHandle.newBuilder(keys);
    b.getAt(at).setStatus(KeyStatus.ENABLED);
    return build(b);
  }

  /**
   * Rotation phase 3: the keyset without {@code keyId}. Its tickets no longer open, for good.
   *
   * @throws IllegalArgumentException if the keyset has no such key, or it is the primary
   */
  public static KeysetHandle retire(KeysetHandle keys, int keyId) {
    int at = checkNotPrimary(keys, keyId, "retire");
    KeysetHandle.Builder b = KeysetHandle.newBuilder(keys);
    b.deleteAt(at);
    return build(b);
  }

  /** The id of the key that seals new tickets. */
  public static int primaryKeyId(KeysetHandle keys) {
    return keys.getPrimary().getId();
  }

  /** The id of the key added last (by {@link #addKey}). */
  public static int newestKeyId(KeysetHandle keys) {
    return keys.getAt(keys.size() - 1).getId();
  }

  /** The ids of all keys of the keyset, enabled or not, in keyset order. */
  public static List<Integer> keyIds(KeysetHandle keys) {
    List<Integer> ids = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      ids.add(keys.getAt(i).getId());
    }
    return List.copyOf(ids);
  }

  /**
   * The output prefixes of the keyset's keys (Tink's 5 bytes: {@code 0x01} or {@code 0x00} and the
   * key id; empty for a key without one), for {@link #sealedWithOtherKey}: of its enabled keys
   * only, or of all of them, disabled ones included.
   *
   * @throws IllegalArgumentException if such a key is not an AEAD key
   */
  public static List<byte[]> prefixes(KeysetHandle keys, boolean enabledOnly) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      KeysetHandle.Entry e = keys.getAt(i);
      if (e.getStatus() == KeyStatus.ENABLED || !enabledOnly) {
        if (!(e.getKey() instanceof AeadKey k)) {
          throw new IllegalArgumentException("not an AEAD key: key " + id(e.getId()));
        }
        out.add(k.getOutputPrefix().toByteArray());
      }
    }
    return List.copyOf(out);
  }

  /**
   * Whether a ciphertext of at least {@code minLength} bytes starts with a Tink key prefix that
   * none of {@code prefixes} ({@link #prefixes}) is: sealed with a key the keyset lacks (a
   * retired key, another keyset), as far as its first bytes tell. They are not authenticated:
   * anyone can write such bytes.
   */
  public static boolean sealedWithOtherKey(List<byte[]> prefixes, byte[] sealed, int minLength) {
    if (sealed.length < Math.max(minLength, 5) || (sealed[0] != 0 && sealed[0] != 1)) {
      return false;
    }
    for (byte[] p : prefixes) {
      if (Arrays.equals(sealed, 0, p.length, p, 0, p.length)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The keyset's keys and their states, without key material, for logs: {@code key 123 (primary),
   * key 456 (disabled)}; an enabled key that is not primary shows no state.
   */
  public static String describe(KeysetHandle keys) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < keys.size(); i++) {
      KeysetHandle.Entry e = keys.getAt(i);
      if (i > 0) {
        out.append(", ");
      }
      out.append("key ").append(id(e.getId()));
      if (e.isPrimary()) {
        out.append(" (primary)");
      } else if (e.getStatus() != KeyStatus.ENABLED) {
        out.append(" (").append(status(e.getStatus())).append(')');
      }
    }
    return out.toString();
  }

  private static int checkNotPrimary(KeysetHandle keys, int keyId, String action) {
    int at = indexOf(keys, keyId);
    if (keys.getAt(at).isPrimary()) {
      throw new IllegalArgumentException(
          "cannot " + action + " key " + id(keyId) + ": it is the primary key; promote another key first");
    }
    return at;
  }

  private static int indexOf(KeysetHandle keys, int keyId) {
    Objects.requireNonNull(keys, "keys");
    for (int i = 0; i < keys.size(); i++) {
      if (keys.getAt(i).getId() == keyId) {
        return i;
      }
    }
    throw new IllegalArgumentException("the keyset has no key " + id(keyId) + "; it has: " + describe(keys));
  }

  private static KeysetHandle build(KeysetHandle.Builder b) {
    try {
      return b.build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the keyset: " + e.getMessage(), e);
    }
  }

  private static String id(int keyId) {
    return Integer.toUnsignedString(keyId);
  }

  private static String status(KeyStatus s) {
    return s == KeyStatus.DISABLED ? "disabled" : s == KeyStatus.DESTROYED ? "destroyed" : "enabled";
  }
}

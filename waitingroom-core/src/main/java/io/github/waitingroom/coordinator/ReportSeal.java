package io.github.waitingroom.coordinator;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.TicketKeys;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Authenticates what the nodes of a room write to the store, with the room's ticket keys: only a
 * holder of the keys can write a report, a data center's sum or a join marker that any node will
 * read. A store that anyone else can write to (a shared Redis, a compromised client) can then
 * neither open a room (a report of -1,000,000 active users) nor freeze it (one of +1,000,000).
 *
 * <p>The tag is the room's AEAD (AES-256-GCM by default) over an empty message, with the room, the
 * scope, the name and the whole report as associated data (GMAC), so a report cannot be moved to
 * another room, scope or name. Sealed bytes are {@code <tag, base64url>.<report>}. Key rotation
 * works as for tickets ({@link TicketKeys}): a node verifies a tag made by any key of its keyset.
 * Immutable and thread-safe.
 */
public final class ReportSeal {
  private static final byte SEPARATOR = '.';
  private static final byte[] EMPTY = new byte[0];

  /**
   * The longest sealed value that may open: the longest report ({@link ReportCodec#MAX_BYTES}) and
   * room for its tag. A longer value is refused before any work on it (no base64, no MAC), and the
   * Redis transport's script deletes it unread.
   */
  public static final int MAX_SEALED_BYTES = ReportCodec.MAX_BYTES + 256;

  /** The shortest tag with a key prefix: the prefix and a 16-byte GMAC tag. */
  private static final int MIN_TAG = 5 + 16;

  private final Aead aead;
  private final List<byte[]> prefixes;
  private final byte[] room;

  /**
   * @param keys the room's ticket keyset (an AEAD keyset)
   * @param roomId the room whose reports these are
   * @throws IllegalArgumentException if the keyset holds no AEAD primary key
   */
  public ReportSeal(KeysetHandle keys, String roomId) {
    Objects.requireNonNull(roomId, "roomId");
    this.aead = TicketKeys.aead(keys);
    this.prefixes = TicketKeys.prefixes(keys, false);
    this.room = ("waitingroom-report/" + roomId).getBytes(StandardCharsets.UTF_8);
  }

  /** Seals a report written under {@code name} in {@code scope}. */
  public byte[] seal(String scope, String name, byte[] report) {
    try {
      byte[] tag = Base64.getUrlEncoder().withoutPadding().encode(aead.encrypt(EMPTY, associated(scope, name, report)));
      byte[] out = Arrays.copyOf(tag, tag.length + 1 + report.length);
      out[tag.length] = SEPARATOR;
      System.arraycopy(report, 0, out, tag.length + 1, report.length);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot seal a report: " + e.getMessage(), e);
    }
  }

  /**
   * The report sealed in {@code sealed}, or {@code null} if it was not sealed with a key of this
   * room's keyset for this scope and name (garbage, a forgery, another room's report, a report
   * moved to another name, or a value longer than {@link #MAX_SEALED_BYTES}).
   */
  public byte @Nullable [] open(String scope, String name, byte[] sealed) {
    int dot = sealed.length > MAX_SEALED_BYTES ? -1 : dot(sealed);
    if (dot <= 0) {
      return null;
    }
    try {
      byte[] tag = Base64.getUrlDecoder().decode(Arrays.copyOf(sealed, dot));
      byte[] report = Arrays.copyOfRange(sealed, dot + 1, sealed.length);
      aead.decrypt(tag, associated(scope, name, report));
      return report;
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Whether a value that does not {@link #open} is shaped as sealed with a key this keyset lacks:
   * its tag starts with the Tink prefix of no key of this keyset, enabled or disabled (what a
   * disabled key sealed is ignored, as a leaked key's should be). That is what the values of a
   * node with another keyset look like (the new key promoted before every node had it); anyone
   * who can write to the store can write such bytes too.
   */
  public boolean sealedWithOtherKey(byte[] sealed) {
    int dot = dot(sealed);
    if (dot <= 0) {
      return false;
    }
    try {
      return TicketKeys.sealedWithOtherKey(prefixes, Base64.getUrlDecoder().decode(Arrays.copyOf(sealed, dot)), MIN_TAG);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Where the tag ends: the first separator within the first 256 bytes, or -1. */
  private static int dot(byte[] sealed) {
    for (int i = 0; i < Math.min(sealed.length, 256); i++) {
      if (sealed[i] == SEPARATOR) {
        return i;
      }
    }
    return -1;
  }

  private byte[] associated(String scope, String name, byte[] report) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(room.length + scope.length() + name.length() + report.length + 3);
    out.writeBytes(room);
    out.write(0);
    out.writeBytes(scope.getBytes(StandardCharsets.UTF_8));
    out.write(0);
    out.writeBytes(name.getBytes(StandardCharsets.UTF_8));
    out.write(0);
    out.writeBytes(report);
    return out.toByteArray();
  }
}

package io.github.waitingroom;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Seals short values with a room's ticket keys (Tink AEAD, AES-256-GCM by default), bound to the
 * room and to one purpose as associated data: a value sealed by any node of the room opens on
 * every node that has the same keyset (key rotation works as for tickets, see {@link TicketKeys}),
 * and never as a ticket, as another purpose's value or in another room. Sealed values are
 * base64url without padding, fit for a cookie or a URL. Immutable and thread-safe; made by {@link
 * WaitingRoom#seal(String)}.
 */
public final class Seal {
  /** Sealed values longer than this are refused before any decoding. */
  public static final int MAX_SEALED_LENGTH = 512;

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final Aead aead;
  private final byte[] associatedData;

  Seal(KeysetHandle keys, String roomId, String purpose) {
    Objects.requireNonNull(roomId, "roomId");
    Objects.requireNonNull(purpose, "purpose");
    this.aead = TicketKeys.aead(keys);
    this.associatedData = ("waitingroom-" + purpose + "/" + roomId).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Seals bytes.
   *
   * @param plaintext what to seal (a few dozen bytes)
   * @return the sealed value, base64url without padding
   */
  public String seal(byte[] plaintext) {
    try {
      return ENCODER.encodeToString(aead.encrypt(plaintext, associatedData));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot seal: " + e.getMessage(), e);
    }
  }

  /**
   * Opens a sealed value. Never throws on bad input.
   *
   * @param sealed a value of {@link #seal}, or anything else
   * @return the bytes sealed, or {@code null} when {@code sealed} was not sealed by this room's keys
   *     for this purpose (garbage, a forgery, too long, another purpose's or room's value)
   */
  public byte @Nullable [] open(@Nullable String sealed) {
    if (sealed == null || sealed.isEmpty() || sealed.length() > MAX_SEALED_LENGTH) {
      return null;
    }
    try {
      return aead.decrypt(DECODER.decode(sealed), associatedData);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return null;
    }
  }
}

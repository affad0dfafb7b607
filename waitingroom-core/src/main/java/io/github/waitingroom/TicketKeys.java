package io.github.waitingroom;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import java.util.Objects;

/**
 * Creates, loads and rotates the Tink keysets that seal {@link Ticket}s.
 *
 * <p>Every node of a room must hold the same keyset. Rotation is two steps: {@link #rotate} adds a
 * new primary key (new tickets are sealed with it; tickets sealed with older keys still open);
 * once every old ticket has expired (the session duration and the waiting timeout have passed),
 * remove the old key with {@link KeysetHandle.Builder#deleteAt(int)}.
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

  /** Makes sure the AEAD key managers are registered (done once, by the static initializer). */
  static void register() {}

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

  /** The keyset with a new AES-256-GCM primary key added; all existing keys still open tickets. */
  public static KeysetHandle rotate(KeysetHandle keys) {
    try {
      return KeysetHandle.newBuilder(keys)
          .addEntry(
              KeysetHandle.generateEntryFromParameters(PredefinedAeadParameters.AES256_GCM)
                  .withRandomId()
                  .makePrimary())
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot add a key to the keyset", e);
    }
  }
}

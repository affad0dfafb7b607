package io.github.waitingroom.benchmarks;

import io.github.waitingroom.Ticket;
import io.github.waitingroom.TicketCodec;
import io.github.waitingroom.TicketKeys;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The floor every cookie-checking design pays: base64url-decode a cookie of the same length as a
 * sealed ticket and decrypt it once with the JDK's own AES-256-GCM {@link Cipher}, reused across
 * calls (the cheapest the JDK allows). No parsing, no checks, no counting. The hot path of {@link
 * DecideBenchmark} is reported as a ratio to this.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AesGcmFloorBenchmark {
  private static final int IV = 12;
  private static final int TAG = 16;
  private static final int PLAINTEXT = 22;
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private Cipher cipher;
  private SecretKeySpec key;
  private byte[] aad;
  private String cookie;
  private int prefix;

  /** Builds a cookie with exactly the length of a sealed ticket (Tink's key-id prefix included). */
  @Setup
  public void setup() throws GeneralSecurityException {
    String ticket =
        new TicketCodec("bench", TicketKeys.generate())
            .seal(Ticket.active(Ticket.place(1_796_032_740L, 0x1234_5678), 1_796_032_800L, 1_796_032_805L));
    int length = DECODER.decode(ticket).length;
    prefix = length - IV - PLAINTEXT - TAG;
    SecureRandom random = new SecureRandom();
    byte[] raw = new byte[32];
    random.nextBytes(raw);
    key = new SecretKeySpec(raw, "AES");
    aad = "waitingroom/bench".getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[length];
    random.nextBytes(out); // the prefix and the nonce
    Cipher enc = Cipher.getInstance("AES/GCM/NoPadding");
    enc.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG * 8, out, prefix, IV));
    enc.updateAAD(aad);
    int written = enc.doFinal(new byte[PLAINTEXT], 0, PLAINTEXT, out, prefix + IV);
    if (written != PLAINTEXT + TAG) {
      throw new IllegalStateException("unexpected GCM output length " + written);
    }
    cookie = Base64.getUrlEncoder().withoutPadding().encodeToString(out);
    if (cookie.length() != ticket.length()) {
      throw new IllegalStateException(
          "floor cookie has " + cookie.length() + " characters, a ticket " + ticket.length());
    }
    cipher = Cipher.getInstance("AES/GCM/NoPadding");
  }

  /** Base64url-decodes the cookie and decrypts it with a reused JDK cipher. */
  @Benchmark
  public byte[] decrypt() throws GeneralSecurityException {
    byte[] in = DECODER.decode(cookie);
    cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG * 8, in, prefix, IV));
    cipher.updateAAD(aad);
    return cipher.doFinal(in, prefix + IV, in.length - prefix - IV);
  }
}

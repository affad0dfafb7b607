package io.github.waitingroom.benchmarks;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeyTemplates;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The choice of the ticket AEAD (issue 13): Tink's AES-256-GCM (random 96-bit nonces, safe for
 * about 2^32 seals per key) against XChaCha20-Poly1305 (192-bit nonces, no practical bound), one
 * decrypt and one encrypt of a ticket-sized message (26 bytes) with the room id as associated
 * data, as {@code TicketCodec} does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AeadChoiceBenchmark {
  @Param({"AES256_GCM", "XCHACHA20_POLY1305"})
  public String template = "AES256_GCM";

  private Aead aead;
  private byte[] aad;
  private byte[] plain;
  private byte[] sealed;

  @Setup
  public void setup() throws GeneralSecurityException {
    AeadConfig.register();
    aead = KeysetHandle.generateNew(KeyTemplates.get(template)).getPrimitive(RegistryConfiguration.get(), Aead.class);
    aad = "waitingroom/bench".getBytes(StandardCharsets.UTF_8);
    plain = new byte[26];
    sealed = aead.encrypt(plain, aad);
  }

  /** What every admitted request pays. */
  @Benchmark
  public byte[] decrypt() throws GeneralSecurityException {
    return aead.decrypt(sealed, aad);
  }

  /** What a re-issued ticket pays. */
  @Benchmark
  public byte[] encrypt() throws GeneralSecurityException {
    return aead.encrypt(plain, aad);
  }
}

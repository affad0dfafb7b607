package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.TicketKeys;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ReportSealTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final byte[] REPORT = "{\"v\":3,\"publisher\":\"a#1\"}".getBytes(StandardCharsets.UTF_8);

  private final ReportSeal seal = new ReportSeal(KEYS, "shop");

  @Test
  void opensWhatItSealedForTheSameRoomScopeAndName() {
    byte[] sealed = seal.seal("dc:eu", "a#1", REPORT);
    assertThat(seal.open("dc:eu", "a#1", sealed)).isEqualTo(REPORT);
    assertThat(new ReportSeal(KEYS, "shop").open("dc:eu", "a#1", sealed)).as("another node of the room").isEqualTo(REPORT);
  }

  @Test
  void refusesForgeriesCopiesElsewhereAndTampering() {
    byte[] sealed = seal.seal("dc:eu", "a#1", REPORT);
    assertThat(seal.open("dc:eu", "b#2", sealed)).as("moved to another name").isNull();
    assertThat(seal.open("global", "a#1", sealed)).as("moved to another scope").isNull();
    assertThat(new ReportSeal(KEYS, "other-room").open("dc:eu", "a#1", sealed)).as("another room").isNull();
    assertThat(new ReportSeal(TicketKeys.generate(), "shop").open("dc:eu", "a#1", sealed)).as("other keys").isNull();
    assertThat(seal.open("dc:eu", "a#1", REPORT)).as("not sealed").isNull();
    assertThat(seal.open("dc:eu", "a#1", new byte[0])).isNull();
    assertThat(seal.open("dc:eu", "a#1", ".".getBytes(StandardCharsets.UTF_8))).isNull();
    for (int i = 0; i < sealed.length; i++) {
      byte[] tampered = Arrays.copyOf(sealed, sealed.length);
      tampered[i] ^= 1;
      assertThat(seal.open("dc:eu", "a#1", tampered)).as("byte %d flipped", i).isNull();
    }
  }

  @Test
  void aRotatedKeysetStillOpensWhatTheOldPrimarySealed() {
    byte[] sealed = seal.seal("dc:eu", "a#1", REPORT);
    KeysetHandle added = TicketKeys.addKey(KEYS);
    assertThat(new ReportSeal(TicketKeys.promote(added, TicketKeys.newestKeyId(added)), "shop").open("dc:eu", "a#1", sealed))
        .isEqualTo(REPORT);
  }
}

package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import java.util.Base64;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class TicketCodecTest {
  private static final long NOW = 1_800_000_000L;
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final TicketCodec codec = new TicketCodec("shop", KEYS);
  private final TicketState waiting = TicketState.waiting(Ticket.place(NOW - 60, 0x8000_0001), NOW - 30).checkIn(NOW - 5);
  private final TicketState active = TicketState.waiting(Ticket.place(NOW - 120, 7), NOW - 100).admit(NOW - 40).checkIn(NOW);

  @Test
  void roundTripsBothStates() {
    assertThat(codec.openState(codec.seal(waiting), NOW)).isEqualTo(waiting);
    assertThat(codec.openState(codec.seal(active), NOW)).isEqualTo(active);
  }

  @Test
  void isCompactBase64Url() {
    String sealed = codec.seal(active);
    assertThat(sealed).hasSize(84).matches("[A-Za-z0-9_-]+");
  }

  @Test
  void keepsTheDueOfAWaitingHolder() {
    TicketState counted = waiting.countedUntil(NOW + 20);
    assertThat(codec.openState(codec.seal(counted), NOW)).isEqualTo(counted).extracting(TicketState::due)
        .isEqualTo(NOW + 20);
  }

  @Test
  void aTicketOfTheThirdFormatStillOpensWithItsDue() throws Exception {
    // Version 3: 34 bytes, with the second since which a node counted the holder before its due.
    // The rule no longer reads it: the ticket opens with its place and its due.
    java.nio.ByteBuffer plain = java.nio.ByteBuffer.allocate(34);
    plain.put((byte) 3).put((byte) 0).putLong(waiting.place());
    plain.putInt(0).putInt((int) waiting.lastCheckIn()).putInt((int) waiting.lastPoll()).putInt(12);
    plain.putInt((int) (NOW - 20)).putInt((int) (NOW + 20));
    String v3 = Base64.getUrlEncoder().withoutPadding().encodeToString(
        TicketKeys.aead(KEYS).encrypt(plain.array(), "waitingroom/shop".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertThat(codec.openState(v3, NOW)).isEqualTo(waiting.shown(12).countedUntil(NOW + 20));
  }

  @Test
  void aTicketOfTheSecondFormatStillOpensCountedInNoLine() throws Exception {
    // Version 2: 26 bytes, without the count fields. A waiting holder keeps its place through the
    // upgrade; no node has counted it yet.
    java.nio.ByteBuffer plain = java.nio.ByteBuffer.allocate(26);
    plain.put((byte) 2).put((byte) 0).putLong(waiting.place());
    plain.putInt(0).putInt((int) waiting.lastCheckIn()).putInt((int) waiting.lastPoll()).putInt(12);
    String v2 = Base64.getUrlEncoder().withoutPadding().encodeToString(
        TicketKeys.aead(KEYS).encrypt(plain.array(), "waitingroom/shop".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    TicketState opened = java.util.Objects.requireNonNull(codec.openState(v2, NOW));
    assertThat(opened.place()).isEqualTo(waiting.place());
    assertThat(opened.aheadShown()).isEqualTo(12);
    assertThat(opened.due()).as("counted in no line").isZero();
  }

  @Test
  void aPlaceIsTheArrivalSecondAndTieBreakBits() {
    long place = Ticket.place(NOW, -1);
    assertThat(Ticket.arrivalOf(place)).isEqualTo(NOW);
    assertThat(Ticket.place(NOW, 0)).isLessThan(Ticket.place(NOW, 1)).isLessThan(Ticket.place(NOW, -1))
        .isLessThan(Ticket.place(NOW + 1, 0));
    assertThat(codec.openState(codec.seal(TicketState.waiting(place, NOW)), NOW)).extracting(TicketState::place).isEqualTo(place);
  }

  @Test
  void rejectsEverySingleByteTamper() {
    byte[] bytes = Base64.getUrlDecoder().decode(codec.seal(active));
    for (int i = 0; i < bytes.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] tampered = bytes.clone();
        tampered[i] ^= (byte) (1 << bit);
        String value = Base64.getUrlEncoder().withoutPadding().encodeToString(tampered);
        assertThat(codec.openState(value, NOW)).as("byte %d bit %d", i, bit).isNull();
      }
    }
  }

  /**
   * Issue 42: a ticket has one spelling. The JDK's decoder also takes padding and ignores the
   * bits of the last character that encode no byte, which gave one ticket 32 spellings.
   */
  @Test
  void opensOnlyTheOneSpellingItSeals() {
    String sealed = codec.seal(active);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    String head = sealed.substring(0, sealed.length() - 1);
    java.util.List<String> spellings = new java.util.ArrayList<>();
    for (char last : alphabet.toCharArray()) {
      String s = head + last;
      spellings.add(s);
      spellings.add(s + "=".repeat((4 - s.length() % 4) % 4));
    }
    java.util.Set<String> opened = new java.util.TreeSet<>();
    for (String s : spellings) {
      TicketState t = codec.openState(s, NOW);
      if (t != null) {
        assertThat(t).isEqualTo(active);
        opened.add(s);
      }
    }
    assertThat(opened).containsExactly(sealed);
  }

  @Test
  void rejectsTruncatedExtendedAndOversizedValues() {
    String sealed = codec.seal(active);
    for (int len = 0; len < sealed.length(); len++) {
      assertThat(codec.openState(sealed.substring(0, len), NOW)).isNull();
    }
    assertThat(codec.openState(sealed + "A", NOW)).isNull();
    assertThat(codec.openState(sealed + "AAAA", NOW)).isNull();
    assertThat(codec.openState("A".repeat(TicketCodec.MAX_SEALED_LENGTH + 1), NOW)).isNull();
    assertThat(codec.openState(null, NOW)).isNull();
  }

  @Test
  void rejectsTicketsOfAnotherRoom() {
    TicketCodec other = new TicketCodec("shop2", KEYS);
    assertThat(other.open(codec.seal(active), NOW)).isNull();
  }

  @Test
  void rejectsTicketsSealedWithAnotherKey() {
    TicketCodec stranger = new TicketCodec("shop", TicketKeys.generate());
    assertThat(codec.openState(stranger.seal(active), NOW)).isNull();
  }

  @Test
  void rejectsFutureDatedTickets() {
    TicketState future = active.checkIn(NOW + TicketCodec.MAX_CLOCK_SKEW_SECONDS + 1);
    assertThat(codec.openState(codec.seal(future), NOW)).isNull();
    TicketState skewed = active.checkIn(NOW + TicketCodec.MAX_CLOCK_SKEW_SECONDS);
    assertThat(codec.openState(codec.seal(skewed), NOW)).isEqualTo(skewed);
  }

  @Test
  void rejectsInconsistentFields() {
    TicketState acceptedBeforeArrival = new TicketState(TicketState.State.ACTIVE, Ticket.place(NOW - 10, 3), NOW - 20, NOW, NOW - 30);
    TicketState acceptedBeforeLastPoll = new TicketState(TicketState.State.ACTIVE, Ticket.place(NOW - 60, 3), NOW - 40, NOW, NOW - 30);
    TicketState waitingWithAcceptance = new TicketState(TicketState.State.WAITING, Ticket.place(NOW - 60, 3), NOW - 5, NOW, NOW);
    TicketState checkedInBeforeLastPoll = new TicketState(TicketState.State.WAITING, Ticket.place(NOW - 60, 3), 0, NOW - 20, NOW - 10);
    assertThat(codec.openState(codec.seal(acceptedBeforeArrival), NOW)).isNull();
    assertThat(codec.openState(codec.seal(acceptedBeforeLastPoll), NOW)).isNull();
    assertThat(codec.openState(codec.seal(waitingWithAcceptance), NOW)).isNull();
    assertThat(codec.openState(codec.seal(checkedInBeforeLastPoll), NOW)).isNull();
  }

  @Test
  void aNodeWhoseClockIsBehindNeverMakesATicketInconsistent() {
    // Admitted at NOW by a node, re-issued by a node 5 s behind: times never move backwards.
    TicketState admitted = TicketState.waiting(Ticket.place(NOW - 60, 3), NOW - 10).admit(NOW);
    TicketState behind = admitted.checkIn(NOW - 5);
    assertThat(behind.lastCheckIn()).isEqualTo(NOW);
    assertThat(codec.openState(codec.seal(behind), NOW - 5)).isEqualTo(behind);
    TicketState polledBehind = TicketState.waiting(Ticket.place(NOW - 60, 3), NOW).poll(NOW - 5).admit(NOW - 5);
    assertThat(codec.openState(codec.seal(polledBehind), NOW - 5)).isEqualTo(polledBehind);
  }

  @Test
  void sealsInTinksFormatUnderThePrimaryKeyWithAFreshNonceEachTime() throws Exception {
    // The codec seals with the JDK's cipher itself: Tink must open it as its own, under the
    // primary key whichever place that key has in the keyset.
    byte[] room = "waitingroom/shop".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    KeysetHandle added = TicketKeys.addKey(KEYS);
    for (KeysetHandle keys : java.util.List.of(KEYS, added, TicketKeys.promote(added, TicketKeys.newestKeyId(added)))) {
      String sealed = new TicketCodec("shop", keys).seal(active);
      byte[] plain = TicketKeys.aead(keys).decrypt(Base64.getUrlDecoder().decode(sealed), room);
      assertThat(plain).hasSize(30).startsWith((byte) Ticket.FORMAT_VERSION);
      assertThat(Base64.getUrlDecoder().decode(sealed)).as("the primary key's prefix")
          .startsWith(java.nio.ByteBuffer.allocate(5).put((byte) 1).putInt(keys.getPrimary().getId()).array());
    }
    java.util.Set<String> seals = java.util.concurrent.ConcurrentHashMap.newKeySet();
    Runnable sealer = () -> {
      for (int i = 0; i < 1000; i++) {
        seals.add(codec.seal(active));
      }
    };
    Thread other = new Thread(sealer);
    other.start();
    sealer.run();
    other.join();
    assertThat(seals).as("a fresh nonce for every seal of one ticket, on either thread").hasSize(2000);
  }

  @Test
  void keysRotate() {
    String sealedWithOld = codec.seal(active);
    KeysetHandle added = TicketKeys.addKey(KEYS);
    KeysetHandle rotated = TicketKeys.promote(added, TicketKeys.newestKeyId(added));
    TicketCodec afterRotation = new TicketCodec("shop", rotated);
    assertThat(afterRotation.open(sealedWithOld, NOW)).isEqualTo(active);
    String sealedWithNew = afterRotation.seal(active);
    assertThat(codec.openState(sealedWithNew, NOW)).as("the old keyset lacks the new primary").isNull();

    KeysetHandle oldRemoved = removeNonPrimary(rotated);
    TicketCodec withoutOld = new TicketCodec("shop", oldRemoved);
    assertThat(withoutOld.open(sealedWithOld, NOW)).isNull();
    assertThat(withoutOld.open(sealedWithNew, NOW)).isEqualTo(active);
  }

  @Test
  void keysetsOfOtherAeadsOpenThroughTinkAndMixedKeysetsOpenEveryEnabledKeysTickets() throws Exception {
    // AES-GCM keysets open with the JDK's cipher directly; any other keyset through Tink.
    KeysetHandle chacha = KeysetHandle.generateNew(
        com.google.crypto.tink.aead.PredefinedAeadParameters.XCHACHA20_POLY1305);
    TicketCodec c = new TicketCodec("shop", chacha);
    assertThat(c.open(c.seal(active), NOW)).isEqualTo(active);
    assertThat(codec.openState(c.seal(active), NOW)).as("not a key of the AES-GCM keyset").isNull();
    KeysetHandle mixed = KeysetHandle.newBuilder(KEYS)
        .addEntry(KeysetHandle.generateEntryFromParameters(
            com.google.crypto.tink.aead.PredefinedAeadParameters.XCHACHA20_POLY1305).withRandomId())
        .build();
    TicketCodec both = new TicketCodec("shop", mixed);
    assertThat(both.open(codec.seal(active), NOW)).as("the AES-GCM key's ticket").isEqualTo(active);
    String sealedWithChacha = new TicketCodec("shop", TicketKeys.promote(mixed, TicketKeys.newestKeyId(mixed))).seal(active);
    assertThat(both.open(sealedWithChacha, NOW)).as("the XChaCha20-Poly1305 key's ticket").isEqualTo(active);
    assertThat(codec.openState(sealedWithChacha, NOW)).isNull();
  }

  @Test
  void keysetsSurviveJson() {
    KeysetHandle copy = TicketKeys.fromJson(TicketKeys.toJson(KEYS));
    assertThat(new TicketCodec("shop", copy).open(codec.seal(active), NOW)).isEqualTo(active);
    assertThatThrownBy(() -> TicketKeys.fromJson("{not a keyset"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Tink JSON keyset");
  }

  @Property(tries = 2000)
  void garbageNeverThrowsAndNeverOpens(@ForAll @StringLength(max = 300) String garbage) {
    assertThat(codec.openState(garbage, NOW)).isNull();
  }

  @Property(tries = 500)
  void randomBytesInBase64NeverOpen(@ForAll byte[] bytes) {
    String value = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    assertThat(codec.openState(value, NOW)).isNull();
  }

  /**
   * 100,000 cases in about a second, the same every build (a fixed seed): tickets of this room
   * with one or more bytes or characters changed, cut short or grown, of another room, and
   * random strings of every length. None throws, and none opens unless it spells the very
   * ciphertext that was sealed.
   */
  @Test
  void fuzzOf100000MutatedTicketsNeverOpensOrThrows() {
    java.util.Random random = new java.util.Random(20261130);
    String sealed = codec.seal(active);
    String foreign = new TicketCodec("elsewhere", KEYS).seal(active);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/.%\u0000\u00e9";
    // Another spelling of the very same ciphertext (a trailing '=', or unused low bits of the last
    // character) is the same ticket, not a forgery: what must never open is different bytes.
    byte[] original = bytesOf(sealed);
    int opened = 0;
    for (int i = 0; i < 100_000; i++) {
      String value;
      switch (i % 5) {
        case 0 -> {
          char[] c = sealed.toCharArray();
          for (int k = 0, n = 1 + random.nextInt(3); k < n; k++) {
            int at = random.nextInt(c.length);
            char replacement = alphabet.charAt(random.nextInt(alphabet.length()));
            c[at] = replacement == c[at] ? (c[at] == 'A' ? 'B' : 'A') : replacement;
          }
          value = new String(c);
        }
        case 1 -> value = sealed.substring(0, random.nextInt(sealed.length()));
        case 2 -> value = sealed + alphabet.charAt(random.nextInt(alphabet.length()));
        case 3 -> value = foreign;
        default -> {
          StringBuilder b = new StringBuilder();
          for (int k = 0, n = random.nextInt(200); k < n; k++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
          }
          value = b.toString();
        }
      }
      if (codec.open(value, NOW) != null && !java.util.Arrays.equals(bytesOf(value), original)) {
        opened++;
      }
    }
    assertThat(opened).as("mutated, foreign or random ciphertexts that opened").isZero();
    assertThat(codec.openState(sealed, NOW)).isEqualTo(active);
  }

  @Test
  void warnsEveryIntervalOfSealsSoTheKeysetIsRotatedWellBeforeTheAesGcmBound() {
    TicketCodec small = new TicketCodec("shop", KEYS, 1000, null);
    String log =
        Logs.during(
            () -> {
              for (int i = 0; i < 2500; i++) {
                small.seal(active);
              }
            });
    assertThat(small.seals()).isEqualTo(2500);
    assertThat(log.lines().filter(l -> l.contains("rotate the keyset")).toList()).as(log).hasSize(2)
        .anyMatch(l -> l.contains("sealed 1000 tickets")).anyMatch(l -> l.contains("sealed 2000 tickets"));
    assertThat(TicketCodec.SEAL_WARNING_INTERVAL).isEqualTo(1L << 28);
  }

  @Test
  void countsTheSealsOfEveryThreadAndWarnsWhenTheirTotalPassesEachInterval() throws Exception {
    TicketCodec small = new TicketCodec("shop", KEYS, 1000, null);
    // Each thread looks at the total once, at its 1,000th seal: the first to look sees at least
    // its own 1,000, the second at least both threads' 2,000.
    String log =
        Logs.during(
            () -> {
              Thread[] threads = new Thread[2];
              for (int i = 0; i < threads.length; i++) {
                threads[i] = new Thread(() -> {
                  for (int j = 0; j < 1500; j++) {
                    small.seal(active);
                  }
                });
                threads[i].start();
              }
              for (Thread t : threads) {
                try {
                  t.join();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
              }
            });
    assertThat(small.seals()).isEqualTo(3000);
    assertThat(log.lines().filter(l -> l.contains("rotate the keyset")).toList()).as(log).hasSize(2)
        .anyMatch(l -> l.contains("sealed 1000 tickets")).anyMatch(l -> l.contains("sealed 2000 tickets"));
  }

  private static byte @org.jspecify.annotations.Nullable [] bytesOf(String value) {
    try {
      return Base64.getUrlDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static KeysetHandle removeNonPrimary(KeysetHandle keys) {
    KeysetHandle.Builder builder = KeysetHandle.newBuilder(keys);
    for (int i = builder.size() - 1; i >= 0; i--) {
      if (!builder.getAt(i).isPrimary()) {
        builder.deleteAt(i);
      }
    }
    try {
      return builder.build();
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}

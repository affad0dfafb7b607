package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ReportCodecTest {
  @Property(tries = 300)
  void roundTrips(
      @ForAll Map<Long, Long> active,
      @ForAll Map<Long, Long> admitted,
      @ForAll Map<Long, Map<Long, Long>> waiting) {
    TreeMap<Long, NavigableMap<Long, Long>> line = new TreeMap<>();
    waiting.forEach((b, s) -> {
      if (!s.isEmpty()) {
        line.put(b, new TreeMap<>(s));
      }
    });
    Report r = new Report("node-1#ab", 1_800_000_000L, 3, new TreeMap<>(active), new TreeMap<>(admitted), new TreeMap<>(active), line);
    assertThat(ReportCodec.decode(ReportCodec.encode(r))).isEqualTo(r);
  }

  @Test
  void versionComesFirstAndUnknownFieldsAreSkipped() {
    Report r = Report.empty("n", 5);
    String json = new String(ReportCodec.encode(r), StandardCharsets.UTF_8);
    assertThat(json).startsWith("{\"v\":1,");
    String withExtra = json.replace("\"nodes\":0", "\"nodes\":0,\"future\":{\"x\":[1,2]}");
    assertThat(ReportCodec.decode(withExtra.getBytes(StandardCharsets.UTF_8))).isEqualTo(r);
  }

  @Test
  void rejectsNewerVersionsAndGarbage() {
    assertThatThrownBy(() -> ReportCodec.decode("{\"v\":2,\"publisher\":\"n\"}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("version 2");
    assertThatThrownBy(() -> ReportCodec.decode("{\"publisher\":\"n\",\"v\":1}".getBytes(StandardCharsets.UTF_8)))
        .hasMessageContaining("must start with its version");
    assertThatThrownBy(() -> ReportCodec.decode(new byte[] {1, 2, 3})).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void sumsAddUpCountsAndDropZeros() {
    Report a = new Report("a", 1, 1, new TreeMap<>(Map.of(10L, 2L)), new TreeMap<>(), new TreeMap<>(), new TreeMap<>(Map.of(60L, new TreeMap<>(Map.of(10L, 1L)))));
    Report b = new Report("b", 1, 1, new TreeMap<>(Map.of(10L, -2L, 20L, 1L)), new TreeMap<>(), new TreeMap<>(), new TreeMap<>(Map.of(60L, new TreeMap<>(Map.of(10L, -1L)))));
    Report sum = Report.sum("dc", 2, java.util.List.of(a, b));
    assertThat(sum.nodes()).isEqualTo(2);
    assertThat(sum.active()).containsExactly(Map.entry(20L, 1L));
    assertThat(sum.waiting()).isEmpty();
  }
}

package io.github.waitingroom.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.examples.Flags.Flag;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlagsTest {
  private static final List<Flag> SPEC =
      List.of(new Flag("--port", "8080", "HTTP port"), new Flag("--keyset", null, "keyset file"));

  @Test
  void readsBothFormsAndDefaults() {
    Flags f = Flags.parse(new String[] {"--port=9090", "--keyset", "k.json"}, SPEC);
    assertThat(f.intValue("--port")).isEqualTo(9090);
    assertThat(f.get("--keyset")).isEqualTo("k.json");
    Flags d = Flags.parse(new String[0], SPEC);
    assertThat(d.intValue("--port")).isEqualTo(8080);
    assertThat(d.optional("--keyset")).isNull();
    assertThat(d.given("--port")).isFalse();
  }

  @Test
  void rejectsUnknownFlagsMissingValuesAndBadNumbers() {
    assertThatThrownBy(() -> Flags.parse(new String[] {"--prot", "1"}, SPEC)).hasMessageContaining("unknown flag '--prot'");
    assertThatThrownBy(() -> Flags.parse(new String[] {"--port"}, SPEC)).hasMessageContaining("--port needs a value");
    assertThatThrownBy(() -> Flags.parse(new String[] {"--port", "eighty"}, SPEC).intValue("--port"))
        .hasMessageContaining("--port").hasMessageContaining("'eighty'");
    assertThatThrownBy(() -> Flags.parse(new String[] {"--help"}, SPEC)).isInstanceOf(Flags.HelpRequested.class);
  }

  @Test
  void usageListsEveryFlagOfTheDemo() {
    String usage = Flags.usage("DemoServer", DemoServer.FLAGS);
    for (Flag f : DemoServer.FLAGS) {
      assertThat(usage).contains(f.name());
    }
    assertThat(usage).contains("--per-minute", "--session", "--refresh", "--node", "--dc", "--keyset");
  }

  @Test
  void loadGeneratorReadsTheJsonStatus() throws Exception {
    String waiting =
        "{\"waitingRoom\":{\"roomId\":\"s\",\"inWaitingRoom\":true,\"usersAhead\":12,\"waitTimeKnown\":true,"
            + "\"waitTime\":3,\"refreshIntervalSeconds\":20}}";
    assertThat(LoadGenerator.parse(waiting)).hasToString("Status[usersAhead=12, waitMinutes=3, refreshSeconds=20]");
    assertThat(LoadGenerator.parse("{\"waitingRoom\":{\"inWaitingRoom\":false}}")).isNull();
    String unknown = "{\"waitingRoom\":{\"inWaitingRoom\":true,\"usersAhead\":0,\"waitTime\":null,\"refreshIntervalSeconds\":5}}";
    assertThat(LoadGenerator.parse(unknown)).hasToString("Status[usersAhead=0, waitMinutes=-1, refreshSeconds=5]");
  }
}

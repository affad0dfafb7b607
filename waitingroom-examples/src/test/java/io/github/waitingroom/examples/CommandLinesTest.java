package io.github.waitingroom.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** The examples' command lines (picocli): both option forms, defaults, errors that name the option, the usage. */
class CommandLinesTest {
  @Test
  void readsBothFormsAndDefaults() {
    DemoServer.Cli f = DemoServer.Cli.parse("--port=9090", "--keyset", "k.json", "--revoke", "true");
    assertThat(f.port).isEqualTo(9090);
    assertThat(f.keyset).isEqualTo("k.json");
    assertThat(f.revoke).isTrue();
    DemoServer.Cli d = DemoServer.Cli.parse();
    assertThat(d.port).isEqualTo(8080);
    assertThat(d.keyset).isNull();
    assertThat(d.total).isEqualTo(2);
    assertThat(d.session).isEqualTo(30);
    assertThat(d.revoke).isFalse();
  }

  @Test
  void rejectsUnknownFlagsMissingValuesAndBadValuesNamingTheFlag() {
    assertThatThrownBy(() -> DemoServer.Cli.parse("--prot", "1")).isInstanceOf(ParameterException.class)
        .hasMessageContaining("'--prot'");
    assertThatThrownBy(() -> DemoServer.Cli.parse("--port")).isInstanceOf(ParameterException.class)
        .hasMessageContaining("--port");
    assertThatThrownBy(() -> DemoServer.Cli.parse("--port", "eighty")).isInstanceOf(ParameterException.class)
        .hasMessageContaining("--port").hasMessageContaining("'eighty'");
    assertThatThrownBy(() -> DemoServer.Cli.parse("--lottery", "yes")).isInstanceOf(ParameterException.class)
        .hasMessageContaining("--lottery").hasMessageContaining("'yes'");
  }

  @Test
  void aBadCommandLineExitsWith2AndHelpWith0() {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new LoadGenerator.Cli()).setErr(new PrintWriter(err)).execute("--users", "many");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--users", "'many'", "Usage: LoadGenerator");
    StringWriter out = new StringWriter();
    assertThat(new CommandLine(new DemoServer.Cli()).setOut(new PrintWriter(out)).execute("--help")).isZero();
    assertThat(out.toString()).contains("Usage: DemoServer");
  }

  @Test
  void usageListsEveryFlagOfTheDemoWithItsDefault() {
    CommandLine demo = new CommandLine(new DemoServer.Cli());
    String usage = demo.getUsageMessage(CommandLine.Help.Ansi.OFF);
    for (OptionSpec o : demo.getCommandSpec().options()) {
      assertThat(usage).contains(o.longestName());
    }
    assertThat(usage).contains("--per-minute", "--session", "--refresh", "--node", "--dc", "--keyset", "Default: 8080");
  }

  @Test
  void loadGeneratorReadsTheJsonStatus() throws Exception {
    String waiting =
        "{\"waitingRoom\":{\"roomId\":\"s\",\"inWaitingRoom\":true,\"usersAhead\":12,\"waitTimeKnown\":true,"
            + "\"waitTime\":3,\"refreshIntervalSeconds\":20}}";
    assertThat(StatusPage.parse(waiting)).hasToString("Status[usersAhead=12, waitMinutes=3, refreshSeconds=20]");
    assertThat(StatusPage.parse("{\"waitingRoom\":{\"inWaitingRoom\":false}}")).isNull();
    String unknown = "{\"waitingRoom\":{\"inWaitingRoom\":true,\"usersAhead\":0,\"waitTime\":null,\"refreshIntervalSeconds\":5}}";
    assertThat(StatusPage.parse(unknown)).hasToString("Status[usersAhead=0, waitMinutes=-1, refreshSeconds=5]");
  }
}

package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.TicketKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateKeysetTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return GenerateKeyset.run(
        args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void printsANewKeysetThatTheRoomAccepts() {
    assertThat(run()).isZero();
    String first = out.toString(StandardCharsets.UTF_8).trim();
    assertThat(TicketKeys.fromJson(first)).isNotNull();
    out.reset();
    assertThat(run()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).trim()).isNotEqualTo(first);
  }

  @Test
  void writesANewFileAndNeverOverwritesOne(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    assertThat(run(file.toString())).isZero();
    String written = Files.readString(file);
    assertThat(TicketKeys.fromJson(written)).isNotNull();
    assertThat(run(file.toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("not overwriting");
    assertThat(Files.readString(file)).isEqualTo(written);
  }

  @Test
  void refusesAPathInsideAGitWorkTreeUnlessForced(@TempDir Path dir) throws Exception {
    Path project = dir.resolve("project");
    Files.createDirectories(project.resolve(".git"));
    Files.createDirectories(project.resolve("src/main/resources"));
    Path inRoot = project.resolve("keyset.json");
    Path deeper = project.resolve("src/main/resources/keyset.json");
    assertThat(run(inRoot.toString())).isEqualTo(1);
    assertThat(run(deeper.toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("refusing", project.toString(), "--force");
    assertThat(inRoot).doesNotExist();
    assertThat(deeper).doesNotExist();

    assertThat(run("--force", inRoot.toString())).isZero();
    assertThat(TicketKeys.fromJson(Files.readString(inRoot))).isNotNull();
  }

  @Test
  void aLinkedWorkTreeOrSubmoduleCountsToo(@TempDir Path dir) throws Exception {
    // There .git is a file ("gitdir: ..."), not a directory.
    Files.writeString(dir.resolve(".git"), "gitdir: /elsewhere/.git/worktrees/x");
    assertThat(run(dir.resolve("keyset.json").toString())).isEqualTo(1);
    assertThat(dir.resolve("keyset.json")).doesNotExist();
  }

  @Test
  void writesOutsideAWorkTree(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("project/.git"));
    Path outside = dir.resolve("secrets/keyset.json");
    Files.createDirectories(outside.getParent());
    assertThat(run(outside.toString())).isZero();
    assertThat(TicketKeys.fromJson(Files.readString(outside))).isNotNull();
  }

  @Test
  void tooManyArgumentsPrintUsage() {
    assertThat(run("a", "b")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage");
    assertThat(run("--forse", "a")).isEqualTo(2);
  }
}

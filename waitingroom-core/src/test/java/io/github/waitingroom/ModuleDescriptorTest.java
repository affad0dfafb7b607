package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The core's module descriptor, as compiled: it exports the API packages and nothing else, so that
 * an application on the module path cannot reach the core's plumbing.
 */
class ModuleDescriptorTest {
  @Test
  void exportsTheApiPackagesOnly() throws Exception {
    Path classes = Path.of(WaitingRoom.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor module;
    try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
      module = ModuleDescriptor.read(in);
    }
    assertThat(module.name()).isEqualTo("io.github.waitingroom.core");
    assertThat(module.exports()).allSatisfy(e -> assertThat(e.isQualified()).as(e.source()).isFalse());
    assertThat(module.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder(
            "io.github.waitingroom", "io.github.waitingroom.allocation", "io.github.waitingroom.coordinator");
    // The plumbing exists, and is not among the exports above.
    assertThat(classes.resolve("io/github/waitingroom/internal/LongList.class")).isRegularFile();
    // A room is built with Tink's KeysetHandle: an application that requires the core reads Tink too.
    assertThat(module.requires()).anySatisfy(r -> {
      assertThat(r.name()).isEqualTo("com.google.crypto.tink");
      assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE);
    });
  }
}

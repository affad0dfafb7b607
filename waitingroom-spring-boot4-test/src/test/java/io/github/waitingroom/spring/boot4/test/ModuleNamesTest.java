package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every published jar carries its {@code Automatic-Module-Name}, and the JDK accepts it: the jars
 * on this module's test classpath (the starter's dependencies plus the Redis transport and the
 * compatibility kit) are opened with {@link ModuleFinder}, as {@code java --module-path} would open
 * them. Without the manifest entry the JDK would derive {@code waitingroom.core} from the file
 * name; with an illegal one it refuses the jar.
 *
 * <p>The jars exist once the modules are packaged ({@code mvn verify}, or an install); a {@code mvn
 * test} of the reactor puts class folders on the classpath instead, and this test is skipped.
 */
class ModuleNamesTest {
  private static final Pattern OUR_JAR = Pattern.compile("(waitingroom-[a-z0-9-]+?)-\\d[^/]*\\.jar");

  private static final Map<String, String> EXPECTED =
      Map.of(
          "waitingroom-core", "io.github.waitingroom.core",
          "waitingroom-http", "io.github.waitingroom.http",
          "waitingroom-micrometer", "io.github.waitingroom.micrometer",
          "waitingroom-servlet", "io.github.waitingroom.servlet",
          "waitingroom-webflux", "io.github.waitingroom.webflux",
          "waitingroom-redis", "io.github.waitingroom.redis",
          "waitingroom-tck", "io.github.waitingroom.tck",
          "waitingroom-spring-boot-autoconfigure", "io.github.waitingroom.spring.boot.autoconfigure",
          "waitingroom-spring-boot-starter", "io.github.waitingroom.spring.boot.starter",
          // Not published, but on this module's test classpath all the same: the tests' helpers.
          "waitingroom-test-support", "io.github.waitingroom.test.support");

  @Test
  void everyPublishedJarNamesItsModule() {
    Map<String, String> found = new TreeMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      Matcher m = OUR_JAR.matcher(path.getFileName().toString());
      if (Files.isRegularFile(path) && m.matches()) {
        ModuleReference module = ModuleFinder.of(path).findAll().iterator().next();
        found.put(m.group(1), module.descriptor().name());
      }
    }
    assumeTrue(!found.isEmpty(), "no packaged waiting room jar on the classpath (class folders only)");
    assertThat(found).isEqualTo(EXPECTED);
  }
}

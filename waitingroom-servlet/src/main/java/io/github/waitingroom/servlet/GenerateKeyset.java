package io.github.waitingroom.servlet;

import io.github.waitingroom.TicketKeys;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Makes a new ticket keyset (a Tink JSON keyset) for a room, from the command line. Every node of
 * a room needs the same keyset; store it as a secret and hand it to the room through {@code
 * keysetFile} / {@code keysetEnv} (web.xml) or {@code waitingroom.keyset.*} (Spring Boot).
 *
 * <pre>{@code
 * # in a project that depends on waitingroom-servlet or the Spring Boot starter:
 * mvn -q exec:java -Dexec.mainClass=io.github.waitingroom.servlet.GenerateKeyset > keyset.json
 * mvn -q exec:java -Dexec.mainClass=io.github.waitingroom.servlet.GenerateKeyset -Dexec.args=keyset.json
 * }</pre>
 *
 * <p>With no argument the keyset goes to standard output. With a path it goes to a new file,
 * readable by its owner only where the file system allows; an existing file is never overwritten.
 */
public final class GenerateKeyset {
  private GenerateKeyset() {}

  /**
   * Prints a new keyset, or writes it to the file named by the only argument.
   *
   * @param args nothing, or the path of a file to create
   */
  public static void main(String[] args) {
    int status = run(args, System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 1 || (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help")))) {
      err.println("usage: GenerateKeyset [FILE]   (prints a new ticket keyset, or writes it to a new FILE)");
      return args.length > 1 ? 2 : 0;
    }
    String json = TicketKeys.toJson(TicketKeys.generate());
    if (args.length == 0) {
      out.println(json);
      return 0;
    }
    Path file = Path.of(args[0]);
    try {
      Files.writeString(file, json + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      try {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // Not a POSIX file system: keep its default permissions.
      }
      err.println("wrote a new ticket keyset to " + file.toAbsolutePath());
      return 0;
    } catch (FileAlreadyExistsException e) {
      err.println(file + " exists; not overwriting it");
      return 1;
    } catch (IOException e) {
      err.println("cannot write " + file + ": " + e);
      return 1;
    }
  }
}

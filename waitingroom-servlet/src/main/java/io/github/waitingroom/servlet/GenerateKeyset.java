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
import org.jspecify.annotations.Nullable;

/**
 * Makes a new ticket keyset (a Tink JSON keyset) for a room, from the command line. Every node of
 * a room needs the same keyset; store it as a secret and hand it to the room through {@code
 * keysetFile} / {@code keysetEnv} (web.xml) or {@code waitingroom.keyset.*} (Spring Boot).
 *
 * <pre>{@code
 * # in a project that depends on waitingroom-servlet or the Spring Boot starter:
 * export WAITINGROOM_KEYSET="$(mvn -q exec:java -Dexec.mainClass=io.github.waitingroom.servlet.GenerateKeyset)"
 * mvn -q exec:java -Dexec.mainClass=io.github.waitingroom.servlet.GenerateKeyset -Dexec.args=$HOME/.config/waitingroom/shop.json
 * }</pre>
 *
 * <p>With no argument the keyset goes to standard output. With a path it goes to a new file,
 * readable by its owner only where the file system allows; an existing file is never overwritten.
 * A path inside a git work tree (a directory with a {@code .git} above it) is refused, since a
 * keyset there is one {@code git add .} away from a committed secret; {@code --force} writes it
 * all the same (for a path the repository ignores).
 */
public final class GenerateKeyset {
  private GenerateKeyset() {}

  /**
   * Prints a new keyset, or writes it to the file named by the last argument.
   *
   * @param args nothing, or the path of a file to create, optionally after {@code --force}
   */
  public static void main(String[] args) {
    int status = run(args, System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    boolean force = args.length > 0 && args[0].equals("--force");
    String[] rest = force ? java.util.Arrays.copyOfRange(args, 1, args.length) : args;
    if (rest.length > 1 || (rest.length == 1 && (rest[0].equals("-h") || rest[0].equals("--help") || rest[0].startsWith("--")))) {
      err.println("usage: GenerateKeyset [--force] [FILE]   (prints a new ticket keyset, or writes it to a new FILE;");
      err.println("       a FILE inside a git work tree is refused unless --force comes first)");
      return rest.length == 1 && (rest[0].equals("-h") || rest[0].equals("--help")) ? 0 : 2;
    }
    if (rest.length == 0) {
      out.println(TicketKeys.toJson(TicketKeys.generate()));
      return 0;
    }
    Path file = Path.of(rest[0]);
    Path workTree = gitWorkTree(file);
    if (workTree != null && !force) {
      err.println(
          "refusing to write a secret into the git work tree "
              + workTree
              + ": one 'git add .' would commit it. Write it outside the project (for example"
              + " $HOME/.config/waitingroom/keyset.json), print it to standard output (no FILE) and keep it in an"
              + " environment variable or your secret store, or, if the repository ignores this path, add --force.");
      return 1;
    }
    String json = TicketKeys.toJson(TicketKeys.generate());
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

  /**
   * The git work tree that would hold {@code file}: the nearest directory at or above the file's
   * directory that has a {@code .git} entry (a directory, or the file of a linked work tree or
   * submodule), or {@code null}.
   */
  static @Nullable Path gitWorkTree(Path file) {
    Path dir = file.toAbsolutePath().normalize().getParent();
    for (; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return dir;
      }
    }
    return null;
  }
}

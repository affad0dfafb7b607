package io.github.waitingroom.examples;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Command-line flags for the examples: {@code --name value} or {@code --name=value}. A program
 * declares its flags once, as a list of {@link Flag}s (adding a flag is adding one line there),
 * and reads them by name. Unknown flags and malformed values fail with a message and the usage.
 */
public final class Flags {
  /**
   * One flag.
   *
   * @param name the flag, with its leading dashes ({@code --port})
   * @param defaultValue the value when the flag is not given, or {@code null} for none
   * @param help one line for the usage text
   */
  public record Flag(String name, @Nullable String defaultValue, String help) {
    /** Checks the name. */
    public Flag {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(help, "help");
      if (!name.startsWith("--")) {
        throw new IllegalArgumentException("a flag name starts with -- but was '" + name + "'");
      }
    }
  }

  /** Thrown for {@code --help}: the caller prints {@link #usage} and stops. */
  public static final class HelpRequested extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HelpRequested() {
      super("help requested", null, false, false);
    }
  }

  private final List<Flag> spec;
  private final Map<String, String> given;

  private Flags(List<Flag> spec, Map<String, String> given) {
    this.spec = spec;
    this.given = given;
  }

  /**
   * Parses {@code args} against {@code spec}.
   *
   * @throws IllegalArgumentException for an unknown flag or a flag without its value
   * @throws HelpRequested for {@code --help} or {@code -h}
   */
  public static Flags parse(String[] args, List<Flag> spec) {
    Map<String, String> given = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        throw new HelpRequested();
      }
      int eq = arg.indexOf('=');
      String name = eq > 0 ? arg.substring(0, eq) : arg;
      if (find(spec, name) == null) {
        throw new IllegalArgumentException("unknown flag '" + name + "'");
      }
      String value;
      if (eq > 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException("flag " + name + " needs a value");
      }
      given.put(name, value);
    }
    return new Flags(List.copyOf(spec), given);
  }

  private static @Nullable Flag find(List<Flag> spec, String name) {
    for (Flag f : spec) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    return null;
  }

  /** The flag's value, or its default; {@code null} when neither exists. */
  public @Nullable String optional(String name) {
    Flag f = find(spec, name);
    if (f == null) {
      throw new IllegalArgumentException("no such flag declared: " + name);
    }
    String v = given.get(name);
    return v != null ? v : f.defaultValue();
  }

  /** The flag's value or default. */
  public String get(String name) {
    String v = optional(name);
    if (v == null) {
      throw new IllegalArgumentException("flag " + name + " is required");
    }
    return v;
  }

  /** The flag's value as an int. */
  public int intValue(String name) {
    String v = get(name);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("flag " + name + " must be a whole number but was '" + v + "'", e);
    }
  }

  /** Whether the flag was given on the command line (not just defaulted). */
  public boolean given(String name) {
    return given.containsKey(name);
  }

  /** The usage text. */
  public static String usage(String command, List<Flag> spec) {
    StringBuilder out = new StringBuilder("usage: ").append(command).append(" [flags]\n");
    for (Flag f : spec) {
      out.append(String.format("  %-18s %s", f.name() + " <v>", f.help()));
      if (f.defaultValue() != null) {
        out.append(" (default ").append(f.defaultValue()).append(')');
      }
      out.append('\n');
    }
    return out.toString();
  }
}

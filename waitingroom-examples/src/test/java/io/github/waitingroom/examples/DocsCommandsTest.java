package io.github.waitingroom.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Pins what the docs tell people to run, without running it: README.md, benchmarks/README.md and
 * docs/*.md. Relative links (and their #anchors) resolve; every command in a {@code bash} block
 * names modules of the root pom, main classes and tests that exist, flags that those mains read,
 * and repository files that exist. The README keeps its two set-up commands, and its test command
 * is the one {@code .ci/run} runs.
 */
class DocsCommandsTest {
  /**
   * Pages that another branch adds; the README links to them already. Remove an entry once the
   * page is merged.
   */
  private static final Set<String> PAGES_ADDED_ELSEWHERE = Set.of();

  private static final Path ROOT = findRoot();
  /** The command a picocli main runs: {@code new CommandLine(new X())}. */
  private static final Pattern PICOCLI_COMMAND = Pattern.compile("new (?:picocli\\.)?CommandLine\\(new (\\w+)\\(");
  private static final Pattern FENCE = Pattern.compile("(?ms)^```([\\w-]*)[^\\n]*\\n(.*?)^```");
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern OUR_CLASS = Pattern.compile("io\\.github\\.waitingroom(?:\\.\\w+)*\\.[A-Z]\\w*");
  private static final Pattern JMH_NAME = Pattern.compile("\\b([A-Z]\\w*Benchmark)(?:\\.(\\w+))?");

  @Test
  void relativeLinksAndAnchorsResolve() {
    List<String> errors = new ArrayList<>();
    for (Path page : pages()) {
      String text = withoutCode(read(page));
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
          continue; // https:, mailto:
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? "" : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? page : Objects.requireNonNull(page.getParent()).resolve(file).normalize();
        String shown = rel(page) + ": " + target;
        if (!Files.exists(resolved)) {
          if (!PAGES_ADDED_ELSEWHERE.contains(rel(resolved))) {
            errors.add(shown + " (no such file)");
          }
        } else if (!anchor.isEmpty() && resolved.toString().endsWith(".md")
            && !anchors(read(resolved)).contains(anchor)) {
          errors.add(shown + " (no such heading)");
        }
      }
    }
    assertThat(errors).isEmpty();
  }

  @Test
  void commandsNameModulesClassesTestsFlagsAndFilesThatExist() {
    Set<String> modules = modules();
    List<String> errors = new ArrayList<>();
    int checked = 0;
    for (Path page : pages()) {
      for (String block : shellBlocks(read(page))) {
        Map<String, String> vars = new HashMap<>();
        for (String line : logicalLines(block)) {
          for (String command : splitCommands(line)) {
            List<String> words = words(expand(command, vars));
            if (words.isEmpty()) {
              continue;
            }
            if (words.size() == 1 && words.get(0).matches("\\w+=.*")) {
              String w = words.get(0);
              vars.put(w.substring(0, w.indexOf('=')), w.substring(w.indexOf('=') + 1));
              continue;
            }
            checked++;
            String where = rel(page) + ": " + command.strip();
            check(words, modules, where, errors);
          }
        }
      }
    }
    assertThat(checked).as("commands found in the docs").isGreaterThan(20);
    assertThat(errors).isEmpty();
  }

  @Test
  void theReadmeHasTwoSetUpCommandsAndCiRunsItsTestCommandWithTheSlowTests() throws IOException {
    String readme = read(ROOT.resolve("README.md"));
    assertThat(readme.lines().count()).as("README lines").isLessThanOrEqualTo(250);
    List<String> blocks = shellBlocks(readme);
    assertThat(blocks).as("bash blocks in the README").hasSize(1);
    List<String> commands = logicalLines(blocks.get(0));
    assertThat(commands).hasSize(2);
    assertThat(commands.get(0)).contains("-pl waitingroom-examples exec:java").endsWith("# run the demo");
    List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run")).stream()
        .map(String::strip).filter(l -> l.startsWith("mvn ")).toList();
    assertThat(ci).hasSize(1);
    // CI runs the README's test command with the slow tests too (-P full), and the README says so.
    String test = commands.get(1).substring(0, commands.get(1).indexOf('#')).strip();
    assertThat(commands.get(1)).endsWith("# run the tests");
    assertThat(ci.get(0)).isEqualTo(test + " -P full");
    assertThat(readme).contains("`" + ci.get(0) + "`");
  }

  @Test
  void everyDocsPageSaysWhatItIsForAndTheReadmeLinksToIt() {
    String readme = read(ROOT.resolve("README.md"));
    List<String> errors = new ArrayList<>();
    for (Path page : pages()) {
      if (!ROOT.resolve("docs").equals(page.getParent())) {
        continue;
      }
      List<String> lines = read(page).lines().filter(l -> !l.isBlank()).limit(2).toList();
      if (lines.size() < 2 || !lines.get(0).startsWith("# ") || !lines.get(1).matches("[A-Z].*\\.")) {
        errors.add(rel(page) + ": a title, then one sentence saying what the page is for");
      }
      if (!readme.contains("](" + rel(page) + ")")) {
        errors.add(rel(page) + ": not linked from README.md");
      }
    }
    assertThat(errors).isEmpty();
  }

  // --- the checks of one command ---

  private static void check(List<String> words, Set<String> modules, String where, List<String> errors) {
    String program = words.get(0);
    List<String> pl = new ArrayList<>();
    String mainClass = null;
    String execArgs = null;
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("-pl") && i + 1 < words.size()) {
        for (String module : words.get(i + 1).split(",")) {
          pl.add(module.replaceFirst("^[:!]", ""));
        }
      } else if (w.startsWith("-Dexec.mainClass=")) {
        mainClass = w.substring("-Dexec.mainClass=".length());
      } else if (w.startsWith("-Dexec.args=")) {
        execArgs = w.substring("-Dexec.args=".length());
      } else if (isRepoPath(w) && !Files.exists(ROOT.resolve(w))) {
        errors.add(where + ": no file " + w);
      }
    }
    for (String module : pl) {
      if (!modules.contains(module)) {
        errors.add(where + ": -pl " + module + " is not a module of the root pom");
      }
    }
    if (program.equals("mvn") || program.equals("./mvnw")) {
      if (mainClass == null && pl.size() == 1 && words.contains("exec:java")) {
        mainClass = pomProperty(pl.get(0), "exec.mainClass");
      }
      if (mainClass != null) {
        Path source = source(mainClass, "main");
        if (source == null) {
          errors.add(where + ": no main class " + mainClass);
        } else {
          if (pl.contains("waitingroom-examples") && !loadable(mainClass)) {
            errors.add(where + ": " + mainClass + " is not on waitingroom-examples' class path");
          }
          if (execArgs != null) {
            checkFlags(words(execArgs), source, where, errors);
          }
        }
      }
      for (String w : words) {
        if (w.startsWith("-Dtest=")) {
          checkTests(w.substring("-Dtest=".length()), pl, where, errors);
        }
      }
    }
    if (program.equals("java")) {
      for (int i = 1; i < words.size(); i++) {
        Matcher c = OUR_CLASS.matcher(words.get(i));
        if (c.matches()) {
          Path source = source(words.get(i), "main");
          if (source == null) {
            errors.add(where + ": no main class " + words.get(i));
          } else {
            checkFlags(words.subList(i + 1, words.size()), source, where, errors);
          }
          break;
        }
        if (words.get(i - 1).equals("-jar")) {
          for (String arg : words.subList(i + 1, words.size())) {
            Matcher b = JMH_NAME.matcher(arg);
            while (b.find()) {
              Path bench = findFile("benchmarks/src/main/java", b.group(1) + ".java");
              if (bench == null) {
                errors.add(where + ": no benchmark " + b.group(1));
              } else if (b.group(2) != null && !read(bench).contains(" " + b.group(2) + "(")) {
                errors.add(where + ": no benchmark method " + b.group(1) + "." + b.group(2));
              }
            }
          }
          break;
        }
      }
    }
  }

  /**
   * Every {@code --flag} given must be a string literal in the main's source, where it reads its
   * flags, or in the source of the picocli command its main runs ({@code new CommandLine(new
   * SpikeCli())}: the class of the same package that declares them).
   */
  private static void checkFlags(List<String> args, Path mainSource, String where, List<String> errors) {
    String sources = read(mainSource);
    Matcher command = PICOCLI_COMMAND.matcher(sources);
    if (command.find()) {
      Path commandSource = mainSource.resolveSibling(command.group(1) + ".java");
      if (Files.exists(commandSource)) {
        sources += read(commandSource);
      }
    }
    for (String arg : args) {
      if (arg.startsWith("--")) {
        String flag = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
        if (!sources.contains("\"" + flag + "\"") && !sources.contains("\"" + flag + "=")) {
          errors.add(where + ": " + mainSource.getFileName() + " reads no flag " + flag);
        }
      }
    }
  }

  /** {@code -Dtest=Class#method+other,Other}: each class is a test source of the module, with the methods. */
  private static void checkTests(String spec, List<String> pl, String where, List<String> errors) {
    for (String one : spec.replace("'", "").split(",")) {
      String cls = one.contains("#") ? one.substring(0, one.indexOf('#')) : one;
      if (cls.contains("*")) {
        continue;
      }
      Path test = null;
      for (String module : pl.isEmpty() ? modules() : pl) {
        test = test != null ? test : findFile(module + "/src/test/java", cls + ".java");
      }
      if (test == null) {
        errors.add(where + ": no test class " + cls + " in " + (pl.isEmpty() ? "any module" : pl));
      } else if (one.contains("#")) {
        for (String method : one.substring(one.indexOf('#') + 1).split("\\+")) {
          if (!read(test).contains(" " + method + "(")) {
            errors.add(where + ": " + cls + " has no test " + method);
          }
        }
      }
    }
  }

  // --- markdown ---

  private static List<Path> pages() {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("benchmarks/README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  private static List<String> shellBlocks(String markdown) {
    List<String> blocks = new ArrayList<>();
    Matcher m = FENCE.matcher(markdown);
    while (m.find()) {
      if (Set.of("bash", "sh", "shell").contains(m.group(1))) {
        blocks.add(m.group(2));
      }
    }
    return blocks;
  }

  private static String withoutCode(String markdown) {
    return FENCE.matcher(markdown).replaceAll("").replaceAll("`[^`\\n]*`", "");
  }

  /** GitHub's heading ids: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
  static Set<String> anchors(String markdown) {
    Set<String> ids = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : FENCE.matcher(markdown).replaceAll("").split("\n")) {
      if (line.matches("#{1,6} .*")) {
        String text = line.replaceFirst("#+ ", "").replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        String id = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
        int n = seen.merge(id, 1, Integer::sum);
        ids.add(n == 1 ? id : id + "-" + (n - 1));
      }
    }
    return ids;
  }

  // --- shell ---

  /** Lines of a block with continuations joined and comment lines dropped; trailing comments kept. */
  private static List<String> logicalLines(String block) {
    List<String> lines = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : block.split("\n")) {
      if (current.isEmpty() && (line.isBlank() || line.strip().startsWith("#"))) {
        continue;
      }
      if (line.endsWith("\\")) {
        current.append(line, 0, line.length() - 1).append(' ');
      } else {
        lines.add(current.append(line).toString().strip());
        current.setLength(0);
      }
    }
    return lines;
  }

  /** Splits a line at {@code && || ; | &} and drops a trailing comment, outside quotes. */
  private static List<String> splitCommands(String line) {
    List<String> commands = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    char quote = 0;
    int parens = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(') {
        parens++;
      } else if (c == ')') {
        parens--;
      } else if (parens == 0 && c == '#' && (i == 0 || line.charAt(i - 1) == ' ')) {
        break;
      } else if (parens == 0 && (c == ';' || c == '|' || c == '&')) {
        commands.add(current.toString());
        current.setLength(0);
        continue;
      }
      current.append(c);
    }
    commands.add(current.toString());
    return commands.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  private static String expand(String command, Map<String, String> vars) {
    String out = command;
    for (Map.Entry<String, String> v : vars.entrySet()) {
      String value = v.getValue().replaceAll("^\"(.*)\"$", "$1");
      out = out.replaceAll("\\$\\{?" + v.getKey() + "\\b}?", Matcher.quoteReplacement(value));
    }
    return out;
  }

  /** Shell words, quotes removed; {@code $(...)} stays one word. */
  private static List<String> words(String command) {
    List<String> words = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    char quote = 0;
    int parens = 0;
    boolean inWord = false;
    for (char c : command.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          current.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c) && parens == 0) {
        if (inWord) {
          words.add(current.toString());
          current.setLength(0);
          inWord = false;
        }
      } else {
        parens += c == '(' ? 1 : c == ')' ? -1 : 0;
        current.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(current.toString());
    }
    return words;
  }

  /** A word naming a file of this repository (build output and shell expansions aside). */
  private static boolean isRepoPath(String word) {
    if (word.contains("$") || word.contains("*") || word.contains("target/") || !word.contains("/")) {
      return false;
    }
    String first = word.substring(0, word.indexOf('/'));
    return !first.isEmpty() && !first.equals(".") && Files.isDirectory(ROOT.resolve(first));
  }

  // --- the repository ---

  private static Path findRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve(".ci/run"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no repository root (with .ci/run) above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  private static Set<String> modules() {
    Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(read(ROOT.resolve("pom.xml")));
    Set<String> modules = new LinkedHashSet<>();
    while (m.find()) {
      modules.add(m.group(1).strip());
    }
    return modules;
  }

  private static @Nullable String pomProperty(String module, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)<").matcher(read(ROOT.resolve(module + "/pom.xml")));
    return m.find() ? m.group(1).strip() : null;
  }

  /** The source file of a class in any module, under {@code src/<kind>/java}. */
  private static @Nullable Path source(String className, String kind) {
    String file = className.replace('.', '/') + ".java";
    for (String module : modules()) {
      Path p = ROOT.resolve(module).resolve("src").resolve(kind).resolve("java").resolve(file);
      if (Files.exists(p)) {
        return p;
      }
    }
    return null;
  }

  private static @Nullable Path findFile(String dir, String name) {
    Path base = ROOT.resolve(dir);
    if (!Files.isDirectory(base)) {
      return null;
    }
    try (Stream<Path> files = Files.walk(base)) {
      return files.filter(p -> p.getFileName().toString().equals(name)).findFirst().orElse(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean loadable(String className) {
    try {
      Class.forName(className, false, DocsCommandsTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String rel(Path file) {
    return ROOT.relativize(file).toString().replace('\\', '/');
  }
}

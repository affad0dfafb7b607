package io.github.waitingroom.spring.boot.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.ResourcePatternResolver;
import org.springframework.util.ClassUtils;

/**
 * The request paths at which Spring serves things that are not pages: static resources, webjars,
 * the favicon and Actuator. A browser fetches these by itself, cookie-less at first, so counting
 * them would let a page's assets take the slots meant for visitors, and queueing them would answer
 * a waiting user's stylesheet request with the waiting page.
 *
 * <p>With the default static path pattern {@code /**} the static files live at the root
 * of the URL space, next to the application's own pages, so no prefix can tell them apart: the
 * files under {@code spring.web.resources.static-locations} are listed once at startup and
 * matched exactly. HTML files are left out on purpose: a page is a visit. A file added to a
 * {@code file:} location after startup is not seen; name such paths in {@code
 * waitingroom.ignore-paths}.
 */
final class SpringResources {
  private static final String ACTUATOR_ENDPOINT =
      "org.springframework.boot.actuate.endpoint.annotation.Endpoint";
  private static final String[] DEFAULT_LOCATIONS = {
    "classpath:/META-INF/resources/", "classpath:/resources/", "classpath:/static/", "classpath:/public/"
  };

  /** Exact request paths of static files, such as {@code /css/app.css}. */
  final Set<String> files;
  /** Paths (with everything below them) to ignore, in {@code ignorePaths} form. */
  final List<String> prefixes;

  private SpringResources(Set<String> files, List<String> prefixes) {
    this.files = Set.copyOf(files);
    this.prefixes = List.copyOf(prefixes);
  }

  static SpringResources none() {
    return new SpringResources(Set.of(), List.of());
  }

  /** The web stack whose settings say where the static resources are served. */
  enum Stack {
    /** Spring MVC: {@code spring.mvc.static-path-pattern}, {@code spring.mvc.webjars-path-pattern}. */
    MVC("spring.mvc."),
    /** Spring WebFlux: {@code spring.webflux.static-path-pattern}, {@code spring.webflux.webjars-path-pattern}. */
    WEBFLUX("spring.webflux.");

    private final String prefix;

    Stack(String prefix) {
      this.prefix = prefix;
    }
  }

  /**
   * Finds the paths at which the given web stack serves static resources, the favicon and, with
   * Actuator on the classpath, Actuator's endpoints.
   */
  static SpringResources scan(Stack stack, Environment environment, ResourcePatternResolver resolver) {
    Binder binder = Binder.get(environment);
    Set<String> files = new HashSet<>();
    List<String> prefixes = new ArrayList<>();
    prefixes.add("/favicon.ico");
    if (binder.bind("spring.web.resources.add-mappings", Boolean.class).orElse(true)) {
      String webjars = binder.bind(stack.prefix + "webjars-path-pattern", String.class).orElse("/webjars/**");
      addPrefix(prefixes, webjars);
      String pattern = binder.bind(stack.prefix + "static-path-pattern", String.class).orElse("/**");
      if (!addPrefix(prefixes, pattern)) {
        String[] locations =
            binder.bind("spring.web.resources.static-locations", String[].class).orElse(DEFAULT_LOCATIONS);
        for (String location : locations) {
          list(resolver, location, files);
        }
      }
    }
    if (ClassUtils.isPresent(ACTUATOR_ENDPOINT, SpringResources.class.getClassLoader())) {
      addPrefix(prefixes, binder.bind("management.endpoints.web.base-path", String.class).orElse("/actuator"));
    }
    return new SpringResources(files, prefixes);
  }

  /**
   * Adds the fixed part of an Ant pattern ({@code /assets/**} gives {@code /assets}); returns
   * false when the pattern has no fixed part, which would cover every path.
   */
  private static boolean addPrefix(List<String> prefixes, String pattern) {
    int wildcard = pattern.indexOf('*');
    String fixed = wildcard < 0 ? pattern : pattern.substring(0, wildcard);
    while (fixed.endsWith("/")) {
      fixed = fixed.substring(0, fixed.length() - 1);
    }
    if (fixed.isEmpty() || !fixed.startsWith("/")) {
      return false;
    }
    prefixes.add(fixed);
    return true;
  }

  private static void list(ResourcePatternResolver resolver, String location, Set<String> files) {
    String base = location.endsWith("/") ? location : location + "/";
    String roots = base.startsWith("classpath:") ? "classpath*:" + base.substring("classpath:".length()) : base;
    try {
      for (Resource root : resolver.getResources(roots)) {
        if (!root.exists()) {
          continue;
        }
        String rootUrl = root.getURL().toString();
        if (!rootUrl.endsWith("/")) {
          rootUrl = rootUrl + "/";
        }
        for (Resource r : resolver.getResources(rootUrl + "**")) {
          String url = r.getURL().toString();
          if (!url.startsWith(rootUrl) || url.endsWith("/") || !r.isReadable()) {
            continue;
          }
          String relative = url.substring(rootUrl.length());
          String lower = relative.toLowerCase(Locale.ROOT);
          // Webjars are covered by their own prefix; HTML files are pages, and a page is a visit.
          if (lower.startsWith("webjars/") || lower.endsWith(".html") || lower.endsWith(".htm")) {
            continue;
          }
          files.add("/" + java.net.URLDecoder.decode(relative.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the static resources under " + location, e);
    }
  }
}

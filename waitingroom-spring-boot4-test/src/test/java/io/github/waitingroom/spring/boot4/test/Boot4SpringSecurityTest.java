package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.spring.boot.WaitingRoomBypass;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.SpringSecurityCoreVersion;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The starter beside Spring Security 7 in a Spring Boot 4 application with form login and a
 * protected page, on Tomcat 11 over real HTTP, the room at its default order right after
 * Security's filter chain: the redirect to the login page, the login page and the sign-in never
 * reach the room, so a visitor signs in while the room is full; static files pass; the protected
 * page is guarded; a bypass rule sees the role Security established; the dashboard with {@code
 * require-role} answers the operator only. A second application puts the room before Security
 * ({@code waitingroom.filter-order=-101}), the documented alternative: the login page itself is
 * queued.
 *
 * <p>Runs in a Surefire execution of its own, the only one with Spring Security on the classpath.
 */
@SpringBootTest(
    classes = Boot4SpringSecurityTest.SecureShop.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=boot4-secure",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true",
      "waitingroom.dashboard.require-role=OPERATOR"
    })
class Boot4SpringSecurityTest {
  private static final String QUEUED = "You are in line";
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @Value("${local.server.port}")
  int port;

  @BeforeAll
  static void onlyInTheSpringSecurityRun() {
    boolean present = ClassUtils.isPresent("org.springframework.security.web.SecurityFilterChain", null);
    if (Boolean.getBoolean("waitingroom.springSecurityRun")) {
      assertThat(present).as("Spring Security on the classpath of its own Surefire run").isTrue();
    } else {
      Assumptions.assumeTrue(present, "Spring Security is not on this run's classpath");
    }
  }

  /** A shop whose account page needs a sign-in; Spring Security's own login page. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class SecureShop {
    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
      http.authorizeHttpRequests(
              a -> a.requestMatchers("/", "/css/**", "/favicon.ico", "/error").permitAll().anyRequest().authenticated())
          .formLogin(Customizer.withDefaults());
      return http.build();
    }

    @Bean
    UserDetailsService users() {
      return new InMemoryUserDetailsManager(
          User.withUsername("alice").password("{noop}alice-pw").roles("USER").build(),
          User.withUsername("bob").password("{noop}bob-pw").roles("USER").build(),
          User.withUsername("olga").password("{noop}olga-pw").roles("USER", "OPERATOR").build());
    }

    @Bean
    WaitingRoomBypass operators() {
      return request -> request.isUserInRole("OPERATOR");
    }

    @RestController
    static class Pages {
      @GetMapping("/")
      String home() {
        return "secure shop home";
      }

      @GetMapping("/account")
      String account(Principal user) {
        return "account of " + user.getName();
      }
    }
  }

  /** One browser: its own cookie jar, redirects not followed, so each answer is seen. */
  private final class Browser {
    private final HttpClient client =
        HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
    private final int server;

    Browser() {
      this(port);
    }

    Browser(int server) {
      this.server = server;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return client.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> signIn(String user, String password) throws IOException, InterruptedException {
      HttpResponse<String> page = get("/login");
      assertNoTicket(page);
      return postLogin(page, user, password);
    }

    /** Sends the login form of Security's login page, {@code page}. */
    HttpResponse<String> postLogin(HttpResponse<String> page, String user, String password) throws IOException, InterruptedException {
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("Please sign in").doesNotContain(QUEUED);
      Matcher csrf = CSRF.matcher(page.body());
      assertThat(csrf.find()).as("the login form's CSRF token").isTrue();
      String form =
          "username=" + user + "&password=" + password + "&_csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8);
      return client.send(
          request("/login")
              .header("Content-Type", "application/x-www-form-urlencoded")
              .POST(HttpRequest.BodyPublishers.ofString(form))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
      return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server + path))
          .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
          .timeout(Duration.ofSeconds(10));
    }
  }

  private static void assertNoTicket(HttpResponse<String> r) {
    List<String> cookies = r.headers().allValues("Set-Cookie");
    assertThat(cookies).as(r.uri() + " sets no room cookie").noneSatisfy(c -> assertThat(c).startsWith("wr_"));
  }

  private static void assertRedirectToLogin(HttpResponse<String> r) {
    assertThat(r.statusCode()).isEqualTo(302);
    assertThat(r.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
    assertNoTicket(r);
  }

  @Test
  void securityAnswersLoginItselfAndTheRoomGuardsThePagesItLetsThrough() throws Exception {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
    assertThat(SpringSecurityCoreVersion.getVersion()).startsWith("7.");

    Browser alice = new Browser();
    assertRedirectToLogin(alice.get("/account"));
    HttpResponse<String> css = alice.get("/css/site.css");
    assertThat(css.body()).contains("color: #444");
    assertNoTicket(css);

    HttpResponse<String> signedIn = alice.signIn("alice", "alice-pw");
    assertThat(signedIn.statusCode()).isEqualTo(302);
    assertThat(signedIn.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).contains("/account"));
    assertNoTicket(signedIn);
    HttpResponse<String> account = alice.get("/account");
    assertThat(account.body()).isEqualTo("account of alice");
    assertThat(account.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("wr_boot4-secure="));

    // The room's one slot is alice's. Bob signs in all the same (Security answers that), then waits.
    Browser bob = new Browser();
    HttpResponse<String> bobIn = bob.signIn("bob", "bob-pw");
    assertThat(bobIn.statusCode()).isEqualTo(302);
    assertNoTicket(bobIn);
    assertThat(bob.get("/account").body()).contains(QUEUED);
    HttpResponse<String> queuedCss = bob.get("/css/site.css");
    assertThat(queuedCss.body()).contains("color: #444");

    // The operator's role, from Security, lets olga past the full room and into the dashboard.
    Browser olga = new Browser();
    olga.signIn("olga", "olga-pw");
    HttpResponse<String> operator = olga.get("/account");
    assertThat(operator.body()).isEqualTo("account of olga");
    assertNoTicket(operator);
    HttpResponse<String> dashboard = olga.get("/waitingroom/dashboard/data");
    assertThat(dashboard.statusCode()).isEqualTo(200);
    assertThat(dashboard.body()).contains("\"roomId\":\"boot4-secure\"");
    assertNoTicket(dashboard);
    for (Browser user : List.of(alice, bob)) {
      HttpResponse<String> refused = user.get("/waitingroom/dashboard/data");
      assertThat(refused.statusCode()).isEqualTo(403);
      assertThat(refused.body()).doesNotContain(QUEUED);
      assertNoTicket(refused);
    }
    assertRedirectToLogin(new Browser().get("/waitingroom/dashboard/data"));
  }

  /**
   * The documented alternative, {@code waitingroom.filter-order=-101}: the room before Security.
   * Then the room answers first: a full room queues Security's own login page and the protected
   * page alike (no redirect to the login page, no sign-in while the room is full), and signing in
   * is a visit that takes a slot; static files still pass.
   */
  @Test
  void beforeSecurityTheRoomQueuesTheLoginPageToo() throws Exception {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SecureShop.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(
            "--waitingroom.room-id=boot4-secure-first",
            "--waitingroom.total-active-users=1",
            "--waitingroom.new-users-per-minute=1",
            "--waitingroom.session-duration=5m",
            "--waitingroom.keyset.generate-ephemeral=true",
            "--waitingroom.filter-order=-101")) {
      int server = Objects.requireNonNull(((WebServerApplicationContext) context).getWebServer()).getPort();
      Browser alice = new Browser(server);
      HttpResponse<String> login = alice.get("/login");
      assertThat(login.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("wr_boot4-secure-first="));
      assertThat(alice.postLogin(login, "alice", "alice-pw").statusCode()).isEqualTo(302);
      assertThat(alice.get("/account").body()).isEqualTo("account of alice");

      Browser bob = new Browser(server);
      assertThat(bob.get("/login").body()).contains(QUEUED).doesNotContain("Please sign in");
      HttpResponse<String> bobAccount = bob.get("/account");
      assertThat(bobAccount.statusCode()).isNotEqualTo(302);
      assertThat(bobAccount.body()).contains(QUEUED);
      HttpResponse<String> css = bob.get("/css/site.css");
      assertThat(css.body()).contains("color: #444");
      assertNoTicket(css);
    }
  }
}

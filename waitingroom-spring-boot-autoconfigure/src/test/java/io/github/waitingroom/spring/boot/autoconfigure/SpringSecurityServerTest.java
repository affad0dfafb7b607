package io.github.waitingroom.spring.boot.autoconfigure;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The starter beside Spring Security, with form login and a protected page, on a real embedded
 * Tomcat over real HTTP: the room runs at its default order, right after Security's filter chain,
 * and the docs' promises hold. What Security answers itself (the redirect to the login page, its
 * generated login page, the login form's POST) never reaches the room, so a visitor can sign in
 * while the room is full, and no visitor is counted for it; static files pass; the protected page
 * is guarded; an operator bypass rule sees the signed-in user's role; the dashboard, protected by
 * {@code waitingroom.dashboard.require-role}, answers an operator signed in through Security and
 * refuses everyone else, never with the waiting page. A second application puts the room before
 * Security ({@code waitingroom.filter-order=-101}), the documented alternative, and shows what
 * changes: the login page itself is queued.
 *
 * <p>Runs in a Surefire execution of its own, the only one with Spring Security on the classpath.
 */
@SpringBootTest(
    classes = SpringSecurityServerTest.SecureShop.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=secure",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.dashboard.require-role=OPERATOR"
    })
class SpringSecurityServerTest {
  private static final String QUEUED = "You are in line";
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" type=\"hidden\" value=\"([^\"]+)\"");

  @LocalServerPort int port;

  @BeforeAll
  static void onlyInTheSpringSecurityRun() {
    boolean present = ClassUtils.isPresent("org.springframework.security.web.SecurityFilterChain", null);
    if (Boolean.getBoolean("waitingroom.springSecurityRun")) {
      assertThat(present).as("Spring Security on the classpath of its own Surefire run").isTrue();
    } else {
      // Only when named with -Dtest: the default Surefire run keeps Spring Security out.
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
              a -> a.requestMatchers("/", "/css/**", "/img/**", "/favicon.ico", "/error").permitAll().anyRequest().authenticated())
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

  @Test
  void securityAnswersLoginItselfTheRoomGuardsThePagesItLetsThroughAndARuleSeesRoles() throws Exception {
    // Anonymous, the protected page: Security redirects to its login page before the room sees it.
    Browser alice = new Browser();
    HttpResponse<String> anonymous = alice.get("/account");
    assertThat(anonymous.statusCode()).isEqualTo(302);
    assertThat(anonymous.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
    assertNoTicket(anonymous);
    // Static files pass without a ticket, signed in or not.
    HttpResponse<String> css = alice.get("/css/shop.css");
    assertThat(css.body()).contains("color: #333");
    assertNoTicket(css);

    // Signing in is Security's business: no visitor counted, no ticket.
    HttpResponse<String> signedIn = alice.signIn("alice", "alice-pw");
    assertThat(signedIn.statusCode()).isEqualTo(302);
    assertThat(signedIn.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/account?continue"));
    assertNoTicket(signedIn);
    // The protected page is a visit: the room admits alice, the room's one slot.
    HttpResponse<String> account = alice.get("/account");
    assertThat(account.body()).isEqualTo("account of alice");
    assertThat(account.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("wr_secure="));
    assertThat(alice.get("/account").body()).isEqualTo("account of alice");

    // The room is full; bob can still sign in (Security answers that), and then waits in line.
    Browser bob = new Browser();
    HttpResponse<String> bobIn = bob.signIn("bob", "bob-pw");
    assertThat(bobIn.statusCode()).isEqualTo(302);
    assertNoTicket(bobIn);
    assertThat(bob.get("/account").body()).contains(QUEUED);

    // An operator's rule asks for the role Security established: olga passes the full room.
    Browser olga = new Browser();
    olga.signIn("olga", "olga-pw");
    HttpResponse<String> operator = olga.get("/account");
    assertThat(operator.body()).isEqualTo("account of olga");
    assertNoTicket(operator);

    // The dashboard relies on Security's sign-in: the operator reads it while the room is full ...
    HttpResponse<String> dashboard = olga.get("/waitingroom/dashboard/data");
    assertThat(dashboard.statusCode()).isEqualTo(200);
    assertThat(dashboard.body()).contains("\"roomId\":\"secure\"");
    assertNoTicket(dashboard);
    // ... a signed-in user without the role gets 403, the one in line too (not the waiting page) ...
    for (Browser user : List.of(alice, bob)) {
      HttpResponse<String> refused = user.get("/waitingroom/dashboard/data");
      assertThat(refused.statusCode()).isEqualTo(403);
      assertThat(refused.body()).doesNotContain(QUEUED);
      assertNoTicket(refused);
    }
    // ... and an anonymous one is sent to sign in by Security.
    HttpResponse<String> anonymousDashboard = new Browser().get("/waitingroom/dashboard/data");
    assertThat(anonymousDashboard.statusCode()).isEqualTo(302);
    assertThat(anonymousDashboard.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));

    // A wrong password is Security's answer too, never the room's.
    Browser mallory = new Browser();
    HttpResponse<String> wrong = mallory.signIn("alice", "guess");
    assertThat(wrong.statusCode()).isEqualTo(302);
    assertThat(wrong.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login?error"));
    assertNoTicket(wrong);
  }

  /**
   * The documented alternative, {@code waitingroom.filter-order=-101}: the room before Security.
   * Then the room answers first: a full room queues Security's own login page and the protected
   * page alike (no redirect to the login page, no sign-in while the room is full), and signing in
   * is a visit that takes a slot; static files still pass. The default order exists to avoid
   * exactly this; docs/spring-boot.md says when the alternative is worth it.
   */
  @Test
  void beforeSecurityTheRoomQueuesTheLoginPageToo() throws Exception {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SecureShop.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(
            "--waitingroom.room-id=secure-first",
            "--waitingroom.total-active-users=1",
            "--waitingroom.new-users-per-minute=1",
            "--waitingroom.session-duration=5m",
            "--waitingroom.filter-order=-101")) {
      int server = ((WebServerApplicationContext) context).getWebServer().getPort();
      // Alice's visit to the login page takes the room's one slot; her ticket carries her through
      // the sign-in to the protected page.
      Browser alice = new Browser(server);
      HttpResponse<String> login = alice.get("/login");
      assertThat(login.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("wr_secure-first="));
      assertThat(alice.postLogin(login, "alice", "alice-pw").statusCode()).isEqualTo(302);
      assertThat(alice.get("/account").body()).isEqualTo("account of alice");

      // Bob waits in line at the login page itself, and at the protected page instead of being
      // sent to sign in: the room answers before Security does.
      Browser bob = new Browser(server);
      HttpResponse<String> bobLogin = bob.get("/login");
      assertThat(bobLogin.body()).contains(QUEUED).doesNotContain("Please sign in");
      HttpResponse<String> bobAccount = bob.get("/account");
      assertThat(bobAccount.statusCode()).isNotEqualTo(302);
      assertThat(bobAccount.body()).contains(QUEUED);
      HttpResponse<String> css = bob.get("/css/shop.css");
      assertThat(css.body()).contains("color: #333");
      assertNoTicket(css);
    }
  }
}

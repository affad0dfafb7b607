package io.github.waitingroom.testsupport.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The starter beside Spring Security, with form login and a protected page, on a real embedded
 * Tomcat over real HTTP: the room runs at its default order, right after Security's filter chain,
 * and the docs' promises hold. What Security answers itself (the redirect to the login page, its
 * generated login page, the login form's POST, a wrong password) never reaches the room, so a
 * visitor can sign in while the room is full, and no visitor is counted for it; static files pass,
 * for a visitor in line too; the protected page is guarded; an operator bypass rule sees the
 * signed-in user's role; the dashboard, protected by {@code waitingroom.dashboard.require-role},
 * answers an operator signed in through Security and refuses everyone else, never with the waiting
 * page. A second application puts the room before Security ({@code waitingroom.filter-order=-101}),
 * the documented alternative, and shows what changes: the login page itself is queued.
 *
 * <p>The application has Security's form login (its own login page) with users {@code alice} and
 * {@code bob} (role {@code USER}) and {@code olga} ({@code USER}, {@code OPERATOR}), passwords
 * {@code <name>-pw}; lets everyone see {@code /} and the static files and asks a sign-in for the
 * rest; answers {@code account of <name>} at {@code /account}; and has a {@code WaitingRoomBypass}
 * for role {@code OPERATOR}. A subclass per Boot version starts it; it runs in a Surefire execution
 * of its own, the only one with Spring Security on the classpath.
 */
public abstract class SpringSecurityScenario {
  private static final String QUEUED = "You are in line";
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  /** Creates the scenario; a subclass per Boot version. */
  protected SpringSecurityScenario() {}

  /** Starts the secure application with these command-line arguments, as a servlet application on port 0. */
  protected abstract RunningApp start(String... args);

  /** Checks that the test runs on the Boot and Security versions its module is for; called by each test. */
  protected abstract void checkVersions();

  /** A static file of the application: its path and a piece of its text. */
  protected abstract String[] staticFile();

  /** Checks where Security sends a visitor who signed in after asking for {@code /account}. */
  protected abstract void assertBackToTheAccountPage(String location);

  @BeforeAll
  static void onlyInTheSpringSecurityRun() {
    boolean present;
    try {
      Class.forName("org.springframework.security.web.SecurityFilterChain", false, SpringSecurityScenario.class.getClassLoader());
      present = true;
    } catch (ClassNotFoundException e) {
      present = false;
    }
    if (Boolean.getBoolean("waitingroom.springSecurityRun")) {
      assertThat(present).as("Spring Security on the classpath of its own Surefire run").isTrue();
    } else {
      // Only when named with -Dtest: the default Surefire run keeps Spring Security out.
      Assumptions.assumeTrue(present, "Spring Security is not on this run's classpath");
    }
  }

  /** One browser: its own cookie jar, redirects not followed, so each answer is seen. */
  private static final class Browser {
    private final HttpClient client =
        HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
    private final int server;

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

  private void assertStaticFilePasses(Browser visitor) throws Exception {
    HttpResponse<String> file = visitor.get(staticFile()[0]);
    assertThat(file.body()).contains(staticFile()[1]);
    assertNoTicket(file);
  }

  @Test
  void securityAnswersLoginItselfTheRoomGuardsThePagesItLetsThroughAndARuleSeesRoles() throws Exception {
    checkVersions();
    try (RunningApp app = start(
        "--waitingroom.room-id=secure",
        "--waitingroom.total-active-users=1",
        "--waitingroom.new-users-per-minute=1",
        "--waitingroom.session-duration=5m",
        "--waitingroom.keyset.generate-ephemeral=true",
        "--waitingroom.dashboard.require-role=OPERATOR")) {
      int port = app.port();
      // Anonymous, the protected page: Security redirects to its login page before the room sees it.
      Browser alice = new Browser(port);
      assertRedirectToLogin(alice.get("/account"));
      // Static files pass without a ticket, signed in or not.
      assertStaticFilePasses(alice);

      // Signing in is Security's business: no visitor counted, no ticket.
      HttpResponse<String> signedIn = alice.signIn("alice", "alice-pw");
      assertThat(signedIn.statusCode()).isEqualTo(302);
      assertThat(signedIn.headers().firstValue("Location")).hasValueSatisfying(this::assertBackToTheAccountPage);
      assertNoTicket(signedIn);
      // The protected page is a visit: the room admits alice, the room's one slot.
      HttpResponse<String> account = alice.get("/account");
      assertThat(account.body()).isEqualTo("account of alice");
      assertThat(account.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("wr_secure="));
      assertThat(alice.get("/account").body()).isEqualTo("account of alice");

      // The room is full; bob can still sign in (Security answers that), and then waits in line.
      Browser bob = new Browser(port);
      HttpResponse<String> bobIn = bob.signIn("bob", "bob-pw");
      assertThat(bobIn.statusCode()).isEqualTo(302);
      assertNoTicket(bobIn);
      assertThat(bob.get("/account").body()).contains(QUEUED);
      assertStaticFilePasses(bob);

      // An operator's rule asks for the role Security established: olga passes the full room.
      Browser olga = new Browser(port);
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
      assertRedirectToLogin(new Browser(port).get("/waitingroom/dashboard/data"));

      // A wrong password is Security's answer too, never the room's.
      Browser mallory = new Browser(port);
      HttpResponse<String> wrong = mallory.signIn("alice", "guess");
      assertThat(wrong.statusCode()).isEqualTo(302);
      assertThat(wrong.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login?error"));
      assertNoTicket(wrong);
    }
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
    checkVersions();
    try (RunningApp app = start(
        "--waitingroom.room-id=secure-first",
        "--waitingroom.total-active-users=1",
        "--waitingroom.new-users-per-minute=1",
        "--waitingroom.session-duration=5m",
        "--waitingroom.keyset.generate-ephemeral=true",
        "--waitingroom.filter-order=-101")) {
      int server = app.port();
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
      assertStaticFilePasses(bob);
    }
  }
}

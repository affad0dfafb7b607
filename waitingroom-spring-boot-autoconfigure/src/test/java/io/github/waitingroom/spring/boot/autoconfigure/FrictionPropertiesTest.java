package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

/** The proof of work and the human check from properties, and their errors. */
class FrictionPropertiesTest {
  private final ReactiveWebApplicationContextRunner runner =
      ReactiveRunner.withTheFilters().withPropertyValues(ReactiveRunner.ONE_SLOT);

  @Test
  void aFullRoomChallengesNewcomersWithTheConfiguredProofOfWorkAndWidget() {
    runner
        .withPropertyValues(
            "waitingroom.proof-of-work=12",
            "waitingroom.challenge-penalty=45s",
            "waitingroom.human-check.provider=hcaptcha",
            "waitingroom.human-check.site-key=site-key",
            "waitingroom.human-check.secret-key=s3cret",
            "waitingroom.human-check.flag-below=0.2")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              WaitingRoomWebFilter filter = context.getBean(WaitingRoomWebFilter.class);
              assertThat(filter.gate().frictionOn()).isTrue();
              GateRequest request = GateRequest.builder("", "GET").accept("text/html").acceptLanguage("en").build();
              assertThat(filter.gate().handle(request).passes()).as("a free slot: no friction").isTrue();
              String page = new String(filter.gate().handle(request).body(), StandardCharsets.UTF_8);
              assertThat(page).contains("Checking your browser", "bits = 12,", "wait = 45;", "class=\"h-captcha\"")
                  .doesNotContain("s3cret");
            });
  }

  @Test
  void badValuesStopTheStartNamingTheProperty() {
    runner.withPropertyValues("waitingroom.proof-of-work=33")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.proof-of-work"));
    runner.withPropertyValues("waitingroom.challenge-penalty=0s")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.challenge-penalty"));
    runner.withPropertyValues("waitingroom.human-check.provider=turnstile", "waitingroom.human-check.site-key=k")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.human-check.secret-key"));
    runner.withPropertyValues("waitingroom.human-check.provider=recaptcha", "waitingroom.human-check.site-key=k",
            "waitingroom.human-check.secret-key=s", "waitingroom.human-check.flag-below=2")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.human-check.flag-below"));
  }
}

package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The bounded body of a {@code PUT} to the operator API ({@link OperatorBody}), and the request an
 * adapter builds from what it read ({@link OperatorRequest#of}).
 */
class OperatorBodyTest {
  @Test
  void aBodyWithinTheLimitIsReadAsUtf8() throws IOException {
    byte[] bytes = "{\"totalActiveUsers\":5,\"note\":\"Grüße\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(OperatorBody.read(new ByteArrayInputStream(bytes), bytes.length))
        .isEqualTo("{\"totalActiveUsers\":5,\"note\":\"Grüße\"}");
    assertThat(OperatorBody.read(new ByteArrayInputStream(new byte[0]), -1)).isEmpty();
  }

  @Test
  void aLongerBodyIsRefusedAndDrainedUpToFourTimesTheLimit() throws IOException {
    int max = OperatorApi.MAX_BODY_BYTES;
    ByteArrayInputStream declared = new ByteArrayInputStream(new byte[max + 10]);
    assertThat(OperatorBody.read(declared, max + 10)).isNull();
    assertThat(declared.available()).isZero();
    ByteArrayInputStream undeclared = new ByteArrayInputStream(new byte[max + 1]);
    assertThat(OperatorBody.read(undeclared, -1)).isNull();
    assertThat(undeclared.available()).isZero();
    ByteArrayInputStream huge = new ByteArrayInputStream(new byte[10 * max]);
    assertThat(OperatorBody.read(huge, 10L * max)).isNull();
    assertThat(huge.available()).isEqualTo(6 * max);
  }

  @Test
  void aRequestAnswersFromThePartsItWasGiven() throws IOException {
    OperatorRequest r = OperatorRequest.of("PUT", "/settings", "/ops/settings", "10.0.0.1",
        name -> "room".equals(name) ? "shop" : null, name -> "Content-Type".equals(name) ? "application/json" : null,
        "operator"::equals, () -> "{}");
    assertThat(r.method()).isEqualTo("PUT");
    assertThat(r.path()).isEqualTo("/settings");
    assertThat(r.requestUri()).isEqualTo("/ops/settings");
    assertThat(r.remoteAddress()).isEqualTo("10.0.0.1");
    assertThat(r.parameter("room")).isEqualTo("shop");
    assertThat(r.parameter("other")).isNull();
    assertThat(r.header("Content-Type")).isEqualTo("application/json");
    assertThat(r.userInRole("operator")).isTrue();
    assertThat(r.userInRole("visitor")).isFalse();
    assertThat(r.body()).isEqualTo("{}");
  }
}

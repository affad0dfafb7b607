package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The host a request addressed, as the adapters read it from the server's scheme, name and port. */
class GateRequestHostTest {
  private static @Nullable String host(@Nullable String scheme, @Nullable String name, int port) {
    return GateRequest.builder("", "GET").host(scheme, name, port).build().host();
  }

  @Test
  void theSchemesDefaultPortIsLeftOut() {
    assertThat(host("https", "shop.example", 443)).isEqualTo("shop.example");
    assertThat(host("http", "shop.example", 80)).isEqualTo("shop.example");
    assertThat(host("HTTPS", "shop.example", 443)).isEqualTo("shop.example");
    assertThat(host("https", "shop.example", -1)).as("no port given").isEqualTo("shop.example");
  }

  @Test
  void anotherPortIsKept() {
    assertThat(host("https", "shop.example", 8443)).isEqualTo("shop.example:8443");
    assertThat(host("http", "shop.example", 443)).isEqualTo("shop.example:443");
    assertThat(host(null, "shop.example", 80)).as("no scheme: no default port").isEqualTo("shop.example:80");
  }

  @Test
  void anIpv6AddressGoesInBracketsOnce() {
    assertThat(host("http", "::1", 8080)).isEqualTo("[::1]:8080");
    assertThat(host("http", "[::1]", 8080)).isEqualTo("[::1]:8080");
    assertThat(host("https", "2001:db8::1", 443)).isEqualTo("[2001:db8::1]");
  }

  @Test
  void noNameMeansNoHost() {
    assertThat(host("https", null, 443)).isNull();
    assertThat(host("https", "", 443)).isNull();
  }
}

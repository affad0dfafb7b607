package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The filter reads a ticket cookie sent in double quotes as the ticket inside them: Servlet 6.1
 * containers (Tomcat 11) hand the quotes on. Over a real server: {@code Boot4QuotedCookieTest}.
 */
class QuotedCookieValueTest {
  @Test
  void oneEnclosingPairOfQuotesIsRemovedAndNothingElse() {
    assertThat(ServletExchange.unquoted("\"AbC-_1\"")).isEqualTo("AbC-_1");
    assertThat(ServletExchange.unquoted("AbC-_1")).isEqualTo("AbC-_1");
    assertThat(ServletExchange.unquoted("\"\"")).isEmpty();
    assertThat(ServletExchange.unquoted("\"")).isEqualTo("\"");
    assertThat(ServletExchange.unquoted("\"AbC")).isEqualTo("\"AbC");
    assertThat(ServletExchange.unquoted("AbC\"")).isEqualTo("AbC\"");
    assertThat(ServletExchange.unquoted(null)).isNull();
  }
}

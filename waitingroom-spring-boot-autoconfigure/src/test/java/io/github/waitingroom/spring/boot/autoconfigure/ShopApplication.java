package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.spring.boot.WaitingRoomBypass;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A small Spring Boot application for the tests: pages at {@code /}, {@code /api/items}, {@code
 * /shop/<item>} and {@code /drop/<item>}, a form target {@code POST /orders},
 * static files under {@code src/test/resources/static}, and an operator bypass rule.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ShopApplication {
  static final String OPERATOR_HEADER = "X-Test-Operator";

  @Bean
  WaitingRoomBypass operators() {
    return request -> "yes".equals(request.getHeader(OPERATOR_HEADER));
  }

  @RestController
  static class Pages {
    @GetMapping("/")
    String home() {
      return "shop home";
    }

    @GetMapping("/api/items")
    String items() {
      return "[\"tea\",\"cups\"]";
    }

    @GetMapping("/shop/{item}")
    String shop(@PathVariable String item) {
      return "shop " + item;
    }

    @org.springframework.web.bind.annotation.PostMapping("/orders")
    String order() {
      return "order placed";
    }

    @GetMapping("/drop/{item}")
    String drop(@PathVariable String item) {
      return "drop " + item;
    }
  }
}

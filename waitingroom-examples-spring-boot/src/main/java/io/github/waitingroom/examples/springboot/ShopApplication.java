package io.github.waitingroom.examples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample shop. Everything the waiting room needs comes from the starter on the classpath and
 * the {@code waitingroom.*} properties in {@code application.yml}: this class only starts Spring.
 */
@SpringBootApplication
public class ShopApplication {
  /** Spring creates it. */
  public ShopApplication() {}

  /**
   * Starts the shop on port 8080 (or {@code --server.port=N}).
   *
   * @param args Spring Boot command-line arguments, such as {@code --waitingroom.total-active-users=5}
   */
  public static void main(String[] args) {
    SpringApplication.run(ShopApplication.class, args);
  }
}

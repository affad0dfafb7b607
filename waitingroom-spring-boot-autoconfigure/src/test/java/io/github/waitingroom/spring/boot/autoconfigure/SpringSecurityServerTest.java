package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.spring.boot.WaitingRoomBypass;
import io.github.waitingroom.testsupport.boot.RunningApp;
import io.github.waitingroom.testsupport.boot.SpringSecurityScenario;
import java.security.Principal;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;

/**
 * {@link SpringSecurityScenario} on Spring Boot 3 and Spring Security 6, on a real embedded Tomcat.
 * {@code Boot4SpringSecurityTest} runs the same scenario on Spring Boot 4 and Spring Security 7.
 *
 * <p>Runs in a Surefire execution of its own, the only one with Spring Security on the classpath.
 */
class SpringSecurityServerTest extends SpringSecurityScenario {
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

  @Override
  protected RunningApp start(String... args) {
    return BootApps.run(SecureShop.class, WebApplicationType.SERVLET, TomcatWebServer.class, args);
  }

  @Override
  protected void checkVersions() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.");
  }

  @Override
  protected String[] staticFile() {
    return new String[] {"/css/shop.css", "color: #333"};
  }

  @Override
  protected void assertBackToTheAccountPage(String location) {
    assertThat(location).endsWith("/account?continue");
  }
}

package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.embedded.netty.NettyWebServer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Runs a reactive test application on Reactor Netty, the server of an application built on {@code
 * spring-boot-starter-webflux} alone. This module's test classpath holds Spring MVC's Tomcat too,
 * and Spring Boot 3.5 prefers Tomcat for a reactive application when both are present, so without
 * this factory the reactive tests would run WebFlux over Tomcat's servlet adapter.
 * {@code server.port} and {@code server.forward-headers-strategy} still apply: Boot's customizers
 * configure every {@code NettyReactiveWebServerFactory} bean.
 */
@Configuration(proxyBeanMethods = false)
class OnReactorNetty {
  @Bean
  NettyReactiveWebServerFactory nettyReactiveWebServerFactory() {
    return new NettyReactiveWebServerFactory();
  }

  /** Fails unless the context's server is Reactor Netty's. */
  static void assertOnNetty(ApplicationContext context) {
    assertThat(((WebServerApplicationContext) context).getWebServer()).isInstanceOf(NettyWebServer.class);
  }
}

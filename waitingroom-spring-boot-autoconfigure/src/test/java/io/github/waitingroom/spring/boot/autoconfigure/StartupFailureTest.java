package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * What a user sees when a property is wrong: a real {@code SpringApplication} run, whose failure
 * report (Spring Boot's failure analysis) names the property, its value and the reason.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureTest {
  @Test
  void aWrongPropertyStopsTheApplicationWithAReportNamingIt(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                new SpringApplicationBuilder(ShopApplication.class)
                    .web(WebApplicationType.SERVLET)
                    .properties("server.port=0", "spring.main.banner-mode=off")
                    .run(
                        "--waitingroom.total-active-users=0",
                        "--waitingroom.new-users-per-minute=5",
                        "--waitingroom.session-duration=10m",
                        "--waitingroom.keyset.generate-ephemeral=true")
                    .close())
        .isNotNull();
    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("Invalid value '0' for configuration property 'waitingroom.total-active-users'")
        .contains("totalActiveUsers must be positive");
  }

  @Test
  void twoRoomsOnOnePathPrefixStopTheApplicationWithAReportNamingThem(CapturedOutput output) {
    assertThatThrownBy(
            () ->
                new SpringApplicationBuilder(ShopApplication.class)
                    .web(WebApplicationType.SERVLET)
                    .properties("server.port=0", "spring.main.banner-mode=off")
                    .run(
                        "--waitingroom.room-id=shop",
                        "--waitingroom.total-active-users=5",
                        "--waitingroom.new-users-per-minute=5",
                        "--waitingroom.session-duration=10m",
                        "--waitingroom.keyset.generate-ephemeral=true",
                        "--waitingroom.rooms.drop.total-active-users=1",
                        "--waitingroom.rooms.drop.new-users-per-minute=1",
                        "--waitingroom.rooms.drop.session-duration=1m")
                    .close())
        .isNotNull();
    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("configuration property 'waitingroom.rooms'")
        .contains("pathPrefix '/' of room 'drop' is already guarded by room 'shop'");
  }
}

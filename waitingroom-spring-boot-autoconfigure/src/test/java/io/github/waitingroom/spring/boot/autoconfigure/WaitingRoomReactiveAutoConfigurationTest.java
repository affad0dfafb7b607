package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.SameSite;
import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

/** The reactive auto-configuration's bean and conditions, without a server. */
class WaitingRoomReactiveAutoConfigurationTest {
  private static final String[] VALID = {
    "waitingroom.room-id=unit",
    "waitingroom.total-active-users=10",
    "waitingroom.new-users-per-minute=5",
    "waitingroom.session-duration=10m",
    "waitingroom.keyset.generate-ephemeral=true"
  };

  private final ReactiveWebApplicationContextRunner runner = ReactiveRunner.withTheFilters();

  @Test
  void propertiesMakeTheWebFilterAndNoServletFilter() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.path-prefix=/shop", "waitingroom.cookie.same-site=none", "waitingroom.filter-order=-101")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
              WaitingRoomWebFilter filter = context.getBean(WaitingRoomWebFilter.class);
              assertThat(filter.room()).isSameAs(context.getBean(WaitingRoom.class));
              assertThat(filter.getOrder()).isEqualTo(-101);
              assertThat(filter.gate().paths().prefix()).isEqualTo("/shop");
              assertThat(filter.gate().cookieSameSite()).isEqualTo(SameSite.NONE);
            });
  }

  @Test
  void theRejectStatusIsAProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.reject-status=410")
        .run(context -> assertThat(context.getBean(WaitingRoomWebFilter.class).gate().rejectStatus()).isEqualTo(410));
    runner
        .withPropertyValues(VALID)
        .run(context -> assertThat(context.getBean(WaitingRoomWebFilter.class).gate().rejectStatus()).isEqualTo(403));
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.reject-status=302")
        .run(
            context ->
                assertThat(context).getFailure().rootCause()
                    .hasMessageContaining("waitingroom.reject-status")
                    .hasMessageContaining("302"));
  }

  @Test
  void revokeIsAPropertyOffByDefault() {
    runner
        .withPropertyValues(VALID)
        .run(context -> assertThat(context.getBean(WaitingRoomWebFilter.class).gate().revokeOn()).isFalse());
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.revoke=true")
        .run(context -> assertThat(context.getBean(WaitingRoomWebFilter.class).gate().revokeOn()).isTrue());
  }

  @Test
  void aBadSettingStopsTheStartNamingTheProperty() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.waiting-status=503")
        .run(
            context ->
                assertThat(context).getFailure().rootCause()
                    .hasMessageContaining("waitingroom.waiting-status")
                    .hasMessageContaining("503"));
  }

  @Test
  void furtherRoomsAreGuardedByTheOneWebFilterMostSpecificPrefixFirst() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "waitingroom.rooms.drop.path-prefix=/drop",
            "waitingroom.rooms.drop.total-active-users=10",
            "waitingroom.rooms.drop.new-users-per-minute=5",
            "waitingroom.rooms.drop.session-duration=1m")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(WaitingRoomWebFilter.class);
              WaitingRoomWebFilter filter = context.getBean(WaitingRoomWebFilter.class);
              assertThat(filter.gates())
                  .extracting(g -> g.room().config().roomId() + " " + g.paths().prefix())
                  .containsExactly("drop /drop", "unit /");
              assertThat(filter.room()).isSameAs(context.getBean(WaitingRoom.class));
            });
  }

  @Test
  void twoRoomsOnOnePrefixStopAReactiveApplication() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "waitingroom.rooms.drop.total-active-users=10",
            "waitingroom.rooms.drop.new-users-per-minute=5",
            "waitingroom.rooms.drop.session-duration=1m")
        .run(
            context ->
                assertThat(context).getFailure().rootCause()
                    .hasMessageContaining("waitingroom.rooms")
                    .hasMessageContaining("pathPrefix '/' of room 'drop' is already guarded by room 'unit'"));
  }

  @Test
  void springResourcesPassByDefaultWithWebFluxSettingsAndTheSameOptOut() {
    runner
        .withPropertyValues(VALID)
        .withPropertyValues(
            "spring.webflux.static-path-pattern=/assets/**",
            "spring.webflux.webjars-path-pattern=/jars/**",
            "management.endpoints.web.base-path=/manage")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              var paths = context.getBean(WaitingRoomWebFilter.class).gate().paths();
              for (String path : new String[] {"/assets/app.css", "/jars/x.js", "/favicon.ico", "/manage/health"}) {
                assertThat(paths.guards(path)).as(path).isFalse();
              }
              assertThat(paths.guards("/webjars/x.js")).isTrue();
              assertThat(paths.guards("/actuator/health")).isTrue();
              assertThat(paths.guards("/")).isTrue();
            });
    runner
        .withPropertyValues(VALID)
        .withPropertyValues("waitingroom.ignore-spring-resources=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              var paths = context.getBean(WaitingRoomWebFilter.class).gate().paths();
              for (String path : new String[] {"/webjars/x.js", "/favicon.ico", "/actuator/health"}) {
                assertThat(paths.guards(path)).as(path).isTrue();
              }
            });
  }

  @Test
  void backsOffWithoutWebFluxFilterOnTheClasspath() {
    runner
        .withPropertyValues(VALID)
        .withClassLoader(new FilteredClassLoader(WaitingRoomWebFilter.class))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(WaitingRoom.class);
              assertThat(context).doesNotHaveBean(WaitingRoomWebFilter.class);
            });
  }
}

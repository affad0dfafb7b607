package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * The names a Prometheus server scrapes from the starter's meters, on a real embedded Tomcat over
 * real HTTP ({@code /actuator/prometheus}): the names docs/spring-boot.md lists beside the
 * Micrometer names, so that a query written from the docs finds its series.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=shop",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "management.endpoints.web.exposure.include=prometheus",
      // @SpringBootTest switches metrics export off unless asked.
      "management.prometheus.metrics.export.enabled=true"
    })
class PrometheusNamesServerTest {
  /** Every name docs/spring-boot.md gives in its Prometheus column. */
  static final List<String> DOCUMENTED =
      List.of(
          "waitingroom_users_active_users{",
          "waitingroom_users_waiting_users{",
          "waitingroom_slots_free_slots{",
          "waitingroom_admissions_rate{",
          "waitingroom_limit_active_users{",
          "waitingroom_limit_new_users_per_minute{",
          "waitingroom_settings_version{",
          "waitingroom_store_failing{",
          "waitingroom_nodes{",
          "waitingroom_view_age_seconds{",
          "waitingroom_epoch_length_seconds{",
          "waitingroom_decisions_total{",
          "waitingroom_arrivals_total{",
          "waitingroom_admissions_total{",
          "waitingroom_tickets_rejected_total{",
          "waitingroom_line_time_seconds_count{",
          "waitingroom_line_time_seconds_sum{",
          "waitingroom_wait_estimated_seconds_count{",
          "waitingroom_wait_estimated_seconds_sum{",
          "waitingroom_wait_unknown_total{",
          "waitingroom_sync_seconds_count{",
          "waitingroom_sync_seconds_sum{",
          "waitingroom_sync_failures_total{",
          "waitingroom_store_outages_total{");

  @LocalServerPort int port;

  @Test
  void prometheusScrapesTheDocumentedNames() throws Exception {
    // One visitor, so the decision counters have a series.
    assertThat(new HttpVisitor(port).get("/").body()).isEqualTo("shop home");
    HttpResponse<String> scrape = new HttpVisitor(port).get("/actuator/prometheus", "Accept", "text/plain");
    assertThat(scrape.statusCode()).isEqualTo(200);
    List<String> ours =
        scrape.body().lines().filter(l -> l.startsWith("waitingroom_")).map(l -> l.substring(0, l.indexOf(' '))).toList();
    assertThat(ours).isNotEmpty();
    for (String name : DOCUMENTED) {
      assertThat(ours).as(name).anySatisfy(l -> assertThat(l).startsWith(name));
    }
    // And no waitingroom series the docs leave out.
    for (String series : ours) {
      assertThat(DOCUMENTED).as(series).anySatisfy(name -> assertThat(series).startsWith(name));
    }
    assertThat(scrape.body()).contains("waitingroom_users_active_users{dc=\"local\",node=\"node\",room=\"shop\",scope=\"room\"}");
  }
}

package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;

import io.github.waitingroom.WaitingRoom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.web.servlet.MockMvc;

/**
 * What docs/spring-boot.md says about an application's own tests: a {@code @WebMvcTest} slice does
 * not load the starter's auto-configuration, so the slice's requests are never queued, however many
 * cookie-less requests it makes and whatever the room's limits.
 */
@WebMvcTest(
    controllers = ShopApplication.Pages.class,
    properties = {
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m"
    })
// The application class, as the slice would find it in an application with one.
@ContextConfiguration(classes = ShopApplication.class)
class TestSlicesTest {
  @Autowired MockMvc mvc;
  @Autowired ApplicationContext context;

  @Test
  void aWebMvcSliceHasNoRoomAndNoFilter() throws Exception {
    assertThat(context.getBeanNamesForType(WaitingRoom.class)).isEmpty();
    assertThat(context.containsBean(WaitingRoomServletAutoConfiguration.REGISTRATION_BEAN)).isFalse();
    for (int i = 0; i < 5; i++) {
      mvc.perform(get("/")).andExpect(content().string("shop home"));
    }
  }
}

package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What counts as one client for challenges and the no-script budget (issue 42): an IPv4 address,
 * an IPv6 /64, whatever the spelling; and the budget per address and per node, on its own minute.
 */
class ClientAddressTest {
  @Test
  void everySpellingOfAnAddressIsOneClientAndAnIpv6ClientIsItsSlash64() {
    assertThat(ClientAddress.canonical("203.0.113.7")).isEqualTo("4 203.0.113.7");
    assertThat(ClientAddress.canonical("::ffff:203.0.113.7")).as("IPv4-mapped").isEqualTo("4 203.0.113.7");
    assertThat(ClientAddress.canonical("[::FFFF:cb00:7107]")).isEqualTo("4 203.0.113.7");
    assertThat(ClientAddress.canonical("2001:db8:1:2::a")).isEqualTo("6 20010db800010002");
    assertThat(ClientAddress.canonical("[2001:0DB8:0001:0002:ffff:1:2:3]")).isEqualTo("6 20010db800010002");
    assertThat(ClientAddress.canonical("fe80::1%eth0")).isEqualTo("6 fe80000000000000");
    assertThat(ClientAddress.canonical("::1")).isEqualTo("6 0000000000000000");
    assertThat(ClientAddress.canonical(null)).isEmpty();
    assertThat(ClientAddress.canonical("unix:/run/socket")).as("neither: the string itself").isEqualTo("unix:/run/socket");
    assertThat(ClientAddress.canonical("1:2:3:4:5:6:7:8:9")).isEqualTo("1:2:3:4:5:6:7:8:9");
    assertThat(ClientAddress.canonical("1::2::3")).isEqualTo("1::2::3");
    assertThat(ClientAddress.canonical("256.1.1.1")).isEqualTo("256.1.1.1");

    assertThat(ClientAddress.key("2001:db8:1:2::a")).isEqualTo(ClientAddress.key("2001:db8:1:2:ffff:1:2:3"));
    assertThat(ClientAddress.key("2001:db8:1:3::a")).isNotEqualTo(ClientAddress.key("2001:db8:1:2::a"));
    assertThat(ClientAddress.key("203.0.113.7")).isEqualTo(ClientAddress.key("::ffff:203.0.113.7"))
        .isNotEqualTo(ClientAddress.key("203.0.113.8"));
    Set<Long> keys = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      keys.add(ClientAddress.key("10." + (i >> 8) + "." + (i & 255) + ".1"));
    }
    assertThat(keys).hasSize(10_000);
  }

  @Test
  void theBudgetGivesOnePlaceAMinuteToAnAddressAndNoMoreThanTheNodesToAll() {
    NoScriptBudget budget = new NoScriptBudget(3);
    long minute = 1_800_000_000L; // a multiple of 60
    long bot = ClientAddress.key("203.0.113.7");
    int bots = 0;
    for (int i = 0; i < 100; i++) {
      bots += budget.take(bot, minute + i % 60) ? 1 : 0;
    }
    assertThat(bots).as("one address, 100 tries in a minute").isEqualTo(1);
    assertThat(budget.take(ClientAddress.key("198.51.100.1"), minute + 1)).isTrue();
    assertThat(budget.take(ClientAddress.key("198.51.100.2"), minute + 2)).isTrue();
    assertThat(budget.take(ClientAddress.key("198.51.100.3"), minute + 3)).as("the node's 3 are taken").isFalse();
    assertThat(budget.take(ClientAddress.key("198.51.100.3"), minute + 60)).as("its place the next minute").isTrue();
    assertThat(budget.take(bot, minute + 61)).isTrue();
    assertThat(budget.take(bot, minute + 62)).isFalse();

    // An address refused because the node had none left keeps its own place for later that minute.
    NoScriptBudget one = new NoScriptBudget(1);
    assertThat(one.take(ClientAddress.key("198.51.100.1"), minute)).isTrue();
    assertThat(one.take(ClientAddress.key("198.51.100.2"), minute)).isFalse();
    assertThat(new NoScriptBudget(0).take(bot, minute)).as("no budget, no place").isFalse();

    // Many addresses: the node's budget bounds them all, and few honest clients lose to a shared word.
    NoScriptBudget big = new NoScriptBudget(10_000);
    int placed = 0;
    for (int i = 0; i < 20_000; i++) {
      placed += big.take(ClientAddress.key("10." + (i >> 8 & 255) + "." + (i & 255) + "." + (i >> 16)), minute) ? 1 : 0;
    }
    assertThat(placed).isEqualTo(10_000);
    // A bot at 1,000 addresses took their places this minute: an honest address is wrongly
    // refused (a word shared with one taken) with a chance under 1 in 64 (here about 1.1 %, so
    // about 11 of 1,000; the bound is twice 1 in 64 so that chance never fails the test).
    NoScriptBudget crowded = new NoScriptBudget(2_000);
    int botPlaces = 0;
    for (int i = 0; i < 1_000; i++) {
      botPlaces += crowded.take(ClientAddress.key("203.0." + (i >> 8) + "." + (i & 255)), minute) ? 1 : 0;
    }
    assertThat(botPlaces).as("a bot's addresses share words too").isGreaterThan(1_000 - 2 * 1_000 / NoScriptBudget.SLOTS_PER_PLACE);
    int refused = 0;
    for (int i = 0; i < 1_000; i++) {
      refused += crowded.take(ClientAddress.key("10.1." + (i >> 8) + "." + (i & 255)), minute) ? 0 : 1;
    }
    assertThat(refused).as("of 1,000 honest addresses").isLessThanOrEqualTo(2 * 1_000 / NoScriptBudget.SLOTS_PER_PLACE);
  }
}

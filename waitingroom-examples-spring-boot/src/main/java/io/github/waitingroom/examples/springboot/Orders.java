package io.github.waitingroom.examples.springboot;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/** Placed orders, in memory: the latest {@value #KEPT} only, enough for a confirmation page. */
@Component
public class Orders {
  static final int KEPT = 1_000;

  private final Map<String, Order> orders =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Order> eldest) {
          return size() > KEPT;
        }
      };

  /** An empty order book. */
  public Orders() {}

  /**
   * Records an order and gives it an id that cannot be guessed.
   *
   * @param product what was bought
   * @param quantity how many
   * @param name the buyer's name as typed
   */
  public synchronized Order place(Catalog.Product product, int quantity, String name) {
    Order o =
        new Order(UUID.randomUUID().toString(), product.name(), quantity, product.priceCents() * quantity, name);
    orders.put(o.id(), o);
    return o;
  }

  /**
   * The order with this id, if it is still kept.
   *
   * @param id the order's id
   */
  public synchronized Optional<Order> find(String id) {
    return Optional.ofNullable(orders.get(id));
  }

  /**
   * One placed order.
   *
   * @param id its id
   * @param product the product's display name
   * @param quantity how many
   * @param totalCents the price paid, in euro cents
   * @param name the buyer's name
   */
  public record Order(String id, String product, int quantity, int totalCents, String name) {}
}

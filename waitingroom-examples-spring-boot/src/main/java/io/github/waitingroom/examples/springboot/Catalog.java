package io.github.waitingroom.examples.springboot;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * The shop's products and their stock, in memory. Stock only goes down (a checkout takes items);
 * a restart refills it.
 */
@Component
public class Catalog {
  private final List<Product> products =
      List.of(
          new Product("teapot", "Cast-iron teapot", 4_500),
          new Product("cups", "Two porcelain cups", 1_800),
          new Product("sencha", "Sencha, 100 g", 950));
  private final Map<String, AtomicInteger> stock = new ConcurrentHashMap<>();

  /** A catalog with 100 of each product in stock. */
  public Catalog() {
    for (Product p : products) {
      stock.put(p.id(), new AtomicInteger(100));
    }
  }

  /** Every product, in display order. */
  public List<Product> products() {
    return products;
  }

  /**
   * The product with this id.
   *
   * @param id the product's id
   */
  public Optional<Product> product(String id) {
    return products.stream().filter(p -> p.id().equals(id)).findFirst();
  }

  /**
   * How many of the product are left.
   *
   * @param product a product of this catalog
   */
  public int inStock(Product product) {
    return left(product).get();
  }

  /**
   * Takes items out of stock if enough are left.
   *
   * @param product a product of this catalog
   * @param quantity how many, positive
   * @return whether they were taken
   */
  public boolean take(Product product, int quantity) {
    AtomicInteger left = left(product);
    int now;
    do {
      now = left.get();
      if (now < quantity) {
        return false;
      }
    } while (!left.compareAndSet(now, now - quantity));
    return true;
  }

  private AtomicInteger left(Product product) {
    return Objects.requireNonNull(stock.get(product.id()), "not a product of this catalog");
  }

  /**
   * One product.
   *
   * @param id its id, used in URLs and forms
   * @param name its display name
   * @param priceCents its price in euro cents
   */
  public record Product(String id, String name, int priceCents) {}
}

package io.github.waitingroom.examples.springboot;

import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * The JSON API that the shop page's script calls: the product list, each product's stock (one
 * call per product, as a page with widgets makes several calls) and a placed order. These are
 * guarded like the pages: each call carries the visitor's ticket cookie and counts as the same
 * visitor.
 */
@RestController
@RequestMapping("/api")
public class ShopApi {
  private final Catalog catalog;
  private final Orders orders;

  /**
   * The API over the shop's catalog and orders.
   *
   * @param catalog the products
   * @param orders the placed orders
   */
  public ShopApi(Catalog catalog, Orders orders) {
    this.catalog = catalog;
    this.orders = orders;
  }

  /** Every product. */
  @GetMapping("/products")
  public List<Catalog.Product> products() {
    return catalog.products();
  }

  /**
   * How many of one product are left.
   *
   * @param id the product's id
   */
  @GetMapping("/products/{id}/stock")
  public Stock stock(@PathVariable String id) {
    Catalog.Product p =
        catalog.product(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no such product"));
    return new Stock(p.id(), catalog.inStock(p));
  }

  /**
   * A placed order, for the confirmation page.
   *
   * @param id the order's id
   */
  @GetMapping("/orders/{id}")
  public Orders.Order order(@PathVariable String id) {
    return orders.find(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "no such order"));
  }

  /**
   * A product's stock.
   *
   * @param id the product's id
   * @param inStock how many are left
   */
  public record Stock(String id, int inStock) {}
}

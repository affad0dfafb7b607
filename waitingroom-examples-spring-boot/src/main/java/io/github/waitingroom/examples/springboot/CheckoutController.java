package io.github.waitingroom.examples.springboot;

import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The checkout: the shop page's HTML form posts here. A placed order redirects (303, so a reload
 * does not post again) to the confirmation page, which loads the order through the API.
 */
@RestController
public class CheckoutController {
  /** The most items of one product per order. */
  static final int MAX_QUANTITY = 10;

  private final Catalog catalog;
  private final Orders orders;

  /**
   * The checkout over the shop's catalog and orders.
   *
   * @param catalog the products
   * @param orders the placed orders
   */
  public CheckoutController(Catalog catalog, Orders orders) {
    this.catalog = catalog;
    this.orders = orders;
  }

  /**
   * Places an order.
   *
   * @param product the product's id
   * @param quantity how many, 1 to {@value #MAX_QUANTITY}
   * @param name the buyer's name, 1 to 100 characters
   */
  @PostMapping("/checkout")
  public ResponseEntity<Void> checkout(
      @RequestParam String product, @RequestParam int quantity, @RequestParam String name) {
    Catalog.Product p =
        catalog
            .product(product)
            .orElseThrow(() -> new ResponseStatusException(HttpStatus.BAD_REQUEST, "no such product"));
    String buyer = name.strip();
    if (quantity < 1 || quantity > MAX_QUANTITY || buyer.isEmpty() || buyer.length() > 100) {
      throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "quantity 1 to 10 and a name, please");
    }
    if (!catalog.take(p, quantity)) {
      throw new ResponseStatusException(HttpStatus.CONFLICT, "not enough in stock");
    }
    Orders.Order order = orders.place(p, quantity, buyer);
    URI confirmation = UriComponentsBuilder.fromPath("/thanks.html").queryParam("order", order.id()).build().toUri();
    return ResponseEntity.status(HttpStatus.SEE_OTHER).location(confirmation).build();
  }
}

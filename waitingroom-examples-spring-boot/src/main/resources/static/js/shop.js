// The shop's script: a static file, so the waiting room lets it through without a ticket.
// It calls the shop's JSON API several times per page (the products, then each product's stock).
// fetch sends the page's cookies to its own origin, so every call carries the visitor's ticket
// and the room counts the visitor once, however many calls the page makes.
"use strict";

// The number of API calls this page has made, for anyone curious (the browser test reads it).
let apiCalls = 0;

async function getJson(path) {
  apiCalls++;
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (body && body.waitingRoom) {
    // The room holds this visitor back (their session ended while the page was open): its JSON
    // status says so. Reloading shows the waiting page, which lets them in when it is their turn.
    throw new Error("in the waiting room");
  }
  if (!response.ok) {
    throw new Error(path + " answered " + response.status);
  }
  return body;
}

function euros(cents) {
  return (cents / 100).toFixed(2) + " €";
}

async function showShop() {
  const list = document.getElementById("products");
  const select = document.getElementById("product");
  const products = await getJson("/api/products");
  const stock = await Promise.all(
    products.map((p) => getJson("/api/products/" + encodeURIComponent(p.id) + "/stock")));
  products.forEach((p, i) => {
    const item = document.createElement("li");
    item.dataset.product = p.id;
    const name = document.createElement("span");
    name.textContent = p.name;
    const price = document.createElement("span");
    price.textContent = euros(p.priceCents) + " (" + stock[i].inStock + " left)";
    item.append(name, price);
    list.append(item);
    const option = document.createElement("option");
    option.value = p.id;
    option.textContent = p.name;
    select.append(option);
  });
  return products.length + " products";
}

async function showOrder(target) {
  const id = new URLSearchParams(location.search).get("order") || "";
  const o = await getJson("/api/orders/" + encodeURIComponent(id));
  target.dataset.orderId = o.id;
  return "Order for " + o.name + ": " + o.quantity + " × " + o.product + ", " + euros(o.totalCents) + ".";
}

async function main() {
  const order = document.getElementById("order");
  const status = order || document.getElementById("api-status");
  try {
    status.textContent = order ? await showOrder(order) : await showShop();
    document.body.dataset.loaded = "true";
  } catch (e) {
    status.textContent = "Sorry, the shop could not be loaded (" + e.message + ").";
    document.body.dataset.loaded = "failed";
    if (e.message === "in the waiting room") {
      location.reload();
    }
  } finally {
    document.body.dataset.apiCalls = String(apiCalls);
  }
}

main();

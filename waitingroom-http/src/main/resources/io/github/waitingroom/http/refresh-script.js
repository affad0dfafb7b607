(function () {
  var refresh = {{refresh}};
  var untilStart = {{untilStart}};
  var back = "{{back}}";
  var state = "{{state}}";
  function enter() {
    if (!back) { location.replace(location.href); return; }
    var from = document.referrer ? new URL(document.referrer) : null;
    if (from && from.origin === location.origin && from.pathname + from.search === back && history.length > 1) {
      history.back();
    } else {
      location.replace(back);
    }
  }
  var status = new URL(location.href);
  status.searchParams.set("{{statusParam}}", "1");
  var announced = Date.now();
  function show(texts) {
    var now = Date.now(), announce = now - announced >= 60000, all = document.querySelectorAll("[data-wr]");
    for (var i = 0; i < all.length; i++) {
      var e = all[i], v = texts[e.getAttribute("data-wr")];
      if (typeof v !== "string" || e.textContent === v) { continue; }
      // What a screen reader announces changes at most once a minute.
      if (e.closest("[aria-live]")) { if (!announce) { continue; } announced = now; }
      e.textContent = v;
    }
  }
  function poll() {
    fetch(status, { headers: { "Accept": "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        var s = body.waitingRoom;
        if (!s.inWaitingRoom) { enter(); return; }
        // The room changed state (paused, opened, sold out): the page shows the new one.
        var now = s.status === "rejected" ? "rejected" : s.suspended ? "suspended" : s.isEventPrequeueing ? "prequeue" : s.queueAll ? "queueAll" : "open";
        if (s.isRandom) { now += "+random"; }
        if (now !== state) { location.replace(back || location.href); return; }
        if (s.texts) { show(s.texts); }
        var next = Math.max(1, s.refreshIntervalSeconds);
        if (s.isEventPrequeueing) { countdown(s.timeUntilEventStart); next = Math.min(next, s.timeUntilEventStart + 1); }
        schedule(next);
      })
      .catch(function () { setTimeout(function () { location.reload(); }, refresh * 1000); });
  }
  var timer = 0;
  function schedule(seconds) { clearTimeout(timer); timer = setTimeout(poll, seconds * 1000); }
  // The countdown to an event's start: ticks each second from the server's figure, which
  // every poll checks again; at zero the page asks at once whether the line moves.
  // It writes in the server's digits (zero: the character code of its 0), as the page's other
  // numbers: a browser's locale data may choose others for the same language.
  var ends = 0, ticking = 0, zero = {{zero}};
  function clock(s) {
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    var f2 = function (n) { return (n < 10 ? "0" : "") + n; };
    var text = h > 0 ? h + ":" + f2(m) + ":" + f2(r) : m + ":" + f2(r);
    return text.replace(/[0-9]/g, function (d) { return String.fromCharCode(zero + d.charCodeAt(0) - 48); });
  }
  function tick() {
    var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    var all = document.querySelectorAll("[data-wr-countdown]");
    for (var i = 0; i < all.length; i++) { all[i].textContent = clock(left); all[i].setAttribute("data-wr-countdown", left); }
    if (left === 0) { clearInterval(ticking); ticking = 0; schedule(1); }
  }
  function countdown(seconds) {
    // The server's figure wins only when the page's has drifted from it: no jumps between polls.
    var left = Math.ceil((ends - Date.now()) / 1000);
    if (!ends || Math.abs(left - seconds) > 2) { ends = Date.now() + seconds * 1000; }
    if (!ticking) { ticking = setInterval(tick, 1000); }
    tick();
  }
  if (untilStart >= 0) { countdown(untilStart); }
  schedule(untilStart >= 0 ? Math.min(refresh, untilStart + 1) : refresh);
})();

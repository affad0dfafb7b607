(function () {
  var token = "{{token}}", bits = {{bits}}, wait = {{wait}};
  var done = false, started = Date.now(), back = "{{back}}";
  // A GET of the page (or of the page a sent form came from): never a resent form.
  function again() { location.replace(back || location.href); }
  var later = setTimeout(again, wait * 1000 + 500);
  function send(name, value) {
    var u = new URL(location.href);
    u.searchParams.set("{{statusParam}}", "1");
    u.searchParams.set(name, value);
    return fetch(u, { headers: { "Accept": "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (body.waitingRoom.status !== "challenge") { done = true; clearTimeout(later); again(); }
      })
      .catch(function () {});
  }
  window.wrHumanCheck = function (t) { if (!done) { send("{{humanParam}}", t); } };
  if (bits > 0 && window.Worker) {
    try {
      var w = new Worker("?{{statusParam}}={{worker}}");
      w.onmessage = function (e) {
        window.wrProofOfWork = { nonce: e.data.nonce, hashes: e.data.hashes, ms: e.data.ms, pageMs: Date.now() - started };
        if (!done) { send("{{proofParam}}", token + "." + e.data.nonce); }
      };
      w.postMessage({ token: token, bits: bits });
    } catch (e) { /* the reload after the penalty takes over */ }
  }
})();

// The waiting room's proof-of-work worker (served by the gate at ?<statusParam>=pow-worker.js).
// Given {token, bits}, finds a nonce (base 36, counting from 0) such that SHA-256 of the token's
// characters followed by the nonce's starts with `bits` zero bits, and posts
// {nonce, hashes, ms}. SHA-256 is written out here (FIPS 180-4): crypto.subtle is async per hash,
// which costs more than the hash, and exists only in secure contexts. The blocks of the token that
// no nonce changes are hashed once.
"use strict";
var K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);
var W = new Int32Array(64);

function compress(H, p, off) {
  var t, x, y;
  for (t = 0; t < 16; t++) {
    var i = off + 4 * t;
    W[t] = (p[i] << 24) | (p[i + 1] << 16) | (p[i + 2] << 8) | p[i + 3];
  }
  for (t = 16; t < 64; t++) {
    x = W[t - 15];
    y = W[t - 2];
    W[t] = (W[t - 16] + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + W[t - 7]
        + (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10))) | 0;
  }
  var a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
  for (t = 0; t < 64; t++) {
    var t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7)))
        + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
    var t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10)))
        + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  H[0] = (H[0] + a) | 0; H[1] = (H[1] + b) | 0; H[2] = (H[2] + c) | 0; H[3] = (H[3] + d) | 0;
  H[4] = (H[4] + e) | 0; H[5] = (H[5] + f) | 0; H[6] = (H[6] + g) | 0; H[7] = (H[7] + h) | 0;
}

function solve(token, bits) {
  var mid = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  var all = new Uint8Array(token.length);
  for (var i = 0; i < token.length; i++) { all[i] = token.charCodeAt(i) & 0xff; }
  var fixed = token.length >> 6;
  for (var blk = 0; blk < fixed; blk++) { compress(mid, all, blk * 64); }
  var head = token.length - fixed * 64;
  var tail = new Uint8Array(192);
  for (i = 0; i < head; i++) { tail[i] = all[fixed * 64 + i]; }
  var H = new Int32Array(8);
  var shift = 32 - bits;
  for (var n = 0; ; n++) {
    var s = n.toString(36);
    var len = head + s.length;
    for (i = 0; i < s.length; i++) { tail[head + i] = s.charCodeAt(i); }
    tail[len] = 0x80;
    var blocks = (len + 9 + 63) >> 6;
    var end = blocks * 64;
    for (i = len + 1; i < end - 4; i++) { tail[i] = 0; }
    var bitLength = (token.length + s.length) * 8;
    tail[end - 4] = bitLength >>> 24; tail[end - 3] = (bitLength >>> 16) & 0xff;
    tail[end - 2] = (bitLength >>> 8) & 0xff; tail[end - 1] = bitLength & 0xff;
    H.set(mid);
    for (blk = 0; blk < blocks; blk++) { compress(H, tail, blk * 64); }
    if (shift === 0 ? H[0] === 0 : (H[0] >>> shift) === 0) { return { nonce: s, hashes: n + 1 }; }
  }
}

self.onmessage = function (e) {
  var started = Date.now();
  var r = solve(String(e.data.token), e.data.bits | 0);
  r.ms = Date.now() - started;
  self.postMessage(r);
};

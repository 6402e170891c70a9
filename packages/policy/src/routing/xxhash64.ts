/**
 * XXH64 with seed 0 over the UTF-8 bytes of a string, as
 * `github.com/cespare/xxhash` `Sum64String` computes it; kuik names the
 * pull-secret copies it makes with it.
 */

const mask = (1n << 64n) - 1n;
const prime1 = 11400714785074694791n;
const prime2 = 14029467366897019727n;
const prime3 = 1609587929392839161n;
const prime4 = 9650029242287828579n;
const prime5 = 2870177450012600261n;

const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & mask;
const mul = (a: bigint, b: bigint): bigint => (a * b) & mask;
const add = (a: bigint, b: bigint): bigint => (a + b) & mask;

function round(acc: bigint, lane: bigint): bigint {
  return mul(rotl(add(acc, mul(lane, prime2)), 31n), prime1);
}

function mergeRound(acc: bigint, value: bigint): bigint {
  return add(mul(acc ^ round(0n, value), prime1), prime4);
}

function lane64(bytes: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i] as number);
  return v;
}

function lane32(bytes: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 3; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i] as number);
  return v;
}

/**
 * Returns the 64-bit XXH64 (seed 0) of `text`'s UTF-8 bytes.
 *
 * For example the hash of the empty string is `ef46db3751d8e999`.
 */
export function xxhash64(text: string): bigint {
  const bytes = new TextEncoder().encode(text);
  const n = bytes.length;
  let p = 0;
  let h: bigint;
  if (n >= 32) {
    let v1 = add(prime1, prime2);
    let v2 = prime2;
    let v3 = 0n;
    let v4 = (0n - prime1) & mask;
    for (; p + 32 <= n; p += 32) {
      v1 = round(v1, lane64(bytes, p));
      v2 = round(v2, lane64(bytes, p + 8));
      v3 = round(v3, lane64(bytes, p + 16));
      v4 = round(v4, lane64(bytes, p + 24));
    }
    h = add(add(rotl(v1, 1n), rotl(v2, 7n)), add(rotl(v3, 12n), rotl(v4, 18n)));
    h = mergeRound(h, v1);
    h = mergeRound(h, v2);
    h = mergeRound(h, v3);
    h = mergeRound(h, v4);
  } else {
    h = prime5;
  }
  h = add(h, BigInt(n));
  for (; p + 8 <= n; p += 8) {
    h ^= round(0n, lane64(bytes, p));
    h = add(mul(rotl(h, 27n), prime1), prime4);
  }
  if (p + 4 <= n) {
    h ^= mul(lane32(bytes, p), prime1);
    h = add(mul(rotl(h, 23n), prime2), prime3);
    p += 4;
  }
  for (; p < n; p++) {
    h ^= mul(BigInt(bytes[p] as number), prime5);
    h = mul(rotl(h, 11n), prime1);
  }
  h ^= h >> 33n;
  h = mul(h, prime2);
  h ^= h >> 29n;
  h = mul(h, prime3);
  h ^= h >> 32n;
  return h;
}

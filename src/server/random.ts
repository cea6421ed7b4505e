// Counter-based randomness: every number is a pure function of (seed, key, counter), so the
// market can be evaluated at any moment, in any order, and a replay with the same seed matches.

/** A 32-bit avalanche mix (the finaliser of "lowbias32"). */
export function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of a string to 32 bits (FNV-1a, then mixed). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** 32 random bits for (key, a, b); b defaults to 0. */
export function hash3(key: number, a: number, b = 0): number {
  return mix32(key ^ mix32((a >>> 0) ^ mix32((b >>> 0) + 0x9e3779b9)));
}

/** A uniform number in (0, 1) for (key, a, b). */
export function uniform(key: number, a: number, b = 0): number {
  return (hash3(key, a, b) + 0.5) / 4294967296;
}

/** A standard normal number for (key, a, b), by Box–Muller over two independent uniforms. */
export function gaussian(key: number, a: number, b = 0): number {
  const u1 = uniform(key, a, b);
  const u2 = uniform(key ^ 0x5bd1e995, a, b);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** A small sequential generator (mulberry32) for one-off seeded choices such as demo data. */
export function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

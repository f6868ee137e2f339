import fc from "fast-check";
import { assert, assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import { fisherExact, passAtK, passHatK, wilson } from "../../../testing/eval/_stats.ts";
import { hashString, seededRandom, trialSeed } from "../../../testing/eval/_seeds.ts";

// Every k-subset of n trials of which the first c pass: the estimators are
// the share of subsets with at least one pass (pass@k) and with only passes
// (pass^k).
function bruteForce(n: number, c: number, k: number): { any: number; all: number } {
  let subsets = 0;
  let any = 0;
  let all = 0;
  const walk = (start: number, left: number, passes: number) => {
    if (left === 0) {
      subsets++;
      if (passes > 0) any++;
      if (passes === k) all++;
      return;
    }
    for (let i = start; i <= n - left; i++) walk(i + 1, left - 1, passes + (i < c ? 1 : 0));
  };
  walk(0, k, 0);
  return { any: any / subsets, all: all / subsets };
}

const counts = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: n }))
);

Deno.test("passAtK() and passHatK() equal a brute-force count over every k-subset", () => {
  fc.assert(fc.property(counts, ([n, c, k]) => {
    const b = bruteForce(n, c, k);
    assertAlmostEquals(passAtK(n, c, k), b.any, 1e-12);
    assertAlmostEquals(passHatK(n, c, k), b.all, 1e-12);
  }));
});

Deno.test("passAtK() and passHatK(): k = 1 is the pass rate; both are monotone in c", () => {
  fc.assert(fc.property(counts, ([n, c, k]) => {
    assertAlmostEquals(passAtK(n, c, 1), c / n, 1e-12);
    assertAlmostEquals(passHatK(n, c, 1), c / n, 1e-12);
    assert(passHatK(n, c, k) <= c / n + 1e-12 && c / n <= passAtK(n, c, k) + 1e-12);
    if (c < n) {
      assert(passAtK(n, c + 1, k) >= passAtK(n, c, k) - 1e-12);
      assert(passHatK(n, c + 1, k) >= passHatK(n, c, k) - 1e-12);
    }
  }));
});

Deno.test("passAtK() and passHatK(): known values and large n without overflow", () => {
  // C(8,2)/C(10,2) = 28/45; 1 − C(2,2)/C(10,2) = 44/45.
  assertAlmostEquals(passHatK(10, 8, 2), 28 / 45, 1e-15);
  assertAlmostEquals(passAtK(10, 8, 2), 44 / 45, 1e-15);
  // Chen et al. 2021: with n = 200 samples, c = 3, pass@100 = 1 − C(197,100)/C(200,100)
  // = 1 − (100·99·98)/(200·199·198).
  assertAlmostEquals(passAtK(200, 3, 100), 1 - (100 * 99 * 98) / (200 * 199 * 198), 1e-12);
  assertEquals(passAtK(5, 0, 3), 0);
  assertEquals(passAtK(5, 3, 3), 1); // n − c < k: every 3-subset holds a pass
  assertEquals(passHatK(5, 2, 3), 0);
  assertEquals(passHatK(5, 5, 5), 1);
  const big = passHatK(100_000, 99_000, 50);
  assert(Number.isFinite(big) && big > 0.6 && big < 0.61, String(big)); // ≈ 0.99^50 = 0.605
});

Deno.test("passAtK() and passHatK() reject k outside 1..n and counts out of range", () => {
  assertThrows(
    () => passAtK(3, 1, 4),
    RangeError,
    "k must be an integer from 1 to the number of trials (3), got 4",
  );
  assertThrows(() => passHatK(3, 1, 0), RangeError, "got 0");
  assertThrows(
    () => passHatK(3, 4, 1),
    RangeError,
    "the passes must be an integer from 0 to n (3), got 4",
  );
  assertThrows(() => wilson(1.5, 3), RangeError, "wilson(): the passes");
  assertThrows(
    () => passAtK(3, -1, 1),
    RangeError,
    "passAtK(): the passes must be an integer from 0 to n (3), got -1",
  );
  assertThrows(() => passAtK(3, 1, 0), RangeError, "passAtK(): k must");
  assertThrows(() => passHatK(2, 3, 1), RangeError, "passHatK(): the passes");
  assertThrows(() => passHatK(2, 1, 3), RangeError, "passHatK(): k must");
  assertThrows(() => wilson(1, -1), RangeError, "n must be an integer, 0 or more");
});

Deno.test("wilson(): published values", () => {
  // Newcombe 1998, Stat. Med. 17:857–872, Table I, method 3 (Wilson, no correction).
  const table: Array<[number, number, number, number]> = [
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ];
  for (const [c, n, low, high] of table) {
    const i = wilson(c, n);
    assertAlmostEquals(i.low, low, 5e-5, `${c}/${n} low`);
    assertAlmostEquals(i.high, high, 5e-5, `${c}/${n} high`);
  }
  // 8 of 10: p̂ = 0.8, z = 1.96 → (0.4902, 0.9433); the same as R's prop.test(8, 10, correct = FALSE).
  const e = wilson(8, 10);
  assertAlmostEquals(e.low, 0.4902, 5e-5);
  assertAlmostEquals(e.high, 0.9433, 5e-5);
  // 10 of 10 is not certainty: its interval reaches down to 0.7225 and holds 8 of 10's 0.8.
  const all = wilson(10, 10);
  assertEquals(all.high, 1);
  assertAlmostEquals(all.low, 0.7225, 5e-5);
  assertEquals(wilson(0, 0), { low: 0, high: 1 });
});

Deno.test("wilson(): bounds are ordered, hold p̂, and narrow as n grows", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5000 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (n, f) => {
        const c = Math.round(f * n);
        const i = wilson(c, n);
        assert(
          0 <= i.low && i.low <= c / n && c / n <= i.high && i.high <= 1,
          JSON.stringify({ c, n, i }),
        );
        const wider = wilson(c, n);
        const narrower = wilson(c * 4, n * 4);
        assert(narrower.high - narrower.low <= wider.high - wider.low + 1e-12);
      },
    ),
  );
});

function binomialPmf(n: number, p: number): number[] {
  const out: number[] = [];
  let logC = 0;
  for (let x = 0; x <= n; x++) {
    if (x > 0) logC += Math.log((n - x + 1) / x);
    out.push(Math.exp(logC + x * Math.log(p) + (n - x) * Math.log1p(-p)));
  }
  return out;
}

Deno.test("wilson(): coverage in a seeded simulation matches the exact coverage, near 95%", () => {
  // Brown, Cai & DasGupta 2001 (Stat. Sci. 16:101–133, fig. 4): Wilson's
  // coverage oscillates around 0.95 and stays above about 0.92 away from p
  // near 0 or 1 for these n. Each property run draws 4,000 binomial samples
  // from a seeded generator and checks the share of intervals holding p
  // against the exact coverage from the binomial law.
  fc.assert(
    fc.property(
      fc.constantFrom(20, 50, 100),
      fc.double({ min: 0.1, max: 0.9, noNaN: true }),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (n, p, seed) => {
        const random = seededRandom(seed);
        const samples = 4000;
        let covered = 0;
        for (let s = 0; s < samples; s++) {
          let c = 0;
          for (let t = 0; t < n; t++) if (random() < p) c++;
          const i = wilson(c, n);
          if (i.low <= p && p <= i.high) covered++;
        }
        const pmf = binomialPmf(n, p);
        let exact = 0;
        for (let c = 0; c <= n; c++) {
          const i = wilson(c, n);
          if (i.low <= p && p <= i.high) exact += pmf[c];
        }
        assert(exact > 0.9, `exact coverage ${exact} at n=${n}, p=${p}`);
        // 4 standard errors of a 4,000-sample share.
        const se = Math.sqrt(exact * (1 - exact) / samples);
        assert(
          Math.abs(covered / samples - exact) < 4 * se + 1e-3,
          `simulated ${covered / samples}, exact ${exact}`,
        );
      },
    ),
    { numRuns: 12 },
  );
});

Deno.test("wilson(): mean exact coverage over p is 95% within a point", () => {
  for (const n of [10, 30, 100]) {
    let sum = 0;
    const grid = 199;
    for (let g = 1; g <= grid; g++) {
      const p = g / (grid + 1);
      const pmf = binomialPmf(n, p);
      for (let c = 0; c <= n; c++) {
        const i = wilson(c, n);
        if (i.low <= p && p <= i.high) sum += pmf[c];
      }
    }
    assertAlmostEquals(sum / grid, 0.95, 0.01, `n=${n}`);
  }
});

Deno.test("fisherExact(): published values", () => {
  // Fisher 1935, the lady tasting tea: 4 cups of each kind, 3 of each named right.
  // Two-sided p = 34/70 (R: fisher.test(TeaTasting)$p.value = 0.4857).
  assertAlmostEquals(fisherExact(3, 1, 1, 3), 34 / 70, 1e-12);
  // All 8 named right: 2/70.
  assertAlmostEquals(fisherExact(4, 0, 0, 4), 2 / 70, 1e-12);
  // Wikipedia, "Fisher's exact test", the dieting example: [[1, 9], [11, 3]], p = 0.002759.
  assertAlmostEquals(fisherExact(1, 9, 11, 3), 0.002759, 5e-7);
  // A margin of 0 leaves one possible table: p = 1.
  assertEquals(fisherExact(0, 0, 3, 5), 1);
  assertEquals(fisherExact(5, 0, 5, 0), 1);
  assertThrows(() => fisherExact(-1, 0, 0, 0), RangeError, "cell a");
});

// The exact two-sided p by enumeration with binomial coefficients (small n only).
function fisherBrute(a: number, b: number, c: number, d: number): number {
  const choose = (n: number, k: number) => {
    let r = 1;
    for (let i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return r;
  };
  const r1 = a + b, r2 = c + d, c1 = a + c, N = r1 + r2;
  const prob = (x: number) => choose(r1, x) * choose(r2, c1 - x) / choose(N, c1);
  const seen = prob(a);
  let p = 0;
  for (let x = Math.max(0, c1 - r2); x <= Math.min(r1, c1); x++) {
    const q = prob(x);
    if (q <= seen * (1 + 1e-7)) p += q;
  }
  return Math.min(1, p);
}

Deno.test("fisherExact() equals enumeration with binomial coefficients, and is symmetric", () => {
  const cell = fc.integer({ min: 0, max: 15 });
  fc.assert(fc.property(cell, cell, cell, cell, (a, b, c, d) => {
    const p = fisherExact(a, b, c, d);
    assertAlmostEquals(p, fisherBrute(a, b, c, d), 1e-9);
    assert(p > 0 && p <= 1);
    assertAlmostEquals(fisherExact(c, d, a, b), p, 1e-9); // rows swapped
    assertAlmostEquals(fisherExact(b, a, d, c), p, 1e-9); // columns swapped
  }));
});

Deno.test("fisherExact(): large tables stay finite", () => {
  const p = fisherExact(900, 100, 850, 150);
  assert(p > 0 && p < 0.01, String(p));
  assertAlmostEquals(fisherExact(5000, 5000, 5000, 5000), 1, 1e-9);
});

Deno.test("trialSeed() is deterministic and spreads neighbouring indexes", () => {
  assertEquals(trialSeed(42, 3), trialSeed(42, 3));
  const seen = new Set<number>();
  for (let i = 0; i < 1000; i++) seen.add(trialSeed(42, i));
  assertEquals(seen.size, 1000);
  assert(trialSeed(1, 0) !== trialSeed(2, 0));
  fc.assert(fc.property(fc.integer(), fc.nat(), (s, i) => {
    const v = trialSeed(s, i);
    return Number.isInteger(v) && v >= 0 && v < 2 ** 31;
  }));
});

Deno.test("hashString() is 32-bit FNV-1a: the published test vectors", () => {
  // Fowler/Noll/Vo, "FNV hash" test vectors (isthe.com/chongo/tech/comp/fnv): FNV-1a 32-bit.
  assertEquals(hashString(""), 0x811c9dc5);
  assertEquals(hashString("a"), 0xe40c292c);
  assertEquals(hashString("foobar"), 0xbf9cf968);
});

Deno.test("seededRandom() is mulberry32, draw for draw", () => {
  // The generator as published (Tommy Ettinger; bryc's "PRNGs" collection, github.com/bryc/code).
  const reference = (a: number) => () => {
    let t = a += 0x6D2B79F5;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
  fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
    const ours = seededRandom(seed);
    const theirs = reference(seed);
    for (let i = 0; i < 20; i++) assertEquals(ours(), theirs());
  }));
});

Deno.test("trialSeed(): pinned values (a change reshuffles every saved trial's seed)", () => {
  assertEquals([0, 1, 2].map((i) => trialSeed(42, i)), [885334004, 981586005, 1842295753]);
  assertEquals(trialSeed(0, 0), 1706638215);
});

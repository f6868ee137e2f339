import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import fc from "fast-check";
import type { Message } from "@agentkit/testing/ports";
import {
  agentMatchers,
  AssertionError,
  assertTrajectory,
  type TrajectoryArgs,
  type TrajectoryCall,
  type TrajectoryOrder,
} from "@agentkit/testing/testing";

interface Call {
  name: string;
  args: Record<string, unknown>;
}

// A subject as a run leaves it: one assistant message per call.
function run(...calls: Call[]): Message[] {
  return calls.map((c, i) => ({
    role: "assistant",
    content: "",
    toolCalls: [{ id: `c${i}`, name: c.name, args: c.args }],
  }));
}

function passes(
  subject: Message[],
  expected: readonly TrajectoryCall[],
  order: TrajectoryOrder,
  args: TrajectoryArgs,
): boolean {
  try {
    assertTrajectory(subject, expected, { order, args });
    return true;
  } catch (error) {
    if (error instanceof AssertionError) return false;
    throw error;
  }
}

const search = { name: "search", args: { q: "a", limit: 5 } };
const fetch = { name: "fetch", args: { url: "x" } };
const made = run(search, fetch);

// [order, args, expected, passes]: one passing and at least one failing case per pair.
const MATRIX: [TrajectoryOrder, TrajectoryArgs, TrajectoryCall[], boolean][] = [
  ["strict", "exact", [search, fetch], true],
  ["strict", "exact", [{ name: "search", args: { q: "a" } }, fetch], false],
  ["strict", "exact", [fetch, search], false],
  ["strict", "ignore", [{ name: "search", args: { q: "z" } }, { name: "fetch", args: {} }], true],
  ["strict", "ignore", [{ name: "search" }, { name: "zip" }], false],
  ["strict", "ignore", [{ name: "search" }], false],
  ["strict", "subset", [{ name: "search", args: { q: "a" } }, { name: "fetch", args: {} }], true],
  ["strict", "subset", [{ name: "search", args: { q: "a", more: 1 } }, fetch], false],
  ["strict", "superset", [{ name: "search", args: { q: "a", limit: 5, more: 1 } }, fetch], true],
  ["strict", "superset", [{ name: "search", args: { q: "a" } }, fetch], false],
  ["unordered", "exact", [fetch, search], true],
  ["unordered", "exact", [fetch, { name: "search", args: { q: "a" } }], false],
  ["unordered", "exact", [fetch, search, search], false],
  ["unordered", "exact", [fetch], false],
  [
    "unordered",
    "ignore",
    [{ name: "fetch", args: { url: 1 } }, { name: "search", args: {} }],
    true,
  ],
  ["unordered", "ignore", [{ name: "fetch" }, { name: "zip" }], false],
  [
    "unordered",
    "subset",
    [{ name: "fetch", args: {} }, { name: "search", args: { limit: 5 } }],
    true,
  ],
  ["unordered", "subset", [fetch, { name: "search", args: { limit: 6 } }], false],
  ["unordered", "superset", [{ name: "fetch", args: { url: "x", z: 1 } }, search], true],
  ["unordered", "superset", [fetch, { name: "search", args: { q: "a" } }], false],
  ["subset", "exact", [{ name: "zip" }, fetch, search], true],
  ["subset", "exact", [search], false],
  ["subset", "exact", [{ name: "search", args: { q: "a" } }, fetch], false],
  ["subset", "ignore", [{ name: "fetch", args: {} }, { name: "search", args: { w: 1 } }], true],
  ["subset", "ignore", [{ name: "search" }, { name: "zip" }], false],
  ["subset", "subset", [{ name: "search", args: { q: "a" } }, { name: "zip" }, fetch], true],
  ["subset", "subset", [{ name: "search", args: { q: "b" } }, fetch], false],
  ["subset", "superset", [{ name: "search", args: { q: "a", limit: 5, k: 0 } }, fetch], true],
  ["subset", "superset", [{ name: "search", args: { q: "a" } }, fetch], false],
  ["superset", "exact", [fetch], true],
  ["superset", "exact", [{ name: "fetch", args: { url: "y" } }], false],
  ["superset", "exact", [fetch, fetch], false],
  ["superset", "ignore", [{ name: "fetch", args: { url: "y" } }], true],
  ["superset", "ignore", [{ name: "zip" }], false],
  ["superset", "subset", [{ name: "search", args: { q: "a" } }], true],
  ["superset", "subset", [{ name: "search", args: { q: "a", limit: 6 } }], false],
  ["superset", "superset", [{ name: "search", args: { q: "a", limit: 5, z: 1 } }], true],
  ["superset", "superset", [{ name: "search", args: { q: "a" } }], false],
];

Deno.test("every order × args mode passes and fails where it should", () => {
  for (const [order, args, expected, pass] of MATRIX) {
    assertEquals(
      passes(made, expected, order, args),
      pass,
      `${order}/${args} ${JSON.stringify(expected)}`,
    );
  }
});

Deno.test("the defaults are strict order and exact args", () => {
  assertTrajectory(made, [search, fetch]);
  assertThrows(
    () => assertTrajectory(made, [fetch, search]),
    AssertionError,
    'order "strict", args "exact"',
  );
  assertThrows(
    () =>
      assertTrajectory(made, [{ name: "search", args: { q: "a" } }, fetch], { order: "strict" }),
    AssertionError,
    'args "exact"',
  );
  assertThrows(
    () => assertTrajectory(made, [fetch, search], { args: "ignore" }),
    AssertionError,
    'order "strict"',
  );
});

Deno.test("an expected call without args matches any args, in every args mode", () => {
  for (const args of ["exact", "ignore", "subset", "superset"] as const) {
    assert(passes(made, [{ name: "search" }, { name: "fetch", args: undefined }], "strict", args));
  }
});

Deno.test("empty trajectories pass and fail by their mode", () => {
  assertTrajectory([], []);
  assert(passes([], [search], "subset", "exact"));
  assert(passes(made, [], "superset", "exact"));
  assert(!passes(made, [], "strict", "exact"));
  assert(!passes(made, [], "unordered", "exact"));
  assert(!passes([], [search], "superset", "exact"));
  const error = assertThrows(() => assertTrajectory([], [search]), AssertionError);
  assertStringIncludes(error.message, "- search {");
});

Deno.test("subset and superset args go into nested objects; arrays and scalars compare whole", () => {
  const nested = run({ name: "q", args: { filter: { a: 1, b: 2 }, tags: ["x", "y"], n: 1 } });
  assert(passes(nested, [{ name: "q", args: { filter: { a: 1 } } }], "strict", "subset"));
  assert(!passes(nested, [{ name: "q", args: { filter: { a: 2 } } }], "strict", "subset"));
  assert(!passes(nested, [{ name: "q", args: { filter: { c: 1 } } }], "strict", "subset"));
  assert(!passes(nested, [{ name: "q", args: { tags: ["x"] } }], "strict", "subset"));
  assert(passes(nested, [{ name: "q", args: { tags: ["x", "y"] } }], "strict", "subset"));
  assert(!passes(nested, [{ name: "q", args: { n: "1" } }], "strict", "subset"));
  assert(!passes(nested, [{ name: "q", args: { filter: 1 } }], "strict", "subset"));
  assert(
    passes(
      nested,
      [{ name: "q", args: { filter: { a: 1, b: 2, c: 3 }, tags: ["x", "y"], n: 1, m: 0 } }],
      "strict",
      "superset",
    ),
  );
  assert(
    !passes(
      nested,
      [{ name: "q", args: { filter: { a: 1 }, tags: ["x", "y"], n: 1 } }],
      "strict",
      "superset",
    ),
  );
  // A key given as undefined is no key, as in deep equality.
  assert(passes(nested, [{ name: "q", args: { n: 1, gone: undefined } }], "strict", "subset"));
  const sparse = run({ name: "q", args: { n: 1, gone: undefined } });
  assert(passes(sparse, [{ name: "q", args: { n: 1 } }], "strict", "superset"));
  assert(
    !passes(
      run({ name: "q", args: { n: undefined } }),
      [{ name: "q", args: { n: 1 } }],
      "strict",
      "subset",
    ),
  );
});

Deno.test("an asymmetric matcher on the expected side works in every args mode that compares", () => {
  const anyNumber = { asymmetricMatch: (v: unknown) => typeof v === "number" };
  for (const args of ["exact", "subset", "superset"] as const) {
    assert(
      passes(made, [{ name: "search", args: { q: "a", limit: anyNumber } }, fetch], "strict", args),
    );
    assert(
      !passes(made, [{ name: "search", args: { q: anyNumber, limit: 5 } }, fetch], "strict", args),
    );
  }
  const whole = { asymmetricMatch: (v: unknown) => (v as { q?: unknown }).q === "a" };
  assert(passes(made, [{ name: "search", args: whole }], "superset", "subset"));
  assert(passes(made, [{ name: "search", args: whole }], "superset", "superset"));
});

Deno.test("matching is a maximum one where first-fit greedy matching fails", () => {
  const a = { name: "search", args: { q: "a" } };
  const b = { name: "search", args: { q: "b" } };
  // The entry without args would take the first call, which the second entry needs.
  assertTrajectory(run(b, a), [{ name: "search" }, b], { order: "unordered" });
  assertTrajectory(run(a, b), [{ name: "search" }, a], { order: "superset" });
  assertTrajectory(run(a, b), [{ name: "search" }, a], { order: "subset" });
  // Under args "subset", the looser entry would take the richer call.
  const rich = { name: "search", args: { q: "a", limit: 5 } };
  assertTrajectory(run(rich, a), [a, rich], { order: "unordered", args: "subset" });
  assertTrajectory(run(rich, a), [a, rich], { order: "superset", args: "subset" });
  assertTrajectory(run(a, rich), [rich, a], { order: "subset", args: "superset" });
  // A longer augmenting path: three calls, each entry fitting two of them.
  const c = { name: "search", args: { q: "c" } };
  const anyOf = (...qs: string[]) => ({
    name: "search",
    args: { q: { asymmetricMatch: (v: unknown) => qs.includes(v as string) } },
  });
  assertTrajectory(run(a, b, c), [anyOf("a", "b"), anyOf("a"), anyOf("b", "c")], {
    order: "unordered",
  });
  // Each call pairs once: two expected calls need two calls.
  assert(!passes(run(a), [{ name: "search" }, { name: "search" }], "superset", "ignore"));
  assert(!passes(run(a, a), [{ name: "search" }], "subset", "ignore"));
});

Deno.test("a failure is a diff of the two trajectories, with the modes and a summary", () => {
  const error = assertThrows(
    () =>
      assertTrajectory(made, [{ name: "search", args: { q: "a", limit: 5 } }, {
        name: "fetch",
        args: { url: "y" },
      }, { name: "zip" }]),
    AssertionError,
  );
  assertEquals(
    error.message,
    'Expected the tool calls to follow the trajectory (order "strict", args "exact"), but 2 expected calls were not made and 1 call was not expected.\n' +
      "\n" +
      'Trajectory ("  " matched, "- " expected but not made, "+ " made but not expected):\n' +
      '  search {"limit":5,"q":"a"}\n' +
      '- fetch {"url":"y"}\n' +
      "- zip (any args)\n" +
      '+ fetch {"url":"x"}',
  );
});

Deno.test("the summary names an order or argument problem when that is all there is", () => {
  const reordered = assertThrows(() => assertTrajectory(made, [fetch, search]), AssertionError);
  assertStringIncludes(reordered.message, "but the same calls were made in another order.\n");
  assertStringIncludes(
    reordered.message,
    '- fetch {"url":"x"}\n  search {"limit":5,"q":"a"}\n+ fetch {"url":"x"}',
  );
  const wrongArgs = assertThrows(
    () =>
      assertTrajectory(made, [fetch, { name: "search", args: { q: "b" } }], { order: "unordered" }),
    AssertionError,
  );
  assertStringIncludes(
    wrongArgs.message,
    'but 1 expected call was not made and 1 call was not expected (the names match; the arguments do not, under args "exact").\n',
  );
  assertStringIncludes(
    wrongArgs.message,
    '+ search {"limit":5,"q":"a"}\n  fetch {"url":"x"}\n- search {"q":"b"}',
  );
  const ignored = assertThrows(
    () => assertTrajectory(made, [{ name: "zip" }], { order: "superset", args: "ignore" }),
    AssertionError,
  );
  assertStringIncludes(ignored.message, "but 1 expected call was not made.\n");
  assert(!ignored.message.includes("the names match"));
});

Deno.test("unordered diffs list the calls made in order, then the missing ones", () => {
  const error = assertThrows(
    () =>
      assertTrajectory(made, [{ name: "zip", args: { n: 1 } }, { name: "fetch" }], {
        order: "unordered",
      }),
    AssertionError,
  );
  assert(error.message.endsWith(
    "but 1 expected call was not made and 1 call was not expected.\n\n" +
      'Trajectory ("  " matched, "- " expected but not made, "+ " made but not expected):\n' +
      '+ search {"limit":5,"q":"a"}\n' +
      '  fetch {"url":"x"}\n' +
      '- zip {"n":1}',
  ));
});

Deno.test("subset and superset say which lines they allow, and count only what fails", () => {
  const sub = assertThrows(
    () =>
      assertTrajectory(made, [{ name: "search" }, { name: "zip" }, { name: "zap" }], {
        order: "subset",
      }),
    AssertionError,
  );
  assertStringIncludes(sub.message, "but 1 call was not expected.\n");
  assertStringIncludes(sub.message, '; "- " lines are allowed under order "subset"):\n');
  assertStringIncludes(sub.message, '+ fetch {"url":"x"}\n- zip (any args)\n- zap (any args)');
  const sup = assertThrows(
    () => assertTrajectory(made, [{ name: "zip" }, { name: "zap" }], { order: "superset" }),
    AssertionError,
  );
  assertStringIncludes(sup.message, "but 2 expected calls were not made.\n");
  assertStringIncludes(sup.message, '; "+ " lines are allowed under order "superset"):\n');
  const many = assertThrows(() => assertTrajectory(made, [], { order: "subset" }), AssertionError);
  assertStringIncludes(many.message, "but 2 calls were not expected.\n");
  const one = assertThrows(
    () => assertTrajectory([], [fetch], { order: "unordered" }),
    AssertionError,
  );
  assertStringIncludes(one.message, "but 1 expected call was not made.\n");
  assertStringIncludes(one.message, '):\n- fetch {"url":"x"}');
});

Deno.test("secrets in arguments are redacted in the diff", () => {
  const secret = run({ name: "login", args: { apiKey: "sk-live-abcdefghijklmnop" } });
  const error = assertThrows(() => assertTrajectory(secret, [{ name: "logout" }]), AssertionError);
  assertStringIncludes(error.message, '+ login {"apiKey":"[REDACTED]"}');
  assert(!error.message.includes("abcdefghijklmnop"));
});

Deno.test("bad inputs are TypeErrors naming the function and what was given", () => {
  const cases: [() => unknown, string][] = [
    [
      () => assertTrajectory(made, {} as never),
      "assertTrajectory() needs the expected trajectory as an array of { name, args? }, got {}",
    ],
    [() => assertTrajectory(made, "search" as never), 'got "search"'],
    [
      () => assertTrajectory(made, [null] as never),
      "assertTrajectory(): expected[0] must be a call { name, args? }, got null",
    ],
    [
      () => assertTrajectory(made, [fetch, ["search"]] as never),
      "expected[1] must be a call { name, args? }, got an array",
    ],
    [
      () => assertTrajectory(made, [{ name: 3 }] as never),
      'assertTrajectory(): expected[0] needs a tool name as a string "name", got {"name":3}',
    ],
    [
      () => assertTrajectory(made, [{ name: "" }]),
      'expected[0] needs a tool name as a string "name"',
    ],
    [() => assertTrajectory(made, [{ args: {} }] as never), "expected[0] needs a tool name"],
    [
      () => assertTrajectory(made, [{ name: "a", arguments: {} }] as never),
      'assertTrajectory(): expected[0] has an unknown key "arguments"; did you mean "args"? (a call is { name, args? })',
    ],
    [
      () => assertTrajectory(made, [{ name: "a", zzzzzz: 1 }] as never),
      'unknown key "zzzzzz" (a call is { name, args? })',
    ],
    [
      () => assertTrajectory(made, [], { ordr: "strict" } as never),
      'assertTrajectory(): unknown option "ordr"; did you mean "order"?',
    ],
    [
      () => assertTrajectory(made, [], { order: "sorted" } as never),
      'assertTrajectory(): option "order" must be one of "strict", "unordered", "subset", "superset", got "sorted"',
    ],
    [
      () => assertTrajectory(made, [], { args: "loose" } as never),
      'option "args" must be one of "exact", "ignore", "subset", "superset", got "loose"',
    ],
    [
      () => assertTrajectory(made, [], "strict" as never),
      "assertTrajectory() takes an options object",
    ],
    [() => assertTrajectory(42 as never, []), "assertTrajectory() needs an AgentResult"],
  ];
  for (const [fn, text] of cases) assertThrows(fn, TypeError, text);
  // An id is allowed, so another run's tool calls can be the expected list.
  assertTrajectory(made, [{ id: "x", ...search }, { id: "y", ...fetch }]);
  assertTrajectory(made, [search, fetch], undefined);
  assertTrajectory(made, [search, fetch], {});
});

// Properties over small trajectories of a few names and argument keys, so
// that collisions (the cases matching can get wrong) are common.
const call: fc.Arbitrary<Call> = fc.record({
  name: fc.constantFrom("a", "b", "c"),
  args: fc.dictionary(fc.constantFrom("x", "y", "z"), fc.integer({ min: 0, max: 2 }), {
    maxKeys: 3,
  }),
});
const calls = fc.array(call, { maxLength: 5 });
const ORDERS: TrajectoryOrder[] = ["strict", "unordered", "subset", "superset"];
const ARGS: TrajectoryArgs[] = ["exact", "ignore", "subset", "superset"];
const DUAL: Record<TrajectoryArgs, TrajectoryArgs> = {
  exact: "exact",
  ignore: "ignore",
  subset: "superset",
  superset: "subset",
};

function fitsBrute(a: Call, e: Call, args: TrajectoryArgs): boolean {
  if (a.name !== e.name) return false;
  const [part, whole] = args === "subset" ? [e.args, a.args] : [a.args, e.args];
  const within = Object.entries(part).every(([k, v]) => whole[k] === v);
  if (args === "ignore") return true;
  if (args === "exact") return within && Object.keys(a.args).length === Object.keys(e.args).length;
  return within;
}

// Whether every call of `from` can be given its own partner in `to`, by trying every way.
function injects(from: Call[], to: Call[], fits: (f: Call, t: Call) => boolean): boolean {
  if (!from.length) return true;
  const [head, ...rest] = from;
  return to.some((t, j) => fits(head, t) && injects(rest, to.filter((_, k) => k !== j), fits));
}

Deno.test("property: a trajectory matches itself in every mode", () => {
  fc.assert(fc.property(calls, (cs) => {
    for (const order of ORDERS) {
      for (const args of ARGS) assert(passes(run(...cs), cs, order, args));
    }
  }));
});

Deno.test("property: a shuffled trajectory matches unordered, and strict only when nothing moved", () => {
  fc.assert(
    fc.property(
      calls.chain((cs) =>
        fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length }))
      ),
      ([cs, shuffled]) => {
        for (const args of ARGS) assert(passes(run(...cs), shuffled, "unordered", args));
        const same = cs.every((c, i) => JSON.stringify(c) === JSON.stringify(shuffled[i]));
        assertEquals(passes(run(...cs), shuffled, "strict", "exact"), same);
      },
    ),
  );
});

Deno.test("property: subset and superset are duals, as are the args modes", () => {
  fc.assert(fc.property(calls, calls, (xs, ys) => {
    for (const args of ARGS) {
      assertEquals(
        passes(run(...xs), ys, "subset", args),
        passes(run(...ys), xs, "superset", DUAL[args]),
      );
      assertEquals(
        passes(run(...xs), ys, "unordered", args),
        passes(run(...ys), xs, "unordered", DUAL[args]),
      );
      assertEquals(
        passes(run(...xs), ys, "strict", args),
        passes(run(...ys), xs, "strict", DUAL[args]),
      );
    }
  }));
});

Deno.test("property: the orders agree with trying every pairing", () => {
  fc.assert(fc.property(calls, calls, (made, expected) => {
    for (const args of ARGS) {
      const fits = (a: Call, e: Call) => fitsBrute(a, e, args);
      const flipped = (e: Call, a: Call) => fitsBrute(a, e, args);
      const subset = injects(made, expected, fits);
      const superset = injects(expected, made, flipped);
      const unordered = made.length === expected.length && subset;
      const strict = made.length === expected.length && made.every((a, i) => fits(a, expected[i]));
      const subject = run(...made);
      assertEquals(passes(subject, expected, "subset", args), subset, `subset/${args}`);
      assertEquals(passes(subject, expected, "superset", args), superset, `superset/${args}`);
      assertEquals(passes(subject, expected, "unordered", args), unordered, `unordered/${args}`);
      assertEquals(passes(subject, expected, "strict", args), strict, `strict/${args}`);
    }
  }));
});

Deno.test("property: any sub-list of the calls made passes superset, and they pass subset of any longer list", () => {
  fc.assert(fc.property(calls, calls, (cs, extra) => {
    const subject = run(...cs);
    for (const args of ARGS) {
      assert(passes(subject, cs.filter((_, i) => i % 2 === 0), "superset", args));
      assert(passes(subject, [...extra, ...cs], "subset", args));
    }
  }));
});

function diffOf(subject: Message[], expected: TrajectoryCall[]): string[] {
  const error = assertThrows(() => assertTrajectory(subject, expected), AssertionError);
  return error.message.split("\n\n")[1].split("\n").slice(1);
}

Deno.test("a strict diff pairs the longest run of calls in order", () => {
  const [a, b, c] = ["a", "b", "c"].map((name) => ({ name, args: {} }));
  assertEquals(diffOf(run(a, b, c), [b, c, a]), ["+ a {}", "  b {}", "  c {}", "- a {}"]);
  assertEquals(diffOf(run(b, c, a), [a, b, c]), ["- a {}", "  b {}", "  c {}", "+ a {}"]);
  assertEquals(diffOf(run(a, b, c), [{ name: "x" }, b, c]), [
    "- x (any args)",
    "+ a {}",
    "  b {}",
    "  c {}",
  ]);
  assertEquals(diffOf(run(a, c), [a, b, c, b]), ["  a {}", "- b {}", "  c {}", "- b {}"]);
  assertEquals(diffOf(run(a, b, b, c), [a, c]), ["  a {}", "+ b {}", "+ b {}", "  c {}"]);
  assertEquals(diffOf(run(c, a, b), [a, b, a]), ["+ c {}", "  a {}", "  b {}", "- a {}"]);
});

Deno.test("a negated failure on empty trajectories says there were no calls", async () => {
  const r = await agentMatchers.toHaveTrajectory.call({ isNot: true }, [], []);
  assert(r.pass);
  assert(r.message().endsWith("made but not expected):\n  (no tool calls)"));
});

Deno.test("entries that are not objects, and null argument values", () => {
  assertThrows(
    () => assertTrajectory(made, ["search"] as never),
    TypeError,
    'expected[0] must be a call { name, args? }, got "search"',
  );
  const nulls = run({ name: "q", args: { a: null, b: 1 } });
  for (const args of ["exact", "subset", "superset"] as const) {
    assert(passes(nulls, [{ name: "q", args: { a: null, b: 1 } }], "strict", args));
  }
  assert(passes(nulls, [{ name: "q", args: { a: null } }], "strict", "subset"));
  assert(!passes(nulls, [{ name: "q", args: { a: {} } }], "strict", "subset"));
});

Deno.test("containment does not look inside class instances: the equality compares them whole", async () => {
  class Point {
    constructor(readonly x: number) {}
  }
  const subject = run({ name: "q", args: { at: new Point(1), n: 1 } });
  const sameOnly = { equals: (a: unknown, e: unknown) => Object.is(a, e) };
  const expected = [{ name: "q", args: { at: new Point(1) } }];
  const subset = await agentMatchers.toHaveTrajectory.call(sameOnly, subject, expected, {
    args: "subset",
  });
  assertEquals(subset.pass, false);
  const nested = {
    name: "q",
    args: { at: Object.create(null, { x: { value: 1, enumerable: true } }) },
  };
  const bare = await agentMatchers.toHaveTrajectory.call(
    sameOnly,
    run({ name: "q", args: { at: { x: 1 }, n: 1 } }),
    [nested],
    {
      args: "subset",
    },
  );
  assertEquals(bare.pass, true);
});

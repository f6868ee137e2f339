// The installed-AI-SDK probe on its own: how a version string becomes a
// major, what is cached per directory, and what puts the real loader back.
import { assertEquals } from "@std/assert";
import {
  type AiLoader,
  installedAi,
  specFor,
  useAiLoader,
} from "../../../testing/frameworks/_installed_ai.ts";

function counting(version: unknown): { loader: AiLoader; froms: string[] } {
  const froms: string[] = [];
  return {
    froms,
    loader: (from) => {
      froms.push(from);
      return { version, at: `${from}/node_modules/ai/package.json` };
    },
  };
}

Deno.test("installedAi(): a version's leading number is its major; anything else is nothing found", () => {
  const cases: Array<[unknown, number | undefined]> = [
    ["6.0.325", 6],
    ["16.2.0", 16],
    ["7.0.0-beta.3", 7],
    ["v6.0.0", undefined],
    [" 6.0.0", undefined],
    ["6", undefined],
    ["x.1.0", undefined],
    [6, undefined],
    [undefined, undefined],
  ];
  for (const [version, major] of cases) {
    const restore = useAiLoader(counting(version).loader);
    try {
      const found = installedAi("/p");
      assertEquals(found?.major, major, `version ${JSON.stringify(version)}`);
      if (major !== undefined) {
        assertEquals(found, { version, major, at: "/p/node_modules/ai/package.json" });
      }
    } finally {
      restore();
    }
  }
});

Deno.test("installedAi(): one look per directory, a failed one included; a new loader starts afresh", () => {
  const first = counting("6.1.0");
  const restore = useAiLoader(first.loader);
  try {
    assertEquals(installedAi("/a")?.major, 6);
    assertEquals(installedAi("/a")?.major, 6);
    assertEquals(installedAi("/b")?.major, 6);
    assertEquals(first.froms, ["/a", "/b"]);
    let throws = 0;
    useAiLoader(() => {
      throws++;
      throw new Error("Cannot find module 'ai/package.json'");
    });
    assertEquals(installedAi("/a"), undefined); // the cache went with the old loader
    assertEquals(installedAi("/a"), undefined);
    assertEquals(throws, 1);
  } finally {
    restore();
  }
});

Deno.test("installedAi(): no directory given is the working directory", () => {
  const probe = counting("7.0.1");
  const restore = useAiLoader(probe.loader);
  try {
    assertEquals(installedAi()?.major, 7);
    assertEquals(probe.froms, [Deno.cwd()]);
  } finally {
    restore();
  }
});

Deno.test("useAiLoader(): its restore puts the real loader back and forgets what the stub said", () => {
  const pinned = JSON.parse(Deno.readTextFileSync("deno.json")).imports.ai.split("@").pop();
  const restore = useAiLoader(counting("1.0.0").loader);
  assertEquals(installedAi()?.major, 1);
  restore();
  assertEquals(installedAi()?.version, pinned);
});

Deno.test("specFor(): 7 takes v4, 6 takes v3, 5 and older none, a later major is unknown", () => {
  assertEquals([7, 6, 5, 4, 0, 8, 12].map(specFor), [
    "v4",
    "v3",
    "none",
    "none",
    "none",
    undefined,
    undefined,
  ]);
});

// Swaps one property of a global object for the length of `body`.
function swapped<T extends object, K extends keyof T>(
  on: T,
  key: K,
  value: unknown,
  body: () => void,
): void {
  const own = Object.getOwnPropertyDescriptor(on, key);
  Object.defineProperty(on, key, { value, configurable: true, writable: true });
  try {
    body();
  } finally {
    if (own) Object.defineProperty(on, key, own);
    else delete on[key];
  }
}

Deno.test("installedAi(): without read permission it looks nowhere (and never prompts); a failing query counts as none", () => {
  const probe = counting("6.0.0");
  const restore = useAiLoader(probe.loader);
  try {
    swapped(Deno.permissions, "querySync", () => ({ state: "prompt" }), () => {
      assertEquals(installedAi("/denied"), undefined);
    });
    swapped(Deno.permissions, "querySync", () => {
      throw new Error("no permissions API");
    }, () => {
      assertEquals(installedAi("/throws"), undefined);
    });
    // A runtime with no permission query (Node, Bun) may read.
    swapped(Deno.permissions, "querySync", undefined, () => {
      assertEquals(installedAi("/node")?.major, 6);
    });
    assertEquals(probe.froms, ["/node"]);
  } finally {
    restore();
  }
});

Deno.test("installedAi(): no working directory to ask, or one that throws, is nothing found", () => {
  const probe = counting("6.0.0");
  const restore = useAiLoader(probe.loader);
  const process = (globalThis as unknown as { process: { cwd: () => string } }).process;
  try {
    swapped(process, "cwd", undefined, () => assertEquals(installedAi(), undefined));
    swapped(process, "cwd", () => {
      throw new Error("ENOENT: the working directory is gone");
    }, () => assertEquals(installedAi(), undefined));
    assertEquals(probe.froms, []);
  } finally {
    restore();
  }
});

Deno.test("installedAi(): the real loader without Node's module API finds nothing", () => {
  const process = (globalThis as unknown as { process: { getBuiltinModule: unknown } }).process;
  swapped(process, "getBuiltinModule", () => undefined, () => {
    assertEquals(installedAi("/no-module-api"), undefined);
  });
});

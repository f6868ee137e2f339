// cassette() names a NUL byte in its path (no file system takes one) instead
// of reporting the file missing, and reads the provider key variables again
// when it is built, so a key set after the process began is still masked.
import { assertEquals, assertFalse, assertThrows } from "@std/assert";
import { redactText } from "../../../runtime/internal.ts";
import { cassette, FakeLLM } from "@agentkit/testing/testing";

Deno.test("cassette() names a NUL byte in its path, wherever it is", () => {
  for (
    const [path, at] of [
      ["a\0b.jsonl", 1],
      ["\0.jsonl", 0],
      ["tests/cassettes/x.jsonl\0", 23],
    ] as const
  ) {
    const e = assertThrows(() => cassette(path, { mode: "replay" }), TypeError);
    assertEquals(
      e.message,
      `cassette() got a file path with a NUL byte at position ${at} (${
        JSON.stringify(path)
      }), which no file system allows in a name: remove it (a path built from untrusted or binary data is the usual cause)`,
    );
  }
  const url = assertThrows(
    () => cassette(new URL("file:///tmp/a%00b.jsonl"), { mode: "replay" }),
    TypeError,
  );
  assertEquals(
    url.message.startsWith("cassette() got a file path with a NUL byte at position 6"),
    true,
    url.message,
  );
});

Deno.test("a cassette masks a provider key variable set after the process first read them", async () => {
  // Something masked already: the registry has read the variables once.
  redactText("a text long enough to be masked");
  const name = "TOGETHER_API_KEY";
  const before = Deno.env.get(name);
  // No vendor shape, nothing hex: only the registry can know it.
  const key = `lateword${10_000 + Math.floor(Math.random() * 89_999)}`;
  const dir = await Deno.makeTempDir({ prefix: "cassette_keys_" });
  Deno.env.set(name, key);
  try {
    // An upstream of the user's own make: nothing but the cassette reads the variables.
    const rec = cassette(`${dir}/c.jsonl`, {
      mode: "record",
      upstream: () => new FakeLLM(`the key is ${key}`),
    });
    await rec.chat({ model: "m", messages: [{ role: "user", content: "hi" }] });
    const file = await Deno.readTextFile(`${dir}/c.jsonl`);
    assertFalse(file.includes(key), file);
    assertEquals(file.includes("[REDACTED]"), true, file);
  } finally {
    if (before === undefined) Deno.env.delete(name);
    else Deno.env.set(name, before);
    await Deno.remove(dir, { recursive: true });
  }
});

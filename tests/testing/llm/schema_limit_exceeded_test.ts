import { assert, assertEquals } from "@std/assert";
import { InvalidScript, SchemaLimitExceeded } from "@agentkit/testing/testing";
import { HarnessError } from "@agentkit/testing/runtime";

const limit = {
  keyword: "minItems",
  path: "#/items",
  value: 5000,
  limit: 1000,
  measure: "items in one array",
};

Deno.test("SchemaLimitExceeded names keyword, path, value and limit, and what to do", () => {
  const error = new SchemaLimitExceeded(limit);
  assertEquals(error.name, "SchemaLimitExceeded");
  assertEquals(
    error.message,
    'at #/items, "minItems" needs at least 5000 items in one array, above FakeLLM.auto\'s limit of 1000; lower it in the schema, or script this call with FakeLLM.script',
  );
  assertEquals([error.keyword, error.path, error.value, error.limit, error.measure], [
    "minItems",
    "#/items",
    5000,
    1000,
    "items in one array",
  ]);
  assert(error instanceof InvalidScript && error instanceof HarnessError);
});

Deno.test("SchemaLimitExceeded says what was being generated, and keeps its cause", () => {
  const cause = new SchemaLimitExceeded(limit);
  const error = new SchemaLimitExceeded(cause, 'arguments for tool "search"', { cause });
  assert(
    error.message.startsWith(
      'FakeLLM.auto cannot generate arguments for tool "search": at #/items, ',
    ),
  );
  assertEquals(error.cause, cause);
  assertEquals(error.limit, 1000);
});

// aiSdkModel() against the AI SDK a project has installed: the version is
// read from node_modules/ai/package.json, resolved from the working directory.
import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { aiSdkModel, FakeLLM } from "@agentkit/testing/testing";
import { installedAi, specFor, useAiLoader } from "../../../testing/frameworks/_installed_ai.ts";

// A project with the given ai installed, as the loader finds it.
function inProject<T>(version: string, body: () => T): T {
  const restore = useAiLoader(() => ({ version, at: "/p/node_modules/ai/package.json" }));
  try {
    return body();
  } finally {
    restore();
  }
}

Deno.test("installedAi resolves ai as Node does from the working directory: here, through deno.json", async () => {
  const pinned = JSON.parse(await Deno.readTextFile("deno.json")).imports.ai.split("@").pop();
  const found = installedAi();
  assertEquals([found?.version, found?.major], [pinned, Number(pinned.split(".")[0])]);
  assertStringIncludes(found!.at, "package.json");
  const restore = useAiLoader(() => {
    throw new Error("Cannot find module 'ai/package.json'");
  });
  try {
    assertEquals(installedAi(), undefined);
    assertEquals(aiSdkModel(new FakeLLM("hi")).specificationVersion, "v4");
  } finally {
    restore();
  }
  assertEquals([specFor(7), specFor(6), specFor(5), specFor(8)], ["v4", "v3", "none", undefined]);
});

Deno.test("aiSdkModel with ai 6 installed: no option takes v3; v4 names the installed ai and the option", () => {
  inProject("6.0.325", () => {
    assertEquals(aiSdkModel(new FakeLLM("hi")).specificationVersion as string, "v3");
    assertEquals(
      aiSdkModel(new FakeLLM("hi"), { specificationVersion: "v3" }).specificationVersion,
      "v3",
    );
    const e = assertThrows(
      () => aiSdkModel(new FakeLLM("hi"), { specificationVersion: "v4" }),
      TypeError,
    );
    assertStringIncludes(e.message, "the installed AI SDK is ai@6.0.325");
    assertStringIncludes(e.message, '{ specificationVersion: "v3" }');
    assertStringIncludes(e.message, "Node 22");
  });
});

Deno.test("aiSdkModel with ai 7 installed takes v4 by default and v3 when asked; ai 5 is refused by name", () => {
  inProject("7.0.185", () => {
    assertEquals(aiSdkModel(new FakeLLM("hi")).specificationVersion, "v4");
    assertEquals(
      aiSdkModel(new FakeLLM("hi"), { specificationVersion: "v3" }).specificationVersion,
      "v3",
    );
  });
  inProject("5.0.1", () => {
    const e = assertThrows(() => aiSdkModel(new FakeLLM("hi")), TypeError, "ai@5.0.1");
    assertStringIncludes(e.message, 'takes specification "v2" models');
  });
});

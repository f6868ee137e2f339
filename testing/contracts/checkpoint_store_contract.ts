/**
 * The contract every `CheckpointStore` keeps.
 *
 * @module
 */
import type { CheckpointStore } from "../../ports/checkpoint_store.ts";
import { Scope } from "../../ports/scope.ts";
import { buildCases, checkCopies } from "./_contract.ts";
import type { ContractCase } from "./contract.ts";

// How the copies case names a failure (see checkCopies).
const LOAD_COPIES = ["load()", "saved", "loaded"] as const;

/**
 * The cases every `CheckpointStore` must pass: loading a run never saved,
 * saving and loading, replacing, listing run ids, copies rather than aliases,
 * and tenant isolation (a run saved by one tenant cannot be loaded or listed
 * by another). `make` is called once per case.
 *
 * @param make Builds an empty store.
 * @returns The cases.
 *
 * @example
 * ```ts
 * import { InMemoryCheckpointStore } from "@agentkit/testing/runtime";
 * import { checkpointStoreContract } from "@agentkit/testing/testing";
 *
 * for (const c of checkpointStoreContract(() => new InMemoryCheckpointStore())) await c.fn();
 * ```
 */
export function checkpointStoreContract(
  make: () => CheckpointStore | Promise<CheckpointStore>,
): ContractCase[] {
  const s = new Scope({ orgId: 1 });
  return buildCases("CheckpointStore", {
    "load() of a run never saved resolves undefined": async (check) => {
      const store = await make();
      check.equal(await store.load(s, "run-x"), undefined, "load(run-x)");
      check.equal(await store.list(s), [], "list() of an empty store");
    },
    "save() then load() returns an equal checkpoint": async (check) => {
      const store = await make();
      const checkpoint = { step: 3, messages: [{ role: "user", content: "hi" }] };
      await store.save(s, "run-1", checkpoint);
      check.equal(await store.load(s, "run-1"), checkpoint, "load(run-1)");
    },
    "save() replaces the run's earlier checkpoint": async (check) => {
      const store = await make();
      await store.save(s, "run-1", { step: 1 });
      await store.save(s, "run-1", { step: 2 });
      check.equal(await store.load(s, "run-1"), { step: 2 }, "load(run-1)");
      check.equal(await store.list(s), ["run-1"], "list() after two saves of one run");
    },
    "list() names every run with a checkpoint": async (check) => {
      const store = await make();
      await store.save(s, "run-1", 1);
      await store.save(s, "run-2", 2);
      check.equal([...await store.list(s)].sort(), ["run-1", "run-2"], "list()");
    },
    "a checkpoint loaded or saved is a copy, not an alias": async (check) => {
      const store = await make();
      await checkCopies(
        check,
        LOAD_COPIES,
        (v) => store.save(s, "run-1", v),
        () => store.load(s, "run-1"),
      );
    },
    "a tenant never loads or lists another tenant's runs": async (check) => {
      const store = await make();
      const org7 = new Scope({ orgId: 7 });
      const org8 = new Scope({ orgId: 8 });
      await store.save(org7, "run-1", { owner: "org7" });
      check.equal(await store.load(org8, "run-1"), undefined, "org8 loading org7's run");
      check.equal(await store.list(org8), [], "org8 listing runs");
      await store.save(org8, "run-1", { owner: "org8" });
      check.equal(
        await store.load(org7, "run-1"),
        { owner: "org7" },
        "org7's run after org8 saved one",
      );
    },
  });
}

/**
 * The contract every `KVStore` keeps.
 *
 * @module
 */
import type { KVStore } from "../../ports/kv_store.ts";
import { Scope } from "../../ports/scope.ts";
import { buildCases, checkCopies } from "./_contract.ts";
import type { ContractCase } from "./contract.ts";

// How the copies case names a failure (see checkCopies).
const READ_COPIES = ["get(k)", "written", "read"] as const;

/**
 * The cases every `KVStore` must pass: reads of missing keys, writes,
 * overwrites, deletes, copies rather than aliases, keys that merely look
 * alike, and tenant isolation (a key written by one tenant is invisible to,
 * and cannot be deleted by, every other; domains of one organisation are
 * tenants too). Run them against the runtime's `InMemoryStore` and against
 * any store of your own; `make` is called once per case, so each case gets
 * a fresh store.
 *
 * @param make Builds an empty store.
 * @returns The cases.
 *
 * @example Check a store of your own
 * ```ts
 * import { InMemoryStore } from "@agentkit/testing/runtime";
 * import { kvStoreContract } from "@agentkit/testing/testing";
 *
 * for (const c of kvStoreContract(() => new InMemoryStore())) await c.fn();
 * // in a test file: Deno.test("InMemoryStore keeps the KVStore contract", async (t) => {
 * //   for (const c of kvStoreContract(() => new InMemoryStore())) await t.step(c.name, c.fn);
 * // });
 * ```
 */
export function kvStoreContract(make: () => KVStore | Promise<KVStore>): ContractCase[] {
  const s = new Scope({ orgId: 1, domainId: 1 });
  return buildCases("KVStore", {
    "get() of a missing key resolves undefined": async (check) => {
      const kv = await make();
      check.equal(await kv.get(s, "missing"), undefined, "get(missing)");
    },
    "set() then get() returns an equal value": async (check) => {
      const kv = await make();
      const value = { n: 1, list: ["a", "b"], nested: { ok: true } };
      await kv.set(s, "k", value);
      check.equal(await kv.get(s, "k"), value, "get(k)");
    },
    "set() replaces the earlier value": async (check) => {
      const kv = await make();
      await kv.set(s, "k", "first");
      await kv.set(s, "k", "second");
      check.equal(await kv.get(s, "k"), "second", "get(k)");
    },
    "delete() resolves whether the key existed and removes it": async (check) => {
      const kv = await make();
      await kv.set(s, "k", 1);
      check.equal(await kv.delete(s, "k"), true, "delete(k) of a stored key");
      check.equal(await kv.get(s, "k"), undefined, "get(k) after delete");
      check.equal(await kv.delete(s, "k"), false, "delete(k) of a deleted key");
    },
    "falsy values are stored, not taken for missing": async (check) => {
      const kv = await make();
      for (const [key, value] of [["zero", 0], ["empty", ""], ["no", false], ["nil", null]]) {
        await kv.set(s, key as string, value);
        check.equal(await kv.get(s, key as string), value, `get(${key})`);
      }
    },
    "a value read or written is a copy, not an alias": async (check) => {
      const kv = await make();
      await checkCopies(check, READ_COPIES, (v) => kv.set(s, "k", v), () => kv.get(s, "k"));
    },
    "keys that share a prefix or separator stay distinct": async (check) => {
      const kv = await make();
      await kv.set(s, "a", 1);
      await kv.set(s, "a:b", 2);
      await kv.set(s, "a\u0000b", 3);
      check.equal(
        [await kv.get(s, "a"), await kv.get(s, "a:b"), await kv.get(s, "a\u0000b")],
        [1, 2, 3],
        "the three keys",
      );
    },
    "a tenant never reads or deletes another tenant's key": async (check) => {
      const kv = await make();
      const org7 = new Scope({ orgId: 7 });
      const org8 = new Scope({ orgId: 8 });
      const org7dom2 = new Scope({ orgId: 7, domainId: 2 });
      await kv.set(org7, "secret", "seven");
      check.equal(await kv.get(org8, "secret"), undefined, "org8 reading org7's key");
      check.equal(await kv.get(org7dom2, "secret"), undefined, "org7:dom2 reading org7:dom0's key");
      check.equal(await kv.delete(org8, "secret"), false, "org8 deleting org7's key");
      await kv.set(org8, "secret", "eight");
      check.equal(await kv.get(org7, "secret"), "seven", "org7's key after org8 wrote its own");
    },
  });
}

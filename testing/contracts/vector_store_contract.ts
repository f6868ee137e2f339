/**
 * The contract every `VectorStore` keeps.
 *
 * @module
 */
import { Scope } from "../../ports/scope.ts";
import type { VectorStore } from "../../ports/vector_store.ts";
import { buildCases } from "./_contract.ts";
import type { ContractCase } from "./contract.ts";

const CERTS = "rotate the TLS certificates of the api servers every ninety days";
const LUNCH = "the staff cafeteria serves soup and sandwiches at noon";
const BACKUP = "database backups run nightly and are kept for thirty days";

/**
 * The cases every `VectorStore` must pass, phrased so that any sensible
 * embedder passes them (a text is its own nearest neighbour; unrelated texts
 * rank below it): an empty index, the exact text ranked first with the
 * highest score, hits best first and cut to `k`, payloads returned and
 * copied, `upsert` replacing an id, `delete`, and tenant isolation (a text
 * indexed by one tenant never appears in another's results). `make` is
 * called once per case.
 *
 * @param make Builds an empty store (with the embedder it should use).
 * @returns The cases.
 *
 * @example
 * ```ts
 * import { InMemoryVector } from "@agentkit/testing/runtime";
 * import { FakeEmbedder, vectorStoreContract } from "@agentkit/testing/testing";
 *
 * const make = () => new InMemoryVector({ embedder: new FakeEmbedder() });
 * for (const c of vectorStoreContract(make)) await c.fn();
 * ```
 */
export function vectorStoreContract(
  make: () => VectorStore | Promise<VectorStore>,
): ContractCase[] {
  const s = new Scope({ orgId: 1 });
  const fill = async (v: VectorStore, scope = s) => {
    await v.upsert(scope, "certs", CERTS, { doc: "runbook" });
    await v.upsert(scope, "lunch", LUNCH);
    await v.upsert(scope, "backup", BACKUP);
  };
  return buildCases("VectorStore", {
    "query() of an empty index resolves []": async (check) => {
      const v = await make();
      check.equal(await v.query(s, CERTS), [], "query() of an empty index");
    },
    "a stored text is its own nearest neighbour": async (check) => {
      const v = await make();
      await fill(v);
      for (const [id, text] of [["certs", CERTS], ["lunch", LUNCH], ["backup", BACKUP]]) {
        const [best] = await v.query(s, text, { k: 1 });
        check.equal(best?.id, id, `the nearest hit of ${id}'s own text`);
        check.equal(best?.text, text, `the text of ${id}'s hit`);
      }
    },
    "hits come best first and at most k of them": async (check) => {
      const v = await make();
      await fill(v);
      const hits = await v.query(s, CERTS, { k: 2 });
      check.equal(hits.length, 2, "the number of hits for k = 2");
      check.ok(
        hits[0].score >= hits[1].score,
        `scores must not increase: ${hits.map((h) => h.score)}`,
      );
      check.ok(hits[0].score > 0.99, `the exact text must score about 1, got ${hits[0].score}`);
    },
    "a payload comes back with its hit, as a copy": async (check) => {
      const v = await make();
      await fill(v);
      const [hit] = await v.query(s, CERTS, { k: 1 });
      check.equal(hit?.payload, { doc: "runbook" }, "the payload of the hit");
      (hit.payload as Record<string, string>).doc = "changed";
      const [again] = await v.query(s, CERTS, { k: 1 });
      check.equal(again.payload, { doc: "runbook" }, "the payload after mutating a returned one");
    },
    "upsert() of an existing id replaces its text": async (check) => {
      const v = await make();
      await fill(v);
      await v.upsert(s, "certs", LUNCH);
      const hits = await v.query(s, CERTS, { k: 3 });
      check.equal(hits.filter((h) => h.id === "certs").length, 1, "hits with id certs");
      check.equal(hits.find((h) => h.id === "certs")?.text, LUNCH, "the replaced text");
    },
    "delete() resolves whether the id existed and removes it": async (check) => {
      const v = await make();
      await fill(v);
      check.equal(await v.delete(s, "certs"), true, "delete(certs)");
      check.equal(await v.delete(s, "certs"), false, "delete(certs) again");
      const hits = await v.query(s, CERTS, { k: 3 });
      check.ok(!hits.some((h) => h.id === "certs"), "a deleted id must not be returned");
    },
    "a tenant never sees another tenant's texts": async (check) => {
      const v = await make();
      const org7 = new Scope({ orgId: 7 });
      const org8 = new Scope({ orgId: 8 });
      await fill(v, org7);
      check.equal(await v.query(org8, CERTS), [], "org8 querying org7's text");
      check.equal(await v.delete(org8, "certs"), false, "org8 deleting org7's id");
      await v.upsert(org8, "certs", LUNCH);
      const [best] = await v.query(org7, CERTS, { k: 1 });
      check.equal(best?.text, CERTS, "org7's text after org8 indexed the same id");
    },
  });
}

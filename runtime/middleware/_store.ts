import type { KVStore } from "../../ports/kv_store.ts";
import type { RunContext } from "../context.ts";
import { MisconfiguredMiddleware } from "../errors.ts";

/** The middleware's store, else the context's, else a MisconfiguredMiddleware. */
export function storeOf(name: string, store: KVStore | undefined, ctx: RunContext): KVStore {
  const s = store ?? ctx.store;
  if (!s) {
    throw new MisconfiguredMiddleware(
      name,
      `Cannot ${name} without a store: the middleware would be a silent no-op; pass ${name}({ store }) or makeTestCtx({ store: new InMemoryStore() })`,
    );
  }
  return s;
}

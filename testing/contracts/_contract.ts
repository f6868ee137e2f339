// Shared machinery of the port contracts: a checker per case that throws
// ContractViolation, so the contracts do not depend on a test library.
import { ContractViolation } from "./contract.ts";
import type { ContractCase } from "./contract.ts";

/** The checks a contract case may make. */
export interface Check {
  /** Fails unless `condition`. */
  ok(condition: unknown, detail: string): void;
  /** Fails unless `actual` equals `expected` as JSON-like values. */
  equal(actual: unknown, expected: unknown, what: string): void;
}

function canonical(value: unknown): string {
  if (value === undefined) return "undefined";
  return JSON.stringify(
    value,
    (_k, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
  );
}

/** Builds the cases of a contract from `(check) => Promise<void>` bodies. */
export function buildCases(
  contract: string,
  bodies: Readonly<Record<string, (check: Check) => Promise<void>>>,
): ContractCase[] {
  return Object.entries(bodies).map(([name, body]) => {
    const check: Check = {
      ok(condition, detail) {
        if (!condition) throw new ContractViolation(contract, name, detail);
      },
      equal(actual, expected, what) {
        const a = canonical(actual);
        const e = canonical(expected);
        if (a !== e) {
          throw new ContractViolation(contract, name, `${what}: expected ${e}, got ${a}`);
        }
      },
    };
    return { name, fn: () => body(check) };
  });
}

/**
 * The law every store keeps: what it was given, and what it gave back, are
 * copies, so mutating either leaves what it holds as it was. `names` says
 * how a failure names the read (`"get(k)"`), the written object and a read one.
 */
export async function checkCopies(
  check: Check,
  names: readonly [read: string, written: string, got: string],
  write: (value: { list: number[] }) => Promise<unknown>,
  read: () => Promise<unknown>,
): Promise<void> {
  const written = { list: [1] };
  await write(written);
  written.list.push(2);
  const got = await read() as { list: number[] };
  check.equal(got, { list: [1] }, `${names[0]} after mutating the ${names[1]} object`);
  got.list.push(3);
  check.equal(await read(), { list: [1] }, `${names[0]} after mutating a ${names[2]} object`);
}

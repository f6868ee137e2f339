// Exact money arithmetic: amounts are bigints of 1e-12 USD, so sums never drift
// the way binary floats do, and prices per million tokens divide exactly.

import { preview } from "../_preview.ts";

/** Fractional digits kept internally. */
export const SCALE_DIGITS = 12;
const SCALE = 10n ** BigInt(SCALE_DIGITS);

// Amounts already parsed, by how they were written: a suite builds the same
// `new Budget({ maxCostUsd: "0.10" })` in every test, and charges the same
// reported costs, so each is parsed (and checked) once. Bounded: amounts
// that vary without end are parsed each time past the bound.
const PARSED = new Map<number | string, { readonly units: bigint; fixed: string | undefined }>();
const PARSED_MAX = 512;

/**
 * Parses a money amount (`"0.10"`, `0.1`, `1e-7`) into scaled units. An amount
 * is non-negative and finite; a string has at most 12 decimals and no stray
 * whitespace, so nothing rounds silently (a budget of "0.0000000000001" would
 * otherwise become a budget of 0).
 */
export function toUnits(value: number | string, what = "amount"): bigint {
  const known = PARSED.get(value);
  if (known !== undefined) return known.units;
  if (typeof value !== "number" && typeof value !== "string") {
    throw new TypeError(
      `Cannot use ${what} ${preview(value)}: pass a number or a decimal string like "0.10"`,
    );
  }
  const problem = moneyProblem(value);
  if (problem) {
    const text = `Cannot use ${what} ${
      preview(value)
    }: it ${problem.text}; amounts are non-negative decimals with at most ${SCALE_DIGITS} decimals, like "0.10"`;
    throw problem.kind === "type" ? new TypeError(text) : new RangeError(text);
  }
  const text = typeof value === "number" ? numberToPlain(value) : value.replace(/^\+/, "");
  const [whole, frac = ""] = text.split(".");
  // A string has at most 12 decimals by now; a number is read as it prints,
  // and a float's binary noise past the twelfth decimal is dropped.
  const units = BigInt((whole || "0") + frac.padEnd(SCALE_DIGITS, "0").slice(0, SCALE_DIGITS));
  if (PARSED.size < PARSED_MAX) PARSED.set(value, { units, fixed: undefined });
  return units;
}

/**
 * A limit as a `Budget` or a `Quota` keeps it: its units and its exact text
 * (`"0.100000"`, `"0.0000001"`), both made once per distinct amount.
 */
export function limitOf(value: number | string, what: string): { units: bigint; text: string } {
  const units = toUnits(value, what);
  const known = PARSED.get(value);
  if (known === undefined) return { units, text: exactUnits(units) };
  return { units, text: known.fixed ??= exactUnits(units) };
}

function numberToPlain(n: number): string {
  const s = String(n);
  // Exponent notation (1e-7): toFixed with two spare digits is exact at our scale.
  return /e/i.test(s) ? n.toFixed(SCALE_DIGITS + 2) : s;
}

/**
 * Why `value` is not a valid amount of money, or undefined when it is:
 * non-negative, finite, at most 12 decimals, no stray whitespace.
 */
export function moneyProblem(value: number | string): MoneyProblem | undefined {
  if (PARSED.has(value)) return undefined;
  const text = moneyText(value);
  if (text === undefined) return undefined;
  return { kind: text.startsWith("is not a decimal") ? "type" : "range", text };
}

/** What is wrong with an amount; `type` for a string that is no number at all. */
export interface MoneyProblem {
  readonly kind: "type" | "range";
  readonly text: string;
}

function moneyText(value: number | string): string | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "is not a finite number";
    if (value < 0) return "is negative";
    if (value >= 1e15) return "is too large for an amount in USD";
    // A binary float is approximate anyway; only refuse one that would round to zero.
    if (value > 0 && value < 10 ** -SCALE_DIGITS) {
      return `is below the ledger's precision of ${SCALE_DIGITS} decimals and would round to 0`;
    }
    return undefined;
  }
  if (value === "") return 'is not a decimal number (write "0.10")';
  if (value !== value.trim()) return "has stray whitespace";
  const m = /^\+?(\d*)(?:\.(\d*))?$/.exec(value);
  if (!m || (m[1] === "" && (m[2] ?? "") === "")) {
    return /^-\d*\.?\d*$/.test(value) && value !== "-"
      ? "is negative"
      : 'is not a decimal number (write "0.10")';
  }
  if ((m[2] ?? "").length > SCALE_DIGITS) {
    return `has more than ${SCALE_DIGITS} decimals, more than the ledger holds`;
  }
  return undefined;
}

/** Formats scaled units with `digits` fractional digits, rounding half up. */
export function formatUnits(units: bigint, digits = 6): string {
  const neg = units < 0n;
  let abs = neg ? -units : units;
  const drop = 10n ** BigInt(SCALE_DIGITS - digits);
  abs = (abs + drop / 2n) / drop;
  const s = abs.toString().padStart(digits + 1, "0");
  const out = digits === 0 ? s : `${s.slice(0, -digits)}.${s.slice(-digits)}`;
  return neg ? `-${out}` : out;
}

/**
 * Formats scaled units exactly: six decimals (`"0.000100"`), or as many more
 * as the amount has, up to the ledger's twelve (`"0.0000001"`). What a
 * budget keeps and has spent is shown as kept: a limit of $0.0000001 never
 * reads as $0.
 */
export function exactUnits(units: bigint): string {
  if (units % MICRO === 0n) return formatUnits(units);
  const neg = units < 0n;
  const s = (neg ? -units : units).toString().padStart(SCALE_DIGITS + 1, "0");
  const text = `${s.slice(0, -SCALE_DIGITS)}.${s.slice(-SCALE_DIGITS).replace(/0+$/, "")}`;
  return neg ? `-${text}` : text;
}

const MICRO = 10n ** BigInt(SCALE_DIGITS - 6);

/** Units per whole dollar. */
export const UNITS_PER_USD: bigint = SCALE;

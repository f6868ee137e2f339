// Exact money arithmetic: amounts are bigints of 1e-12 USD, so sums never drift
// the way binary floats do, and prices per million tokens divide exactly.

/** Fractional digits kept internally. */
export const SCALE_DIGITS = 12;
const SCALE = 10n ** BigInt(SCALE_DIGITS);

/**
 * Parses a decimal amount (`"0.10"`, `0.1`, `1e-7`) into scaled units, dropping
 * digits past the twelfth. A string must be plain decimal (`"1e-7"` is refused).
 */
export function toUnits(value: number | string, what = "amount"): bigint {
  let text = typeof value === "number" ? numberToPlain(value) : value.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) {
    throw new TypeError(
      `Cannot read ${what} ${
        JSON.stringify(value)
      } as a decimal number; pass a number or a string like "0.10"`,
    );
  }
  const [, sign, whole, frac = ""] = m;
  text = (whole || "0") + frac.padEnd(SCALE_DIGITS, "0").slice(0, SCALE_DIGITS);
  const units = BigInt(text);
  return sign === "-" ? -units : units;
}

function numberToPlain(n: number): string {
  if (!Number.isFinite(n)) {
    throw new TypeError(`Cannot use ${n} as a money amount; pass a finite number`);
  }
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // Exponent notation (1e-7): toFixed with enough digits is exact for our scale.
  return n.toFixed(SCALE_DIGITS + 2);
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

/** Units per whole dollar. */
export const UNITS_PER_USD: bigint = SCALE;

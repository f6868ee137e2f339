// The trial settings trials(), evaluate(), AgentTest and chaos() share.
import { is, type Rule } from "../../runtime/internal.ts";
import type { TrialsOptions } from "./trials.ts";

/** The rules of the trial settings `trials()`, `evaluate()` and `AgentTest` share. */
export const TRIAL_RULES: Readonly<Record<string, Rule>> = {
  n: is.number({ min: 1, integer: true }),
  k: is.number({ min: 1, integer: true }),
  threshold: is.fraction,
  seed: is.number({ integer: true }),
  concurrency: is.number({ min: 1, integer: true }),
  budgetUsd: is.money,
  earlyStop: is.boolean,
  name: is.text,
};

/** Checks what the rules cannot: earlyStop needs a threshold, k at most n. */
export function checkTrialSettings(where: string, o: Partial<TrialsOptions>, n: number): void {
  if (o.earlyStop && o.threshold === undefined) {
    throw new TypeError(
      `${where}: option "earlyStop" stops when the interval is wholly above or below the threshold, but no threshold was given; pass { threshold: 0.9, earlyStop: true }`,
    );
  }
  if (o.k !== undefined && o.k > n) {
    throw new RangeError(
      `${where}: option "k" (${o.k}) is more than the trials (${n}); pass k at most n, or run more trials`,
    );
  }
}

/** A seed when none is given: random, and kept in the report to replay. */
export function freshSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

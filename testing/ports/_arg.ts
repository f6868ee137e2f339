// A positional argument of a double's method, checked by the package's one
// checker: the error it would throw, returned, so a method that answers with
// a promise rejects with it instead of throwing (as a real port would fail).
import { checkValue, type Rule } from "../../runtime/internal.ts";

/**
 * The TypeError or RangeError `value` earns against `rule`, naming `where`
 * and `what` (`FakeSearch.search(): the query must be a string, got 5`), or
 * undefined when it passes.
 */
export function argProblem(
  where: string,
  what: string,
  value: unknown,
  rule: Rule,
): Error | undefined {
  try {
    checkValue(where, what, value, rule);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

// A JSON object's text with some of its fields left open: the text of the
// other fields is written once, and each write splices in the open fields'
// values (their JSON text). A stream sends the same large object more than
// once with a few fields changed (the Responses stream's Response object in
// response.created, response.in_progress and response.completed): written
// from a template, only what changed is serialised again.

/** The text of an object, its `open` fields' values given at each write. */
export class JsonTemplate {
  // The text around the open fields: parts[0] + values[0] + parts[1] + ...
  readonly #parts: string[];
  readonly #open: readonly string[];

  /**
   * @param object The object, in the order its fields are written; the open
   * fields' own values are not written (and may be anything).
   * @param open The open fields, in the order they appear in `object`: each
   * write gives their values in this order.
   * @throws {RangeError} For an open field `object` lacks, or one out of order.
   */
  constructor(object: Readonly<Record<string, unknown>>, open: readonly string[]) {
    const parts: string[] = [];
    // The fields between two open ones are serialised together, as one
    // object's text without its braces: JSON.stringify writes them (and
    // leaves out an undefined one) exactly as it would inside `object`.
    let run: Record<string, unknown> = {};
    let text = "{";
    let empty = true; // no field written yet: the next one needs no comma
    let next = 0;
    const flush = () => {
      const json = JSON.stringify(run).slice(1, -1);
      if (json !== "") {
        text += (empty ? "" : ",") + json;
        empty = false;
      }
      run = {};
    };
    for (const key of Object.keys(object)) {
      if (key !== open[next]) {
        // (`run.__proto__ = v` would set the prototype: a field of that name,
        // which JSON.parse makes, is defined as a field.)
        if (key === "__proto__") {
          Object.defineProperty(run, key, { value: object[key], enumerable: true });
        } else run[key] = object[key];
        continue;
      }
      flush();
      parts.push(`${text}${empty ? "" : ","}${JSON.stringify(key)}:`);
      text = "";
      empty = false;
      next++;
    }
    if (next < open.length) {
      throw new RangeError(
        `JsonTemplate: the open field "${open[next]}" is not in the object, or not in its order`,
      );
    }
    flush();
    parts.push(`${text}}`);
    this.#parts = parts;
    this.#open = open;
  }

  /**
   * The object's text with `values` (JSON text, one per open field, in
   * order) as the open fields' values.
   */
  write(values: readonly string[]): string {
    const parts = this.#parts;
    let out = parts[0];
    for (let i = 0; i < this.#open.length; i++) out += values[i] + parts[i + 1];
    return out;
  }
}

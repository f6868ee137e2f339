// The error of a schema part no value can satisfy, as the generator meets
// it: an anyOf catches it to try the next branch; FakeLLM.auto turns it
// into an InvalidScript naming the tool.

/** A schema no value can satisfy (or that uses what the generator cannot); `path` points into it. */
export class SchemaUnsatisfiable extends Error {
  /** The JSON pointer of the part that failed (`#/properties/port`). */
  readonly path: string;
  /** Why, in a few words. */
  readonly reason: string;
  /**
   * @param path The JSON pointer.
   * @param reason Why.
   */
  constructor(path: string, reason: string) {
    super(`at ${path}: ${reason}`);
    this.name = "SchemaUnsatisfiable";
    this.path = path;
    this.reason = reason;
  }
}

// Reasons nest (a branch's reason quotes its own branches'); each is cut so
// that a message stays readable and its size cannot grow with the depth.
const CLIP = 300;

/** `text`, cut to a few hundred characters. */
export function clip(text: string): string {
  return text.length > CLIP ? `${text.slice(0, CLIP - 1)}…` : text;
}

/** A JSON pointer segment for `key` (`a/b` → `a~1b`). */
export function pointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

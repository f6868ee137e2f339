// By-value secrets a cassette learns after it opened: the one place a
// recorder that is not the caller (the FakeProvider's recording proxy, which
// sees each client's key only when its request arrives) tells a cassette
// what must never reach its file. The cassette registers how to take them.
const registry = new WeakMap<object, (value: string) => void>();

/** Called by a cassette when it opens: how it masks one more value. */
export function registerSecretSink(cassette: object, add: (value: string) => void): void {
  registry.set(cassette, add);
}

/** Masks `value` (a key, a header value) in everything `cassette` writes from now on. */
export function addCassetteSecret(cassette: object, value: string): void {
  if (value) registry.get(cassette)?.(value);
}

// The floor: the least any asynchronous test double can cost in this runtime.
const CALL = { id: "c1", name: "lookup_cert", args: { host: "example.com" } };

async function* threeChunks() {
  yield "o";
  yield "k";
  yield "!";
}

export function allCases() {
  return [
    {
      // An await of a resolved promise: one model call that does nothing.
      id: "single_turn",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        return async () => await Promise.resolve("ok");
      },
    },
    {
      // An async generator of 3 chunks, consumed.
      id: "stream_3_chunks",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        return async () => {
          let chunks = 0;
          for await (const _ of threeChunks()) chunks++;
          return chunks;
        };
      },
    },
    {
      // A test's setup that checks and builds nothing: the two-turn script as
      // data, resolved, as every construct case is (the turns both peers'
      // cases write out, their tool call a constant as theirs are).
      id: "construct",
      uses: Number.MAX_SAFE_INTEGER,
      steps: 1,
      prepare() {
        return () => Promise.resolve([{ toolCalls: [CALL] }, { content: "expired" }]);
      },
    },
  ];
}

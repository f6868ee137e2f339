// What the harness (Deno) reports to the runner (Node) for one test, on the
// JSON-lines channel between them: one definition for both sides.
export interface Outcome {
  id: string;
  name: string;
  fileName: string;
  status: "success" | "failed" | "skipped";
  timeSpentMs: number;
  failureMessage?: string;
}

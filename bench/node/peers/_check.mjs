// A bench case that stops doing its work would measure nothing: each case
// checks its answer once per run and fails loudly.
export function check(ok, what) {
  if (!ok) throw new Error(`bench case is broken: ${what}`);
}

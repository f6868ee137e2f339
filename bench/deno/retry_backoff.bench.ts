import { backoff } from "./_cases.ts";
import { bench } from "./_bench.ts";

bench(backoff(), "retry_backoff");

import { construction } from "./_cases.ts";
import { bench } from "./_bench.ts";

bench(construction(), "construct");

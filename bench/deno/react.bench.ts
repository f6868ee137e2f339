import { react2 } from "./_cases.ts";
import { bench } from "./_bench.ts";

bench(react2(), "react");

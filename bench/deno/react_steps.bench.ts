import { reactSteps } from "./_cases.ts";
import { bench } from "./_bench.ts";

for (const steps of [10, 100, 1000]) bench(reactSteps(steps), "react_steps");

// Cold start: an empty program, the process's own start-up (bench/cold_start.ts).
export {};

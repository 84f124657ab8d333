// Usage: pnpm verify-draw <server> <YYYY-MM>
//        pnpm verify-draw --results FILE --tickets FILE
// Fetches (or reads) a month's published draw results and ticket list, recomputes the winners and
// says whether everything matches. Exit code 0: it checks out; 1: it does not; 2: usage, network
// or a draw that has not been run yet (nothing to check).
import { runVerifyDraw } from "./run-verify-draw.js";

// pnpm runs this from prize-draw/; INIT_CWD is where the user typed the command.
process.exitCode = await runVerifyDraw(process.argv.slice(2), {
  cwd: process.env.INIT_CWD ?? process.cwd(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});

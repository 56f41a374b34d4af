/** The exit codes as `--help` shows them (the README's table says the same). */
export const EXIT_CODES_HELP = [
  "Exit codes:",
  "  0  conformant",
  "  1  not conformant, or nothing was judged (a vacuous run is never a pass)",
  "  2  usage or configuration error",
  "  3  the kit itself failed",
  "  4  incomplete: a clause --level counts could not be judged (see the report)",
  "  130, 143  interrupted by SIGINT or SIGTERM: run, fuzz and policy-test report what they judged",
  "  run --baseline FILE: 1 only when a clause regressed against FILE (or nothing was judged); failures FILE had too exit 0",
  "  fuzz --against OTHER: 1 when the two providers differ in what a host would act on",
].join("\n");

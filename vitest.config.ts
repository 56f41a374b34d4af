import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "dist/**"],
    // Checks, at the end of the run, every report the tests made the kit write: no clause passes with nothing judged.
    // The native spawner is built (or found unavailable, and said so) once, before any kit run (test/setup/native-spawner.ts).
    globalSetup: ["test/setup/report-audit.ts", "test/setup/native-spawner.ts"],
    // Generous: integration tests run real candidates on a loaded 2-core CI box; every wait inside is bounded anyway.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most integration time is spent in candidate processes; use both cores of a 2-core CI box.
    maxWorkers: 2,
  },
});

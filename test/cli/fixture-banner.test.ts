import { describe, expect, it } from "vitest";
import { MANAGED_TOOL, TASK_PROGRAM } from "../../src/core/agent-cli/managed-tasks.js";
import { fixtureBanner } from "../../src/cli/fixture-banner.js";
import { parseDirective } from "../../src/servers/index.js";

describe("fixtureBanner", () => {
  const banner = fixtureBanner({ openaiBase: "http://127.0.0.1:1/v1", anthropicBase: "http://127.0.0.1:1", controlPlane: "http://127.0.0.1:2", controlPlaneToken: "awp-cp-x" });
  it("gives every placeholder its value, one per line", () => {
    expect(banner).toMatch(/^ {2}\{\{fixture\.controlplane\}\}\s+http:\/\/127\.0\.0\.1:2$/m);
    expect(banner).toMatch(/^ {2}\{\{fixture\.controlplane_token\}\}\s+awp-cp-x$/m);
    expect(banner).toMatch(/^ {2}\{\{fixture\.openai\}\}\s+http:\/\/127\.0\.0\.1:1\/v1$/m);
  });
  it("shows a task directive that parses to a call of the kit's task program", () => {
    const line = banner.split("\n").find((l) => l.includes("[[awp-fixture task=")) ?? "";
    expect(parseDirective(line)).toEqual({ task: { argv: [TASK_PROGRAM, "plan=pending"], timeout_seconds: 10 }, taskRounds: "A" });
    expect(banner).toContain(MANAGED_TOOL);
  });
});

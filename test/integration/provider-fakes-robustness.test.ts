import { describe } from "vitest";
import { faultTests } from "./provider-fakes.js";
import { ROBUSTNESS } from "./provider-faults.js";

describe("provider fakes: robustness clauses", () => faultTests(ROBUSTNESS, true));

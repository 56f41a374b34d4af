import { describe } from "vitest";
import { faultTests } from "./provider-fakes.js";
import { ROBUSTNESS } from "./provider-faults.js";

describe("provider fakes: robustness clauses (whole suite)", () => faultTests(ROBUSTNESS, true));

import { describe } from "vitest";
import { faultTests } from "./provider-fakes.js";
import { METHODS } from "./provider-faults.js";

describe("provider fakes: describe, validate_config and invoke clauses", () => faultTests(METHODS, false));

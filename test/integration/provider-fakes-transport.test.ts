import { describe } from "vitest";
import { faultTests } from "./provider-fakes.js";
import { TRANSPORT_AND_ENVELOPE } from "./provider-faults.js";

describe("provider fakes: transport and envelope clauses", () => faultTests(TRANSPORT_AND_ENVELOPE, false));

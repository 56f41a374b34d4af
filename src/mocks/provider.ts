#!/usr/bin/env node
// awp-conformance-mock-provider [--fault NAME[:k=v,...]]... [--seed N] [--record FILE]:
// the bundled reference policy provider with the named faults, for testing a host (docs/mocks.md).
import { PROVIDER_CATALOGUE } from "./catalogue/provider.js";
import { runProvider } from "./provider/main.js";
import { mockBin } from "./run.js";

mockBin({ protocol: "provider", catalogue: PROVIDER_CATALOGUE, run: runProvider });

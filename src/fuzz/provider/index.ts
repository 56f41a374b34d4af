export { hostileCaseArb, hostileKinds, providerCaseArb } from "./hostile.js";
export { ADAPTERS, invocableOps, validCaseArb, type InvocableOp, type ValidCaseOptions } from "./valid.js";
export { LIMIT_NUMBERS, MAX_TOOL_NESTING, nestingOf } from "./values.js";

import { KitError } from "../errors.js";
import type { JsonValue } from "../json/index.js";
import { describeSchemaErrors, kitSchema } from "../schema.js";

/** The kit's own well-formed requests must match schemas/provider/request.schema.json; a mismatch is a kit bug. */
export function assertKitRequest(request: JsonValue): void {
  const validate = kitSchema("provider/request.schema.json");
  if (!validate(request)) {
    throw new KitError("kit_bug", `the kit built a request its own schema rejects: ${describeSchemaErrors(validate.errors)}`);
  }
}

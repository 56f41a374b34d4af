/** Every reporter with its renderer loaded, for library users (the CLI loads only the ones chosen). */
import { REPORTER_NAMES, reporterFor, type ReporterOutput } from "./registry.js";

export const REPORTERS: Readonly<Record<string, ReporterOutput[]>> = Object.fromEntries(await Promise.all(REPORTER_NAMES.map(async (name) => [name, await reporterFor(name)] as const)));

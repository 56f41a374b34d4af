/**
 * Policy-test cases: decisions a Provider author expects, written as data (schemas/policy-cases.schema.json).
 * This module turns a parsed case file into flat cases (tables expanded, defaults applied);
 * policy-plan.ts binds them to a Provider's describe answer and policy-compare.ts judges the answers.
 */
import { basename, extname } from "node:path";
import { REPORT_LIMITS } from "../inputs/limits.js";
import { inputError } from "../inputs/read.js";
import { validateInput } from "../inputs/json.js";
import { wireJson, type JsonValue } from "../json/index.js";
import { PROFILE_EFFECTS, type JsonObject, type ToolEvent } from "./types.js";

export const DECISIONS = ["allow", "observe", "block", "replace_result", "error"] as const;
export type Decision = (typeof DECISIONS)[number];

export interface Expectation {
  decision: Decision;
  /** block, observe: the effect's reason_code, exactly. */
  reasonCode?: string;
  /** block, replace_result: a pattern of the effect's text (`*` any characters). */
  text?: string;
  /** error: the response's error_code, exactly. */
  errorCode?: string;
}

/** A configuration and its exact document (config_revision is the SHA-256 of the document). */
export interface CaseConfig {
  value: JsonObject;
  document: string;
}

/** One case, tables expanded: one invoke request and the decision expected for it. */
export interface PolicyCase {
  /** Report entry id: policy-test/<file stem>/<name>. */
  id: string;
  /** The case's name; a table row's is "<case name>/<row name>". */
  name: string;
  file: string;
  event: ToolEvent;
  tool: string;
  nativeName: string;
  input: JsonValue;
  result: JsonValue;
  /** Text of result_projection, when replace_result is allowed on tool.after. */
  projection: string;
  adapter?: string;
  sessionId?: string | null;
  callId?: string | null;
  native?: JsonObject;
  operation?: string;
  allowedEffects?: string[];
  /** The case's (or its file's) configuration; absent: the command line's. */
  config?: CaseConfig;
  expect: Expectation;
}

/** The fields of a case or a table row as the schema allows them. */
interface RawFields {
  name?: string;
  event?: ToolEvent;
  tool?: string;
  native_name?: string;
  input?: JsonValue;
  result?: JsonValue;
  projection?: string;
  adapter?: string;
  session_id?: string | null;
  call_id?: string | null;
  native?: JsonObject;
  operation?: string;
  allowed_effects?: string[];
  config?: JsonObject;
  expect?: Decision | { decision: Decision; reason_code?: string; text?: string; error_code?: string };
}

interface RawCase extends RawFields {
  name: string;
  table?: RawFields[];
}

interface RawFile {
  config?: JsonObject;
  cases: RawCase[];
}

/** Which expectation fields go with which decisions. */
const FIELD_DECISIONS: Record<"reason_code" | "text" | "error_code", readonly Decision[]> = {
  reason_code: ["block", "observe"],
  text: ["block", "replace_result"],
  error_code: ["error"],
};

function expectation(raw: RawFields["expect"], file: string, where: string): Expectation {
  if (raw === undefined) throw inputError(file, `${where} lacks expect (one of ${DECISIONS.join(", ")})`);
  if (typeof raw === "string") return { decision: raw };
  for (const [field, decisions] of Object.entries(FIELD_DECISIONS)) {
    if (Object.hasOwn(raw, field) && !decisions.includes(raw.decision)) {
      throw inputError(file, `${where}/expect: ${field} goes with ${decisions.join(" or ")}, not ${raw.decision}`);
    }
  }
  return {
    decision: raw.decision,
    ...(raw.reason_code !== undefined ? { reasonCode: raw.reason_code } : {}),
    ...(raw.text !== undefined ? { text: raw.text } : {}),
    ...(raw.error_code !== undefined ? { errorCode: raw.error_code } : {}),
  };
}

/** The text the Adapter would project a result as: a string as it is, anything else as compact JSON. */
export function projectionOf(result: JsonValue): string {
  return typeof result === "string" ? result : wireJson(result);
}

function configOf(value: JsonObject): CaseConfig {
  return { value, document: wireJson(value) };
}

/** A row's name: its own, else its tool, else its position. */
function rowName(row: RawFields, index: number): string {
  if (row.name !== undefined) return row.name;
  const label = row.tool ?? row.native_name;
  return label !== undefined ? label.slice(0, 60) : `#${index + 1}`;
}

function flatten(fields: RawFields, name: string, stem: string, file: string, where: string, fileConfig: JsonObject | undefined): PolicyCase {
  const event = fields.event ?? "tool.before";
  if (fields.tool === undefined) throw inputError(file, `${where} lacks tool (the tool's name, event.tool.name)`);
  const id = `policy-test/${stem}/${name}`;
  if (id.length > REPORT_LIMITS.maxClauseIdChars) throw inputError(file, `${where}: the name "${name}" is too long (the entry id ${id.length} characters, the limit ${REPORT_LIMITS.maxClauseIdChars})`);
  if (fields.allowed_effects !== undefined) {
    const admitted = PROFILE_EFFECTS[event];
    const outside = fields.allowed_effects.filter((e) => !admitted.includes(e));
    if (outside.length > 0) throw inputError(file, `${where}/allowed_effects: ${outside.join(", ")} not admitted at ${event} (the v1alpha1 profile admits ${admitted.join(", ")})`);
  }
  if (event === "tool.before" && fields.result !== undefined && fields.result !== null) {
    throw inputError(file, `${where}: result is only sent on tool.after (tool.before always sends null)`);
  }
  const result = event === "tool.before" ? null : (fields.result ?? "");
  const config = fields.config ?? fileConfig;
  return {
    id,
    name,
    file,
    event,
    tool: fields.tool,
    nativeName: fields.native_name ?? fields.tool,
    input: fields.input ?? {},
    result,
    projection: fields.projection ?? projectionOf(result),
    ...(fields.adapter !== undefined ? { adapter: fields.adapter } : {}),
    ...(fields.session_id !== undefined ? { sessionId: fields.session_id } : {}),
    ...(fields.call_id !== undefined ? { callId: fields.call_id } : {}),
    ...(fields.native !== undefined ? { native: fields.native } : {}),
    ...(fields.operation !== undefined ? { operation: fields.operation } : {}),
    ...(fields.allowed_effects !== undefined ? { allowedEffects: [...fields.allowed_effects] } : {}),
    ...(config !== undefined ? { config: configOf(config) } : {}),
    expect: expectation(fields.expect, file, where),
  };
}

/** The id stem of a case file: its name without folder and extension. */
export function fileStem(file: string): string {
  return basename(file, extname(file)) || "cases";
}

/**
 * A parsed case file as flat cases: checked against the schema, each table expanded into one
 * case per row (the row's fields replace the case's), names unique. Every mistake is a usage
 * error naming the file and the JSON Pointer of the offending case.
 */
export function expandCases(document: unknown, file: string): PolicyCase[] {
  validateInput(document, "policy-cases.schema.json", file);
  const raw = document as RawFile;
  const stem = fileStem(file);
  const cases: PolicyCase[] = [];
  raw.cases.forEach((entry, index) => {
    const where = `/cases/${index}`;
    const { table, ...template } = entry;
    if (table === undefined) {
      cases.push(flatten(template, entry.name, stem, file, where, raw.config));
      return;
    }
    table.forEach((row, r) => {
      const { name: _rowName, ...overrides } = row;
      cases.push(flatten({ ...template, ...overrides }, `${entry.name}/${rowName(row, r)}`, stem, file, `${where}/table/${r}`, raw.config));
    });
  });
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) throw inputError(file, `two cases are named "${c.name}" (give table rows a name)`);
    seen.add(c.id);
  }
  return cases;
}

/** Cases of several files: ids must stay unique across them (two files with one stem and one case name collide). */
export function mergeCases(files: readonly PolicyCase[][]): PolicyCase[] {
  const seen = new Map<string, string>();
  for (const c of files.flat()) {
    const other = seen.get(c.id);
    if (other !== undefined) throw inputError(c.file, `case "${c.name}" has the same entry id (${c.id}) as one in ${other}: rename the case or the file`);
    seen.set(c.id, c.file);
  }
  return files.flat();
}

/**
 * The stages at which a provider fault acts, and how several faults chain. Faults apply in
 * the order given (AWP_CONFORMANCE_MOCK_FAULTS first, then each --fault): startup hooks one
 * after the other; a refused request is taken by the first lenient fault whose rejection
 * matches; request, response and stdout-text hooks each pass their result to the next fault's;
 * the first fault that sets an exit status wins; delays before answering add up; the longest
 * linger after answering wins; SIGTERM is ignored when any fault ignores it.
 */
import type { FaultParams } from "../catalogue/types.js";
import type { MockContext, Obj } from "../process.js";

export interface ProviderHooks {
  startup?(): void | Promise<void>;
  /** Bytes of stdin it reads at most (the reference reads 1 MiB + 1). */
  limit?: number;
  /** After the reference accepted the request: may refuse it (throw the reference's RequestError). */
  verify?(request: Obj, ref: ReferenceProvider): void;
  /** Takes a request the reference refused with a message matching `when`, read by `read` instead. */
  lenient?: { when: RegExp; read(text: string): Obj };
  /** The reference refused the request with this message (the process may hang or crash instead of exiting 2). */
  rejected?(message: string): void;
  /** True: the process dies of SIGSEGV on this request. */
  crash?(request: Obj): boolean;
  /** The request as the reference policy sees it. */
  request?(request: Obj): Obj;
  /** The response object, given the request and its raw bytes. */
  response?(response: Obj, request: Obj, bytes: Buffer): Obj;
  /** The stdout text, given the response. */
  text?(text: string, response: Obj): string;
  /** An exit status for this answer. */
  exitCode?(response: Obj, request: Obj): number | undefined;
  /** Milliseconds to wait before answering. */
  delay?(request: Obj): number | undefined;
  /** Never answers. */
  silent?: boolean;
  /** Milliseconds to stay up after answering (Infinity: until killed). */
  linger?(request: Obj): number | undefined;
  ignoreSigterm?: boolean;
}

export type ProviderFault = (params: FaultParams, ctx: MockContext) => ProviderHooks;

/** The bundled reference provider's modules (examples/reference-provider), typed for the mock. */
export interface ReferenceProvider {
  MAX_MESSAGE_BYTES: number;
  /** Reads stdin to EOF, keeping at most `limit` bytes. */
  readStdin(limit: number): Promise<Buffer>;
  /** Raw bytes to a checked request (null-prototype objects, numbers as JsonNumber), or throws. */
  decodeRequest(bytes: Buffer): Obj;
  requestDigest(request: Obj, dialect: "ryu" | "zmij"): string;
  /** The one response object for a valid request. */
  respond(request: Obj): Obj;
  RequestError: new (message: string) => Error;
  JsonSyntaxError: new (message: string) => Error;
}


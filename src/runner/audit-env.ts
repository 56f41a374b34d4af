/**
 * Set by the kit's test setup only: where the kit leaves an audit record of each report it
 * writes (cli/report-audit.ts). The kit's own processes inherit it; a candidate never sees it
 * (process.ts copyProcessEnv).
 */
export const REPORT_AUDIT_ENV = "AWP_CONFORMANCE_REPORT_AUDIT";

/** API paths of the operator actions (DESIGN.md, "Operator actions"), without dependencies, so scripts/admin.ts can import them cheaply. */

/** POST: queue the year-end statements of `{year}` (see admin/plugin.ts). */
export const ADMIN_STATEMENTS_RUN_PATH = '/api/admin/statements/run';

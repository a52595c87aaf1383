/**
 * The file layouts a donation export can have (issue #14, Export; issue #21, "Export these rows"): `standard` (every
 * receipted gift, its status and refunds, our own column names), and one per CRM import tool: Salesforce NPSP Data
 * Import (`npsp`), Bloomerang (`bloomerang`), Little Green Light's Flex Importer (`lgl`) and CiviCRM's contribution
 * import (`civicrm`). Shared, so the staff pages offer exactly the formats the server writes.
 */
export const EXPORT_FORMATS = ['standard', 'npsp', 'bloomerang', 'lgl', 'civicrm'] as const;
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Drops from an OpenAPI document the components nothing uses (issue #41: "no unused components"; Redocly's
 * `no-unused-components` rule). fastify-type-provider-zod lists every schema of zod's global registry, and an input
 * twin of each (`ApiErrorInput`), whether or not a route of this app refers to it; and a security scheme is declared
 * for every kind of route, though an app in test-gateway mode has no webhook.
 */

/** The parts of an OpenAPI document this module reads: its components by section, and everything else. */
export interface DocumentWithComponents {
  components?: Record<string, Record<string, unknown> | undefined>;
  [key: string]: unknown;
}

/** A local reference to a component, `#/components/<section>/<name>` (names are `[A-Za-z0-9._-]+`: OpenAPI 3.1, 4.8.7.1). */
const COMPONENT_REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/** Every `$ref` string in `value`, at any depth. */
function refsIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.add(child);
      else refsIn(child, found);
    }
  }
  return found;
}

/** The names of the security schemes the document's requirements (its own and its operations') name. */
function securitySchemesUsed(document: DocumentWithComponents): Set<string> {
  const used = new Set<string>();
  const addAll = (requirements: unknown) => {
    if (!Array.isArray(requirements)) return;
    for (const requirement of requirements) Object.keys(requirement as object).forEach((name) => used.add(name));
  };
  addAll(document.security);
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, { security?: unknown }>>)) {
    for (const operation of Object.values(item)) addAll(operation.security);
  }
  return used;
}

/**
 * `document` with only the components it uses: those a `$ref` outside the components refers to, and those they refer
 * to in turn (a schema's nested `$ref`s); security schemes, which are named rather than referred to, when a security
 * requirement names them. Sections left empty are removed. Returns a new object; `document` is not changed.
 */
export function withoutUnusedComponents<Document extends DocumentWithComponents>(document: Document): Document {
  const { components, ...rest } = document;
  if (!components) return document;
  const used = new Set<string>();
  const pending = [...refsIn(rest)];
  while (pending.length > 0) {
    const ref = pending.pop() ?? '';
    if (used.has(ref)) continue;
    used.add(ref);
    const match = COMPONENT_REF.exec(ref);
    if (match) pending.push(...refsIn(components[match[1] ?? '']?.[match[2] ?? '']));
  }
  const schemes = securitySchemesUsed(document);
  const kept: Record<string, Record<string, unknown>> = {};
  for (const [section, entries] of Object.entries(components)) {
    const isUsed = (name: string) =>
      section === 'securitySchemes' ? schemes.has(name) : used.has(`#/components/${section}/${name}`);
    const keptEntries = Object.fromEntries(Object.entries(entries ?? {}).filter(([name]) => isUsed(name)));
    if (Object.keys(keptEntries).length > 0) kept[section] = keptEntries;
  }
  return { ...rest, components: kept } as Document;
}

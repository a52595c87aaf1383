import { formatParamUrl } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { CSRF_HEADER_NAME } from '../../shared/api';
import { ADMIN_ERRORS, MACHINE_WRITE_ERRORS, PAGE_WRITE_ERRORS } from '../http/error-answers';
import { OPENAPI_VERSION, SECURITY_SCHEME_NAMES } from '../http/openapi';
import { isMachineRoute } from '../http/machine-routes';
import type { TestApp } from './test-app';

/**
 * What the OpenAPI tests check (issue #14: "a test fails when a route is missing from it"): the app's routes as its
 * router lists them, independently of @fastify/swagger's own route collection (so a route registered before the
 * document, or hidden from it, is caught), compared with the document: every /api route and method present, a request
 * body for every write, a response schema for every status the route and the app's hooks answer.
 */

/** A route of an app, as its router lists it. */
export interface AppRoute {
  /** Upper-case method: `GET`, `POST`... */
  method: string;
  /** Fastify's URL, with `:param` parameters. */
  url: string;
}

/** A Response Object of the document (the parts the checks read). */
export interface OpenApiResponse {
  description?: string;
  content?: Record<string, { schema?: unknown }>;
}

/** An Operation Object of the document (the parts the checks read). */
export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, OpenApiResponse>;
  security?: Array<Record<string, string[]>>;
}

/** The OpenAPI document as GET /api/openapi.json answers it (the parts the checks read). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; license?: { name: string; identifier?: string; url?: string } };
  servers?: Array<{ url: string; description?: string }>;
  tags?: Array<{ name: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

/** Methods whose requests carry a body. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for a method whose requests carry a body (and pass the CSRF check, on the site's pages). */
export const isWrite = (method: string): boolean => WRITE_METHODS.has(method);

/** True for an operator route (DESIGN.md, "Operator actions"). */
export const isAdminRoute = (url: string): boolean => url.startsWith('/api/admin/');

// One line of app.printRoutes({ commonPrefix: false }): tree drawing, the path segment, and its methods if it has any.
const ROUTE_LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every route of `app` under /api, from its router's own listing (`printRoutes`), not from any `onRoute` hook.
 * HEAD routes are left out: Fastify adds one to each GET. Call it after `ready()`.
 */
export function apiRoutesOf(app: FastifyInstance): AppRoute[] {
  const pathAtDepth: string[] = [];
  const routes: AppRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = ROUTE_LINE.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const url = (depth === 0 ? '' : (pathAtDepth[depth - 1] ?? '')) + (match[2] ?? '');
    pathAtDepth[depth] = url;
    const methods = match[3]?.split(', ') ?? [];
    for (const method of methods) if (method !== 'HEAD' && /^\/api(?:\/|$)/.test(url)) routes.push({ method, url });
  }
  return routes;
}

/** The document's operation of `route`, if any. */
export function operationOf(document: OpenApiDocument, route: AppRoute): OpenApiOperation | undefined {
  return document.paths[formatParamUrl(route.url)]?.[route.method.toLowerCase()];
}

/** True when every alternative of the operation's security requirement includes the staff session (issue #41). */
const needsStaffSession = (operation: OpenApiOperation): boolean =>
  (operation.security ?? []).length > 0 && (operation.security ?? []).every((requirement) => SECURITY_SCHEME_NAMES.staffSession in requirement);

/**
 * The statuses `route` must document whatever its handler does, from what the app's hooks and error handler answer
 * (http/error-answers.ts): 500 always; a write's body-parsing, CSRF and rate-limit refusals (the page's or a
 * machine's); an operator route's 401 and 404; 400 when it has parameters to validate; 404 when its path names a
 * record (a path parameter); 401 (no session) and 403 (a role without the right) when it needs the staff session.
 * Issue #41: every operation that takes input or credentials declares its 4xx answers.
 */
export function requiredStatuses(route: AppRoute, operation: OpenApiOperation): number[] {
  const statuses = new Set<number>([500]);
  const add = (list: readonly number[]) => list.forEach((status) => statuses.add(status));
  if (isWrite(route.method)) add(isMachineRoute(route.url) ? MACHINE_WRITE_ERRORS : PAGE_WRITE_ERRORS);
  if (isAdminRoute(route.url)) add(ADMIN_ERRORS);
  if ((operation.parameters ?? []).length > 0) statuses.add(400);
  if ((operation.parameters ?? []).some((parameter) => parameter.in === 'path')) statuses.add(404);
  if (needsStaffSession(operation)) add([401, 403]);
  return [...statuses].sort();
}

/** Statuses whose answer has no body, so their response needs no content. */
const BODILESS_STATUSES = new Set(['204', '304']);

/**
 * What the document lacks for `routes`, or has beyond them (one sentence each; empty when complete): an operation per
 * route and method, and none for a route `routes` lacks; an operationId for each, used by no other operation (issue
 * #41); a request body for every write; a response with a schema for every status it declares, and one for every
 * status of {@link requiredStatuses}; `extraStatuses` (say, statuses seen answered) too, by route.
 */
export function documentationGaps(document: OpenApiDocument, routes: readonly AppRoute[], extraStatuses?: (route: AppRoute) => number[]): string[] {
  const gaps: string[] = [];
  const listed = new Set(routes.map((route) => `${route.method.toLowerCase()} ${formatParamUrl(route.url)}`));
  const operationsById = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!listed.has(`${method} ${path}`)) gaps.push(`${method.toUpperCase()} ${path}: documented, but the app has no such route`);
      if (operation.operationId) operationsById.set(operation.operationId, [...(operationsById.get(operation.operationId) ?? []), `${method.toUpperCase()} ${path}`]);
    }
  }
  for (const [operationId, operations] of operationsById) {
    if (operations.length > 1) gaps.push(`operationId ${operationId} is used by ${operations.length} operations: ${operations.join(', ')}`);
  }
  for (const route of routes) {
    const name = `${route.method} ${route.url}`;
    const operation = operationOf(document, route);
    if (!operation) {
      gaps.push(`${name}: missing from the document`);
      continue;
    }
    if (!operation.operationId) gaps.push(`${name}: no operationId (src/server/http/operation-ids.ts)`);
    if (isWrite(route.method) && !operation.requestBody?.content) gaps.push(`${name}: no request body`);
    const responses = operation.responses ?? {};
    for (const [status, response] of Object.entries(responses)) {
      const schemas = Object.values(response.content ?? {}).filter((media) => media.schema !== undefined);
      if (schemas.length === 0 && !BODILESS_STATUSES.has(status)) gaps.push(`${name}: response ${status} has no schema`);
    }
    const expected = new Set([...requiredStatuses(route, operation), ...(extraStatuses?.(route) ?? [])]);
    for (const status of [...expected].sort()) {
      if (!(String(status) in responses)) gaps.push(`${name}: no response for status ${status}`);
    }
  }
  return gaps;
}

/** The value a local JSON pointer (`#/components/schemas/ApiError`) names in `document`, or undefined. */
function resolvePointer(document: unknown, pointer: string): unknown {
  const tokens = pointer.replace(/^#\/?/, '').split('/').filter(Boolean);
  let value: unknown = document;
  for (const token of tokens.map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))) {
    if (typeof value !== 'object' || value === null || !(token in value)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

/** Every `$ref` in `document` that is not a local pointer to a value of it. */
export function unresolvedRefs(document: unknown): string[] {
  const unresolved: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && (typeof child !== 'string' || !child.startsWith('#') || resolvePointer(document, child) === undefined)) {
          unresolved.push(String(child));
        } else visit(child);
      }
    }
  };
  visit(document);
  return unresolved;
}

/** Operation keys of a Path Item Object (OpenAPI 3.1, section 4.8.9). */
const OPERATION_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * What makes `document` not a well-formed OpenAPI 3.1 document, in the parts the spec requires (one sentence each;
 * empty when none): `openapi` 3.1.x; `info.title` and `info.version`; paths starting with `/`, holding only operations,
 * each with at least one response, each response with a description; path parameters matching the path's template;
 * security requirements naming declared schemes; tags declared at the top; every `$ref` resolving.
 */
export function structuralProblems(document: OpenApiDocument): string[] {
  const problems: string[] = [];
  if (!document.openapi.startsWith(OPENAPI_VERSION.slice(0, 4))) problems.push(`openapi is ${document.openapi}, not 3.1.x`);
  if (typeof document.info?.title !== 'string' || typeof document.info?.version !== 'string') problems.push('info needs a title and a version');
  const schemes = new Set(Object.keys(document.components?.securitySchemes ?? {}));
  const tags = new Set((document.tags ?? []).map((tag) => tag.name));
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/')) problems.push(`path ${path} does not start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
    for (const [method, operation] of Object.entries(item)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (!OPERATION_KEYS.has(method)) problems.push(`${name}: not an operation`);
      const responses = Object.entries(operation.responses ?? {});
      if (responses.length === 0) problems.push(`${name}: no responses`);
      for (const [status, response] of responses) {
        if (!/^[1-5](?:\d\d|XX)$/.test(status) && status !== 'default') problems.push(`${name}: response key ${status}`);
        if (typeof response.description !== 'string' || response.description === '') problems.push(`${name}: response ${status} has no description`);
      }
      const inPath = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      if (inPath.some((parameter) => parameter.required !== true)) problems.push(`${name}: a path parameter is not required`);
      if (JSON.stringify(inPath.map((parameter) => parameter.name).sort()) !== JSON.stringify(templated)) problems.push(`${name}: path parameters differ from the path`);
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement)) if (!schemes.has(scheme)) problems.push(`${name}: undeclared security scheme ${scheme}`);
      }
      for (const tag of operation.tags ?? []) if (!tags.has(tag)) problems.push(`${name}: undeclared tag ${tag}`);
    }
  }
  problems.push(...unresolvedRefs(document).map((ref) => `$ref ${ref} does not resolve`));
  return problems;
}

/** A value for each `:param` of a route's URL, long enough to break any length limit of its schema. */
const LONG_PARAM = 'x'.repeat(1000);

/** The body of a write over every body limit of the app (16 KiB; 64 KiB for webhooks): 1 MiB of JSON. */
const OVERSIZED_JSON = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) });

/**
 * The statuses `route` of `t`'s app answers to requests any route may get, none of which reaches a write's handler:
 * a write without credentials (no CSRF token, no admin token), and with the credentials it needs (the page's CSRF
 * cookies and header, or `Authorization: Bearer <ADMIN_TOKEN>` when ADMIN_TOKEN is set) a body that is not JSON, one
 * over the size limit and one that is malformed JSON; a GET with and without those credentials, and with a `:param`
 * too long. Each answered status must be documented (issue #14: "a response schema for every status code").
 */
export async function answeredStatuses(t: TestApp, route: AppRoute): Promise<number[]> {
  const urlWith = (param: string) => route.url.replace(/:[A-Za-z0-9_]+/g, param);
  const url = urlWith('x');
  const adminToken = isAdminRoute(route.url) ? t.config.adminToken : undefined;
  const credentials: Record<string, string> = adminToken
    ? { authorization: `Bearer ${adminToken}` }
    : isMachineRoute(route.url)
      ? {}
      : await t.csrf().then(({ cookie, token }) => ({ cookie, [CSRF_HEADER_NAME]: token }));
  const send = async (options: { url?: string; headers?: Record<string, string>; payload?: string }) =>
    (await t.app.inject({ method: route.method as 'GET', url: options.url ?? url, headers: options.headers, payload: options.payload })).statusCode;

  const statuses = new Set<number>();
  if (isWrite(route.method)) {
    // NOTE: a machine route's write with no body and no credentials reaches its handler, which must refuse it
    // (a webhook's missing signature); an operator route's does not (401 or 404 first).
    statuses.add(await send({}));
    const json = { ...credentials, 'content-type': 'application/json' };
    statuses.add(await send({ headers: { ...credentials, 'content-type': 'text/plain' }, payload: 'not json' }));
    statuses.add(await send({ headers: json, payload: OVERSIZED_JSON }));
    statuses.add(await send({ headers: json, payload: '{' }));
  } else {
    statuses.add(await send({}));
    statuses.add(await send({ headers: credentials }));
    if (url !== route.url) statuses.add(await send({ url: urlWith(LONG_PARAM), headers: credentials }));
  }
  return [...statuses].sort();
}

/**
 * What the document of `t`'s app lacks (see {@link documentationGaps}) for every /api route its router lists, with the
 * statuses each one answered to {@link answeredStatuses}'s requests.
 */
export async function appDocumentationGaps(t: TestApp, document: OpenApiDocument): Promise<string[]> {
  const routes = apiRoutesOf(t.app);
  const answered = new Map<string, number[]>();
  for (const route of routes) answered.set(`${route.method} ${route.url}`, await answeredStatuses(t, route));
  return documentationGaps(document, routes, (route) => answered.get(`${route.method} ${route.url}`) ?? []);
}

/**
 * Parsing of Stripe's request encoding: `application/x-www-form-urlencoded` bodies and query strings
 * with bracket notation (`metadata[cause]=reef`, `expand[0]=latest_charge`, `expand[]=payment_method`,
 * `payment_method_data[card][number]=...`), as the `stripe` Node SDK (`stringifyRequestData`) and
 * Stripe.js send them. Follows https://docs.stripe.com/api/expanding_objects and the SDK's encoder.
 */

/** One decoded parameter: a string leaf, a list (`a[0]`, `a[]`) or a nested hash (`a[b]`). */
export type FormValue = string | FormValue[] | FormHash;

/** A hash of parameters. Built on a null prototype, so a `__proto__` key is an ordinary key. */
export interface FormHash {
  [key: string]: FormValue;
}

/** Splits `a[b][0][]` into `['a', 'b', '0', '']`. */
function keyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const path = [key.slice(0, open)];
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) path.push(match[1] ?? '');
  return path;
}

/** Creates an empty hash with no prototype. */
function hash(): FormHash {
  return Object.create(null) as FormHash;
}

/**
 * Decodes a form body or query string (without the leading `?`) into nested hashes and lists.
 * Numeric and empty bracket segments make lists; a repeated scalar key keeps its last value.
 */
export function parseForm(text: string): FormHash {
  const root = hash();
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = keyPath(rawKey);
    let node: FormHash | FormValue[] = root;
    for (let i = 0; i < path.length; i += 1) {
      const segment = path[i] ?? '';
      const last = i === path.length - 1;
      const nextIsList = !last && /^\d*$/.test(path[i + 1] ?? '');
      if (Array.isArray(node)) {
        const index: number = segment === '' ? node.length : Number(segment);
        if (last) node[index] = value;
        else {
          const existing: FormValue | undefined = node[index];
          const child: FormHash | FormValue[] = typeof existing === 'object' ? existing : nextIsList ? [] : hash();
          node[index] = child;
          node = child;
        }
      } else if (last) {
        node[segment] = value;
      } else {
        const existing: FormValue | undefined = node[segment];
        const child: FormHash | FormValue[] = typeof existing === 'object' ? existing : nextIsList ? [] : hash();
        node[segment] = child;
        node = child;
      }
    }
  }
  return root;
}

/** Reads a string parameter, or undefined when absent or not a string. */
export function readString(params: FormHash, key: string): string | undefined {
  const value = params[key];
  return typeof value === 'string' ? value : undefined;
}

/** Reads a nested hash parameter (`metadata[...]`), or undefined when absent or not a hash. */
export function readHash(params: FormHash, key: string): FormHash | undefined {
  const value = params[key];
  return typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/** Reads a list of strings (`expand[]`, `expand[0]`, `payment_method_types[0]`); a lone string is a list of one. */
export function readStringList(params: FormHash, key: string): string[] {
  const value = params[key];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Flattens a hash of strings (metadata) into a plain record; nested values are dropped. */
export function readRecord(params: FormHash, key: string): Record<string, string> | undefined {
  const value = readHash(params, key);
  if (!value) return undefined;
  const record: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) if (typeof item === 'string') record[name] = item;
  return record;
}

/** Stable serialization of a parsed request, used to compare the parameters of idempotent retries. */
export function canonicalForm(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalForm).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalForm(value[key] ?? '')}`).join(',')}}`;
}

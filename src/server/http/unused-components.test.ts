import { describe, expect, it } from 'vitest';
import { withoutUnusedComponents } from './unused-components';

/** withoutUnusedComponents (issue #41: "no unused components"), on a small document whose references it must follow. */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('withoutUnusedComponents', () => {
  it('keeps the schemas operations refer to and those they refer to in turn, and the security schemes a requirement names', () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/a': {
          get: {
            security: [{ bearer: [] }, {}],
            responses: { 200: { description: 'ok', content: { 'application/json': { schema: ref('Outer') } } } },
          },
        },
      },
      components: {
        schemas: {
          Outer: { type: 'object', properties: { inner: ref('Inner') } },
          Inner: { type: 'array', items: ref('Leaf') },
          Leaf: { type: 'string' },
          Unused: { type: 'object', properties: { other: ref('OnlyUsedByUnused') } },
          OnlyUsedByUnused: { type: 'string' },
        },
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, cookie: { type: 'apiKey', in: 'cookie', name: 'c' } },
        parameters: { Unreferenced: { name: 'q', in: 'query' } },
      },
    };
    const kept = withoutUnusedComponents(document);
    expect(Object.keys(kept.components?.schemas ?? {}).sort()).toEqual(['Inner', 'Leaf', 'Outer']);
    expect(Object.keys(kept.components?.securitySchemes ?? {})).toEqual(['bearer']);
    expect(kept.components).not.toHaveProperty('parameters');
    expect(kept.paths).toBe(document.paths);
    // The document it was given is left as it was.
    expect(Object.keys(document.components.schemas)).toHaveLength(5);
  });

  it('follows a reference cycle without looping, and keeps a document without components as it is', () => {
    const cyclic = {
      paths: { '/t': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: ref('Tree') } } } } } } },
      components: { schemas: { Tree: { type: 'object', properties: { children: { type: 'array', items: ref('Tree') } } } } },
    };
    expect(Object.keys(withoutUnusedComponents(cyclic).components?.schemas ?? {})).toEqual(['Tree']);
    const bare = { openapi: '3.1.0', paths: {} };
    expect(withoutUnusedComponents(bare)).toBe(bare);
  });
});

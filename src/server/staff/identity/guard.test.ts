import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../platform/clock';
import { hasRecentStrongAuth } from './guard';
import { STRONG_AUTH_WINDOW_MS } from './sessions';

/** The recent strong authentication refunds need (issue #21: a passkey or link sign-in within the last 15 minutes). */

const signedInAt = (strongAuthAt: Date) =>
  ({ staffMember: { id: 'a', email: 'a@example.org', role: 'finance', strongAuthAt } }) as unknown as FastifyRequest;

describe('hasRecentStrongAuth', () => {
  it('holds for 15 minutes after the passkey or link sign-in, by the injected clock, and never without a session', () => {
    const clock = manualClock(new Date('2026-11-26T10:00:00Z'));
    const request = signedInAt(clock.now());
    expect(hasRecentStrongAuth(request, clock)).toBe(true);
    clock.advance(STRONG_AUTH_WINDOW_MS);
    expect(hasRecentStrongAuth(request, clock)).toBe(true);
    clock.advance(1);
    expect(hasRecentStrongAuth(request, clock)).toBe(false);
    expect(hasRecentStrongAuth({ staffMember: null } as unknown as FastifyRequest, clock)).toBe(false);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, staffMembers } from '../db/schema';
import { runAdminCommand as admin } from '../testing/admin-command';
import { createTestApp, type TestApp } from '../testing/test-app';

/** `npm run admin -- staff invite <email> --role <role>` against a listening server (issue #21, "The first staff member"). */

const ADMIN_TOKEN = 'staff-command-test-admin-token-0123456789ab';
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN } });
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t?.close();
});

describe('npm run admin -- staff invite', () => {
  it('invites through the running server, which queues the invitation; a bad role, a taken address or no address exit non-zero', async () => {
    const ok = await admin(['staff', 'invite', 'first-admin@reef.example.org', '--role', 'admin'], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toContain('Invited first-admin@reef.example.org as admin');
    const [member] = await t.db.select().from(staffMembers).where(eq(staffMembers.email, 'first-admin@reef.example.org'));
    expect(member?.role).toBe('admin');
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'first-admin@reef.example.org'));
    expect(mail?.kind).toBe('staff_invitation');

    const taken = await admin(['staff', 'invite', 'FIRST-ADMIN@reef.example.org', '--role', 'viewer'], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('This address is already on the team.');
    expect((await admin(['staff', 'invite', 'x@reef.example.org', '--role', 'owner'], { ADMIN_TOKEN, ADMIN_URL: url })).code).toBe(2);
    expect((await admin(['staff', 'invite'], { ADMIN_TOKEN, ADMIN_URL: url })).code).toBe(2);
    const badAddress = await admin(['staff', 'invite', 'not-an-address', '--role', 'viewer'], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(badAddress.code).toBe(1);
    expect(badAddress.stderr).toContain('Please enter a valid email address');
  });
});

import { describe, expect, it } from 'vitest';
import { EMPTY_TRIBUTE_FORM, toTribute, TributeFormSchema, TributeSchema } from './tribute';

/** The first message per field of the form section's values. */
const messages = (values: unknown) =>
  Object.fromEntries((TributeFormSchema.safeParse(values).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('the "Dedicate this gift" section (issue #23, section 3)', () => {
  it('checks nothing while closed, whatever its fields hold, and sends no tribute', () => {
    const closed = { ...EMPTY_TRIBUTE_FORM, honoreeName: 'x', notify: true, notifyEmail: 'nope' };
    expect(TributeFormSchema.safeParse(closed).success).toBe(true);
    expect(toTribute(closed)).toBeUndefined();
  });

  it('open, needs the honoree (2-100 characters); with notify, the name, a valid address and at most 500 characters of message', () => {
    expect(messages({ ...EMPTY_TRIBUTE_FORM, enabled: true })).toEqual({ honoreeName: "Honoree's name is required" });
    expect(messages({ ...EMPTY_TRIBUTE_FORM, enabled: true, honoreeName: 'R', notify: true, notifyName: 'L', notifyEmail: 'l@x', notifyMessage: 'm'.repeat(501) })).toEqual({
      honoreeName: "Honoree's name must be at least 2 characters",
      notifyName: 'Recipient name must be at least 2 characters',
      notifyEmail: 'Please enter a valid email address',
      notifyMessage: 'Message must be at most 500 characters',
    });
  });

  it('becomes the payload the API accepts, trimmed, the notify part only when asked for', () => {
    const open = { ...EMPTY_TRIBUTE_FORM, enabled: true, type: 'memory' as const, honoreeName: ' Grandma Rosa ', notifyName: 'Luis', notifyEmail: 'luis@example.org' };
    expect(toTribute(open)).toEqual({ type: 'memory', honoreeName: 'Grandma Rosa' });
    const notified = toTribute({ ...open, notify: true, notifyMessage: ' Hi ' });
    expect(notified).toEqual({ type: 'memory', honoreeName: 'Grandma Rosa', notify: { name: 'Luis', email: 'luis@example.org', message: 'Hi' } });
    expect(TributeSchema.safeParse(notified).success).toBe(true);
  });
});

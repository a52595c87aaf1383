import { z } from 'zod';
import { atLeast, atMost, DonorEmailSchema, MAX_LENGTHS, NAME_MIN_LENGTH, present, textField } from './field-rules';

/**
 * Gifts in honour or in memory of someone (issue #23, section 3): the payload's optional `tribute`, the form's
 * "Dedicate this gift" section, and the wording every place that shows a dedication uses (receipt, card, staff pages).
 */

/** The two kinds of dedication: in honour of someone, in memory of someone. */
export const TRIBUTE_TYPES = ['honor', 'memory'] as const;
/** One of {@link TRIBUTE_TYPES}. */
export type TributeType = (typeof TRIBUTE_TYPES)[number];

/** `In honour of` / `In memory of`: how a dedication reads before the honoree's name. */
export const TRIBUTE_TYPE_LABELS: Record<TributeType, string> = { honor: 'In honour of', memory: 'In memory of' };

/** Longest message to the notified person, in characters (issue #23: "a short message (at most 500 characters)"). */
export const TRIBUTE_MESSAGE_MAX_LENGTH = 500;

/** Message when neither kind of dedication is chosen. */
export const TRIBUTE_TYPE_MESSAGE = 'Please choose in honour of or in memory of';

/** The honoree's name: required when the section is used, 2-100 characters (issue #23), one line. */
export const HonoreeNameSchema = textField([
  [present, "Honoree's name is required"],
  [atLeast(NAME_MIN_LENGTH), `Honoree's name must be at least ${NAME_MIN_LENGTH} characters`],
  [atMost(MAX_LENGTHS.name), `Honoree's name must be at most ${MAX_LENGTHS.name} characters`],
]);

/** The notified person's name: required when someone is notified, 2-100 characters, as a donor's name. */
export const NotifyNameSchema = textField([
  [present, 'Recipient name is required'],
  [atLeast(NAME_MIN_LENGTH), `Recipient name must be at least ${NAME_MIN_LENGTH} characters`],
  [atMost(MAX_LENGTHS.name), `Recipient name must be at most ${MAX_LENGTHS.name} characters`],
]);

/** The message to the notified person: may be empty, several lines, at most 500 characters. */
export const TributeMessageSchema = textField(
  [[atMost(TRIBUTE_MESSAGE_MAX_LENGTH), `Message must be at most ${TRIBUTE_MESSAGE_MAX_LENGTH} characters`]],
  'multi',
);

/** Whom to send the card to (issue #23): their name and e-mail address (the donor's e-mail rules), and an optional message. */
export const TributeNotifySchema = z.strictObject(
  { name: NotifyNameSchema, email: DonorEmailSchema, message: TributeMessageSchema.optional() },
  { error: 'notify must be an object with name, email and message' },
);

/**
 * The payload's optional `tribute` (issue #23, section 3): `{type: 'honor' | 'memory', honoreeName, notify?: {name,
 * email, message?}}`. Strict and uncoerced, every text trimmed, NFC-normalised and refused with control characters,
 * as every other field (issue #10).
 */
export const TributeSchema = z.strictObject(
  {
    type: z.enum(TRIBUTE_TYPES, { error: TRIBUTE_TYPE_MESSAGE }),
    honoreeName: HonoreeNameSchema,
    notify: TributeNotifySchema.optional(),
  },
  { error: 'tribute must be an object with type and honoreeName' },
);
/** A validated dedication: `{type, honoreeName, notify?: {name, email, message?}}`. */
export type Tribute = z.infer<typeof TributeSchema>;

/** `In memory of Jane Doe`: a dedication as the receipt, the staff pages and the export's readers see it. */
export function describeTribute(tribute: { type: TributeType; honoreeName: string }): string {
  return `${TRIBUTE_TYPE_LABELS[tribute.type]} ${tribute.honoreeName}`;
}

/** The form section's values (src/web/donate/form/tribute-section.tsx): flat, every text '' until typed. */
export interface TributeFormValues {
  /** "Dedicate this gift" ticked: the section's fields are shown and checked. */
  enabled: boolean;
  type: TributeType;
  honoreeName: string;
  /** "Notify someone of this gift" ticked. */
  notify: boolean;
  notifyName: string;
  notifyEmail: string;
  notifyMessage: string;
}

/** The section's values before anything is chosen: not dedicated, "in honour of" preselected. */
export const EMPTY_TRIBUTE_FORM: TributeFormValues = {
  enabled: false,
  type: 'honor',
  honoreeName: '',
  notify: false,
  notifyName: '',
  notifyEmail: '',
  notifyMessage: '',
};

/** Adds the first message of `schema` for `value` at `path`, as the other fields report one message at a time. */
function check(ctx: z.RefinementCtx, schema: z.ZodType, value: unknown, path: string): void {
  const result = schema.safeParse(value);
  if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'Invalid value', path: [path] });
}

/**
 * The form section's rules: nothing is checked while the section is closed; open, the honoree's name follows
 * {@link HonoreeNameSchema}; with "notify" ticked, the name, address and message follow {@link TributeNotifySchema}'s
 * rules. The same messages as the API's.
 */
export const TributeFormSchema = z
  .object({
    enabled: z.boolean(),
    type: z.enum(TRIBUTE_TYPES, { error: TRIBUTE_TYPE_MESSAGE }),
    honoreeName: z.string(),
    notify: z.boolean(),
    notifyName: z.string(),
    notifyEmail: z.string(),
    notifyMessage: z.string(),
  })
  .superRefine((values, ctx) => {
    if (!values.enabled) return;
    check(ctx, HonoreeNameSchema, values.honoreeName, 'honoreeName');
    if (!values.notify) return;
    check(ctx, NotifyNameSchema, values.notifyName, 'notifyName');
    check(ctx, DonorEmailSchema, values.notifyEmail, 'notifyEmail');
    check(ctx, TributeMessageSchema, values.notifyMessage, 'notifyMessage');
  });

/** The payload's `tribute` from the form section's values: undefined when the gift is not dedicated. */
export function toTribute(form: TributeFormValues): Tribute | undefined {
  if (!form.enabled) return undefined;
  return {
    type: form.type,
    honoreeName: form.honoreeName.trim(),
    ...(form.notify
      ? { notify: { name: form.notifyName.trim(), email: form.notifyEmail.trim(), message: form.notifyMessage.trim() } }
      : {}),
  };
}

/**
 * A donation's dedication as the staff's detail shows it (issue #23: "Staff pages ... show it"): the kind, the honoree,
 * and whom the card went to (null when nobody was notified).
 */
export const TributeDetailSchema = z.object({
  type: z.enum(TRIBUTE_TYPES),
  honoreeName: z.string(),
  notify: z.object({ name: z.string(), email: z.string(), message: z.string().nullable() }).nullable(),
});
/** A stored dedication: `{type, honoreeName, notify: {name, email, message} | null}`. */
export type TributeDetail = z.infer<typeof TributeDetailSchema>;

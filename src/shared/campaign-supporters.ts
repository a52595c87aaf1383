import { z } from 'zod';

/**
 * A campaign's supporters' list (issue #34, "Supporters' list"; decision 0103): what the thank-you page of a campaign
 * gift reads and writes of the donor's choice, and what the campaign page lists. Shared by the server (validation,
 * OpenAPI) and the thank-you page.
 */

/** The token in the path: the gift's receipt token (the thank-you page's proof that it holds the gift; decision 0103). */
export const SupporterTokenParamsSchema = z.strictObject({
  token: z.string().min(1).max(400),
});

/**
 * The donor's choice (PUT body): `showName` lists the name as typed; `showMessage` also the gift's message, only with
 * the name (400 otherwise).
 */
export const SupporterChoiceInputSchema = z
  .strictObject({
    showName: z.boolean({ error: 'Say whether to show the name' }),
    showMessage: z.boolean({ error: 'Say whether to show the message' }),
  })
  .refine((choice) => choice.showName || !choice.showMessage, { message: 'A message is shown only with the name', path: ['showMessage'] });
/** One {@link SupporterChoiceInputSchema}. */
export type SupporterChoiceInput = z.infer<typeof SupporterChoiceInputSchema>;

/**
 * The choice as stored (GET and PUT answer): `hasMessage` when the gift had a message (the second box is offered only
 * then); `showMessage` is never true without a message.
 */
export const SupporterChoiceSchema = z.object({
  hasMessage: z.boolean(),
  showName: z.boolean(),
  showMessage: z.boolean(),
});
/** One {@link SupporterChoiceSchema}. */
export type SupporterChoice = z.infer<typeof SupporterChoiceSchema>;

/** How many supporters a campaign page lists: the latest who chose to be shown. */
export const SUPPORTERS_SHOWN = 10;

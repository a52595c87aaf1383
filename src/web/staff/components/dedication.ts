import { isolated } from '../../../shared/bidi';
import { describeTribute, type TributeDetail } from '../../../shared/tribute';

/**
 * A donation's dedication as the staff's donation page shows it (issue #23, section 3): `In memory of Jane Doe; card to
 * Sam Doe <sam@example.org>: "message"`, `In honour of Jane Doe; no card`, or a dash for a gift not dedicated. Each
 * donor-supplied text in it is isolated (shared/bidi.ts, decision 0096), so a right-to-left name cannot reorder the rest.
 */
export function describeDedication(tribute: TributeDetail | null): string {
  if (!tribute) return '—';
  const { notify } = tribute;
  const card = notify ? `card to ${isolated(notify.name)} <${isolated(notify.email)}>${notify.message ? `: "${isolated(notify.message)}"` : ''}` : 'no card';
  return `${describeTribute({ ...tribute, honoreeName: isolated(tribute.honoreeName) })}; ${card}`;
}

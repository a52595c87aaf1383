import { describeTribute, type TributeDetail } from '../../../shared/tribute';

/**
 * A donation's dedication as the staff's donation page shows it (issue #23, section 3): `In memory of Jane Doe; card to
 * Sam Doe <sam@example.org>: "message"`, `In honour of Jane Doe; no card`, or a dash for a gift not dedicated.
 */
export function describeDedication(tribute: TributeDetail | null): string {
  if (!tribute) return '—';
  const { notify } = tribute;
  const card = notify ? `card to ${notify.name} <${notify.email}>${notify.message ? `: "${notify.message}"` : ''}` : 'no card';
  return `${describeTribute(tribute)}; ${card}`;
}

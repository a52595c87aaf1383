import { createContext, useContext } from 'react';
import type { StaffMember, StaffSession as StaffSessionAnswer } from '../../../../shared/staff/identity-api';
import type { StaffRight } from '../../../../shared/staff/roles';

/**
 * The signed-in staff member as the pages know them (GET /api/staff/session; issue #21), with how many passkeys they
 * hold: 0 after a first sign-in by link, when the page asks them to add one.
 */
export type SignedInStaff = StaffMember & Pick<StaffSessionAnswer, 'passkeyCount'>;

/** What {@link useStaffSession} gives a page: the member, what their role may do, and the session's actions. */
export interface StaffSession {
  staff: SignedInStaff;
  /** True when the member's role has `right` (buttons a role cannot use are absent; the API enforces anyway). */
  can(right: StaffRight): boolean;
  /** Reads the session again (after adding or removing a passkey). */
  refresh(): void;
  /** Ends the session on the server and goes to the sign-in page. */
  signOut(): Promise<void>;
}

/** The signed-in session, provided by the staff layout around every page that needs one. */
export const StaffSessionContext = createContext<StaffSession | null>(null);

/** The signed-in session of the page; only inside the staff layout (which shows the sign-in page otherwise). */
export function useStaffSession(): StaffSession {
  const session = useContext(StaffSessionContext);
  if (!session) throw new Error('useStaffSession is used outside the staff layout');
  return session;
}
